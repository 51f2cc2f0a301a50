//! A rank of a multi-process cpu run that lives as long as its process and runs any number of
//! programs on the caller's pieces: fuser.torch's `Rank(backend="cpu")`, one process per rank
//! as torchrun starts them (RANK, WORLD_SIZE, MASTER_ADDR, the store port and token of
//! [`ProcessEnv`]).
//!
//! It joins the run as [`super::run`] does (rank 0 serves the store and the hub, every rank
//! links to the hub; ranks of another kind, world size or fuser version are refused, by name:
//! [`Fingerprint::of_session`]) and then runs programs through a [`CpuBackend`] whose
//! communicator posts to the hub, so collectives, send/recv and every mismatch message are
//! those of one process. Programs are not compared when they run: ranks that run different
//! programs fail at their first mismatched communication, as threads of one process would.
//!
//! Failures: a run that fails on this rank aborts the run (the others' waits fail at once with
//! the cause, naming this rank); so does [`ProcessRank::fail`] (the process fails outside a
//! run, e.g. an exception of the caller before its next run); a process that exits without
//! [`ProcessRank::close`] (killed, crashed) is announced to the others by the hub. After an
//! abort every run fails at once with the cause.
//!
//! Leaving: [`ProcessRank::close`]. A rank other than 0 hands rank 0 an empty result and says
//! goodbye; rank 0's process serves the hub, so it waits (at most the timeout) until every
//! other rank left: the completions of their last communications go through its hub.
//!
//! Without RANK in the environment the rank is rank 0 of 1, in this process alone.

use super::fault::Fault;
use super::fingerprint::Fingerprint;
use super::run::{Joined, LAST_WORDS, join_run};
use crate::buffer::{Buffer, View};
use crate::cpu::backend::CpuBackend;
use crate::cpu::comm::Communicator;
use crate::driver::RunConfig;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::exec::{Backend, Program, run_program};
use crate::process::ProcessEnv;
use crate::watchdog::lock;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// This process's rank (see the module doc).
pub struct ProcessRank {
    rank: usize,
    world: usize,
    backend: CpuBackend,
    /// `None`: rank 0 of 1, alone.
    joined: Option<Joined>,
    timeout: Duration,
    closed: AtomicBool,
    /// Held while a program runs: runs of one rank are one after the other (callers on
    /// several threads take turns), as the other ranks expect them.
    running: Mutex<()>,
}

impl ProcessRank {
    /// Joins the run `env` describes (`None`: rank 0 of 1, alone) within `timeout`, which is
    /// also the deadline of every blocking wait of its runs. `kind` names what the ranks are
    /// (every rank must present the same); `fault`: a test's injected fault
    /// ([`super::fault`]).
    pub fn join(
        env: Option<&ProcessEnv>,
        timeout: Duration,
        kind: &str,
        fault: Option<Fault>,
    ) -> RtResult<ProcessRank> {
        let closed = AtomicBool::new(false);
        let Some(env) = env else {
            let backend = CpuBackend::new(1, false, timeout);
            return Ok(ProcessRank {
                rank: 0,
                world: 1,
                backend,
                joined: None,
                timeout,
                closed,
                running: Mutex::new(()),
            });
        };
        if let Some(f) = fault {
            f.before_joining(env.rank);
        }
        let cfg = RunConfig { ranks: env.world, timeout, ..RunConfig::default() };
        let joined = join_run(&cfg, env, fault, &Fingerprint::of_session(kind, env.world)).map_err(|f| f.error)?;
        let comm = Communicator::with_remote(env.world, joined.watchdog.clone(), joined.link.clone());
        let backend = CpuBackend::with_communicator(comm, false);
        let running = Mutex::new(());
        Ok(ProcessRank { rank: env.rank, world: env.world, backend, joined: Some(joined), timeout, closed, running })
    }

    pub fn rank(&self) -> usize {
        self.rank
    }

    pub fn world(&self) -> usize {
        self.world
    }

    /// Runs `prog` as this rank on `args` (this rank's pieces, e.g. from [`view_of_bytes`]);
    /// its results. A failure of a run with other ranks aborts the run for all of them.
    pub fn run(&self, prog: &Program, args: &[View]) -> RtResult<Vec<View>> {
        let _turn = lock(&self.running);
        if self.closed.load(Ordering::SeqCst) {
            return Err(RtError::new("this rank left the run (closed): it runs no more programs").on_rank(self.rank));
        }
        if let Some(e) = self.backend.watchdog().aborted() {
            return Err(e.on_rank(self.rank));
        }
        let r = run_program(prog, &self.backend, self.rank, args);
        if let Err(e) = &r
            && self.world > 1
        {
            self.backend.abort(self.rank, e);
        }
        r
    }

