//! `fuser-run --launch`: starts one process of this binary per rank, with the variables a
//! multi-process run reads (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR,
//! MASTER_PORT, and a fresh random FUSER_STORE_TOKEN that the store checks on every
//! connection), and waits for them. Children inherit stdout and stderr; rank 0 prints the
//! report. When a child fails, the others get a few seconds ([`grace`]: at most the run's
//! --timeout, two seconds on the cpu backend) to finish (they usually fail too, with their own
//! message) and are then killed, so a failure
//! never leaves processes hanging; a child killed by a signal is named with it.
//!
//! The launcher itself stopped with SIGTERM, SIGINT or SIGHUP passes the signal on to every
//! rank still running, kills those left after [`STOP_GRACE`], waits for all of them, says so
//! (`fuser-run: error: terminated by signal 15 (SIGTERM): ...`) and exits with 128 + the
//! signal's number (143 for SIGTERM), as a shell reports a process killed by it. A launcher
//! killed outright (SIGKILL) takes its ranks with it: each asked the kernel for SIGKILL
//! when the launcher dies ([`crate::signals::die_with_parent`]).

use crate::signals;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// How long ranks sent the launcher's terminating signal may take to end before SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// How long the other ranks may run on after one failed.
const GRACE: Duration = Duration::from_secs(5);

/// The same on the cpu backend, whose ranks learn of a failure from rank 0's hub at once: a
/// process still there after two seconds is stuck (or never joined the run).
const CPU_GRACE: Duration = Duration::from_secs(2);

/// How long the other ranks may run on after one failed, for `backend` and the run's
/// `--timeout`.
pub fn grace(backend: &str, timeout: Duration) -> Duration {
    let grace = if backend == "cpu" { CPU_GRACE } else { GRACE };
    grace.min(timeout)
}

/// Runs `ranks` children with `args` (the command line without `--launch`); true when all
/// succeed.
pub fn launch(args: &[String], ranks: usize, grace: Duration) -> bool {
    signals::catch_termination();
    let token = fuser_runtime::store::new_token().map_err(|e| format!("cannot make the store token: {e}"));
    let started = token.and_then(|token| fuser_runtime::store::free_port().map(|port| (port, token))).and_then(
        |(port, token)| {
            let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
            let child_args: Vec<&String> = args.iter().filter(|a| a.as_str() != "--launch").collect();
            spawn_all(ranks, |rank| {
                let mut cmd = Command::new(&exe);
                signals::die_with_parent(&mut cmd);
                cmd.args(&child_args)
                    .env("RANK", rank.to_string())
                    .env("WORLD_SIZE", ranks.to_string())
                    .env("LOCAL_RANK", rank.to_string())
                    .env("LOCAL_WORLD_SIZE", ranks.to_string())
                    .env("MASTER_ADDR", "127.0.0.1")
                    .env("MASTER_PORT", port.to_string())
                    .env(fuser_runtime::store::TOKEN_VAR, &token)
                    .spawn()
                    .map_err(|e| format!("cannot start rank {rank}: {e}"))
            })
        },
    );
    match started {
        Ok(children) => match wait_all(children, grace) {
            Ended::Ran(ok) => ok,
            Ended::Terminated(sig) => std::process::exit(128 + sig),
        },
        Err(e) => {
            eprintln!("fuser-run: error: {e}");
            false
        }
    }
}

/// Starts ranks `0..ranks` with `spawn`; when one cannot start, stops (kills and reaps) those
/// started before it, so that none is left waiting for it.
fn spawn_all(ranks: usize, spawn: impl Fn(usize) -> Result<Child, String>) -> Result<Vec<Child>, String> {
    let mut children = Vec::with_capacity(ranks);
    for rank in 0..ranks {
        match spawn(rank) {
            Ok(child) => children.push(child),
            Err(e) => {
                for mut child in children {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                return Err(e);
            }
        }
    }
    Ok(children)
}

/// How the wait for the children ended.
#[derive(Debug, PartialEq, Eq)]
enum Ended {
    /// Every child ended: whether all succeeded.
    Ran(bool),
    /// The launcher received this terminating signal: the children were stopped.
    Terminated(i32),
}

/// Waits for every child; after the first failure, kills those still running after `grace`.
/// A terminating signal to the launcher stops them all ([`stop_all`]).
fn wait_all(mut children: Vec<Child>, grace: Duration) -> Ended {
    let mut done = vec![None; children.len()];
    let mut failed_at: Option<Instant> = None;
    while done.iter().any(Option::is_none) {
        if let Some(sig) = signals::received() {
            stop_all(&mut children, &done, sig);
            return Ended::Terminated(sig);
        }
        for (rank, child) in children.iter_mut().enumerate() {
            if done[rank].is_some() {
                continue;
            }
            if let Ok(Some(status)) = child.try_wait() {
                if let Some(how) = crate::exits::death_by_signal(status) {
                    eprintln!("fuser-run: error: rank {rank} was {how}");
                }
                if !status.success() && failed_at.is_none() {
                    failed_at = Some(Instant::now());
                }
                done[rank] = Some(status.success());
            }
        }
        if failed_at.is_some_and(|t| t.elapsed() > grace) {
            for (rank, child) in children.iter_mut().enumerate() {
                if done[rank].is_none() {
                    let _ = child.kill();
                    let _ = child.wait();
                    eprintln!("fuser-run: error: rank {rank} killed after another rank failed");
                    done[rank] = Some(false);
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ended::Ran(done.iter().all(|d| *d == Some(true)))
}

/// The launcher got `sig`: passes it on to the children not `done`, kills those left after
/// [`STOP_GRACE`], reaps all and says so.
fn stop_all(children: &mut [Child], done: &[Option<bool>], sig: i32) {
    let running: Vec<usize> = (0..children.len()).filter(|&r| done[r].is_none()).collect();
    for &r in &running {
        signals::send(children[r].id(), sig);
    }
    let until = Instant::now() + STOP_GRACE;
    let mut killed = Vec::new();
    for &r in &running {
        let child = &mut children[r];
        loop {
            if matches!(child.try_wait(), Ok(Some(_)) | Err(_)) {
                break;
            }
            if Instant::now() >= until {
                let _ = child.kill();
                let _ = child.wait();
                killed.push(r);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    let name = signals::name(sig).map_or_else(String::new, |n| format!(" ({n})"));
    let ranks = |v: &[usize]| v.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", ");
    let mut line = format!("fuser-run: error: terminated by signal {sig}{name}");
    if !running.is_empty() {
        line += &format!("; passed it on to rank(s) {}", ranks(&running));
    }
    if !killed.is_empty() {
        line += &format!(", killed rank(s) {} still running after {:?}", ranks(&killed), STOP_GRACE);
    }
    eprintln!("{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rank_that_cannot_start_stops_those_started_before_it() {
        let pids = std::sync::Mutex::new(Vec::new());
        let result = spawn_all(3, |rank| {
            if rank == 2 {
                return Err("cannot start rank 2: test".into());
            }
            let child = Command::new("sleep").arg("30").spawn().map_err(|e| e.to_string())?;
            pids.lock().unwrap().push(child.id());
            Ok(child)
        });
        assert_eq!(result.err().as_deref(), Some("cannot start rank 2: test"));
        let pids = pids.into_inner().unwrap();
        assert_eq!(pids.len(), 2);
        for pid in pids {
            assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists(), "process {pid} is left");
        }
    }
}
