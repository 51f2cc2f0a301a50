//! The embedded CPU backend: N ranks as threads of one process, each with asynchronous
//! streams.
//!
//! - Every rank has a main stream (index 0) and worker streams (`host.get_stream i` is stream
//!   `i + 1`), each a [`Stream`] whose worker thread runs the posted tasks in order. The rank's
//!   host thread only posts: a kernel, a communication, a `comm.wait` and a deallocation become
//!   tasks of the current stream; `host.stream_wait` records an event on the other stream and
//!   enqueues a wait for it on the current one. The host waits only in `host.synchronize` and
//!   at the end of a run ([`Backend::finish`] synchronizes every stream of the rank).
//! - Communication goes through one [`Communicator`]: the task of a comm op posts it and, when
//!   the real backend would hold the stream ([`Request::blocks_stream`]), waits for it right
//!   there; the request reaches `comm.wait` through a [`CpuRequest`] cell that the posting task
//!   fills (a wait on another stream waits for the post first).
//! - Every blocking wait (tasks, host synchronize) has a deadline and reports through one
//!   [`Watchdog`], shared by the communicator and the streams: a deadlock is an error naming
//!   which rank waits in which op for whom.
//! - With the race checker on ([`CpuBackend::with_race_checker`]), the host thread feeds it, in
//!   program order, the accesses of every task (views read and written, per rank: see
//!   `exec/access.rs`) and the joins (stream_wait, comm.wait, synchronize, the end of a run);
//!   the first race is returned as the error of the op that completes it. A communication
//!   that does not hold its stream is a transfer whose accesses last until its `comm.wait`; one
//!   never waited for fails [`Backend::finish`]. Reports thus do not depend on timing.
//!
//! Invariants: a task owns clones of the views it touches (a buffer lives until the last task
//! using it ran, so a deallocation is a task too: the buffer is freed when its stream reaches
//! it, or when the host reuses the ran kernel list that still names it, at the latest at the
//! end of the run). The per-op host path of a kernel allocates nothing of its own: kernels
//! join a batch whose list is reused (one boxed task per batch); streams are found by index in
//! a per-rank vector (no hash maps).

use crate::buffer::{Buffer, Dims, View};
use crate::cpu::comm::{Collective, Communicator, P2pOp, PostInfo, Request};
use crate::cpu::kernels;
use crate::cpu::race::{Access, Lattice, RaceChecker, StreamKey, VClock};
use crate::cpu::streams::Stream;
use crate::dtype::DType;
use crate::error::{OpKey, RtError, RtResult};
use crate::exec::backend::{Backend, CommOp, Kernel};
use crate::trace::TraceEvent;
use crate::watchdog::{WaitInfo, Watchdog};
use fuser_dialects::comm::attrs::Backend as Transport;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The index of a rank's main stream; worker stream `i` has index `i + 1`.
pub const MAIN_STREAM: usize = 0;

pub use crate::exec::backend::RankStats;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What the tasks of one rank share: the communicator, counters and trace events.
struct RankShared {
    rank: usize,
    comm: Arc<Communicator>,
    ops: AtomicU64,
    bytes_moved: AtomicU64,
    trace: Option<Mutex<Vec<TraceEvent>>>,
    epoch: Instant,
}

impl RankShared {
    /// The start time of an op, when tracing (reading the clock costs as much as a tiny
    /// kernel, so it is read only when a trace event needs it).
    fn start(&self) -> Option<Instant> {
        self.trace.as_ref().map(|_| Instant::now())
    }

