//! The embedded CPU backend: N ranks as threads of one process.
//!
//! Buffers are [`View`]s of [`Buffer`]s, kernels are `kernels.rs`. This version executes every
//! stream EAGERLY in program order (a stream is only a label for traces; `stream_wait`,
//! `synchronize` and `comm.wait` have nothing left to wait for), and communicates through a
//! small rendezvous private to this file: collectives meet by (team, per-rank sequence number)
//! and exchange their inputs; sends are buffered in a FIFO per (source, destination) and
//! receives block until a matching send arrives. Every blocking wait has a deadline and is
//! woken by [`Backend::abort`] when another rank fails. Swapping in the asynchronous streams
//! and the communicator of `streams.rs`/`comm/` changes only this file.
//!
//! Statistics per rank (ops executed, bytes sent) and, when enabled, trace events are kept
//! here too.

use super::backend::{Backend, CommOp, Kernel};
use crate::buffer::{Buffer, View};
use crate::dtype::DType;
use crate::error::{OpKey, RtError, RtResult};
use crate::kernels;
use crate::trace::TraceEvent;
use fuser_dialects::reduction::ReductionKind;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Counters of one rank.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankStats {
    /// Compute and communication ops executed.
    pub ops: u64,
    /// Bytes this rank sent to others (collective inputs and p2p sends).
    pub bytes_moved: u64,
}

/// One collective meeting: the contributions of the team members, by team index.
struct Meeting {
    kind: &'static str,
    len: usize,
    first: usize,
    contributions: Vec<Option<Vec<f64>>>,
    /// Members that have read the result.
    done: usize,
}

#[derive(Default)]
struct Exchange {
    meetings: FxHashMap<(Vec<usize>, u64), Meeting>,
    /// Next sequence number of (rank, team).
    seq: FxHashMap<(usize, Vec<usize>), u64>,
    mail: FxHashMap<(usize, usize), VecDeque<Vec<f64>>>,
    aborted: Option<String>,
}

