//! Capture planning for graph replay (`fuser-run --cuda-graph`): which instructions of a
//! prepared [`Program`] can be recorded once into a CUDA graph and replayed, and the iteration
//! schedule of a captured run.
//!
//! A captured iteration must enqueue only stream work whose effect repeats exactly on replay:
//! kernels, copies, stream orderings (events), NCCL collectives and NCCL sends/receives.
//! Not capturable (the run then falls back to eager execution, with a note naming the op):
//! - `host.synchronize`: the host waits for a stream, which a capture cannot express;
//! - `cuda_ipc` transfers (sends, receives and the copy-engine collectives): the copier's host matches its counterpart's post at enqueue time,
//!   the flag values grow by one per message (a replay would write and wait for the values of
//!   the captured iteration), and the ready event belongs to another rank's capture.
//!
//! Allocation: the schedule runs at least one eager iteration before the capture, so that the
//! caching allocator, the NCCL communicators and the GEMM workspaces exist; the capture then
//! takes cached blocks, and the backend keeps every block the captured iteration touched
//! until the graph goes (see `cuda::graph`).
//!
//! Invariant: this module knows no backend; it only reads the program.

use super::prepare::{CommInstr, Instr, Program};
use fuser_dialects::comm::attrs::Backend as Transport;

/// An instruction that keeps a program from being captured, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocker {
    /// The instruction's index in [`Program::instrs`].
    pub pc: usize,
    pub reason: String,
}

impl Blocker {
    /// `'host.synchronize' at f.mlir:3:5: the host waits ...` (for the fallback note).
    pub fn describe(&self, prog: &Program) -> String {
        match prog.keys.get(self.pc) {
            Some(k) => format!("{k}: {}", self.reason),
            None => self.reason.clone(),
        }
    }
}

/// Why `instr` cannot be captured, or `None` when it can.
pub fn blocker(instr: &Instr) -> Option<String> {
    match instr {
        Instr::Synchronize { .. } => {
            Some("the host waits for a stream (host.synchronize), which a graph cannot replay".into())
        }
        Instr::Comm { op, .. } if is_cuda_ipc(op) => Some(
            "cuda_ipc transfers are matched on the host per message and signal with growing flag values, \
             which a replay would repeat"
                .into(),
        ),
        _ => None,
    }
}

/// A transfer over CUDA IPC: a send or receive, or a copy-engine collective of any kind (its
/// pieces move as CUDA IPC gets with the same flags).
fn is_cuda_ipc(op: &CommInstr) -> bool {
    matches!(
        op,
        CommInstr::Send { transport: Transport::CudaIpc, .. }
            | CommInstr::Recv { transport: Transport::CudaIpc, .. }
            | CommInstr::AllGather { transport: Transport::CudaIpc, .. }
            | CommInstr::AllReduce { transport: Transport::CudaIpc, .. }
            | CommInstr::ReduceScatter { transport: Transport::CudaIpc, .. }
            | CommInstr::Broadcast { transport: Transport::CudaIpc, .. }
            | CommInstr::Reduce { transport: Transport::CudaIpc, .. }
            | CommInstr::Gather { transport: Transport::CudaIpc, .. }
            | CommInstr::Scatter { transport: Transport::CudaIpc, .. }
            | CommInstr::AllToAll { transport: Transport::CudaIpc, .. }
            | CommInstr::CollectivePermute { transport: Transport::CudaIpc, .. }
    )
}

/// Every instruction of `prog` that cannot be captured (empty: the program can be).
pub fn blockers(prog: &Program) -> Vec<Blocker> {
    prog.instrs.iter().enumerate().filter_map(|(pc, i)| blocker(i).map(|reason| Blocker { pc, reason })).collect()
}

/// What a rank does in iteration `it` of a run of `warmup` + `iters` iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Run the program eagerly (timed when `timed`).
    Eager { timed: bool },
    /// Run the program once into a graph (nothing executes), then replay it once, untimed.
    Capture,
    /// Launch the graph (timed when `timed`).
    Replay { timed: bool },
}

/// The schedule of a run: eager, or with `graph`: `max(warmup, 1)` eager iterations
/// (allocations, communicators, workspaces), the capture, then `iters` timed replays.
pub fn schedule(warmup: usize, iters: usize, graph: bool) -> Vec<Step> {
    let iters = iters.max(1);
    if !graph {
        return (0..warmup + iters).map(|i| Step::Eager { timed: i >= warmup }).collect();
    }
    let eager = warmup.max(1);
    let mut s: Vec<Step> = (0..eager).map(|_| Step::Eager { timed: false }).collect();
    s.push(Step::Capture);
    s.extend((0..iters).map(|_| Step::Replay { timed: true }));
    s
}