    /// This process failed outside a run (`why`): the other ranks' waits fail at once with it,
    /// naming this rank, and so do this rank's later runs.
    pub fn fail(&self, why: &str) {
        let e = RtError::new(why).on_rank(self.rank);
        self.backend.abort(self.rank, &e);
    }

    /// Whether the run was aborted (by this rank or another); the cause.
    pub fn aborted(&self) -> Option<RtError> {
        self.backend.watchdog().aborted()
    }

    /// Leaves the run (see the module doc); a second call does nothing. Rank 0 returns once
    /// every other rank left, or with an error naming those that did not within the timeout
    /// (or that vanished without leaving).
    pub fn close(&self) -> RtResult<()> {
        // After a run in progress on another thread (at most its waits' timeout).
        let _turn = lock(&self.running);
        if self.closed.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        let Some(j) = &self.joined else { return Ok(()) };
        match &j.hub {
            None => {
                let sent = j.link.send_result(Vec::new());
                let delivered = j.link.flush(Instant::now() + self.timeout);
                j.link.goodbye();
                let _ = j.link.flush(Instant::now() + LAST_WORDS.min(self.timeout));
                sent?;
                delivered
            }
            Some(hub) => {
                let gathered = hub.gather(Instant::now() + self.timeout);
                j.link.goodbye();
                hub.flush(Instant::now() + LAST_WORDS.min(self.timeout));
                gathered.map(|_| ()).map_err(|e| e.on_rank(self.rank))
            }
        }
    }
}

/// A fresh buffer of `dtype` and `shape` holding `bytes` (packed row-major, native layout of
/// the element type: exactly `shape`'s element count times the element size).
pub fn view_of_bytes(dtype: DType, shape: &[usize], bytes: &[u8]) -> RtResult<View> {
    let numel: usize = shape.iter().product();
    if numel.checked_mul(dtype.size()) != Some(bytes.len()) {
        return Err(RtError::new(format!(
            "{} bytes given for a {shape:?} {} tensor ({} bytes)",
            bytes.len(),
            dtype.name(),
            numel.saturating_mul(dtype.size())
        )));
    }
    let view = View::whole(Buffer::new(dtype, numel), shape)?;
    view.buffer.bytes().copy_from_slice(bytes);
    Ok(view)
}

