//! Running one case so that neither a panic nor a hang stops the fuzzer: the case runs on its
//! own thread under `catch_unwind`, and the caller waits at most a time limit. A panic becomes
//! a [`FindingClass::Panic`] finding with its message and source location, a case that does not
//! finish in time a [`FindingClass::Hang`] finding (its thread is left behind, detached:
//! threads cannot be killed; [`leaked_threads`] counts them so a long run can stop).
//!
//! [`install_quiet_panic_hook`] replaces the default hook, which would print every caught panic,
//! by one that records the message and location for the finding (and for the pass manager's
//! own panic capture, which it feeds).

use crate::verdict::{Finding, FindingClass};
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

static LEAKED: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Set on the threads that run cases.
    static IN_CASE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Cases whose thread never finished (hangs), in this process.
pub fn leaked_threads() -> usize {
    LEAKED.load(Ordering::Relaxed)
}

/// Installs a panic hook (idempotent) that records, instead of printing, the panics of case
/// threads, of the rank threads the runtime starts for them, and of code under the pass
/// manager's panic capture; every other panic (a failing test assertion) goes to the previous
/// hook as usual.
pub fn install_quiet_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let caught = fuser_ir::pass::instrument::panic_is_being_caught();
            if caught {
                fuser_ir::pass::instrument::record_panic(info);
            }
            let name = std::thread::current().name().unwrap_or("").to_string();
            let in_case = IN_CASE.with(|c| c.get());
            if !caught && !in_case && !name.starts_with("rank ") {
                previous(info);
                return;
            }
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic payload".into());
            let at =
                info.location().map(|l| format!(" (at {}:{}:{})", l.file(), l.line(), l.column())).unwrap_or_default();
            let message = format!("{payload}{at}");
            if name.starts_with("rank ")
                && let Ok(mut last) = RANK_PANIC.lock()
            {
                *last = Some(format!("{name}: {message}"));
            }
            LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
        }));
    });
}

/// The last panic of a runtime rank thread (the runtime reports only "rank thread panicked").
pub fn take_rank_panic() -> Option<String> {
    RANK_PANIC.lock().ok().and_then(|mut p| p.take())
}

static RANK_PANIC: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

const CASE_STACK: usize = 256 << 20;

/// Runs `check` on its own thread; a panic or running past `limit` is a finding.
pub fn guarded<T: Send + 'static>(limit: Duration, check: impl FnOnce() -> T + Send + 'static) -> Result<T, Finding> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("lowerfuzz case".into()).stack_size(CASE_STACK).spawn(move || {
        IN_CASE.with(|c| c.set(true));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check));
        let verdict = result.map_err(|payload| {
            let recorded = LAST_PANIC.with(|p| p.borrow_mut().take());
            let message = recorded.unwrap_or_else(|| {
                payload.downcast_ref::<&str>().map(|s| s.to_string()).unwrap_or_else(|| "panic".into())
            });
            Finding::new(FindingClass::Panic, message)
        });
        let _ = tx.send(verdict);
    });
    if let Err(e) = spawned {
        return Err(Finding::new(FindingClass::Hang, format!("cannot start the case thread: {e}")));
    }
    match rx.recv_timeout(limit) {
        Ok(v) => v,
        Err(_) => {
            LEAKED.fetch_add(1, Ordering::Relaxed);
            Err(Finding::new(
                FindingClass::Hang,
                format!("the case did not finish within {:.0} s", limit.as_secs_f64()),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    #[test]
    fn panics_and_hangs_become_findings() {
        install_quiet_panic_hook();
        let f = guarded(Duration::from_secs(5), || -> Verdict { panic!("boom") }).expect_err("a finding");
        assert_eq!(f.class, FindingClass::Panic);
        assert!(f.message.starts_with("boom (at "), "{}", f.message);
        let h = guarded(Duration::from_millis(50), || {
            std::thread::sleep(Duration::from_millis(400));
            Verdict::Pass
        });
        assert_eq!(h.err().map(|f| f.class), Some(FindingClass::Hang));
        assert_eq!(guarded(Duration::from_secs(5), || Verdict::Pass), Ok(Verdict::Pass));
    }
}
