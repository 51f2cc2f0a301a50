//! Failure injection for the tests of multi-process runs (test-only; documented in
//! docs/dev/runtime.md): `FUSER_TEST_RANK_FAULT=RANK:KIND` makes rank RANK
//! - `exit`: exit with status 0 at its first communication, without a word (an early exit);
//! - `kill`: send itself SIGKILL at its first communication (a crash mid-run);
//! - `stop`: send itself SIGSTOP at its first communication (a process that hangs, or a
//!   network that went down: its sockets stay open and nobody reads them);
//! - `never-join`: sleep before joining the run, forever (a rank that never starts; the
//!   launcher kills it when the others failed).

use crate::error::{RtError, RtResult};

/// The variable that requests a fault.
pub const FAULT_VAR: &str = "FUSER_TEST_RANK_FAULT";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    Exit,
    Kill,
    Stop,
    NeverJoin,
}

/// A requested fault: which rank, what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub rank: usize,
    pub kind: FaultKind,
}

impl Fault {
    /// The fault [`FAULT_VAR`] asks for, if any.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> RtResult<Option<Fault>> {
        let Some(v) = var(FAULT_VAR) else { return Ok(None) };
        let bad =
            || RtError::new(format!("{FAULT_VAR}='{v}': expected RANK:exit, RANK:kill, RANK:stop or RANK:never-join"));
        let (rank, kind) = v.split_once(':').ok_or_else(bad)?;
        let rank = rank.parse().map_err(|_| bad())?;
        let kind = match kind {
            "exit" => FaultKind::Exit,
            "kill" => FaultKind::Kill,
            "stop" => FaultKind::Stop,
            "never-join" => FaultKind::NeverJoin,
            _ => return Err(bad()),
        };
        Ok(Some(Fault { rank, kind }))
    }

    /// Before joining: a `never-join` fault of `rank` never returns.
    pub fn before_joining(&self, rank: usize) {
        if self.rank == rank && self.kind == FaultKind::NeverJoin {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
    }

    /// At a communication: an `exit` or `kill` fault of `rank` ends the process.
    pub fn at_communication(&self, rank: usize) {
        if self.rank != rank {
            return;
        }
        match self.kind {
            FaultKind::Exit => std::process::exit(0),
            FaultKind::Kill => kill_self(),
            FaultKind::Stop => signal_self(SIGSTOP),
            FaultKind::NeverJoin => {}
        }
    }
}

const SIGKILL: i32 = 9;
const SIGSTOP: i32 = 19;

/// SIGKILL to this process (no cleanup, exactly as a crash or an OOM kill).
fn kill_self() {
    signal_self(SIGKILL);
    // Not reached; should the signal be delayed, do not go on.
    std::process::abort();
}

/// Sends `sig` to this process (SIGSTOP: every thread stops until SIGCONT or SIGKILL).
fn signal_self(sig: i32) {
    unsafe extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    // SAFETY: kill(2) with our own pid and a valid signal number has no memory effects.
    unsafe {
        kill(std::process::id() as i32, sig);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_is_parsed_strictly() {
        let env = |v: &'static str| move |k: &str| (k == FAULT_VAR).then(|| v.to_string());
        assert_eq!(Fault::from_env(env("1:kill")).unwrap(), Some(Fault { rank: 1, kind: FaultKind::Kill }));
        assert_eq!(Fault::from_env(env("0:never-join")).unwrap().unwrap().kind, FaultKind::NeverJoin);
        assert_eq!(Fault::from_env(env("0:stop")).unwrap().unwrap().kind, FaultKind::Stop);
        assert!(Fault::from_env(env("1")).is_err());
        assert!(Fault::from_env(env("x:exit")).is_err());
        assert!(Fault::from_env(env("1:explode")).is_err());
        assert_eq!(Fault::from_env(|_| None).unwrap(), None);
    }
}
