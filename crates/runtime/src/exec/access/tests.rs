//! Every communication kind, run for real on the cpu backend, against what `access.rs` says it
//! does on each rank:
//! - the buffers an op writes on a rank are exactly those whose contents change;
//! - the buffers it reads are exactly those whose contents reach some other buffer (found by
//!   perturbing one buffer at a time, up and down, so that min and max notice too);
//! - `CommOp::blocks_stream` is the communicator's `Request::blocks_stream`;
//! - with the race checker on, every buffer of an op stays in use until its wait: an access
//!   from another stream before the wait is a race, from the posting stream too when the op
//!   does not hold its stream; after a `comm.wait` it is not; and a non-blocking op that is
//!   never waited for fails the run.

use super::super::backend::{CommOp, Kernel};
use crate::buffer::View;
use crate::cpu::backend::{CpuBackend, post_comm};
use crate::cpu::comm::{Communicator, PostInfo};
use crate::dtype::DType;
use crate::error::{OpKey, RtResult};
use crate::exec::Backend;
use fuser_dialects::comm::attrs::{Backend as Transport, Protocol};
use fuser_dialects::reduction::ReductionKind;
use std::time::Duration;

/// Ranks of every case.
const N: usize = 3;
/// Elements of a chunk (a member's share of a collective).
const C: usize = 2;

/// A communication kind with its scalar parameters (roots are team positions).
#[derive(Clone, Copy, Debug)]
enum Case {
    AllGather,
    AllReduce(ReductionKind),
    ReduceScatter(ReductionKind),
    Broadcast(usize),
    Reduce(usize, ReductionKind),
    Gather(usize),
    Scatter(usize),
    AllToAll,
    Permute,
    /// Rank 0 sends to rank 1 (rank 2 posts nothing), after a `share_handles` for CUDA IPC.
    P2p(Transport, Protocol),
    /// A ring: each rank sends to the next and receives from the previous, in one group.
    Group,
    /// The handle exchange itself between ranks 0 and 1 (moves no data).
    ShareHandles,
}

/// Every case: every kind, every root, every reduction, every p2p transport and protocol.
fn all_cases() -> Vec<Case> {
    let mut cases = vec![Case::AllGather, Case::AllToAll, Case::Permute, Case::Group, Case::ShareHandles];
    for k in ReductionKind::ALL {
        cases.extend([Case::AllReduce(k), Case::ReduceScatter(k)]);
        cases.extend((0..N).map(|root| Case::Reduce(root, k)));
    }
    for root in 0..N {
        cases.extend([Case::Broadcast(root), Case::Gather(root), Case::Scatter(root)]);
    }
    cases.push(Case::P2p(Transport::Nccl, Protocol::Get));
    cases.extend([Protocol::Get, Protocol::Put].map(|p| Case::P2p(Transport::CudaIpc, p)));
    cases
}

/// The variant of an op, numbered by an exhaustive match: a new `CommOp` variant does not
/// compile here until the cases cover it.
fn variant(op: &CommOp<View>) -> usize {
    match op {
        CommOp::AllGather { .. } => 0,
        CommOp::AllReduce { .. } => 1,
        CommOp::ReduceScatter { .. } => 2,
        CommOp::Broadcast { .. } => 3,
        CommOp::Reduce { .. } => 4,
        CommOp::Gather { .. } => 5,
        CommOp::Scatter { .. } => 6,
        CommOp::AllToAll { .. } => 7,
        CommOp::CollectivePermute { .. } => 8,
        CommOp::Send { .. } => 9,
        CommOp::Recv { .. } => 10,
        CommOp::Group(_) => 11,
        CommOp::ShareHandles { .. } => 12,
    }
}
const VARIANTS: usize = 13;

impl Case {
    /// Elements of the input and the output buffer.
    fn sizes(self) -> (usize, usize) {
        match self {
            Case::AllGather | Case::Gather(_) => (C, N * C),
            Case::ReduceScatter(_) | Case::Scatter(_) => (N * C, C),
            Case::AllToAll => (N * C, N * C),
            _ => (C, C),
        }
    }

