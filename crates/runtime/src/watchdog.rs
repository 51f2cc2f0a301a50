//! The watchdog: every blocking wait of the runtime (a communication request, a stream
//! waiting for an event, the host synchronizing a stream, a CUDA IPC handle exchange) goes
//! through [`Watchdog::wait_until`], which has a deadline. While a thread waits, its
//! [`WaitInfo`] sits in the watchdog's registry; when a deadline expires the error describes
//! every wait of the process at that moment ("rank 1 waits in recv from rank 0 at
//! f.mlir:12:5; rank 0 waits in recv from rank 1 at f.mlir:12:5"), names ranks that are waited
//! for but wait on nothing, and the cycle of waiting ranks when there is one.
//!
//! [`Watchdog::abort`] makes every current and future wait fail at once (the driver calls it
//! when one rank fails, so that the others do not sit out their deadlines).
//!
//! Invariants: a registry entry lives exactly as long as the wait it describes (a guard
//! removes it, also on early return); waits observe an abort within [`ABORT_POLL`].

use crate::error::{OpKey, RtError, RtResult};
use rustc_hash::FxHashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often a blocked wait looks at the abort flag.
pub const ABORT_POLL: Duration = Duration::from_millis(20);

/// Locks a mutex, ignoring poisoning (a panicking task must not cascade into the runtime).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Computes, when a report is made, the ranks a wait is waiting for (for a collective: the
/// members that have not posted yet).
pub type WaitingFor = Arc<dyn Fn() -> Vec<usize> + Send + Sync>;

/// What one blocked thread waits on.
#[derive(Clone)]
pub struct WaitInfo {
    /// The rank of the waiting thread.
    pub rank: usize,
    /// What it waits in, e.g. `recv from rank 0`, `allreduce #3 of team [0, 1]`,
    /// `stream 1 for an event of stream 2`.
    pub what: String,
    /// The op that waits (its location names it in the report).
    pub key: Option<OpKey>,
    /// The ranks it waits for.
    pub waiting_for: WaitingFor,
}

impl WaitInfo {
    pub fn new(rank: usize, what: impl Into<String>, key: Option<OpKey>, waiting_for: Vec<usize>) -> WaitInfo {
        WaitInfo { rank, what: what.into(), key, waiting_for: Arc::new(move || waiting_for.clone()) }
    }

    /// `rank 1 waits in recv from rank 0 at f.mlir:12:5`.
    pub fn describe(&self) -> String {
        let mut s = format!("rank {} waits in {}", self.rank, self.what);
        if let Some(key) = &self.key {
            match &key.loc {
                Some(loc) => write!(s, " at {loc}").ok(),
                None => write!(s, " at '{}' (op #{})", key.name, key.index).ok(),
            };
        }
        s
    }
}

/// The registry of current waits, the default timeout and the abort flag of one process.
pub struct Watchdog {
    timeout: Duration,
    next_id: AtomicU64,
    waits: Mutex<FxHashMap<u64, WaitInfo>>,
    aborted: AtomicBool,
    abort_error: Mutex<Option<RtError>>,
    /// Serializes deadlock reports: the first expiring wait reports while the others are
    /// still registered, then aborts them with its report.
    report_lock: Mutex<()>,
}

/// Removes its wait from the registry when dropped.
pub struct WaitGuard<'a> {
    watchdog: &'a Watchdog,
    id: u64,
}

impl Drop for WaitGuard<'_> {
    fn drop(&mut self) {
        lock(&self.watchdog.waits).remove(&self.id);
    }
}

impl Watchdog {
    /// A watchdog whose deadlines lie `timeout` after the start of a wait.
    pub fn new(timeout: Duration) -> Arc<Watchdog> {
        Arc::new(Watchdog {
            timeout,
            next_id: AtomicU64::new(0),
            waits: Mutex::new(FxHashMap::default()),
            aborted: AtomicBool::new(false),
            abort_error: Mutex::new(None),
            report_lock: Mutex::new(()),
        })
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The deadline of a wait starting now.
    pub fn deadline(&self) -> Instant {
        Instant::now() + self.timeout
    }

    /// Registers a wait until the guard is dropped.
    pub fn enter(&self, info: WaitInfo) -> WaitGuard<'_> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        lock(&self.waits).insert(id, info);
        WaitGuard { watchdog: self, id }
    }

