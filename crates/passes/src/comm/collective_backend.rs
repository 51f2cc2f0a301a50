//! `comm-collective-backend{backend=nccl|cuda_ipc}`: chooses the implementation of the
//! communications: sets `backend` on every collective of the function (at any depth; with
//! `nccl`, those inside `comm.group`s are left alone: a group is one NCCL group already).
//!
//! `cuda_ipc` is the copy-engine implementation (docs/dev/copy-engine.md): the data moves by
//! copy-engine copies between CUDA IPC-mapped buffers, so a stream-chunked GEMM keeps every SM
//! while the collective of another chunk runs, and ranks sharing one GPU (which NCCL refuses)
//! can communicate. With `cuda_ipc` nothing is left for NCCL:
//!
//! - every collective kind gets `backend = cuda_ipc`;
//! - an NCCL `comm.send`/`comm.recv` becomes a CUDA IPC `get` transfer; each run of them
//!   separated only by index math gets one `comm.share_handles` of its (buffer, peer) pairs
//!   before its first (the index math between them moves before it);
//! - a `comm.group` is *ungrouped*: its pure ops (index math) move before it, then one
//!   `comm.share_handles` of its sends and receives, its sends, its collectives and its
//!   receives, in that order (a `get` send only signals and never blocks, so the receives of
//!   every rank find their senders posted: the order deadlock a group prevents cannot
//!   happen), each with `backend = cuda_ipc`; every `comm.wait` on the group's request waits
//!   on the moved posts' requests instead. A group whose request has another use than a
//!   `comm.wait`, or that sends (or receives) one buffer to (from) two peers (a
//!   `comm.share_handles` names one peer per buffer and direction), is an error naming it.
//!
//! Invariant: the semantics (and so every result) are the same under either backend, which is
//! what the differential matrix checks.

use crate::host::build::{is, is_pure};
use fuser_dialects::comm::{self, Backend, backend_attr};
use fuser_ir::Diagnostic;
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, Value, WalkOrder};
use fuser_ir::pass::{EnumCase, OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};

static BACKENDS: &[EnumCase] = &[
    EnumCase { name: "nccl", description: "NCCL's collective kernels" },
    EnumCase { name: "cuda_ipc", description: "Copy-engine copies between CUDA IPC-mapped buffers" },
];
static OPTIONS: &[OptionDef] =
    &[OptionDef::new("backend", OptionType::Enum(BACKENDS), "nccl", "Implementation of the collectives")];

pub static COMM_COLLECTIVE_BACKEND: PassInfo = PassInfo {
    name: "comm-collective-backend",
    display: "CommCollectiveBackend",
    summary: "Choose NCCL or the copy-engine (CUDA IPC) implementation of every communication",
    description: "Sets `backend = B` on every collective of the function (allgather, allreduce, \
reduce_scatter, broadcast, reduce, gather, scatter, all_to_all, collective_permute). `cuda_ipc` \
selects the copy-engine implementation (data moved by copy-engine copies between CUDA \
IPC-mapped buffers, reductions by one small kernel), which leaves the SMs to concurrent GEMMs \
and lets ranks share a GPU; `nccl` selects NCCL (collectives inside a `comm.group` are left \
alone then). With `cuda_ipc` no NCCL op remains: NCCL sends and receives become CUDA IPC `get` \
transfers (each run of them separated only by index math preceded by one `comm.share_handles` of \
their buffers), and every `comm.group` is \
ungrouped (its index math, one `comm.share_handles`, its sends, collectives and receives in that \
order, all `cuda_ipc`; waits on the group wait on the moved posts); a group whose request is used \
other than by `comm.wait`, or that pairs one buffer with two peers in one direction, is an error. \
The results are the same under either backend.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| {
        let backend = Backend::from_keyword(o.get_str("backend")).unwrap_or_default();
        Ok(Box::new(CollectiveBackend { backend, values: o.clone() }))
    },
};