    /// The ops `rank` posts over its `input` and `output`: setup first (CUDA IPC handles),
    /// the op under test last; none for a rank outside a p2p pair.
    fn ops(self, rank: usize, input: &View, output: &View) -> Vec<CommOp<View>> {
        let team: Vec<usize> = (0..N).collect();
        let (i, o) = (input.clone(), output.clone());
        let (next, prev) = ((rank + 1) % N, (rank + N - 1) % N);
        let handles = |rank: usize| match rank {
            0 => Some(CommOp::ShareHandles { sends: vec![(i.clone(), 1)], recvs: vec![] }),
            1 => Some(CommOp::ShareHandles { sends: vec![], recvs: vec![(o.clone(), 0)] }),
            _ => None,
        };
        let op = match self {
            Case::AllGather => CommOp::AllGather { input: i, output: o, team, transport: Transport::Nccl },
            Case::AllReduce(reduction) => {
                CommOp::AllReduce { input: i, output: o, team, reduction, transport: Transport::Nccl }
            }
            Case::ReduceScatter(reduction) => {
                CommOp::ReduceScatter { input: i, output: o, team, reduction, transport: Transport::Nccl }
            }
            Case::Broadcast(root) => CommOp::Broadcast { input: i, output: o, team, root, transport: Transport::Nccl },
            Case::Reduce(root, reduction) => {
                CommOp::Reduce { input: i, output: o, team, root, reduction, transport: Transport::Nccl }
            }
            Case::Gather(root) => CommOp::Gather { input: i, output: o, team, root, transport: Transport::Nccl },
            Case::Scatter(root) => CommOp::Scatter { input: i, output: o, team, root, transport: Transport::Nccl },
            Case::AllToAll => CommOp::AllToAll { input: i, output: o, team, transport: Transport::Nccl },
            Case::Permute => CommOp::CollectivePermute {
                input: i,
                output: o,
                team,
                send_to: next,
                recv_from: prev,
                transport: Transport::Nccl,
            },
            Case::Group => CommOp::Group(vec![
                CommOp::Send { buffer: i, peer: next, transport: Transport::Nccl, protocol: Protocol::Get },
                CommOp::Recv { buffer: o, peer: prev, transport: Transport::Nccl, protocol: Protocol::Get },
            ]),
            Case::ShareHandles => return handles(rank).into_iter().collect(),
            Case::P2p(transport, protocol) => {
                let op = match rank {
                    0 => CommOp::Send { buffer: i.clone(), peer: 1, transport, protocol },
                    1 => CommOp::Recv { buffer: o.clone(), peer: 0, transport, protocol },
                    _ => return vec![],
                };
                let setup = (transport == Transport::CudaIpc).then(|| handles(rank)).flatten();
                return setup.into_iter().chain([op]).collect();
            }
        };
        vec![op]
    }
}

/// One rank's buffers (input, output) and ops.
struct Plan {
    bufs: [View; 2],
    ops: Vec<CommOp<View>>,
}

impl Plan {
    /// The op under test (the last one), if the rank posts any.
    fn op(&self) -> Option<&CommOp<View>> {
        self.ops.last()
    }

    /// Per buffer (input, output): whether the op under test reads it and writes it on `rank`.
    fn declared(&self, rank: usize) -> [(bool, bool); 2] {
        let mut out = [(false, false); 2];
        for (view, write) in self.op().map(|op| op.accesses(rank)).unwrap_or_default() {
            let slot = self.bufs.iter().position(|b| b.buffer.id == view.buffer.id).expect("a buffer of the plan");
            if write {
                out[slot].1 = true;
            } else {
                out[slot].0 = true;
            }
        }
        out
    }
}

/// Initial values: inputs distinct per rank and element, outputs a sentinel nothing produces.
/// `shift`: added to buffer `(rank, slot)`.
fn plans(case: Case, shift: Option<(usize, usize, f64)>) -> Vec<Plan> {
    let (ni, no) = case.sizes();
    (0..N)
        .map(|rank| {
            let make = |slot: usize, n: usize| {
                let v = CpuBackend::new_buffer(DType::F32, &[n]).expect("buffer");
                let mut vals: Vec<f64> = (0..n)
                    .map(|e| if slot == 0 { 1.0 + (10 * rank + e) as f64 } else { -1000.0 - (100 * rank + e) as f64 })
                    .collect();
                if let Some((r, s, d)) = shift
                    && (r, s) == (rank, slot)
                {
                    vals.iter_mut().for_each(|x| *x += d);
                }
                v.write(&vals).expect("fits");
                v
            };
            let bufs = [make(0, ni), make(1, no)];
            let ops = case.ops(rank, &bufs[0], &bufs[1]);
            Plan { bufs, ops }
        })
        .collect()
}

