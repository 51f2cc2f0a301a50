//! Streams of the CPU backend: a [`Stream`] is an ordered queue of tasks run one after the
//! other by its own worker thread, so the host thread that posts them never waits for the
//! work (a missing `stream_wait` shows up as wrong results or a race report, never hidden by
//! eager execution).
//!
//! - [`Stream::post`] enqueues a task (a closure returning `RtResult<()>`) with the [`OpKey`] of
//!   the op it runs;
//! - [`Stream::record`] returns an [`Event`]: the position after the tasks posted so far;
//! - [`Stream::wait_event`] enqueues a task that blocks until the event completed (what
//!   `host.stream_wait` becomes);
//! - [`Stream::synchronize`] blocks the caller until the tasks posted so far ran.
//!
//! A failing (or panicking) task poisons its stream: later tasks are skipped (they still count
//! as finished, so events and synchronize complete) and the next synchronize returns the error,
//! with the task's op; synchronizes after that return a short "poisoned" error instead of
//! repeating it. Every blocking wait goes through the [`Watchdog`] (deadline, report).
//!
//! Dropping a [`Stream`] stops its worker after the running task; tasks still queued are
//! dropped, not run (synchronize first to run them).

use crate::error::{OpKey, RtError, RtResult};
use crate::watchdog::{WaitInfo, Watchdog, lock};
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// Spin iterations of an idle worker before it sleeps.
const WORKER_SPINS: usize = 2000;

/// A unit of work of a stream.
pub type Task = Box<dyn FnOnce() -> RtResult<()> + Send + 'static>;

struct State {
    queue: VecDeque<(Task, OpKey)>,
    /// Tasks posted and finished (run or skipped) so far; events are positions in this count.
    posted: u64,
    finished: u64,
    /// The first error, until a synchronize reports it.
    error: Option<RtError>,
    /// The op whose failure poisoned the stream.
    poisoned_by: Option<OpKey>,
    shutdown: bool,
    /// The worker sleeps on the condition variable (a post must wake it); while it runs or
    /// spins, posting needs no wake-up (a system call saved per task).
    worker_asleep: bool,
    /// Threads blocked until tasks finish (synchronize, event waits): the worker wakes them
    /// after a task only when there are some (a system call saved per task otherwise).
    completion_waiters: usize,
}

struct Shared {
    rank: usize,
    index: usize,
    watchdog: Arc<Watchdog>,
    state: Mutex<State>,
    cv: Condvar,
}

/// An ordered task queue with its worker thread.
pub struct Stream {
    shared: Arc<Shared>,
    worker: Option<JoinHandle<()>>,
}

/// A position in a stream: complete once every task posted before it finished.
#[derive(Clone)]
pub struct Event {
    stream: Arc<Shared>,
    position: u64,
}

impl Stream {
    /// Stream `index` of `rank`, reporting its waits to `watchdog`.
    pub fn new(rank: usize, index: usize, watchdog: Arc<Watchdog>) -> RtResult<Stream> {
        let shared = Arc::new(Shared {
            rank,
            index,
            watchdog,
            state: Mutex::new(State {
                queue: VecDeque::new(),
                posted: 0,
                finished: 0,
                error: None,
                poisoned_by: None,
                shutdown: false,
                worker_asleep: false,
                completion_waiters: 0,
            }),
            cv: Condvar::new(),
        });
        let worker_shared = shared.clone();
        let worker = std::thread::Builder::new()
            .name(format!("rank{rank}-stream{index}"))
            .stack_size(64 << 20)
            .spawn(move || run_worker(&worker_shared))
            .map_err(|e| RtError::new(format!("cannot start the worker of stream {index}: {e}")).on_rank(rank))?;
        Ok(Stream { shared, worker: Some(worker) })
    }

    /// (rank, stream index).
    pub fn id(&self) -> (usize, usize) {
        (self.shared.rank, self.shared.index)
    }

    /// Enqueues `task`; it runs after every task posted before.
    pub fn post(&self, task: impl FnOnce() -> RtResult<()> + Send + 'static, key: OpKey) {
        let mut state = lock(&self.shared.state);
        state.queue.push_back((Box::new(task), key));
        state.posted += 1;
        let wake = state.worker_asleep;
        drop(state);
        if wake {
            self.shared.cv.notify_all();
        }
    }

    /// The event completing when the tasks posted so far finished.
    pub fn record(&self) -> Event {
        Event { stream: self.shared.clone(), position: lock(&self.shared.state).posted }
    }