struct CollectiveBackend {
    backend: Backend,
    values: OptionValues,
}

impl Pass for CollectiveBackend {
    fn info(&self) -> &'static PassInfo {
        &COMM_COLLECTIVE_BACKEND
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        Ok(PassOutcome::from_changed(set_collective_backend(ctx, ir, func, self.backend)?))
    }
}

/// Sets `backend` on the collectives of `func` (with `cuda_ipc`: every communication, groups
/// ungrouped, see the module docs); returns whether an op changed.
pub fn set_collective_backend(ctx: &Context, ir: &mut Ir, func: OpId, backend: Backend) -> Result<bool, Diagnostic> {
    let mut changed = false;
    if backend == Backend::CudaIpc {
        // Groups first (ungrouping erases the group, and the waits an empty group leaves).
        let groups: Vec<OpId> = ir
            .collect_ops(func, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&op| is(ctx, ir, op, comm::GROUP.name))
            .collect();
        for group in groups {
            ungroup(ctx, ir, group)?;
            changed = true;
        }
        let p2p: Vec<OpId> =
            ir.collect_ops(func, WalkOrder::PreOrder).into_iter().filter(|&op| is_nccl_p2p(ctx, ir, op)).collect();
        let mut blocks: Vec<BlockId> = Vec::new();
        for &op in &p2p {
            if let Some(b) = ir.op_block(op).filter(|b| !blocks.contains(b)) {
                blocks.push(b);
            }
        }
        for b in blocks {
            for (run, pures) in p2p_runs(ctx, ir, b) {
                for p in pures {
                    ir.move_op_before(p, run[0]);
                }
                share_before(ctx, ir, &run, run[0])?;
                for &op in &run {
                    set_backend(ctx, ir, op, backend);
                }
                changed = true;
            }
        }
    }
    let targets: Vec<OpId> = ir
        .collect_ops(func, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&op| comm::collectives::has_copy_engine_form(ctx.op_name_str(ir.op_name(op))))
        .filter(|&op| !ir.parent_op(op).is_some_and(|p| is(ctx, ir, p, comm::GROUP.name)))
        .filter(|&op| comm::backend(ctx, ir, op) != backend)
        .collect();
    for &op in &targets {
        set_backend(ctx, ir, op, backend);
    }
    Ok(changed || !targets.is_empty())
}

fn is_nccl_p2p(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    (is(ctx, ir, op, comm::SEND.name) || is(ctx, ir, op, comm::RECV.name))
        && comm::backend(ctx, ir, op) == Backend::Nccl
}

/// The runs of NCCL sends/receives of block `b` separated only by pure ops (index math), each
/// with the pure ops between its transfers. One `comm.share_handles` per run: separate
/// exchanges per transfer would deadlock a ring (every rank's host waiting in its first
/// exchange for its neighbour's second).
fn p2p_runs(ctx: &Context, ir: &Ir, b: BlockId) -> Vec<(Vec<OpId>, Vec<OpId>)> {
    let mut runs = Vec::new();
    let (mut run, mut pures, mut pending) = (Vec::new(), Vec::new(), Vec::new());
    for op in ir.block_ops(b) {
        if is_nccl_p2p(ctx, ir, op) {
            run.push(op);
            pures.append(&mut pending);
        } else if is_pure(ctx, ir, op) && !run.is_empty() {
            pending.push(op);
        } else {
            if !run.is_empty() {
                runs.push((std::mem::take(&mut run), std::mem::take(&mut pures)));
            }
            pending.clear();
        }
    }
    if !run.is_empty() {
        runs.push((run, pures));
    }
    runs
}

fn set_backend(ctx: &Context, ir: &mut Ir, op: OpId, backend: Backend) {
    let props = ir.props(op).unwrap_or_else(|| ctx.empty_dict());
    ir.set_props(op, Some(ctx.dict_set(props, "backend", Some(backend_attr(ctx, backend)))));
}

