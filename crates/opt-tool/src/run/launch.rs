//! `fuser-run --launch`: starts one process of this binary per rank, with the variables a
//! multi-process run reads (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR,
//! MASTER_PORT, and a fresh random FUSER_STORE_TOKEN that the store checks on every
//! connection), and waits for them. Children inherit stdout and stderr; rank 0 prints the
//! report. When a child fails, the others get a few seconds to finish (they usually fail too,
//! with their own message) and are then killed, so a failure never leaves processes hanging.

use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// How long the other ranks may run on after one failed.
const GRACE: Duration = Duration::from_secs(5);

/// A TCP port that was free a moment ago on the loopback interface.
fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot find a free port: {e}"))?;
    l.local_addr().map(|a| a.port()).map_err(|e| format!("cannot find a free port: {e}"))
}

/// Runs `ranks` children with `args` (the command line without `--launch`); true when all
/// succeed.
pub fn launch(args: &[String], ranks: usize) -> bool {
    let token = fuser_runtime::store::new_token().map_err(|e| format!("cannot make the store token: {e}"));
    let started = token.and_then(|token| free_port().map(|port| (port, token))).and_then(|(port, token)| {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
        let child_args: Vec<&String> = args.iter().filter(|a| a.as_str() != "--launch").collect();
        (0..ranks)
            .map(|rank| {
                Command::new(&exe)
                    .args(&child_args)
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
            .collect::<Result<Vec<Child>, String>>()
    });
    match started {
        Ok(children) => wait_all(children),
        Err(e) => {
            eprintln!("fuser-run: error: {e}");
            false
        }
    }
}

/// Waits for every child; after the first failure, kills those still running after [`GRACE`].
fn wait_all(mut children: Vec<Child>) -> bool {
    let mut done = vec![None; children.len()];
    let mut failed_at: Option<Instant> = None;
    while done.iter().any(Option::is_none) {
        for (rank, child) in children.iter_mut().enumerate() {
            if done[rank].is_some() {
                continue;
            }
            if let Ok(Some(status)) = child.try_wait() {
                if !status.success() && failed_at.is_none() {
                    failed_at = Some(Instant::now());
                }
                done[rank] = Some(status.success());
            }
        }
        if failed_at.is_some_and(|t| t.elapsed() > GRACE) {
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
    done.iter().all(|d| *d == Some(true))
}