    /// Counts a finished op and, when tracing, records its event (`start`: from
    /// [`RankShared::start`]).
    fn record(&self, stream: usize, start: Option<Instant>, at: &OpKey, bytes: u64) {
        self.ops.fetch_add(1, Ordering::Relaxed);
        if bytes > 0 {
            self.bytes_moved.fetch_add(bytes, Ordering::Relaxed);
        }
        if let (Some(t), Some(start)) = (&self.trace, start) {
            let start_us = start.duration_since(self.epoch).as_secs_f64() * 1e6;
            let dur_us = start.elapsed().as_secs_f64() * 1e6;
            lock(t).push(TraceEvent {
                rank: self.rank,
                stream,
                name: at.name.to_string(),
                start_us,
                dur_us,
                loc: at.loc.as_deref().map(str::to_string),
            });
        }
    }
}

/// A stream of the CPU backend: its index and its queue.
#[derive(Clone)]
pub struct CpuStream {
    index: usize,
    stream: Arc<Stream>,
}

impl CpuStream {
    /// 0 for the main stream, `i + 1` for worker stream `i`.
    pub fn index(&self) -> usize {
        self.index
    }
}

/// Where the posting task of a communication leaves its [`Request`].
struct RequestCell {
    state: Mutex<Option<RtResult<Request>>>,
    cv: Condvar,
    /// The posting op and stream (for watchdog reports).
    key: OpKey,
    stream: usize,
}

impl RequestCell {
    fn fill(&self, r: RtResult<Request>) {
        let mut state = lock(&self.state);
        if state.is_none() {
            *state = Some(r);
        }
        drop(state);
        self.cv.notify_all();
    }

    /// The request, once posted (waiting for the posting task until `deadline`).
    fn posted(&self, watchdog: &Watchdog, rank: usize, waiter: usize, at: &OpKey) -> RtResult<Request> {
        let what = format!("stream {waiter} for the post of {} on stream {}", self.key, self.stream);
        let info = WaitInfo::new(rank, what, Some(at.clone()), vec![]);
        watchdog.wait_until(info, watchdog.deadline(), &self.state, &self.cv, |s| {
            s.as_ref().map(|r| r.as_ref().map(|_| ()).map_err(Clone::clone))
        })?;
        lock(&self.state).clone().unwrap_or_else(|| Err(RtError::new("request vanished")))
    }
}

/// Fills its cell with an error if the posting task is dropped without running (its stream
/// failed earlier, or the run was torn down), so that `comm.wait` does not wait in vain.
struct Filler(Arc<RequestCell>);

impl Drop for Filler {
    fn drop(&mut self) {
        if lock(&self.0.state).is_some() {
            return;
        }
        self.0.fill(Err(RtError::new(format!(
            "{} was never posted: its stream {} failed before reaching it",
            self.0.key, self.0.stream
        ))));
    }
}

/// A posted communication as the executor holds it.
#[derive(Clone)]
pub struct CpuRequest {
    cell: Arc<RequestCell>,
    /// The race clock of the posting stream, joined by `comm.wait` (race checker on only).
    clock: Option<VClock>,
}

/// The streams of one rank, created on first use.
struct RankState {
    shared: Arc<RankShared>,
    streams: Mutex<Vec<Option<CpuStream>>>,
    /// Kernels posted to one stream and not handed to its worker yet: consecutive kernels on a
    /// stream travel as one task (the hand-off to a worker thread dominates tiny kernels). Any
    /// other backend call of the rank that touches streams flushes first, so stream order is
    /// unchanged.
    batch: Mutex<Option<KernelBatch>>,
    /// Kernel lists the workers ran, handed back for reuse: the host clears them (so the
    /// reference counts of their views and keys drop on the thread that raised them, and no
    /// list is allocated or freed per batch). At most [`MAX_SPARES`] wait here.
    spares: Arc<Mutex<Vec<KernelList>>>,
}

/// Kernels with the keys of their ops, in posting order.
type KernelList = Vec<(Kernel<View>, OpKey)>;

/// Consecutive kernels of one stream.
struct KernelBatch {
    stream: CpuStream,
    kernels: KernelList,
}

/// At most this many kernels travel in one task.
const MAX_BATCH: usize = 64;