    /// Enqueues a task that blocks this stream until `event` completed (`key`: the waiting op).
    pub fn wait_event(&self, event: &Event, key: OpKey) {
        let event = event.clone();
        let (rank, index) = self.id();
        let task_key = key.clone();
        self.post(
            move || {
                // A wait for another stream is derived from what that stream waits on: give
                // it more time so that the primary wait (a communication) expires first and
                // leads the watchdog report.
                let watchdog = &event.stream.watchdog;
                let deadline = watchdog.deadline() + watchdog.timeout() / 2;
                let what = format!("stream {index} for an event of stream {}", event.stream.index);
                event.wait_as(rank, what, Some(key), deadline)
            },
            task_key,
        );
    }

    /// Blocks until the tasks posted so far finished (until the watchdog's deadline).
    pub fn synchronize(&self) -> RtResult<()> {
        self.synchronize_until(self.shared.watchdog.deadline())
    }

    /// [`Stream::synchronize`] with an explicit deadline.
    pub fn synchronize_until(&self, deadline: Instant) -> RtResult<()> {
        let target = lock(&self.shared.state).posted;
        let info = WaitInfo::new(
            self.shared.rank,
            format!("a host synchronize of stream {}", self.shared.index),
            None,
            vec![],
        );
        let shared = &self.shared;
        wait_for_completion(shared, info, deadline, |state| {
            if state.finished < target {
                return None;
            }
            if let Some(e) = state.error.take() {
                return Some(Err(e));
            }
            Some(match &state.poisoned_by {
                Some(key) => Err(RtError::new(format!(
                    "stream {} was poisoned by the failure of {key} (reported before)",
                    shared.index
                ))
                .on_rank(shared.rank)),
                None => Ok(()),
            })
        })
    }

    /// Whether every posted task finished.
    pub fn is_idle(&self) -> bool {
        let state = lock(&self.shared.state);
        state.finished == state.posted
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        lock(&self.shared.state).shutdown = true;
        self.shared.cv.notify_all();
        if let Some(worker) = self.worker.take() {
            // A worker that panicked outside a task has nothing left to report.
            let _ = worker.join();
        }
    }
}

impl Event {
    pub fn is_complete(&self) -> bool {
        lock(&self.stream.state).finished >= self.position
    }

    /// Blocks the calling thread of `rank` until the event completed.
    pub fn wait(&self, rank: usize, key: Option<OpKey>, deadline: Instant) -> RtResult<()> {
        self.wait_as(rank, format!("an event of stream {}", self.stream.index), key, deadline)
    }

    fn wait_as(&self, rank: usize, what: String, key: Option<OpKey>, deadline: Instant) -> RtResult<()> {
        let s = &self.stream;
        let waiting_for = if s.rank == rank { vec![] } else { vec![s.rank] };
        let info = WaitInfo::new(rank, what, key, waiting_for);
        let position = self.position;
        wait_for_completion(s, info, deadline, |state| (state.finished >= position).then_some(Ok(())))
    }
}

/// Blocks until `ready` says so, registered as a completion waiter of `shared`'s worker.
fn wait_for_completion(
    shared: &Shared,
    info: WaitInfo,
    deadline: Instant,
    ready: impl FnMut(&mut State) -> Option<RtResult<()>>,
) -> RtResult<()> {
    lock(&shared.state).completion_waiters += 1;
    let result = shared.watchdog.wait_until(info, deadline, &shared.state, &shared.cv, ready);
    lock(&shared.state).completion_waiters -= 1;
    result
}

/// The worker loop: pop, run (or skip when poisoned), count, notify.
fn run_worker(shared: &Shared) {
    loop {
        let (task, key, skip) = {
            let mut state = lock(&shared.state);
            loop {
                if state.shutdown {
                    let dropped = state.queue.len() as u64;
                    state.queue.clear();
                    state.finished += dropped;
                    drop(state);
                    shared.cv.notify_all();
                    return;
                }
                if let Some((task, key)) = state.queue.pop_front() {
                    break (task, key, state.poisoned_by.is_some());
                }
                // Spin a little before sleeping: hosts post bursts of small tasks.
                drop(state);
                for _ in 0..WORKER_SPINS {
                    std::hint::spin_loop();
                }
                state = lock(&shared.state);
                if !state.queue.is_empty() || state.shutdown {
                    continue;
                }
                state.worker_asleep = true;
                state = shared.cv.wait(state).unwrap_or_else(|p| p.into_inner());
                state.worker_asleep = false;
            }
        };
        let result = if skip { Ok(()) } else { run_task(task) };
        let mut state = lock(&shared.state);
        if let Err(e) = result {
            state.error = Some(e.on_rank(shared.rank).at(&key));
            state.poisoned_by = Some(key);
        }
        state.finished += 1;
        let wake = state.completion_waiters > 0;
        drop(state);
        if wake {
            shared.cv.notify_all();
        }
    }
}

