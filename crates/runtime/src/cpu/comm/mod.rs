//! The in-process communicator of the CPU backend: N ranks are N threads of one process and
//! exchange data through shared memory with the semantics of the real backends.
//!
//! - Collectives ([`collective`]) rendezvous by (team, per-team sequence number); the member
//!   that arrives last checks that everybody posted the same op and moves the data for all.
//! - Point-to-point ops ([`p2p`]) match FIFO per (source, destination); the op posted second
//!   copies the data. CUDA IPC transfers need a prior [`Communicator::share_handles`].
//!
//! Posting never blocks the calling thread: every post returns a [`Request`], and
//! [`Request::wait`] blocks (with a deadline, through the [`Watchdog`]). Whether the real
//! backend keeps the *posting stream* busy until the op completed (an NCCL collective or an
//! ungrouped NCCL send/recv, a CUDA IPC `get` receive, a `put` send) is told by
//! [`Request::blocks_stream`]; the executor honours it by waiting right after posting from the
//! stream's task, which reproduces the deadlocks of the real backends (two ranks that both
//! send first without a group).
//!
//! Invariants: a request completes exactly once (done or failed); data movement happens
//! outside the communicator's locks, after all participants posted; inputs are read before any
//! output is written, so in-place collectives are fine.

pub mod collective;
pub mod p2p;
pub mod remote;

pub use collective::Collective;
pub use p2p::{P2pOp, p2p_blocks_stream};

use crate::buffer::View;
use crate::cpu::race::VClock;
use crate::error::{OpKey, RtError, RtResult};
use crate::watchdog::{WaitInfo, Watchdog, lock};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Who posts a communication: the rank, the op (for reports) and, when the race checker is
/// on, the posting stream's clock (`RaceChecker::on_record`), carried to the counterparts.
#[derive(Clone, Debug)]
pub struct PostInfo {
    pub rank: usize,
    pub key: OpKey,
    pub clock: Option<VClock>,
    /// The collective's sequence number reserved earlier with
    /// [`Communicator::reserve_collective`] (an executor posting from stream tasks reserves in
    /// host program order, as NCCL matches collectives in the order the host issues them);
    /// `None`: the next one at post time.
    pub seq: Option<u64>,
}

impl PostInfo {
    pub fn new(rank: usize, key: OpKey) -> PostInfo {
        PostInfo { rank, key, clock: None, seq: None }
    }

    pub fn with_seq(mut self, seq: u64) -> PostInfo {
        self.seq = Some(seq);
        self
    }

    pub fn with_clock(mut self, clock: VClock) -> PostInfo {
        self.clock = Some(clock);
        self
    }
}

/// The communicator shared by the rank threads of one run.
pub struct Communicator {
    world: usize,
    watchdog: Arc<Watchdog>,
    rendezvous: collective::Rendezvous,
    p2p: p2p::Matcher,
    /// Where posts go when the ranks are processes ([`remote`]); `None`: ranks are threads
    /// of this process and meet here.
    remote: Option<Arc<dyn remote::Remote>>,
}

impl Communicator {
    /// A communicator for `world` ranks whose waits time out after `timeout`.
    pub fn new(world: usize, timeout: Duration) -> Arc<Communicator> {
        Communicator::with_watchdog(world, Watchdog::new(timeout))
    }

    /// A communicator reporting to an existing watchdog (shared with the streams, so that a
    /// deadlock report lists stream waits too).
    pub fn with_watchdog(world: usize, watchdog: Arc<Watchdog>) -> Arc<Communicator> {
        Arc::new(Communicator {
            world,
            watchdog,
            rendezvous: collective::Rendezvous::new(world),
            p2p: p2p::Matcher::default(),
            remote: None,
        })
    }

    /// A communicator of one rank of a multi-process run: every post goes to `remote`
    /// (checked here first as far as the post alone allows), the requests it returns
    /// complete when the other processes' posts met it.
    pub fn with_remote(world: usize, watchdog: Arc<Watchdog>, remote: Arc<dyn remote::Remote>) -> Arc<Communicator> {
        Arc::new(Communicator {
            world,
            watchdog,
            rendezvous: collective::Rendezvous::new(world),
            p2p: p2p::Matcher::default(),
            remote: Some(remote),
        })
    }

    pub fn world(&self) -> usize {
        self.world
    }

    pub fn watchdog(&self) -> &Arc<Watchdog> {
        &self.watchdog
    }

    /// The deadline of a wait starting now.
    pub fn deadline(&self) -> Instant {
        self.watchdog.deadline()
    }

    /// Fails every current and future wait (one rank failed; the others must not hang).
    pub fn abort(&self, error: RtError) {
        if let Some(remote) = &self.remote {
            remote.abort(&error);
        }
        self.watchdog.abort(error);
    }