/// At most this many ran kernel lists wait for reuse per rank (a list still holds its views:
/// this bounds how long a deallocated buffer may outlive its `host.dealloc`, until the host
/// reuses the list or the run ends).
const MAX_SPARES: usize = 4;

/// The embedded backend.
pub struct CpuBackend {
    ranks: usize,
    watchdog: Arc<Watchdog>,
    comm: Arc<Communicator>,
    race: Option<Mutex<RaceChecker>>,
    rank_states: Vec<RankState>,
}

impl CpuBackend {
    /// A backend for `ranks` ranks; `trace` records one event per op; blocking waits give up
    /// after `timeout` with a watchdog report.
    pub fn new(ranks: usize, trace: bool, timeout: Duration) -> CpuBackend {
        let watchdog = Watchdog::new(timeout);
        let comm = Communicator::with_watchdog(ranks, watchdog.clone());
        CpuBackend::with_communicator(comm, trace)
    }

    /// A backend over `comm` (its world and watchdog), e.g. the communicator of one rank of a
    /// multi-process run (`crate::procs`), whose posts meet the other processes'.
    pub fn with_communicator(comm: Arc<Communicator>, trace: bool) -> CpuBackend {
        let (ranks, watchdog) = (comm.world(), comm.watchdog().clone());
        let epoch = Instant::now();
        let rank_states = (0..ranks)
            .map(|rank| RankState {
                shared: Arc::new(RankShared {
                    rank,
                    comm: comm.clone(),
                    ops: AtomicU64::new(0),
                    bytes_moved: AtomicU64::new(0),
                    trace: trace.then(|| Mutex::new(Vec::new())),
                    epoch,
                }),
                streams: Mutex::new(Vec::new()),
                batch: Mutex::new(None),
                spares: Arc::new(Mutex::new(Vec::new())),
            })
            .collect();
        CpuBackend { ranks, watchdog, comm, race: None, rank_states }
    }

    /// Turns the race checker on: races become errors of the op that completes them.
    pub fn with_race_checker(mut self) -> CpuBackend {
        self.race = Some(Mutex::new(RaceChecker::new()));
        self
    }

    /// The watchdog every blocking wait reports to.
    pub fn watchdog(&self) -> &Arc<Watchdog> {
        &self.watchdog
    }

    /// The counters of `rank`.
    pub fn stats(&self, rank: usize) -> RankStats {
        self.rank_states
            .get(rank)
            .map(|s| RankStats {
                ops: s.shared.ops.load(Ordering::Relaxed),
                bytes_moved: s.shared.bytes_moved.load(Ordering::Relaxed),
            })
            .unwrap_or_default()
    }

    /// Every recorded trace event (empty unless tracing).
    pub fn trace_events(&self) -> Vec<TraceEvent> {
        self.rank_states.iter().filter_map(|s| s.shared.trace.as_ref()).flat_map(|t| lock(t).clone()).collect()
    }

    /// Forgets statistics and trace events (between warmup and measured iterations).
    pub fn reset(&self) {
        for s in &self.rank_states {
            s.shared.ops.store(0, Ordering::Relaxed);
            s.shared.bytes_moved.store(0, Ordering::Relaxed);
            if let Some(t) = &s.shared.trace {
                lock(t).clear();
            }
        }
    }

    /// A host-side view of a fresh buffer (for inputs).
    pub fn new_buffer(dtype: DType, shape: &[usize]) -> RtResult<View> {
        View::whole(Buffer::new(dtype, shape.iter().product()), shape)
    }

    fn state(&self, rank: usize) -> RtResult<&RankState> {
        self.rank_states
            .get(rank)
            .ok_or_else(|| RtError::new(format!("rank {rank} is not a rank (world size {})", self.ranks)))
    }

    /// Hands the pending kernels of `rank` (if any) to their stream's worker as one task.
    fn flush(&self, rank: usize) -> RtResult<()> {
        let pending = lock(&self.state(rank)?.batch).take();
        self.post_batch(rank, pending);
        Ok(())
    }