    /// The waits registered now, ordered by rank.
    pub fn current_waits(&self) -> Vec<WaitInfo> {
        let mut waits: Vec<(u64, WaitInfo)> = lock(&self.waits).iter().map(|(&id, w)| (id, w.clone())).collect();
        waits.sort_by_key(|(id, w)| (w.rank, *id));
        waits.into_iter().map(|(_, w)| w).collect()
    }

    /// Makes every current and future wait fail with `error` (the first abort wins).
    pub fn abort(&self, error: RtError) {
        let mut slot = lock(&self.abort_error);
        if slot.is_none() {
            *slot = Some(error);
        }
        self.aborted.store(true, Ordering::Release);
    }

    /// The abort error, if [`Watchdog::abort`] was called.
    pub fn aborted(&self) -> Option<RtError> {
        if !self.aborted.load(Ordering::Acquire) {
            return None;
        }
        let cause = lock(&self.abort_error).clone().map(|e| e.to_string()).unwrap_or_default();
        Some(RtError::new(format!("aborted: {cause}")))
    }

    /// Blocks on `cv` (paired with `mutex`) until `ready` yields a result, the deadline expires
    /// (a deadlock report naming every current wait) or the watchdog is aborted. `info`
    /// describes the wait for reports made meanwhile by other threads.
    pub fn wait_until<T>(
        &self,
        info: WaitInfo,
        deadline: Instant,
        mutex: &Mutex<T>,
        cv: &Condvar,
        mut ready: impl FnMut(&mut T) -> Option<RtResult<()>>,
    ) -> RtResult<()> {
        let mut guard = lock(mutex);
        if let Some(r) = ready(&mut guard) {
            return r;
        }
        let _registered = self.enter(info.clone());
        loop {
            if let Some(e) = self.aborted() {
                return Err(e.on_rank(info.rank));
            }
            let now = Instant::now();
            if now >= deadline {
                drop(guard);
                return Err(self.deadlock_error(&info));
            }
            let slice = (deadline - now).min(ABORT_POLL);
            guard = cv.wait_timeout(guard, slice).unwrap_or_else(|p| p.into_inner()).0;
            if let Some(r) = ready(&mut guard) {
                return r;
            }
        }
    }

    /// The error of a wait whose deadline expired: every current wait, the expired one first.
    /// The first expiry also aborts the watchdog with its report, so that the other waits of
    /// the deadlock fail at once with the complete picture (theirs would miss the waits that
    /// ended before them).
    pub fn deadlock_error(&self, expired: &WaitInfo) -> RtError {
        let _serial = lock(&self.report_lock);
        if let Some(e) = self.aborted() {
            return e.on_rank(expired.rank);
        }
        let waits = self.current_waits();
        let error = RtError::new(deadlock_report(self.timeout, expired, &waits)).on_rank(expired.rank);
        self.abort(error.clone());
        error
    }
}

/// `deadlock or timeout after 2s: rank 1 waits in ...; rank 0 waits in ...; rank 2 (waited
/// for by rank 0) is not blocked in any wait; wait cycle: rank 0 -> rank 1 -> rank 0`.
pub fn deadlock_report(timeout: Duration, expired: &WaitInfo, waits: &[WaitInfo]) -> String {
    let expired_desc = expired.describe();
    let mut parts = vec![expired_desc.clone()];
    parts.extend(waits.iter().map(WaitInfo::describe).filter(|d| *d != expired_desc));
    let edges: Vec<(usize, Vec<usize>)> =
        std::iter::once(expired).chain(waits).map(|w| (w.rank, (w.waiting_for)())).collect();
    let blocked: Vec<usize> = edges.iter().map(|(r, _)| *r).collect();
    let mut idle: Vec<(usize, usize)> = Vec::new();
    for (from, targets) in &edges {
        for &t in targets {
            if !blocked.contains(&t) && !idle.iter().any(|(r, _)| *r == t) {
                idle.push((t, *from));
            }
        }
    }
    for (rank, by) in idle {
        parts.push(format!("rank {rank} (waited for by rank {by}) is not blocked in any wait"));
    }
    if let Some(cycle) = find_cycle(&edges) {
        let path: Vec<String> = cycle.iter().map(|r| format!("rank {r}")).collect();
        parts.push(format!("wait cycle: {}", path.join(" -> ")));
    }
    format!("deadlock or timeout after {:?}: {}", timeout, parts.join("; "))
}