/// The embedded backend.
pub struct CpuBackend {
    ranks: usize,
    exchange: Mutex<Exchange>,
    arrived: Condvar,
    timeout: Duration,
    stats: Vec<Mutex<RankStats>>,
    trace: Option<Vec<Mutex<Vec<TraceEvent>>>>,
    epoch: Instant,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl CpuBackend {
    /// A backend for `ranks` ranks; `trace` records one event per op; blocking waits give up
    /// after `timeout`.
    pub fn new(ranks: usize, trace: bool, timeout: Duration) -> CpuBackend {
        CpuBackend {
            ranks,
            exchange: Mutex::new(Exchange::default()),
            arrived: Condvar::new(),
            timeout,
            stats: (0..ranks).map(|_| Mutex::new(RankStats::default())).collect(),
            trace: trace.then(|| (0..ranks).map(|_| Mutex::new(Vec::new())).collect()),
            epoch: Instant::now(),
        }
    }

    /// The counters of `rank`.
    pub fn stats(&self, rank: usize) -> RankStats {
        self.stats.get(rank).map(|s| lock(s).clone()).unwrap_or_default()
    }

    /// Every recorded trace event (empty unless tracing).
    pub fn trace_events(&self) -> Vec<TraceEvent> {
        self.trace.iter().flatten().flat_map(|t| lock(t).clone()).collect()
    }

    /// Forgets statistics and trace events (between warmup and measured iterations) and any
    /// abort state.
    pub fn reset(&self) {
        for s in &self.stats {
            *lock(s) = RankStats::default();
        }
        for t in self.trace.iter().flatten() {
            lock(t).clear();
        }
        let mut ex = lock(&self.exchange);
        ex.aborted = None;
    }

    /// A host-side view of a fresh buffer (for inputs).
    pub fn new_buffer(dtype: DType, shape: &[usize]) -> RtResult<View> {
        View::whole(Buffer::new(dtype, shape.iter().product()), shape)
    }

    fn record(&self, rank: usize, stream: usize, start: Instant, at: &OpKey, bytes: u64) {
        if let Some(s) = self.stats.get(rank) {
            let mut s = lock(s);
            s.ops += 1;
            s.bytes_moved += bytes;
        }
        if let Some(t) = self.trace.as_ref().and_then(|t| t.get(rank)) {
            let start_us = start.duration_since(self.epoch).as_secs_f64() * 1e6;
            let dur_us = start.elapsed().as_secs_f64() * 1e6;
            lock(t).push(TraceEvent { rank, stream, name: at.name.clone(), start_us, dur_us, loc: at.loc.clone() });
        }
    }

    fn check_rank(&self, rank: usize, what: &str) -> RtResult<()> {
        if rank >= self.ranks {
            return Err(RtError::new(format!("{what} {rank} is not a rank (world size {})", self.ranks)));
        }
        Ok(())
    }

    /// Blocks on the exchange until `ready` holds, the deadline passes or a rank aborts.
    fn wait_until<'a>(
        &'a self,
        mut ex: MutexGuard<'a, Exchange>,
        mut ready: impl FnMut(&mut Exchange) -> bool,
        waiting_for: impl Fn(&Exchange) -> String,
    ) -> RtResult<MutexGuard<'a, Exchange>> {
        let deadline = Instant::now() + self.timeout;
        loop {
            if let Some(why) = &ex.aborted {
                return Err(RtError::new(format!("aborted: {why}")));
            }
            if ready(&mut ex) {
                return Ok(ex);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(RtError::new(format!(
                    "watchdog: no progress after {:.1} s waiting for {}",
                    self.timeout.as_secs_f64(),
                    waiting_for(&ex)
                )));
            }
            ex = self.arrived.wait_timeout(ex, deadline - now).unwrap_or_else(|p| p.into_inner()).0;
        }
    }

    /// Contributes `data` to the next collective of `team` and returns every member's
    /// contribution (in team order) once all have arrived. `data: None` contributes nothing
    /// (a non-root member of a rooted collective), seen by others as an empty vector.
    fn meet(
        &self,
        rank: usize,
        team: &[usize],
        kind: &'static str,
        len: usize,
        data: Option<Vec<f64>>,
    ) -> RtResult<Vec<Vec<f64>>> {
        let me = team.iter().position(|&r| r == rank).ok_or_else(|| {
            RtError::new(format!("rank {rank} posts a {kind} on team {team:?} it is not a member of"))
        })?;
        if let Some(&r) = team.iter().find(|&&r| r >= self.ranks) {
            return Err(RtError::new(format!("team {team:?} names rank {r}, but the world has {} ranks", self.ranks)));
        }
        let mut ex = lock(&self.exchange);
        let seq = {
            let s = ex.seq.entry((rank, team.to_vec())).or_insert(0);
            *s += 1;
            *s - 1
        };
        let key = (team.to_vec(), seq);
        let meeting = ex.meetings.entry(key.clone()).or_insert_with(|| Meeting {
            kind,
            len,
            first: rank,
            contributions: vec![None; team.len()],
            done: 0,
        });
        if meeting.kind != kind || meeting.len != len {
            let msg = format!(
                "collective mismatch on team {team:?} (call #{seq}): rank {} posted {} of {} elements, rank {rank} posted {kind} of {len}",
                meeting.first, meeting.kind, meeting.len
            );
            ex.aborted = Some(msg.clone());
            self.arrived.notify_all();
            return Err(RtError::new(msg));
        }
        meeting.contributions[me] = Some(data.unwrap_or_default());
        self.arrived.notify_all();
        let ready =
            |ex: &mut Exchange| ex.meetings.get(&key).is_some_and(|m| m.contributions.iter().all(Option::is_some));
        let missing = |ex: &Exchange| {
            let absent: Vec<usize> = ex
                .meetings
                .get(&key)
                .map(|m| team.iter().zip(&m.contributions).filter(|(_, c)| c.is_none()).map(|(&r, _)| r).collect())
                .unwrap_or_default();
            format!("{kind} #{seq} on team {team:?}: ranks {absent:?} never arrived")
        };
        let mut ex = self.wait_until(ex, ready, missing)?;
        let Some(m) = ex.meetings.get_mut(&key) else { return Err(RtError::new("collective meeting vanished")) };
        let all: Vec<Vec<f64>> = m.contributions.iter().map(|c| c.clone().unwrap_or_default()).collect();
        m.done += 1;
        if m.done == team.len() {
            ex.meetings.remove(&key);
        }
        Ok(all)
    }

    fn send(&self, from: usize, to: usize, data: Vec<f64>) -> RtResult<()> {
        self.check_rank(to, "peer")?;
        let mut ex = lock(&self.exchange);
        ex.mail.entry((from, to)).or_default().push_back(data);
        self.arrived.notify_all();
        Ok(())
    }

    fn recv(&self, to: usize, from: usize) -> RtResult<Vec<f64>> {
        self.check_rank(from, "peer")?;
        let ex = lock(&self.exchange);
        let ready = |ex: &mut Exchange| ex.mail.get(&(from, to)).is_some_and(|q| !q.is_empty());
        let what = |_: &Exchange| format!("a message from rank {from} to rank {to} that was never sent");
        let mut ex = self.wait_until(ex, ready, what)?;
        ex.mail.get_mut(&(from, to)).and_then(VecDeque::pop_front).ok_or_else(|| RtError::new("message vanished"))
    }

    /// Executes one communication eagerly; returns the bytes this rank sent.
    fn communicate(&self, rank: usize, c: &CommOp<View>) -> RtResult<u64> {
        let bytes = |v: &View| (v.numel() * v.dtype().size()) as u64;
        let team_index = |team: &[usize]| team.iter().position(|&r| r == rank).unwrap_or(0);
        match c {
            CommOp::AllGather { input, output, team } => {
                expect_len("allgather output", output, input.numel() * team.len())?;
                let all = self.meet(rank, team, "allgather", input.numel(), Some(input.read()))?;
                output.write(&all.concat())?;
                Ok(bytes(input))
            }
            CommOp::AllReduce { input, output, team, reduction } => {
                expect_len("allreduce output", output, input.numel())?;
                let all = self.meet(rank, team, "allreduce", input.numel(), Some(input.read()))?;
                output.write(&reduce(&all, *reduction))?;
                Ok(bytes(input))
            }
            CommOp::ReduceScatter { input, output, team, reduction } => {
                expect_len("reduce_scatter input", input, output.numel() * team.len())?;
                let all = self.meet(rank, team, "reduce_scatter", input.numel(), Some(input.read()))?;
                let n = output.numel();
                let me = team_index(team);
                output.write(&reduce(&all, *reduction)[me * n..(me + 1) * n])?;
                Ok(bytes(input))
            }
            CommOp::Broadcast { input, output, team, root } => {
                check_root(*root, team)?;
                let is_root = team_index(team) == *root;
                let all = self.meet(rank, team, "broadcast", input.numel(), is_root.then(|| input.read()))?;
                output.write(&all[*root])?;
                Ok(if is_root { bytes(input) * (team.len() as u64 - 1) } else { 0 })
            }
            CommOp::Reduce { input, output, team, root, reduction } => {
                check_root(*root, team)?;
                let all = self.meet(rank, team, "reduce", input.numel(), Some(input.read()))?;
                if team_index(team) == *root {
                    output.write(&reduce(&all, *reduction))?;
                }
                Ok(bytes(input))
            }
            CommOp::Gather { input, output, team, root } => {
                check_root(*root, team)?;
                let all = self.meet(rank, team, "gather", input.numel(), Some(input.read()))?;
                if team_index(team) == *root {
                    output.write(&all.concat())?;
                }
                Ok(bytes(input))
            }
            CommOp::Scatter { input, output, team, root } => {
                check_root(*root, team)?;
                let is_root = team_index(team) == *root;
                let all = self.meet(rank, team, "scatter", output.numel(), is_root.then(|| input.read()))?;
                let n = output.numel();
                let me = team_index(team);
                let source = &all[*root];
                if source.len() < (me + 1) * n {
                    return Err(RtError::new(format!(
                        "scatter root holds {} elements, {} needed",
                        source.len(),
                        (me + 1) * n
                    )));
                }
                output.write(&source[me * n..(me + 1) * n])?;
                Ok(if is_root { bytes(input) } else { 0 })
            }
            CommOp::AllToAll { input, output, team } => {
                expect_len("all_to_all output", output, input.numel())?;
                let all = self.meet(rank, team, "all_to_all", input.numel(), Some(input.read()))?;
                let chunk = input.numel() / team.len().max(1);
                let me = team_index(team);
                let out: Vec<f64> = all.iter().flat_map(|c| c[me * chunk..(me + 1) * chunk].iter().copied()).collect();
                output.write(&out)?;
                Ok(bytes(input))
            }
            CommOp::CollectivePermute { input, output, send_to, recv_from, .. } => {
                self.send(rank, *send_to, input.read())?;
                let data = self.recv(rank, *recv_from)?;
                write_message(output, &data)?;
                Ok(bytes(input))
            }
            CommOp::Send { buffer, peer } => {
                self.send(rank, *peer, buffer.read())?;
                Ok(bytes(buffer))
            }
            CommOp::Recv { buffer, peer } => {
                let data = self.recv(rank, *peer)?;
                write_message(buffer, &data)?;
                Ok(0)
            }
            CommOp::Group(posts) => {
                // Sends never block here, so posting in order cannot deadlock on a ring.
                let mut total = 0;
                for p in posts {
                    total += self.communicate(rank, p)?;
                }
                Ok(total)
            }
        }
    }
}