    /// What is posted and not complete: collectives some members have not posted yet, sends
    /// and receives without their counterpart (for the hub of a multi-process run, whose
    /// ranks' deadlock reports see only their own process).
    pub fn unmatched(&self) -> Vec<String> {
        let mut out = self.rendezvous.incomplete();
        out.extend(self.p2p.unmatched());
        out
    }

    fn check_rank(&self, what: &str, rank: usize) -> RtResult<()> {
        if rank >= self.world {
            let world = crate::error::rank_range(self.world);
            return Err(RtError::new(format!("{what} {rank} is outside the world of {world}")));
        }
        Ok(())
    }
}

// ----- completion and requests ----------------------------------------------------------------

#[derive(Clone)]
enum Status {
    Pending,
    Done(Option<VClock>),
    Failed(RtError),
}

/// Called once with the outcome when a completion finishes (see [`Request::when_done`]).
type OnFinish = Box<dyn FnOnce(RtResult<()>) + Send>;

/// The completion flag of one posted op (shared by all participants of a collective).
pub(crate) struct Completion {
    status: Mutex<Status>,
    cv: Condvar,
    /// Taken and run by the thread that finishes; only touched with `status` locked.
    on_finish: Mutex<Vec<OnFinish>>,
}

impl Completion {
    pub(crate) fn new() -> Arc<Completion> {
        Arc::new(Completion {
            status: Mutex::new(Status::Pending),
            cv: Condvar::new(),
            on_finish: Mutex::new(Vec::new()),
        })
    }

    /// Completes with the joined clock of the participants, or fails.
    pub(crate) fn finish(&self, result: RtResult<Option<VClock>>) {
        let mut status = lock(&self.status);
        let mut callbacks = Vec::new();
        if matches!(*status, Status::Pending) {
            *status = match result {
                Ok(clock) => Status::Done(clock),
                Err(e) => Status::Failed(e),
            };
            callbacks = std::mem::take(&mut *lock(&self.on_finish));
        }
        let outcome = Completion::outcome(&status);
        drop(status);
        self.cv.notify_all();
        if let Some(outcome) = outcome {
            callbacks.into_iter().for_each(|f| f(outcome.clone()));
        }
    }

    /// Runs `f` with the outcome once finished (at once when finished already).
    fn on_finish(&self, f: OnFinish) {
        let status = lock(&self.status);
        match Completion::outcome(&status) {
            Some(outcome) => {
                drop(status);
                f(outcome);
            }
            None => lock(&self.on_finish).push(f),
        }
    }

    fn outcome(status: &Status) -> Option<RtResult<()>> {
        match status {
            Status::Pending => None,
            Status::Done(_) => Some(Ok(())),
            Status::Failed(e) => Some(Err(e.clone())),
        }
    }
}

/// One participant's part of a request: its completion and what a report says while waiting.
struct Part {
    done: Arc<Completion>,
    info: WaitInfo,
}

/// A posted communication (or several, see [`Request::all`]).
#[derive(Clone)]
pub struct Request {
    parts: Arc<[Part]>,
    blocks_stream: bool,
    watchdog: Option<Arc<Watchdog>>,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what: Vec<String> = self.parts.iter().map(|p| p.info.describe()).collect();
        f.debug_struct("Request")
            .field("parts", &what)
            .field("blocks_stream", &self.blocks_stream)
            .field("complete", &self.is_complete())
            .finish()
    }
}

impl Request {
    pub(crate) fn single(done: Arc<Completion>, info: WaitInfo, blocks_stream: bool, wd: &Arc<Watchdog>) -> Request {
        Request { parts: Arc::new([Part { done, info }]), blocks_stream, watchdog: Some(wd.clone()) }
    }

    /// A request that is complete already (nothing to communicate).
    pub fn completed() -> Request {
        Request { parts: Arc::new([]), blocks_stream: false, watchdog: None }
    }

    /// A request completing when all of `requests` completed (a `comm.group`, a multi-request
    /// `comm.wait`); it never blocks the posting stream.
    pub fn all(requests: &[Request]) -> Request {
        let parts: Vec<Part> = requests
            .iter()
            .flat_map(|r| r.parts.iter())
            .map(|p| Part { done: p.done.clone(), info: p.info.clone() })
            .collect();
        let watchdog = requests.iter().find_map(|r| r.watchdog.clone());
        Request { parts: parts.into(), blocks_stream: false, watchdog }
    }

    /// Whether the real backend keeps the posting stream busy until this op completes (see the
    /// module doc): the executor then waits right after posting, on that stream.
    pub fn blocks_stream(&self) -> bool {
        self.blocks_stream
    }