/// A cycle in the rank graph `rank -> ranks it waits for`, closed (first = last).
fn find_cycle(edges: &[(usize, Vec<usize>)]) -> Option<Vec<usize>> {
    let succ = |r: usize| -> Vec<usize> {
        edges.iter().filter(|(from, _)| *from == r).flat_map(|(_, t)| t.iter().copied()).collect()
    };
    for &(start, _) in edges {
        // Depth-first search for a path back to `start`; ranks are few, so a simple search.
        let mut stack = vec![(start, vec![start])];
        let mut seen = vec![start];
        while let Some((node, path)) = stack.pop() {
            for next in succ(node) {
                if next == start {
                    let mut cycle = path.clone();
                    cycle.push(start);
                    return Some(cycle);
                }
                if !seen.contains(&next) {
                    seen.push(next);
                    let mut p = path.clone();
                    p.push(next);
                    stack.push((next, p));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;

    fn key(loc: &str) -> Option<OpKey> {
        Some(OpKey { index: 0, loc: Some(loc.into()), name: "comm.recv".into() })
    }

    #[test]
    fn a_satisfied_wait_returns_at_once() {
        let w = Watchdog::new(Duration::from_secs(5));
        let (m, cv) = (Mutex::new(true), Condvar::new());
        let info = WaitInfo::new(0, "test", None, vec![]);
        assert!(w.wait_until(info, w.deadline(), &m, &cv, |ready| ready.then_some(Ok(()))).is_ok());
        assert!(w.current_waits().is_empty());
    }

    #[test]
    fn a_notified_wait_wakes_up() {
        let w = Watchdog::new(Duration::from_secs(5));
        let pair = Arc::new((Mutex::new(false), Condvar::new()));
        let p2 = pair.clone();
        let t = thread::spawn(move || {
            thread::sleep(Duration::from_millis(30));
            *p2.0.lock().unwrap() = true;
            p2.1.notify_all();
        });
        let info = WaitInfo::new(0, "test", None, vec![1]);
        w.wait_until(info, w.deadline(), &pair.0, &pair.1, |ready| ready.then_some(Ok(()))).unwrap();
        t.join().unwrap();
    }

    #[test]
    fn two_stuck_ranks_are_reported_with_their_cycle() {
        let w = Watchdog::new(Duration::from_millis(150));
        let handles: Vec<_> = (0..2)
            .map(|rank| {
                let w = w.clone();
                thread::spawn(move || {
                    let (m, cv) = (Mutex::new(()), Condvar::new());
                    let info =
                        WaitInfo::new(rank, format!("recv from rank {}", 1 - rank), key("f.mlir:12:5"), vec![1 - rank]);
                    w.wait_until(info, w.deadline(), &m, &cv, |_| None).unwrap_err()
                })
            })
            .collect();
        for h in handles {
            let e = h.join().unwrap().to_string();
            assert!(e.contains("rank 1 waits in recv from rank 0 at f.mlir:12:5"), "{e}");
            assert!(e.contains("rank 0 waits in recv from rank 1 at f.mlir:12:5"), "{e}");
            assert!(e.contains("wait cycle: rank"), "{e}");
        }
        assert!(w.current_waits().is_empty());
    }

    #[test]
    fn a_rank_that_never_arrives_is_named() {
        let w = Watchdog::new(Duration::from_millis(50));
        let (m, cv) = (Mutex::new(()), Condvar::new());
        let info = WaitInfo::new(0, "allreduce #0 of team [0, 2]", key("g.mlir:3:1"), vec![2]);
        let e = w.wait_until(info, w.deadline(), &m, &cv, |_| None).unwrap_err().to_string();
        assert!(e.contains("rank 0 waits in allreduce #0 of team [0, 2] at g.mlir:3:1"), "{e}");
        assert!(e.contains("rank 2 (waited for by rank 0) is not blocked in any wait"), "{e}");
        assert!(!e.contains("cycle"), "{e}");
    }

    #[test]
    fn abort_fails_waits_quickly() {
        let w = Watchdog::new(Duration::from_secs(30));
        let w2 = w.clone();
        let t = thread::spawn(move || {
            let (m, cv) = (Mutex::new(()), Condvar::new());
            let start = Instant::now();
            let e = w2.wait_until(WaitInfo::new(1, "x", None, vec![]), w2.deadline(), &m, &cv, |_| None).unwrap_err();
            (e, start.elapsed())
        });
        thread::sleep(Duration::from_millis(30));
        w.abort(RtError::new("boom").on_rank(0));
        let (e, took) = t.join().unwrap();
        assert!(e.to_string().contains("aborted: rank 0: boom"), "{e}");
        assert!(took < Duration::from_secs(5));
    }
}