fn expect_len(what: &str, v: &View, n: usize) -> RtResult<()> {
    if v.numel() != n {
        return Err(RtError::new(format!("{what} has {} elements, expected {n}", v.numel())));
    }
    Ok(())
}

fn check_root(root: usize, team: &[usize]) -> RtResult<()> {
    if root >= team.len() {
        return Err(RtError::new(format!("root {root} is out of range for a team of {}", team.len())));
    }
    Ok(())
}

fn write_message(target: &View, data: &[f64]) -> RtResult<()> {
    if data.len() != target.numel() {
        return Err(RtError::new(format!("received {} elements into a buffer of {}", data.len(), target.numel())));
    }
    target.write(data)
}

/// The elementwise reduction of equally long contributions, combined in team order.
fn reduce(all: &[Vec<f64>], kind: ReductionKind) -> Vec<f64> {
    let n = all.first().map_or(0, Vec::len);
    (0..n).map(|i| all.iter().fold(kind.identity(), |acc, c| kind.combine(acc, c[i]))).collect()
}

impl Backend for CpuBackend {
    type Buf = View;
    /// 0: the main stream; i + 1: worker stream i.
    type Stream = usize;
    type Request = ();

    fn world_size(&self) -> usize {
        self.ranks
    }

    fn alloc(&self, _rank: usize, dtype: DType, shape: &[usize], _persistent: bool, _at: &OpKey) -> RtResult<View> {
        CpuBackend::new_buffer(dtype, shape)
    }