fn key(name: &str, line: u32) -> OpKey {
    OpKey { index: line, loc: Some(format!("t.mlir:{line}:3").into()), name: name.into() }
}

fn run_ranks<T: Send>(f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..N)
            .map(|r| {
                s.spawn({
                    let f = &f;
                    move || f(r)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("rank thread")).collect()
    })
}

/// Runs the plans on the cpu backend (each op posted and waited on the main stream); the
/// final contents of every buffer, per rank.
fn run(plans: &[Plan]) -> Vec<[Vec<f64>; 2]> {
    let b = CpuBackend::new(N, false, Duration::from_secs(10));
    let results = run_ranks(|r| -> RtResult<()> {
        let main = b.main_stream(r)?;
        for op in &plans[r].ops {
            let req = b.post(r, &main, op.clone(), &key(op.name(), 1))?;
            b.wait(r, &main, &[req], &key("comm.wait", 2))?;
        }
        b.finish(r)
    });
    for (r, res) in results.into_iter().enumerate() {
        res.unwrap_or_else(|e| panic!("rank {r}: {e}"));
    }
    plans.iter().map(|p| [p.bufs[0].read(), p.bufs[1].read()]).collect()
}

#[test]
fn the_cases_cover_every_comm_op_variant() {
    let mut seen = [false; VARIANTS];
    for case in all_cases() {
        for plan in plans(case, None) {
            let mut stack: Vec<&CommOp<View>> = plan.ops.iter().collect();
            while let Some(op) = stack.pop() {
                seen[variant(op)] = true;
                if let CommOp::Group(inner) = op {
                    stack.extend(inner);
                }
            }
        }
    }
    assert!(seen.iter().all(|&s| s), "variants without a case: {seen:?}");
}

#[test]
fn write_sets_are_the_buffers_that_change_and_read_sets_those_that_matter() {
    for case in all_cases() {
        let initial: Vec<[Vec<f64>; 2]> =
            plans(case, None).iter().map(|p| [p.bufs[0].read(), p.bufs[1].read()]).collect();
        let base_plans = plans(case, None);
        let base = run(&base_plans);
        for rank in 0..N {
            let declared = base_plans[rank].declared(rank);
            for slot in 0..2 {
                let changed = base[rank][slot] != initial[rank][slot];
                assert_eq!(
                    declared[slot].1, changed,
                    "{case:?} on rank {rank}: buffer {slot} written per access.rs: {}, changed: {changed}",
                    declared[slot].1
                );
                // Read: perturbing this buffer changes some other buffer's final contents.
                let matters = [1.0e6, -1.0e6].into_iter().any(|d| {
                    let out = run(&plans(case, Some((rank, slot, d))));
                    (0..N).any(|r| (0..2).any(|s| (r, s) != (rank, slot) && out[r][s] != base[r][s]))
                });
                assert_eq!(
                    declared[slot].0, matters,
                    "{case:?} on rank {rank}: buffer {slot} read per access.rs: {}, matters: {matters}",
                    declared[slot].0
                );
            }
        }
    }
}

#[test]
fn blocks_stream_is_the_communicators_rule() {
    for case in all_cases() {
        let plans = plans(case, None);
        let comm = Communicator::new(N, Duration::from_secs(10));
        let results = run_ranks(|r| -> RtResult<Vec<(bool, bool)>> {
            let mut seen = Vec::new();
            for op in &plans[r].ops {
                let req = post_comm(&comm, &PostInfo::new(r, key(op.name(), 1)), op)?;
                seen.push((op.blocks_stream(), req.blocks_stream()));
                req.wait(comm.deadline())?;
            }
            Ok(seen)
        });
        for (r, res) in results.into_iter().enumerate() {
            for (ours, theirs) in res.unwrap_or_else(|e| panic!("{case:?} rank {r}: {e}")) {
                assert_eq!(ours, theirs, "{case:?} on rank {r}: CommOp::blocks_stream disagrees with the request");
            }
        }
    }
}

/// Where a probe access of an op's buffer goes, relative to the op's post on worker stream 0:
/// on that stream or another, before any wait or after a `comm.wait` on the probing stream.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Probe {
    same_stream: bool,
    after_wait: bool,
}