    /// Posts `batch` as one task running its kernels in order; an error names its kernel.
    fn post_batch(&self, rank: usize, batch: Option<KernelBatch>) {
        let Some(KernelBatch { stream, kernels }) = batch else { return };
        let Ok(state) = self.state(rank) else { return };
        let (shared, spares) = (state.shared.clone(), state.spares.clone());
        let index = stream.index;
        let key = kernels.first().map(|(_, k)| k.clone()).unwrap_or_default();
        stream.stream.post(
            move || {
                let result = run_kernels(&shared, index, &kernels);
                let mut pool = lock(&spares);
                let unused = if pool.len() < MAX_SPARES {
                    pool.push(kernels);
                    None
                } else {
                    Some(kernels)
                };
                drop(pool);
                drop(unused);
                result
            },
            key,
        );
    }

    /// An empty kernel list: a ran one handed back by a worker (cleared here, on the host
    /// thread), or a new one.
    fn kernel_list(state: &RankState) -> KernelList {
        let spare = lock(&state.spares).pop();
        match spare {
            Some(mut list) => {
                list.clear();
                list
            }
            None => Vec::with_capacity(MAX_BATCH),
        }
    }

    /// Empties the ran kernel lists of `rank` (dropping the last references to buffers
    /// deallocated meanwhile), keeping their capacity for the next run.
    fn drop_spares(&self, rank: usize) -> RtResult<()> {
        let mut spares = std::mem::take(&mut *lock(&self.state(rank)?.spares));
        spares.iter_mut().for_each(Vec::clear);
        let mut pool = lock(&self.state(rank)?.spares);
        for list in spares {
            if pool.len() < MAX_SPARES {
                pool.push(list);
            }
        }
        Ok(())
    }

    /// Stream `index` of `rank`, started on first use.
    fn stream(&self, rank: usize, index: usize) -> RtResult<CpuStream> {
        let state = self.state(rank)?;
        let mut streams = lock(&state.streams);
        if let Some(Some(s)) = streams.get(index) {
            return Ok(s.clone());
        }
        if index >= streams.len() {
            streams.resize(index + 1, None);
        }
        let stream = CpuStream { index, stream: Arc::new(Stream::new(rank, index, self.watchdog.clone())?) };
        streams[index] = Some(stream.clone());
        Ok(stream)
    }

    /// Feeds the race checker (when on) the accesses of one task on `stream`: `views`, each
    /// with its write flag. The first race is the error.
    fn check_accesses<'v>(
        &self,
        rank: usize,
        stream: usize,
        views: impl IntoIterator<Item = (&'v View, bool)>,
        at: &OpKey,
    ) -> RtResult<()> {
        let Some(rc) = &self.race else { return Ok(()) };
        let mut rc = lock(rc);
        let mut first = None;
        for (v, write) in views {
            let (access, lattice) = race_access(v, write, at);
            if let Some(race) = rc.on_access_strided((rank, stream), access, lattice) {
                first.get_or_insert(race);
            }
        }
        match first {
            Some(race) => Err(race.to_error()),
            None => Ok(()),
        }
    }

    /// Feeds the race checker (when on) a communication posted on `stream`; the clock a
    /// `comm.wait` on its request joins. An op that holds its stream accesses its buffers on
    /// the stream; any other accesses them from its post until that wait (a transfer; the ops
    /// of a group are in flight together, so each is a transfer of its own).
    fn check_post(&self, rank: usize, stream: usize, c: &CommOp<View>, at: &OpKey) -> RtResult<Option<VClock>> {
        let Some(rc) = &self.race else { return Ok(None) };
        if c.blocks_stream() {
            self.check_accesses(rank, stream, c.accesses(rank), at)?;
            return Ok(self.race_record((rank, stream)));
        }
        let parts: Vec<&CommOp<View>> = match c {
            CommOp::Group(ops) => ops.iter().collect(),
            single => vec![single],
        };
        let mut rc = lock(rc);
        let mut done = VClock::default();
        for part in parts {
            let accesses = part.accesses(rank).into_iter().map(|(v, write)| race_access(v, write, at)).collect();
            let (clock, race) = rc.on_transfer((rank, stream), at, accesses);
            if let Some(race) = race {
                return Err(race.to_error());
            }
            done.join(&clock);
        }
        Ok(Some(done))
    }