    fn dealloc(&self, _rank: usize, _buf: &View, _at: &OpKey) -> RtResult<()> {
        // Eager streams: nothing still uses the buffer; the last view dropped frees it.
        Ok(())
    }

    fn shape(&self, buf: &View) -> Vec<usize> {
        buf.shape.clone()
    }

    fn subview(&self, buf: &View, offsets: &[usize], sizes: &[usize], steps: &[usize]) -> RtResult<View> {
        buf.subview(offsets, sizes, steps)
    }

    fn select(&self, buf: &View, axis: usize, index: usize) -> RtResult<View> {
        buf.select(axis, index)
    }

    fn strides(&self, buf: &View) -> Vec<usize> {
        buf.strides.clone()
    }

    fn restride(&self, buf: &View, shape: &[usize], strides: &[usize]) -> RtResult<View> {
        View::new(buf.buffer.clone(), buf.offset, shape.to_vec(), strides.to_vec())
    }

    fn main_stream(&self, _rank: usize) -> usize {
        0
    }

    fn worker_stream(&self, _rank: usize, index: usize) -> usize {
        index + 1
    }

    fn stream_wait(&self, _rank: usize, _current: &usize, _other: &usize, _at: &OpKey) -> RtResult<()> {
        Ok(())
    }

    fn synchronize(&self, _rank: usize, _stream: &usize, _at: &OpKey) -> RtResult<()> {
        Ok(())
    }

    fn compute(&self, rank: usize, stream: &usize, k: Kernel<View>, at: &OpKey) -> RtResult<()> {
        let start = Instant::now();
        match &k {
            Kernel::Copy { source, target } => kernels::copy(source, target),
            Kernel::Matmul { a, b, c, accumulate } => kernels::matmul(a, b, c, *accumulate),
            Kernel::Linear { x, w, bias, y, accumulate } => kernels::linear(x, w, bias.as_ref(), y, *accumulate),
            Kernel::Elementwise { kind, inputs, output } => kernels::elementwise(*kind, inputs, output),
            Kernel::Sum { input, output, dims } => kernels::sum(input, dims, output),
        }
        .map_err(|e| e.at(at).on_rank(rank))?;
        self.record(rank, *stream, start, at, 0);
        Ok(())
    }

    fn post(&self, rank: usize, stream: &usize, c: CommOp<View>, at: &OpKey) -> RtResult<()> {
        let start = Instant::now();
        let bytes = self.communicate(rank, &c).map_err(|e| e.at(at).on_rank(rank))?;
        self.record(rank, *stream, start, at, bytes);
        Ok(())
    }