/// Inserts before `anchor` one `comm.share_handles` of the (buffer, peer) pairs of the sends
/// and receives among `posts` (nothing when there are none).
fn share_before(ctx: &Context, ir: &mut Ir, posts: &[OpId], anchor: OpId) -> Result<(), Diagnostic> {
    let mut sends: Vec<(Value, Value)> = Vec::new();
    let mut recvs: Vec<(Value, Value)> = Vec::new();
    for &op in posts {
        let list = if is(ctx, ir, op, comm::SEND.name) {
            &mut sends
        } else if is(ctx, ir, op, comm::RECV.name) {
            &mut recvs
        } else {
            continue;
        };
        let (Some(buffer), Some(peer)) = (comm::buffer(ctx, ir, op), comm::peer(ctx, ir, op)) else { continue };
        match list.iter().find(|(b, _)| *b == buffer) {
            Some(&(_, p)) if p == peer => {}
            Some(_) => {
                return Err(Diagnostic::error(
                    ir.loc(anchor),
                    format!(
                        "comm-collective-backend{{backend=cuda_ipc}}: this {} uses one buffer with two peers in one \
direction, which a comm.share_handles cannot name (one peer per buffer and direction); use one buffer per peer",
                        ctx.op_name_str(ir.op_name(anchor))
                    ),
                ));
            }
            None => list.push((buffer, peer)),
        }
    }
    if sends.is_empty() && recvs.is_empty() {
        return Ok(());
    }
    let state = comm::share_handles_state(ctx, &sends, &recvs, ir.loc(anchor));
    let share = ir.create_op(state);
    ir.insert_op_before(anchor, share);
    Ok(())
}

/// Replaces the `comm.group` `group` by its body's ops, made CUDA IPC (module docs).
fn ungroup(ctx: &Context, ir: &mut Ir, group: OpId) -> Result<(), Diagnostic> {
    let request = ir.result(group, 0);
    if ir.uses(request).any(|u| !is(ctx, ir, u.op, comm::WAIT.name)) {
        return Err(Diagnostic::error(
            ir.loc(group),
            "comm-collective-backend{backend=cuda_ipc} cannot ungroup this comm.group: its request is used by an op \
other than comm.wait (wait on it directly, or keep backend=nccl)",
        ));
    }
    let body: Vec<OpId> = match ir.regions(group).first().and_then(|&r| ir.region_entry(r)) {
        Some(b) => ir.block_ops(b).collect(),
        None => Vec::new(),
    };
    let posts: Vec<OpId> = body.iter().copied().filter(|&op| comm::comm_def(ctx, ir, op).is_some()).collect();
    let (sends, rest): (Vec<OpId>, Vec<OpId>) = posts.iter().partition(|&&op| is(ctx, ir, op, comm::SEND.name));
    let (recvs, collectives): (Vec<OpId>, Vec<OpId>) = rest.iter().partition(|&&op| is(ctx, ir, op, comm::RECV.name));
    for &op in body.iter().filter(|op| !posts.contains(op)) {
        ir.move_op_before(op, group);
    }
    share_before(ctx, ir, &posts, group)?;
    let ordered: Vec<OpId> = sends.iter().chain(&collectives).chain(&recvs).copied().collect();
    let mut requests = Vec::new();
    for &op in &ordered {
        ir.move_op_before(op, group);
        set_backend(ctx, ir, op, Backend::CudaIpc);
        requests.extend(ir.results(op).iter().copied());
    }
    let waits: Vec<OpId> = ir.uses(request).map(|u| u.op).collect();
    for w in waits {
        let mut operands: Vec<Value> = Vec::new();
        for v in ir.operands(w) {
            let add: Vec<Value> = if v == request { requests.clone() } else { vec![v] };
            for a in add {
                if !operands.contains(&a) {
                    operands.push(a);
                }
            }
        }
        if operands.is_empty() {
            ir.erase_op(w);
        } else {
            ir.set_operands(w, &operands);
        }
    }
    ir.erase_op(group);
    Ok(())
}