    /// The outcome if every part finished (the first failure wins), `None` while pending.
    pub fn test(&self) -> Option<RtResult<()>> {
        let mut result = Ok(());
        for part in self.parts.iter() {
            match Completion::outcome(&lock(&part.done.status))? {
                Ok(()) => {}
                Err(e) => {
                    if result.is_ok() {
                        result = Err(e);
                    }
                }
            }
        }
        Some(result)
    }

    pub fn is_complete(&self) -> bool {
        self.test().is_some()
    }

    /// Runs `f` once every part completed, with the first failure or `Ok` (at once when the
    /// request is complete already), on the thread that completes the last part. For the hub
    /// of a multi-process run, which answers the posting process instead of waiting.
    pub fn when_done(&self, f: impl FnOnce(RtResult<()>) + Send + 'static) {
        struct Countdown {
            left: usize,
            first_error: Option<RtError>,
            f: Option<OnFinish>,
        }
        if self.parts.is_empty() {
            return f(Ok(()));
        }
        let state = Arc::new(Mutex::new(Countdown { left: self.parts.len(), first_error: None, f: Some(Box::new(f)) }));
        for part in self.parts.iter() {
            let state = state.clone();
            part.done.on_finish(Box::new(move |outcome| {
                let mut s = lock(&state);
                if let Err(e) = outcome {
                    s.first_error.get_or_insert(e);
                }
                s.left -= 1;
                if s.left == 0
                    && let Some(f) = s.f.take()
                {
                    let result = s.first_error.take().map_or(Ok(()), Err);
                    drop(s);
                    f(result);
                }
            }));
        }
    }

    /// Blocks until every part completed; a failed part's error, or at `deadline` the
    /// watchdog's deadlock report.
    pub fn wait(&self, deadline: Instant) -> RtResult<()> {
        for part in self.parts.iter() {
            let Some(wd) = &self.watchdog else { break };
            let (rank, key) = (part.info.rank, part.info.key.clone());
            wd.wait_until(part.info.clone(), deadline, &part.done.status, &part.done.cv, |s| Completion::outcome(s))
                .map_err(|e| match key {
                    Some(k) => e.on_rank(rank).at(&k),
                    None => e.on_rank(rank),
                })?;
        }
        Ok(())
    }

    /// The join of the clocks the participants posted with (when every part is done and the
    /// posts carried clocks): what the waiting stream joins in the race checker.
    pub fn joined_clock(&self) -> Option<VClock> {
        let mut joined: Option<VClock> = None;
        for part in self.parts.iter() {
            if let Status::Done(Some(c)) = &*lock(&part.done.status) {
                joined.get_or_insert_with(VClock::default).join(c);
            }
        }
        joined
    }
}

/// Joins the clocks that are present.
pub(crate) fn join_clocks<'a>(clocks: impl IntoIterator<Item = &'a Option<VClock>>) -> Option<VClock> {
    let mut joined: Option<VClock> = None;
    for c in clocks.into_iter().flatten() {
        joined.get_or_insert_with(VClock::default).join(c);
    }
    joined
}

// ----- data movement ----------------------------------------------------------------------------

/// The elements of `view`, packed in row-major order (raw bytes: exact for every type).
pub(crate) fn read_bytes(view: &View) -> Vec<u8> {
    let size = view.dtype().size();
    let bytes = view.buffer.bytes();
    if view.is_contiguous() {
        return bytes[view.offset * size..(view.offset + view.numel()) * size].to_vec();
    }
    let mut out = Vec::with_capacity(view.numel() * size);
    for i in view.indices() {
        out.extend_from_slice(&bytes[i * size..(i + 1) * size]);
    }
    out
}

/// Stores packed row-major `data` into `view` (same element type, same count: checked by the
/// callers).
pub(crate) fn write_bytes(view: &View, data: &[u8]) {
    let size = view.dtype().size();
    let mut bytes = view.buffer.bytes();
    if view.is_contiguous() {
        bytes[view.offset * size..view.offset * size + data.len()].copy_from_slice(data);
        return;
    }
    for (chunk, i) in data.chunks_exact(size).zip(view.indices()) {
        bytes[i * size..(i + 1) * size].copy_from_slice(chunk);
    }
}

/// `ranks 0, 1, 3` / `rank 2`.
pub(crate) fn ranks_phrase(ranks: &[usize]) -> String {
    let list: Vec<String> = ranks.iter().map(|r| r.to_string()).collect();
    format!("{} {}", if ranks.len() == 1 { "rank" } else { "ranks" }, list.join(", "))
}

#[cfg(test)]
mod tests;