/// Posts the plans with the race checker on: setup ops waited at once, the op under test on
/// worker stream 0, then per declared access of the rank a conflicting probe (a copy out of a
/// buffer the op writes, into one it reads) placed as `probe` says. Per rank: per probe,
/// whether it was reported as a race; then the result of `finish`.
fn probe_run(plans: &[Plan], probe: Probe) -> Vec<(Vec<bool>, RtResult<()>)> {
    let b = CpuBackend::new(N, false, Duration::from_secs(10)).with_race_checker();
    run_ranks(|r| {
        let mut reported = Vec::new();
        let result = (|| -> RtResult<()> {
            let (post_on, other) = (b.worker_stream(r, 0)?, b.worker_stream(r, 1)?);
            let Some((test, setup)) = plans[r].ops.split_last() else { return b.finish(r) };
            for op in setup {
                let req = b.post(r, &post_on, op.clone(), &key(op.name(), 1))?;
                b.wait(r, &post_on, &[req], &key("comm.wait", 2))?;
            }
            let req = b.post(r, &post_on, test.clone(), &key(test.name(), 3))?;
            let on = if probe.same_stream { &post_on } else { &other };
            if probe.after_wait {
                b.wait(r, on, std::slice::from_ref(&req), &key("comm.wait", 4))?;
            }
            for (view, write) in test.accesses(r) {
                let scratch = CpuBackend::new_buffer(view.dtype(), &view.shape)?;
                let k = if write {
                    Kernel::Copy { source: view.clone(), target: scratch }
                } else {
                    Kernel::Copy { source: scratch, target: view.clone() }
                };
                reported.push(b.compute(r, on, k, &key("host.copy", 5)).is_err());
            }
            if !probe.after_wait {
                b.wait(r, &post_on, &[req], &key("comm.wait", 6))?;
            }
            b.finish(r)
        })();
        (reported, result)
    })
}

#[test]
fn every_buffer_of_an_op_is_in_use_until_its_wait() {
    for case in all_cases() {
        for (same_stream, after_wait) in [(true, false), (false, false), (false, true), (true, true)] {
            let probe = Probe { same_stream, after_wait };
            let plans = plans(case, None);
            for (r, (reported, result)) in probe_run(&plans, probe).into_iter().enumerate() {
                let Some(op) = plans[r].op() else { continue };
                // Before the wait, only an op that holds its stream is ordered before that
                // stream's later work; after a wait every op is.
                let ordered = after_wait || (same_stream && op.blocks_stream());
                let expected = !ordered;
                assert!(
                    reported.iter().all(|&x| x == expected),
                    "{case:?} on rank {r}, {probe:?}: races reported per access {reported:?}, expected {expected}"
                );
                // A reported race fails its probe only, not the run.
                result.unwrap_or_else(|e| panic!("{case:?} on rank {r}, {probe:?}: {e}"));
            }
        }
    }
}

#[test]
fn a_non_blocking_op_never_waited_for_fails_the_run() {
    for case in all_cases() {
        let plans = plans(case, None);
        let b = CpuBackend::new(N, false, Duration::from_secs(10)).with_race_checker();
        let results = run_ranks(|r| -> RtResult<()> {
            let main = b.main_stream(r)?;
            for op in &plans[r].ops {
                b.post(r, &main, op.clone(), &key(op.name(), 7))?;
            }
            b.finish(r)
        });
        for (r, result) in results.into_iter().enumerate() {
            match (plans[r].op(), result) {
                (Some(op), Err(e)) if !op.blocks_stream() => {
                    let e = e.to_string();
                    let want = format!("{} at t.mlir:7:3 on rank {r} stream 0 is never waited for", op.name());
                    assert!(e.contains(&want), "{case:?} on rank {r}: {e}");
                }
                (Some(op), Ok(())) if !op.blocks_stream() => panic!("{case:?} on rank {r}: the missing wait passed"),
                (_, Err(e)) => panic!("{case:?} on rank {r}: {e}"),
                (_, Ok(())) => {}
            }
        }
    }
}

#[test]
fn a_linear_reads_its_bias_and_residual_and_writes_its_output() {
    let k: Kernel<u32> =
        Kernel::Linear { x: 1, w: 2, bias: Some(3), residual: Some(4), y: 5, accumulate: false, epilogue: None };
    let got: Vec<(u32, bool)> = k.accesses().into_iter().map(|(b, w)| (*b, w)).collect();
    assert_eq!(got, vec![(1, false), (2, false), (3, false), (4, false), (5, true)]);
}