/// Runs a task, turning a panic into an error.
fn run_task(task: Task) -> RtResult<()> {
    catch_unwind(AssertUnwindSafe(task)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(RtError::new(format!("task panicked: {what}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn key(name: &str) -> OpKey {
        OpKey { index: 0, loc: Some(format!("s.mlir:{}:1", name.len()).into()), name: name.into() }
    }

    fn stream(index: usize, wd: &Arc<Watchdog>) -> Stream {
        Stream::new(0, index, wd.clone()).unwrap()
    }

    #[test]
    fn tasks_run_in_order_on_another_thread() {
        let wd = Watchdog::new(Duration::from_secs(10));
        let s = stream(0, &wd);
        let log = Arc::new(Mutex::new(Vec::new()));
        let host = std::thread::current().id();
        for i in 0..100 {
            let log = log.clone();
            s.post(
                move || {
                    assert_ne!(std::thread::current().id(), host);
                    log.lock().unwrap().push(i);
                    Ok(())
                },
                key("t"),
            );
        }
        s.synchronize().unwrap();
        assert_eq!(*log.lock().unwrap(), (0..100).collect::<Vec<_>>());
        assert!(s.is_idle());
    }

    #[test]
    fn posting_does_not_wait_for_the_work() {
        let wd = Watchdog::new(Duration::from_secs(10));
        let s = stream(0, &wd);
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        let g = gate.clone();
        s.post(
            move || {
                let mut open = g.0.lock().unwrap();
                while !*open {
                    open = g.1.wait(open).unwrap();
                }
                Ok(())
            },
            key("gate"),
        );
        let e = s.record();
        assert!(!e.is_complete() && !s.is_idle());
        *gate.0.lock().unwrap() = true;
        gate.1.notify_all();
        e.wait(0, None, wd.deadline()).unwrap();
        assert!(e.is_complete());
    }

    #[test]
    fn an_event_orders_two_streams() {
        let wd = Watchdog::new(Duration::from_secs(10));
        let (producer, consumer) = (stream(1, &wd), stream(2, &wd));
        let value = Arc::new(AtomicUsize::new(0));
        let v = value.clone();
        producer.post(
            move || {
                std::thread::sleep(Duration::from_millis(50));
                v.store(42, Ordering::SeqCst);
                Ok(())
            },
            key("produce"),
        );
        let seen = Arc::new(AtomicUsize::new(0));
        consumer.wait_event(&producer.record(), key("wait"));
        let (v, s) = (value.clone(), seen.clone());
        consumer.post(
            move || {
                s.store(v.load(Ordering::SeqCst), Ordering::SeqCst);
                Ok(())
            },
            key("consume"),
        );
        consumer.synchronize().unwrap();
        assert_eq!(seen.load(Ordering::SeqCst), 42);
    }

    #[test]
    fn streams_run_concurrently() {
        // Each stream waits for the other's first task: only possible when both run at once.
        let wd = Watchdog::new(Duration::from_secs(10));
        let (a, b) = (stream(1, &wd), stream(2, &wd));
        let flags = Arc::new((AtomicUsize::new(0), AtomicUsize::new(0)));
        let (fa, fb) = (flags.clone(), flags.clone());
        a.post(
            move || {
                fa.0.store(1, Ordering::SeqCst);
                while fa.1.load(Ordering::SeqCst) == 0 {
                    std::thread::yield_now();
                }
                Ok(())
            },
            key("a"),
        );
        b.post(
            move || {
                fb.1.store(1, Ordering::SeqCst);
                while fb.0.load(Ordering::SeqCst) == 0 {
                    std::thread::yield_now();
                }
                Ok(())
            },
            key("b"),
        );
        a.synchronize().unwrap();
        b.synchronize().unwrap();
    }

    #[test]
    fn an_error_poisons_the_stream_and_is_reported_once() {
        let wd = Watchdog::new(Duration::from_secs(10));
        let s = stream(3, &wd);
        let ran = Arc::new(AtomicUsize::new(0));
        s.post(|| Err(RtError::new("bad shapes")), key("host.matmul"));
        let r = ran.clone();
        s.post(
            move || {
                r.fetch_add(1, Ordering::SeqCst);
                Ok(())
            },
            key("later"),
        );
        let e = s.synchronize().unwrap_err();
        assert_eq!(e.to_string(), "'host.matmul' at s.mlir:11:1: rank 0: bad shapes");
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        let again = s.synchronize().unwrap_err().to_string();
        assert!(again.contains("poisoned by the failure of 'host.matmul'"), "{again}");
    }

    #[test]
    fn a_panicking_task_is_an_error() {
        let wd = Watchdog::new(Duration::from_secs(10));
        let s = stream(0, &wd);
        s.post(|| panic!("kernel bug"), key("k"));
        let e = s.synchronize().unwrap_err().to_string();
        assert!(e.contains("task panicked: kernel bug"), "{e}");
    }

    #[test]
    fn a_wait_for_an_event_that_never_comes_is_reported() {
        let wd = Watchdog::new(Duration::from_millis(100));
        let (a, b) = (stream(1, &wd), stream(2, &wd));
        // b waits for a's event; a's task waits for b's later event: a cycle.
        let b_event = Event { stream: b.shared.clone(), position: 2 };
        a.wait_event(&b_event, key("host.stream_wait"));
        b.wait_event(&a.record(), key("host.stream_wait2"));
        // Whichever wait expires first reports both (the other stream may then see its event
        // complete, as a failed task still finishes).
        let errors: Vec<String> =
            [b.synchronize(), a.synchronize()].into_iter().filter_map(Result::err).map(|e| e.to_string()).collect();
        let e = errors.join(" | ");
        assert!(e.contains("deadlock or timeout"), "{e}");
        assert!(e.contains("rank 0 waits in stream 2 for an event of stream 1"), "{e}");
        assert!(e.contains("rank 0 waits in stream 1 for an event of stream 2"), "{e}");
    }

    #[test]
    fn drop_stops_the_worker_without_running_queued_tasks() {
        let wd = Watchdog::new(Duration::from_secs(10));
        let ran = Arc::new(AtomicUsize::new(0));
        {
            let s = stream(0, &wd);
            s.post(
                || {
                    std::thread::sleep(Duration::from_millis(30));
                    Ok(())
                },
                key("slow"),
            );
            for _ in 0..10 {
                let r = ran.clone();
                s.post(
                    move || {
                        r.fetch_add(1, Ordering::SeqCst);
                        Ok(())
                    },
                    key("x"),
                );
            }
        }
        assert!(ran.load(Ordering::SeqCst) < 10);
    }

    /// A program on two streams: stream 1 fills a buffer, stream 2 copies it. The executor
    /// calls the race checker in program order when it posts; without the stream wait the
    /// checker reports the race, with it the checker is silent and the copy is right.
    fn producer_consumer(with_wait: bool) -> (Option<crate::cpu::race::Race>, Vec<f64>) {
        use crate::buffer::{Buffer, View};
        use crate::cpu::race::{Access, RaceChecker};
        use crate::dtype::DType;
        let wd = Watchdog::new(Duration::from_secs(10));
        let (s1, s2) = (stream(1, &wd), stream(2, &wd));
        let mut rc = RaceChecker::new();
        let (a, b) = (Buffer::new(DType::F32, 8), Buffer::new(DType::F32, 8));
        let (va, vb) = (View::whole(a, &[8]).unwrap(), View::whole(b, &[8]).unwrap());
        let fill = key("host.matmul");
        rc.on_access(
            s1.id(),
            Access { buffer: va.buffer.id, range: va.element_range(), write: true, key: fill.clone() },
        );
        let v = va.clone();
        s1.post(
            move || {
                std::thread::sleep(Duration::from_millis(50));
                v.write(&[7.0; 8])
            },
            fill,
        );
        if with_wait {
            let clock = rc.on_record(s1.id());
            rc.on_wait(s2.id(), &clock);
            s2.wait_event(&s1.record(), key("host.stream_wait"));
        }
        let copy = key("host.copy");
        let race = rc.on_access(
            s2.id(),
            Access { buffer: va.buffer.id, range: va.element_range(), write: false, key: copy.clone() },
        );
        rc.on_access(
            s2.id(),
            Access { buffer: vb.buffer.id, range: vb.element_range(), write: true, key: copy.clone() },
        );
        let (src, dst) = (va.clone(), vb.clone());
        s2.post(move || dst.write(&src.read()), copy);
        s2.synchronize().unwrap();
        s1.synchronize().unwrap();
        (race, vb.read())
    }

    #[test]
    fn a_missing_stream_wait_is_caught_and_the_wait_fixes_it() {
        let (race, _) = producer_consumer(false);
        let race = race.expect("a race").to_string();
        assert!(race.contains("host.matmul at s.mlir:11:1 on rank 0 stream 1 writes"), "{race}");
        assert!(race.contains("host.copy at s.mlir:9:1 on rank 0 stream 2 reads without ordering"), "{race}");
        let (race, copied) = producer_consumer(true);
        assert!(race.is_none());
        assert_eq!(copied, vec![7.0; 8]);
    }
}