    fn wait(&self, _rank: usize, _stream: &usize, _reqs: &[()], _at: &OpKey) -> RtResult<()> {
        Ok(())
    }

    fn write(&self, buf: &View, values: &[f64]) -> RtResult<()> {
        buf.write(values)
    }

    fn read(&self, buf: &View) -> RtResult<Vec<f64>> {
        Ok(buf.read())
    }

    fn abort(&self, rank: usize, error: &RtError) {
        let mut ex = lock(&self.exchange);
        if ex.aborted.is_none() {
            ex.aborted = Some(format!("rank {rank} failed: {error}"));
        }
        self.arrived.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_ranks<T: Send>(n: usize, f: impl Fn(&CpuBackend, usize) -> T + Sync) -> Vec<T> {
        let b = CpuBackend::new(n, false, Duration::from_secs(5));
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..n)
                .map(|r| {
                    let (b, f) = (&b, &f);
                    s.spawn(move || f(b, r))
                })
                .collect();
            hs.into_iter().map(|h| h.join().expect("rank thread")).collect()
        })
    }

    fn filled(vals: &[f64]) -> View {
        let v = CpuBackend::new_buffer(DType::F32, &[vals.len()]).unwrap();
        v.write(vals).unwrap();
        v
    }

    #[test]
    fn collectives_exchange_between_threads() {
        let key = OpKey::default();
        let out = run_ranks(3, |b, r| {
            let team = vec![0, 1, 2];
            let x = filled(&[r as f64, 10.0 + r as f64]);
            let g = CpuBackend::new_buffer(DType::F32, &[6]).unwrap();
            b.post(r, &0, CommOp::AllGather { input: x.clone(), output: g.clone(), team: team.clone() }, &key).unwrap();
            let s = CpuBackend::new_buffer(DType::F32, &[2]).unwrap();
            let op = CommOp::AllReduce {
                input: x.clone(),
                output: s.clone(),
                team: team.clone(),
                reduction: ReductionKind::Sum,
            };
            b.post(r, &0, op, &key).unwrap();
            let bc = CpuBackend::new_buffer(DType::F32, &[2]).unwrap();
            b.post(
                r,
                &0,
                CommOp::Broadcast { input: x.clone(), output: bc.clone(), team: team.clone(), root: 2 },
                &key,
            )
            .unwrap();
            let rs = CpuBackend::new_buffer(DType::F32, &[1]).unwrap();
            let six = filled(&[1.0, 2.0, 3.0]);
            let op = CommOp::ReduceScatter { input: six, output: rs.clone(), team, reduction: ReductionKind::Sum };
            b.post(r, &0, op, &key).unwrap();
            // A ring of sends and receives.
            let got = CpuBackend::new_buffer(DType::F32, &[2]).unwrap();
            let ring = vec![
                CommOp::Send { buffer: x.clone(), peer: (r + 1) % 3 },
                CommOp::Recv { buffer: got.clone(), peer: (r + 2) % 3 },
            ];
            b.post(r, &0, CommOp::Group(ring), &key).unwrap();
            (g.read(), s.read(), bc.read(), rs.read(), got.read())
        });
        for (r, (g, s, bc, rs, got)) in out.into_iter().enumerate() {
            assert_eq!(g, vec![0.0, 10.0, 1.0, 11.0, 2.0, 12.0]);
            assert_eq!(s, vec![3.0, 33.0]);
            assert_eq!(bc, vec![2.0, 12.0]);
            assert_eq!(rs, vec![3.0 * (r as f64 + 1.0)]);
            let prev = ((r + 2) % 3) as f64;
            assert_eq!(got, vec![prev, 10.0 + prev]);
        }
    }

    #[test]
    fn mismatch_and_absence_are_errors() {
        let key = OpKey::default();
        let out = run_ranks(2, |b, r| {
            let x = filled(&vec![1.0; r + 1]);
            let op = CommOp::AllReduce { input: x.clone(), output: x, team: vec![0, 1], reduction: ReductionKind::Sum };
            b.post(r, &0, op, &key)
        });
        assert!(out.iter().any(|r| r.as_ref().is_err_and(|e| e.message.contains("mismatch"))));
        let b = CpuBackend::new(2, false, Duration::from_millis(50));
        let x = filled(&[1.0]);
        let e = b.post(0, &0, CommOp::Recv { buffer: x, peer: 1 }, &key).unwrap_err();
        assert!(e.message.contains("watchdog"), "{e}");
    }
}