/// Copies the elements of `view`, packed row-major, into `out` (exactly their size).
pub fn copy_view_into(view: &View, out: &mut [u8]) -> RtResult<()> {
    let size = view.dtype().size();
    if view.numel() * size != out.len() {
        return Err(RtError::new(format!(
            "a {} {} result does not fit {} bytes",
            view.numel(),
            view.dtype().name(),
            out.len()
        )));
    }
    let bytes = view.buffer.bytes();
    if view.is_contiguous() {
        out.copy_from_slice(&bytes[view.offset * size..(view.offset + view.numel()) * size]);
        return Ok(());
    }
    for (chunk, i) in out.chunks_exact_mut(size).zip(view.indices()) {
        chunk.copy_from_slice(&bytes[i * size..(i + 1) * size]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::diag::SourceFile;
    use fuser_ir::{Context, Ir};

    const TOKEN: &str = "0123456789abcdef-rank-test";

    /// Every rank gets the sum of all ranks' pieces (an allreduce).
    const ALLREDUCE: &str = r#"
func.func @f(%a: !host.buf<2xf32>) -> !host.buf<2xf32> {
  %out = host.alloc() : !host.buf<2xf32>
  %r = comm.allreduce sum %a into %out team = [0, 1, 2] : !host.buf<2xf32>, !host.buf<2xf32>
  comm.wait %r
  return %out : !host.buf<2xf32>
}"#;

    fn program(text: &str) -> Program {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let module =
            fuser_ir::parser::parse_source_all(&ctx, &mut ir, &SourceFile::new("t.mlir", text.into())).expect("parses");
        let func = crate::driver::first_function(&ctx, &ir, module).expect("a function");
        crate::exec::prepare(&ctx, &ir, func).expect("prepares")
    }

    fn env(rank: usize, world: usize, port: u16) -> ProcessEnv {
        ProcessEnv { rank, world, local_rank: rank, master: format!("127.0.0.1:{port}"), token: TOKEN.into() }
    }

    fn port() -> u16 {
        crate::store::port::free_port().unwrap()
    }

    fn f32s(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_ne_bytes()).collect()
    }

    fn values(v: &View) -> Vec<f32> {
        let mut out = vec![0u8; v.numel() * 4];
        copy_view_into(v, &mut out).unwrap();
        out.chunks_exact(4).map(|c| f32::from_ne_bytes(c.try_into().unwrap())).collect()
    }

    #[test]
    fn ranks_in_threads_run_several_programs_and_leave() {
        let prog = program(ALLREDUCE);
        let port = port();
        let outs: Vec<Vec<Vec<f32>>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..3)
                .map(|r| {
                    let prog = &prog;
                    s.spawn(move || {
                        let rank = ProcessRank::join(Some(&env(r, 3, port)), Duration::from_secs(10), "test", None)
                            .expect("joins");
                        assert_eq!((rank.rank(), rank.world()), (r, 3));
                        let mut got = Vec::new();
                        for step in 0..3 {
                            let x = (r + 10 * step) as f32;
                            let arg = view_of_bytes(DType::F32, &[2], &f32s(&[x, 2.0 * x])).unwrap();
                            got.push(values(&rank.run(prog, &[arg]).expect("runs")[0]));
                        }
                        rank.close().expect("leaves");
                        // Closed: no more runs.
                        let arg = view_of_bytes(DType::F32, &[2], &f32s(&[0.0, 0.0])).unwrap();
                        assert!(rank.run(prog, &[arg]).unwrap_err().message.contains("closed"));
                        got
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for got in outs {
            // Step s: the sum over ranks of r + 10 s is 3 + 30 s.
            assert_eq!(got, vec![vec![3.0, 6.0], vec![33.0, 66.0], vec![63.0, 126.0]]);
        }
    }

    #[test]
    fn a_rank_that_fails_outside_a_run_fails_the_others_naming_it() {
        let prog = program(ALLREDUCE);
        let port = port();
        let errors: Vec<Option<String>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..3)
                .map(|r| {
                    let prog = &prog;
                    s.spawn(move || {
                        let rank = ProcessRank::join(Some(&env(r, 3, port)), Duration::from_secs(20), "test", None)
                            .expect("joins");
                        let e = if r == 1 {
                            rank.fail("the caller raised ValueError: boom");
                            // Its own runs fail at once too.
                            let arg = view_of_bytes(DType::F32, &[2], &f32s(&[1.0, 1.0])).unwrap();
                            let own = rank.run(prog, &[arg]).unwrap_err().to_string();
                            assert!(own.contains("aborted: rank 1: the caller raised"), "{own}");
                            None
                        } else {
                            let arg = view_of_bytes(DType::F32, &[2], &f32s(&[1.0, 1.0])).unwrap();
                            Some(rank.run(prog, &[arg]).unwrap_err().to_string())
                        };
                        let _ = rank.close();
                        e
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for e in errors.into_iter().flatten() {
            assert!(e.contains("rank 1: the caller raised ValueError: boom"), "{e}");
        }
    }

    #[test]
    fn ranks_of_another_kind_are_refused_by_name() {
        let port = port();
        let errors: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..2)
                .map(|r| {
                    s.spawn(move || {
                        let kind = if r == 0 { "torch" } else { "other" };
                        match ProcessRank::join(Some(&env(r, 2, port)), Duration::from_secs(10), kind, None) {
                            Ok(_) => "joined".to_string(),
                            Err(e) => e.to_string(),
                        }
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for e in errors {
            assert!(e.contains("kind of rank"), "{e}");
        }
    }

    #[test]
    fn alone_without_an_environment() {
        let prog = program(&ALLREDUCE.replace("team = [0, 1, 2]", "team = [0]"));
        let rank = ProcessRank::join(None, Duration::from_secs(5), "test", None).unwrap();
        assert_eq!((rank.rank(), rank.world()), (0, 1));
        let arg = view_of_bytes(DType::F32, &[2], &f32s(&[1.5, -2.0])).unwrap();
        assert_eq!(values(&rank.run(&prog, &[arg]).unwrap()[0]), vec![1.5, -2.0]);
        rank.close().unwrap();
    }

    #[test]
    fn bytes_in_and_out_are_checked_and_follow_strides() {
        assert!(view_of_bytes(DType::F32, &[3], &[0u8; 8]).is_err());
        let v = view_of_bytes(DType::F32, &[2, 2], &f32s(&[1.0, 2.0, 3.0, 4.0])).unwrap();
        // The first column: elements 0 and 2.
        let column = View::new(v.buffer.clone(), 0, [2usize], [2usize]).unwrap();
        assert_eq!(values(&column), vec![1.0, 3.0]);
        assert!(copy_view_into(&column, &mut [0u8; 4]).is_err());
    }
}