    /// The first transfer of `rank` that no `comm.wait` joined, as an error (race checker on).
    fn check_all_waited(&self, rank: usize) -> RtResult<()> {
        let Some(rc) = &self.race else { return Ok(()) };
        match lock(rc).unwaited(rank).first() {
            Some(u) => Err(u.to_error()),
            None => Ok(()),
        }
    }

    fn race_record(&self, s: StreamKey) -> Option<VClock> {
        self.race.as_ref().map(|rc| lock(rc).on_record(s))
    }

    fn race_join(&self, s: StreamKey, clock: &VClock) {
        if let Some(rc) = &self.race {
            lock(rc).on_wait(s, clock);
        }
    }

    fn race_sync(&self, s: StreamKey) {
        if let Some(rc) = &self.race {
            lock(rc).on_sync(s);
        }
    }

    /// The deadline of a host wait for a stream: twice the timeout, so that the waits of the
    /// stream's tasks (the primary ones) expire first and lead the watchdog report.
    fn host_deadline(&self) -> Instant {
        self.watchdog.deadline() + self.watchdog.timeout()
    }

    /// The host waits for every stream of `rank`; the first real failure is the error (an
    /// echo of another stream's abort only when nothing else failed).
    fn synchronize_all(&self, rank: usize) -> RtResult<()> {
        self.flush(rank)?;
        let mut first: Option<RtError> = None;
        for s in self.streams_of(rank)? {
            self.race_sync((rank, s.index));
            if let Err(e) = s.stream.synchronize_until(self.host_deadline()) {
                // Prefer a stream's own failure over the echo of another's abort.
                let better = first.as_ref().is_none_or(is_abort_echo) && !is_abort_echo(&e);
                if first.is_none() || better {
                    first = Some(e);
                }
            }
        }
        if first.as_ref().is_some_and(is_abort_echo) {
            // A stream may have failed for real just after the abort its own failure caused
            // (the echo reached the host first): let the streams drain, then look again.
            let settle = Instant::now() + 10 * crate::watchdog::ABORT_POLL;
            for s in self.streams_of(rank)? {
                while !s.stream.is_idle() && Instant::now() < settle {
                    std::thread::sleep(Duration::from_millis(1));
                }
                if let Err(e) = s.stream.synchronize_until(Instant::now())
                    && !is_abort_echo(&e)
                {
                    return Err(e);
                }
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// The streams of `rank` started so far.
    fn streams_of(&self, rank: usize) -> RtResult<Vec<CpuStream>> {
        Ok(lock(&self.state(rank)?.streams).iter().flatten().cloned().collect())
    }
}

/// Whether `e` only echoes another failure (the watchdog was aborted, or a stream's failure
/// was reported before).
fn is_abort_echo(e: &RtError) -> bool {
    e.message.starts_with("aborted:") || e.message.contains("(reported before)")
}

/// The race checker's view of an access of `v` by the op `at`: its hull and its exact
/// elements (a contiguous view too: its hull may overlap a strided access it is disjoint from).
fn race_access(v: &View, write: bool, at: &OpKey) -> (Access, Option<Lattice>) {
    let access = Access { buffer: v.buffer.id, range: v.element_range(), write, key: at.clone() };
    let lattice = Lattice { offset: v.offset, shape: v.shape.to_vec(), strides: v.strides.to_vec() };
    (access, Some(lattice))
}

/// Runs `kernels` in order on stream `index` (a worker's side of a batch); an error names
/// its kernel and stops the batch.
fn run_kernels(shared: &RankShared, index: usize, kernels: &KernelList) -> RtResult<()> {
    for (k, key) in kernels {
        let start = shared.start();
        run_kernel(k).map_err(|e| e.at(key))?;
        shared.record(index, start, key, 0);
    }
    Ok(())
}

fn run_kernel(k: &Kernel<View>) -> RtResult<()> {
    match k {
        Kernel::Copy { source, target } => kernels::copy(source, target),
        Kernel::Matmul { a, b, c, accumulate } => kernels::matmul(a, b, c, *accumulate),
        Kernel::Linear { x, w, bias, residual, y, accumulate, epilogue } => {
            kernels::linear(x, w, bias.as_ref(), y, *accumulate, kernels::LinearTail::new(residual.as_ref(), *epilogue))
        }
        Kernel::Elementwise { kind, inputs, output } => kernels::elementwise(*kind, inputs, output),
        Kernel::Sum { input, output, dims } => kernels::sum(input, dims, output),
        Kernel::Reduce { kind, input, output, dims } => kernels::reduce(*kind, input, dims, output),
        Kernel::Fill { target, value } => kernels::fill(target, *value),
        Kernel::Named { kernel, params, inputs, outputs, origin, global_shape } => {
            super::named::run(kernel, params, inputs, outputs, origin, global_shape)
        }
        Kernel::Fused { graph, inputs, outputs, origin } => super::named::run_fused(graph, inputs, outputs, origin),
    }
}

/// The collective of a comm op with its input and output, or `None` for p2p and groups.
fn collective_of(c: &CommOp<View>) -> Option<(Collective, &[usize], &View, &View)> {
    Some(match c {
        // Both transports (NCCL, copy engine) have one semantics: the rendezvous collective.
        CommOp::AllGather { input, output, team, .. } => (Collective::Allgather, team, input, output),
        CommOp::AllReduce { input, output, team, reduction, .. } => {
            (Collective::Allreduce(*reduction), team, input, output)
        }
        CommOp::ReduceScatter { input, output, team, reduction, .. } => {
            (Collective::ReduceScatter(*reduction), team, input, output)
        }
        CommOp::Broadcast { input, output, team, root, .. } => {
            (Collective::Broadcast { root: *root }, team, input, output)
        }
        CommOp::Reduce { input, output, team, root, reduction, .. } => {
            (Collective::Reduce { root: *root, kind: *reduction }, team, input, output)
        }
        CommOp::Gather { input, output, team, root, .. } => (Collective::Gather { root: *root }, team, input, output),
        CommOp::Scatter { input, output, team, root, .. } => (Collective::Scatter { root: *root }, team, input, output),
        CommOp::AllToAll { input, output, team, .. } => (Collective::AllToAll, team, input, output),
        CommOp::CollectivePermute { input, output, team, send_to, recv_from, .. } => {
            (Collective::CollectivePermute { send_to: *send_to, recv_from: *recv_from }, team, input, output)
        }
        CommOp::Send { .. } | CommOp::Recv { .. } | CommOp::Group(_) | CommOp::ShareHandles { .. } => return None,
    })
}

/// Posts `c` to the communicator (from a task of the posting stream).
pub(crate) fn post_comm(comm: &Communicator, at: &PostInfo, c: &CommOp<View>) -> RtResult<Request> {
    if let Some((op, team, input, output)) = collective_of(c) {
        return comm.post_collective(at, team, op, input, output);
    }
    match c {
        CommOp::Send { buffer, peer, transport, protocol } => comm.send(at, *peer, buffer, *transport, *protocol),
        CommOp::Recv { buffer, peer, transport, protocol } => comm.recv(at, *peer, buffer, *transport, *protocol),
        CommOp::Group(ops) => post_group(comm, at, ops),
        CommOp::ShareHandles { sends, recvs } => comm.share_handles(at, sends, recvs),
        _ => Err(RtError::new("not a communication")),
    }
}

/// A `comm.group`: NCCL sends and receives go out together as one group; anything else
/// (collectives, CUDA IPC transfers) is posted on its own. Nothing in a group blocks the stream.
fn post_group(comm: &Communicator, at: &PostInfo, ops: &[CommOp<View>]) -> RtResult<Request> {
    let mut p2p = Vec::new();
    let mut requests = Vec::new();
    for op in ops {
        match op {
            CommOp::Send { buffer, peer, transport: Transport::Nccl, .. } => {
                p2p.push(P2pOp::Send { peer: *peer, view: buffer.clone() })
            }
            CommOp::Recv { buffer, peer, transport: Transport::Nccl, .. } => {
                p2p.push(P2pOp::Recv { peer: *peer, view: buffer.clone() })
            }
            other => requests.push(post_comm(comm, at, other)?),
        }
    }
    if !p2p.is_empty() {
        requests.push(comm.group(at, &p2p)?);
    }
    Ok(Request::all(&requests))
}

impl Backend for CpuBackend {
    type Buf = View;
    type Stream = CpuStream;
    type Request = CpuRequest;

    fn world_size(&self) -> usize {
        self.ranks
    }

    fn alloc(&self, _rank: usize, dtype: DType, shape: &[usize], _persistent: bool, _at: &OpKey) -> RtResult<View> {
        CpuBackend::new_buffer(dtype, shape)
    }

    fn dealloc(&self, rank: usize, stream: &CpuStream, buf: &View, at: &OpKey) -> RtResult<()> {
        self.flush(rank)?;
        if let Some(rc) = &self.race {
            // Freeing is a write of the whole buffer: work of other streams must be ordered
            // before it.
            let whole = View::whole(buf.buffer.clone(), &[buf.buffer.len])?;
            self.check_accesses(rank, stream.index, [(&whole, true)], at)?;
            lock(rc).on_free(buf.buffer.id);
        }
        let buf = buf.clone();
        stream.stream.post(
            move || {
                drop(buf);
                Ok(())
            },
            at.clone(),
        );
        Ok(())
    }

    fn shape(&self, buf: &View) -> Vec<usize> {
        buf.shape.to_vec()
    }

    fn subview(&self, buf: &View, offsets: &[usize], sizes: &[usize], steps: &[usize]) -> RtResult<View> {
        buf.subview(offsets, sizes, steps)
    }

    fn select(&self, buf: &View, axis: usize, index: usize) -> RtResult<View> {
        buf.select(axis, index)
    }

    fn strides(&self, buf: &View) -> Vec<usize> {
        buf.strides.to_vec()
    }

    fn restride(&self, buf: &View, shape: &[usize], strides: &[usize]) -> RtResult<View> {
        View::new(buf.buffer.clone(), buf.offset, Dims::from_slice(shape), Dims::from_slice(strides))
    }

    fn main_stream(&self, rank: usize) -> RtResult<CpuStream> {
        self.stream(rank, MAIN_STREAM)
    }

    fn worker_stream(&self, rank: usize, index: usize) -> RtResult<CpuStream> {
        self.stream(rank, index + 1)
    }

    fn stream_wait(&self, rank: usize, current: &CpuStream, other: &CpuStream, at: &OpKey) -> RtResult<()> {
        self.flush(rank)?;
        if current.index == other.index {
            return Ok(());
        }
        if let Some(clock) = self.race_record((rank, other.index)) {
            self.race_join((rank, current.index), &clock);
        }
        current.stream.wait_event(&other.stream.record(), at.clone());
        Ok(())
    }

    fn synchronize(&self, rank: usize, stream: &CpuStream, _at: &OpKey) -> RtResult<()> {
        self.flush(rank)?;
        self.race_sync((rank, stream.index));
        stream.stream.synchronize_until(self.host_deadline())
    }

    fn compute(&self, rank: usize, stream: &CpuStream, k: Kernel<View>, at: &OpKey) -> RtResult<()> {
        if self.race.is_some() {
            self.check_accesses(rank, stream.index, k.accesses(), at)?;
        }
        let state = self.state(rank)?;
        let mut batch = lock(&state.batch);
        if batch.as_ref().is_some_and(|b| b.stream.index != stream.index) {
            self.post_batch(rank, batch.take());
        }
        let b = batch.get_or_insert_with(|| KernelBatch { stream: stream.clone(), kernels: Self::kernel_list(state) });
        b.kernels.push((k, at.clone()));
        if b.kernels.len() >= MAX_BATCH {
            self.post_batch(rank, batch.take());
        }
        Ok(())
    }

    fn post(&self, rank: usize, stream: &CpuStream, c: CommOp<View>, at: &OpKey) -> RtResult<CpuRequest> {
        self.flush(rank)?;
        let clock = self.check_post(rank, stream.index, &c, at)?;
        let shared = self.state(rank)?.shared.clone();
        let cell = Arc::new(RequestCell {
            state: Mutex::new(None),
            cv: Condvar::new(),
            key: at.clone(),
            stream: stream.index,
        });
        let filler = Filler(cell.clone());
        // Collectives match in the order the host issues them, whatever stream runs them.
        let seq = collective_of(&c).and_then(|(_, team, _, _)| self.comm.reserve_collective(rank, team));
        let info = PostInfo { rank, key: at.clone(), clock: clock.clone(), seq };
        let index = stream.index;
        stream.stream.post(
            move || {
                let start = shared.start();
                let posted = post_comm(&shared.comm, &info, &c);
                filler.0.fill(posted.clone());
                let req = posted?;
                if req.blocks_stream() {
                    req.wait(shared.comm.deadline())?;
                }
                shared.record(
                    index,
                    start,
                    &info.key,
                    c.bytes_sent(shared.rank, &|v: &View| (v.numel() * v.dtype().size()) as u64),
                );
                Ok(())
            },
            at.clone(),
        );
        Ok(CpuRequest { cell, clock })
    }

    fn wait(&self, rank: usize, stream: &CpuStream, reqs: &[CpuRequest], at: &OpKey) -> RtResult<()> {
        self.flush(rank)?;
        for r in reqs {
            if let Some(c) = &r.clock {
                self.race_join((rank, stream.index), c);
            }
        }
        let cells: Vec<Arc<RequestCell>> = reqs.iter().map(|r| r.cell.clone()).collect();
        let (watchdog, index, key) = (self.watchdog.clone(), stream.index, at.clone());
        stream.stream.post(
            move || {
                for cell in &cells {
                    let req = cell.posted(&watchdog, rank, index, &key)?;
                    req.wait(watchdog.deadline())?;
                }
                Ok(())
            },
            at.clone(),
        );
        Ok(())
    }

    fn returned(&self, rank: usize, stream: &CpuStream, bufs: &[View], at: &OpKey) -> RtResult<()> {
        self.flush(rank)?;
        self.check_accesses(rank, stream.index, bufs.iter().map(|b| (b, false)), at)
    }

    fn finish(&self, rank: usize) -> RtResult<()> {
        let result = self.synchronize_all(rank);
        // Every batch ran: the lists handed back hold the last views of the run.
        self.drop_spares(rank)?;
        result.and_then(|()| self.check_all_waited(rank))
    }

    fn write(&self, buf: &View, values: &[f64]) -> RtResult<()> {
        buf.write(values)
    }

    fn read(&self, buf: &View) -> RtResult<Vec<f64>> {
        Ok(buf.read())
    }

    fn abort(&self, rank: usize, error: &RtError) {
        self.comm.abort(error.clone().on_rank(rank));
    }

    fn rank_stats(&self, rank: usize) -> RankStats {
        self.stats(rank)
    }

    fn trace_events(&self) -> Vec<TraceEvent> {
        CpuBackend::trace_events(self)
    }
}

#[cfg(test)]
mod tests;
