//! Signals of `fuser-run --launch` (Linux): the launcher catches SIGTERM, SIGINT and SIGHUP
//! (what a job scheduler, `Popen.terminate()`, Ctrl-C or a closed terminal send) so that it
//! can stop its ranks before it exits, and every rank asks the kernel for SIGKILL when the
//! launcher dies (`PR_SET_PDEATHSIG`), so that no rank outlives a launcher killed with
//! SIGKILL either. No dependency: the few libc calls are declared here, as the runtime's
//! failure injection does for `kill`.

use std::os::unix::process::CommandExt as _;
use std::process::Command;
use std::sync::atomic::{AtomicI32, Ordering};

pub const SIGHUP: i32 = 1;
pub const SIGINT: i32 = 2;
pub const SIGKILL: i32 = 9;
pub const SIGTERM: i32 = 15;

unsafe extern "C" {
    fn signal(signum: i32, handler: usize) -> usize;
    fn kill(pid: i32, sig: i32) -> i32;
    fn prctl(option: i32, ...) -> i32;
    fn getppid() -> i32;
}

/// The first terminating signal received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: i32) {
    // Async-signal-safe: one atomic store.
    let _ = RECEIVED.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
}

/// From now on SIGTERM, SIGINT and SIGHUP are recorded ([`received`]) instead of ending the
/// process.
pub fn catch_termination() {
    for sig in [SIGHUP, SIGINT, SIGTERM] {
        // SAFETY: installs an async-signal-safe handler (one atomic store) for a catchable
        // signal; signal(2) has no other effect.
        unsafe {
            signal(sig, on_signal as extern "C" fn(i32) as usize);
        }
    }
}

/// The terminating signal received since [`catch_termination`], if any.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// Sends `sig` to process `pid`.
pub fn send(pid: u32, sig: i32) {
    // SAFETY: kill(2) on a child's pid with a valid signal number has no memory effects.
    unsafe {
        kill(pid as i32, sig);
    }
}

/// `SIGTERM`, `SIGINT`, ... for the signals named here.
pub fn name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        SIGHUP => "SIGHUP",
        SIGINT => "SIGINT",
        6 => "SIGABRT",
        SIGKILL => "SIGKILL",
        11 => "SIGSEGV",
        SIGTERM => "SIGTERM",
        _ => return None,
    })
}

/// The child started by `cmd` gets SIGKILL when this process dies (even by SIGKILL). (The
/// kernel sends it when the *thread* that started the child ends: the launcher starts and
/// waits for its children on one thread, which lives until they are reaped.)
pub fn die_with_parent(cmd: &mut Command) {
    const PR_SET_PDEATHSIG: i32 = 1;
    let parent = std::process::id() as i32;
    // SAFETY: the closure runs in the child between fork and exec and calls only
    // async-signal-safe functions (prctl, getppid, kill on itself).
    unsafe {
        cmd.pre_exec(move || {
            if prctl(PR_SET_PDEATHSIG, SIGKILL as std::ffi::c_ulong) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The launcher died before the request took effect: do not run on without it
            // (an error without allocating: ESRCH).
            if getppid() != parent {
                return Err(std::io::Error::from_raw_os_error(3));
            }
            Ok(())
        });
    }
}