/// Iterations that execute the program in a schedule (a capture executes one: its replay).
pub fn executed(steps: &[Step]) -> usize {
    steps.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::diag::SourceFile;
    use fuser_ir::{Context, Ir};

    fn prepared(text: &str) -> Program {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let m = fuser_ir::parser::parse_source_all(&ctx, &mut ir, &SourceFile::new("t.mlir", text.into())).unwrap();
        let f = crate::driver::first_function(&ctx, &ir, m).unwrap();
        super::super::prepare(&ctx, &ir, f).unwrap()
    }

    #[test]
    fn streams_kernels_and_nccl_capture_but_host_syncs_and_cuda_ipc_do_not() {
        let capturable = prepared(
            r#"
func.func @f(%a: !host.buf<4xf32>) -> !host.buf<4xf32> {
  %c0 = arith.constant 0 : index
  %s = host.get_stream %c0 : !host.stream
  %m = host.current_stream : !host.stream
  host.set_stream %s
  host.stream_wait %m
  %o = host.alloc() : !host.buf<4xf32>
  host.elementwise add %a, %a into %o : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  %r = comm.allreduce sum %o into %o team = [0] : !host.buf<4xf32>, !host.buf<4xf32>
  comm.wait %r
  host.set_stream %m
  host.stream_wait %s
  return %o : !host.buf<4xf32>
}"#,
        );
        assert_eq!(blockers(&capturable), vec![]);
        let synced = prepared(
            r#"
func.func @f(%a: !host.buf<4xf32>) -> !host.buf<4xf32> {
  %m = host.current_stream : !host.stream
  host.elementwise add %a, %a into %a : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  host.synchronize %m
  return %a : !host.buf<4xf32>
}"#,
        );
        let b = blockers(&synced);
        assert_eq!(b.len(), 1, "{b:?}");
        assert!(b[0].describe(&synced).contains("host.synchronize"), "{}", b[0].describe(&synced));
        let ipc = prepared(
            r#"
func.func @f(%a: !host.buf<4xf32, ipc>) -> !host.buf<4xf32, ipc> {
  %c1 = arith.constant 1 : index
  %s = comm.send %a to %c1 backend = cuda_ipc : !host.buf<4xf32, ipc>
  comm.wait %s
  %n = comm.send %a to %c1 : !host.buf<4xf32, ipc>
  comm.wait %n
  %r = comm.allreduce sum %a into %a team = [0, 1] backend = cuda_ipc : !host.buf<4xf32, ipc>, !host.buf<4xf32, ipc>
  comm.wait %r
  return %a : !host.buf<4xf32, ipc>
}"#,
        );
        let b = blockers(&ipc);
        assert_eq!(b.len(), 2, "the cuda_ipc send and allreduce block, not the nccl send: {b:?}");
        assert!(b.iter().all(|x| x.reason.contains("cuda_ipc")));
        assert!(b[1].describe(&ipc).contains("comm.allreduce"), "{}", b[1].describe(&ipc));
    }

    #[test]
    fn a_graph_schedule_runs_eagerly_first_then_captures_once_and_replays_the_timed_iterations() {
        use Step::*;
        assert_eq!(schedule(1, 2, false), vec![Eager { timed: false }, Eager { timed: true }, Eager { timed: true }]);
        assert_eq!(
            schedule(0, 2, true),
            vec![Eager { timed: false }, Capture, Replay { timed: true }, Replay { timed: true }]
        );
        let s = schedule(3, 1, true);
        assert_eq!(s.iter().filter(|x| matches!(x, Eager { .. })).count(), 3);
        assert_eq!(s.iter().filter(|x| matches!(x, Capture)).count(), 1);
        assert_eq!(s.iter().filter(|x| matches!(x, Replay { timed: true })).count(), 1);
        assert_eq!(executed(&s), 5);
        assert_eq!(schedule(0, 0, false), vec![Eager { timed: true }], "at least one measured iteration");
    }
}

#[cfg(test)]
mod kind_tests {
    use super::{Transport, blocker};
    use crate::exec::prepare::{CommInstr, Instr};
    use fuser_dialects::reduction::ReductionKind;

    /// Every collective kind, with the given transport.
    fn collectives(transport: Transport) -> Vec<CommInstr> {
        let team = vec![0, 1];
        let reduction = ReductionKind::Sum;
        vec![
            CommInstr::AllGather { input: 0, output: 1, team: team.clone(), transport },
            CommInstr::AllReduce { input: 0, output: 1, team: team.clone(), reduction, transport },
            CommInstr::ReduceScatter { input: 0, output: 1, team: team.clone(), reduction, transport },
            CommInstr::Broadcast { input: 0, output: 1, team: team.clone(), root: 2, transport },
            CommInstr::Reduce { input: 0, output: 1, team: team.clone(), root: 2, reduction, transport },
            CommInstr::Gather { input: 0, output: 1, team: team.clone(), root: 2, transport },
            CommInstr::Scatter { input: 0, output: 1, team: team.clone(), root: 2, transport },
            CommInstr::AllToAll { input: 0, output: 1, team: team.clone(), transport },
            CommInstr::CollectivePermute { input: 0, output: 1, team, send_to: 2, recv_from: 3, transport },
        ]
    }

    #[test]
    fn every_cuda_ipc_collective_runs_eagerly_and_no_nccl_one_does() {
        for op in collectives(Transport::CudaIpc) {
            let what = format!("{op:?}");
            assert!(blocker(&Instr::Comm { op, dst: None }).is_some_and(|r| r.contains("cuda_ipc")), "{what}");
        }
        for op in collectives(Transport::Nccl) {
            let what = format!("{op:?}");
            assert_eq!(blocker(&Instr::Comm { op, dst: None }), None, "{what}");
        }
    }
}
