//! `comm-p2p-ring{backend=nccl|cuda_ipc protocol=get|put}`: turns the broadcast-based
//! AllGather + Matmul pipeline that `fusion-to-host` emits for a DID→Stream resharding (one
//! `comm.broadcast root %i` per iteration of a `host.for %i = 0 to d`) into a ring of
//! point-to-point copies (nvFuser PR 5259), where every rank computes a different chunk in each
//! iteration and only talks to its neighbours:
//!
//! ```text
//! iteration i on rank r of d:  t = (r + i) mod d      the chunk computed (= recv peer)
//!                              s = (d + r - i) mod d  the rank that needs my shard now
//! i == 0:  host.copy local shard -> chunk            (the local chunk is copied, not received)
//! i > 0:   nccl:      comm.group { send shard to s; recv chunk from t }; wait group
//!          cuda_ipc:  get: send, recv | put: recv, send (the protocol's order on one stream);
//!                     wait recv
//!          ... the rest of the iteration (the matmul on the chunk) ...
//!          cuda_ipc:  wait send (at the end of the iteration, not before the matmul)
//! ```
//! Every other use of the loop index in the body (the views that pick this iteration's chunk of
//! the output) reads `t` instead, so the output chunks land where they belong. With `cuda_ipc`
//! the buffers peers open must be persistent (identical across runs and ranks): the shard is
//! staged into a persistent `ipc` buffer before the loop, a per-iteration chunk allocation
//! becomes a view of one persistent `ipc` buffer, and the handles of every (buffer, peer) pair
//! the loop will use are exchanged once, before it. With `stage-buffers=false` a non-persistent
//! buffer is diagnosed instead.
//!
//! With `cuda_ipc` a receive buffer that is neither persistent nor a per-iteration allocation
//! (a view of the gathered tensor, say, which the function also returns) is received into a
//! slot of a persistent `ipc` staging buffer and copied from there to where the body reads it.
//!
//! Only loops `host.for %i = 0 to d step 1` (constants) whose broadcast has a team of `d`
//! consecutive devices `base, ..., base + d - 1` and root `%i` are rewritten; other loops are
//! left alone. Loops of the same shape around a `comm.reduce root %i` become the ring
//! reduce-scatter ([`rewrite_reduce_ring`]), over NCCL or CUDA IPC.
//!
//! Invariant: a loop is rewritten only when the matched broadcast (or reduce) is the only
//! communication in it. In a ring every rank works on a different chunk in the same iteration,
//! so any other communication of the body (a collective over the chunk, a `comm.reduce root
//! %i` after the GEMM, p2p with peers computed from `%i`) would pair different chunks, or name
//! different roots, on different ranks; such loops keep their broadcast-based pipeline.

use crate::host::build::{Placement, defined_outside, is, place};
use fuser_dialects::comm::{self, Backend, Protocol};
use fuser_dialects::host::types::{BufferType, MemoryKind, buf_type};
use fuser_dialects::{arith, host, int_const};
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, IrMapping, OpId, OperationState, Value, WalkOrder};
use fuser_ir::pass::{EnumCase, OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};
use fuser_ir::{Attr, Diagnostic};

static BACKENDS: &[EnumCase] = &[
    EnumCase { name: "nccl", description: "NCCL send/recv, one coalesced group per ring step" },
    EnumCase { name: "cuda_ipc", description: "Copy-engine copies through CUDA IPC handles" },
];
static PROTOCOLS: &[EnumCase] = &[
    EnumCase { name: "get", description: "The receiver reads the sender's buffer (send signals, then receive)" },
    EnumCase { name: "put", description: "The sender writes the receiver's buffer (receive signals, then send)" },
];
static OPTIONS: &[OptionDef] = &[
    OptionDef::new("backend", OptionType::Enum(BACKENDS), "nccl", "Transport of the ring"),
    OptionDef::new("protocol", OptionType::Enum(PROTOCOLS), "get", "CUDA IPC protocol (ignored with nccl)"),
    OptionDef::new(
        "stage-buffers",
        OptionType::Bool,
        "true",
        "With cuda_ipc, make the buffers peers open persistent (else diagnose them)",
    ),
];

pub static COMM_P2P_RING: PassInfo = PassInfo {
    name: "comm-p2p-ring",
    display: "CommP2PRing",
    summary: "Turn per-iteration broadcasts of an AllGather pipeline into a point-to-point ring",
    description: "Rewrites `host.for %i = 0 to d` loops whose body broadcasts rank `%i`'s shard \
(`comm.broadcast root %i`, team of d consecutive devices) into a ring: iteration i on rank r \
computes chunk (r+i) mod d, receives it from rank (r+i) mod d and sends its own shard to rank \
(d+r-i) mod d; at i = 0 the local shard is copied. NCCL uses one coalesced group per step; CUDA \
IPC orders send and receive by protocol, exchanges handles once before the loop and waits for \
the send at the end of the iteration. Loops that reduce each chunk onto its owner (`comm.reduce \
root %i`, sum) become the ring reduce-scatter: running sums travel to the next rank, each GEMM \
accumulates into the received sum (beta = 1), the loop is `host.sequential`; over CUDA IPC the \
sums live in a persistent `ipc` inbox shared with the two neighbours before the loop. Loops of max or min reduces (a partial max reduce-scattered, from `fusion.max` over a split axis) stay loops of reduces: the ring accumulates sums only. With CUDA IPC a receive buffer that is neither persistent nor allocated per iteration (a view of a returned buffer) is received into a slot of a persistent staging buffer and copied to it. A loop that communicates besides its broadcast or reduce (a per-chunk allreduce or reduce after the GEMM) is left alone: in a ring each rank works on another chunk in the same iteration, so that communication would pair different chunks on different ranks.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| {
        let backend = if o.get_str("backend") == "cuda_ipc" { Backend::CudaIpc } else { Backend::Nccl };
        let protocol = if o.get_str("protocol") == "put" { Protocol::Put } else { Protocol::Get };
        let cfg = RingConfig { backend, protocol, stage: o.get_bool("stage-buffers") };
        Ok(Box::new(P2pRing { cfg, values: o.clone() }))
    },
};

/// How the ring communicates.
#[derive(Clone, Copy, Debug)]
pub struct RingConfig {
    pub backend: Backend,
    pub protocol: Protocol,
    /// With CUDA IPC: stage non-persistent buffers into persistent ones (else diagnose).
    pub stage: bool,
}

struct P2pRing {
    cfg: RingConfig,
    values: OptionValues,
}

impl Pass for P2pRing {
    fn info(&self) -> &'static PassInfo {
        &COMM_P2P_RING
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        rewrite_rings(ctx, ir, func, self.cfg).map(PassOutcome::from_changed)
    }
}

/// A matched AllGather pipeline loop.
struct RingLoop {
    lp: OpId,
    body: BlockId,
    iv: Value,
    d: i64,
    base: i64,
    bcast: OpId,
    wait: OpId,
    src: Value,
    dst: Value,
}

/// Rewrites every matching loop of `func`; returns whether anything changed.
pub fn rewrite_rings(ctx: &Context, ir: &mut Ir, func: OpId, cfg: RingConfig) -> Result<bool, Diagnostic> {
    let loops: Vec<OpId> =
        ir.collect_ops(func, WalkOrder::PreOrder).into_iter().filter(|&op| is(ctx, ir, op, "host.for")).collect();
    let mut changed = false;
    for lp in loops {
        if let Some(ring) = match_ring(ctx, ir, lp, comm::BROADCAST.name) {
            rewrite_ring(ctx, ir, &ring, cfg)?;
            changed = true;
        } else if let Some(ring) = match_ring(ctx, ir, lp, comm::REDUCE.name)
            && is_sum(ctx, ir, ring.bcast)
        {
            // A max/min reduction per chunk (a partial max reduce-scattered: fusion.max over a
            // split axis) stays a loop of reduces: the ring accumulates sums only
            // (fuser-lowerfuzz, seed 105184).
            rewrite_reduce_ring(ctx, ir, &ring, cfg)?;
            changed = true;
        }
    }
    Ok(changed)
}

/// Whether the reduce `op` sums.
fn is_sum(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    comm::reduction_kind(ctx, ir, op).unwrap_or_default() == fuser_dialects::reduction::ReductionKind::Sum
}

fn const_of(ctx: &Context, ir: &Ir, v: Value) -> Option<i64> {
    let def = ir.defining_op(v)?;
    if !is(ctx, ir, def, "arith.constant") {
        return None;
    }
    let value = ir.props(def).and_then(|p| ctx.dict_get(p, "value"))?;
    int_const(ctx, value).and_then(|(c, _)| c.to_i64())
}

/// A loop `0 to d step 1` whose body posts `collective` (a broadcast or a reduce) with root
/// `%i` over `d` consecutive devices, waited on right away.
fn match_ring(ctx: &Context, ir: &Ir, lp: OpId, collective: &str) -> Option<RingLoop> {
    let (lb, ub, step) = (ir.operand(lp, 0), ir.operand(lp, 1), ir.operand(lp, 2));
    let (0, d, 1) = (const_of(ctx, ir, lb)?, const_of(ctx, ir, ub)?, const_of(ctx, ir, step)?) else { return None };
    let body = ir.regions(lp).first().and_then(|&r| ir.region_entry(r))?;
    let iv = *ir.block_args(body).first()?;
    let bcast = ir.block_ops(body).find(|&op| is(ctx, ir, op, collective) && comm::root(ctx, ir, op) == Some(iv))?;
    let team = comm::team(ctx, ir, bcast)?;
    let base = *team.first()?;
    let consecutive = team.iter().enumerate().all(|(k, &dev)| dev == base + k as i64);
    if team.len() as i64 != d || !consecutive {
        return None;
    }
    let request = comm::request(ctx, ir, bcast)?;
    let wait =
        ir.uses(request).map(|u| u.op).find(|&u| is(ctx, ir, u, comm::WAIT.name) && ir.op_block(u) == Some(body))?;
    if ir.num_operands(wait) != 1 || communicates_besides(ctx, ir, lp, bcast) {
        return None;
    }
    let (src, dst) = (comm::input(ctx, ir, bcast)?, comm::output(ctx, ir, bcast)?);
    Some(RingLoop { lp, body, iv, d, base, bcast, wait, src, dst })
}

/// Whether the loop `lp` holds communication other than `matched` (and the waits): any
/// collective, send/recv, group or handle exchange, at any depth.
fn communicates_besides(ctx: &Context, ir: &Ir, lp: OpId, matched: OpId) -> bool {
    ir.nested_ops(lp).into_iter().any(|op| {
        if op == matched || op == lp {
            return false;
        }
        let name = ctx.op_name_str(ir.op_name(op));
        name.starts_with("comm.") && name != comm::WAIT.name
    })
}

/// Builds ops one after another at a fixed point.
struct Emitter<'a> {
    ctx: &'a Context,
    at: Placement,
    loc: Attr,
}

impl Emitter<'_> {
    fn emit(&self, ir: &mut Ir, state: OperationState) -> OpId {
        place(ir, self.at, state)
    }
    fn value(&self, ir: &mut Ir, state: OperationState) -> Value {
        let op = self.emit(ir, state);
        ir.result(op, 0)
    }
    fn index(&self, ir: &mut Ir, n: i64) -> Value {
        let ty = self.ctx.index_type();
        let state = arith::constant_state(self.ctx, self.ctx.int_attr(ty, n), self.loc).expect("index constant");
        self.value(ir, state)
    }
    fn arith(&self, ir: &mut Ir, name: &str, a: Value, b: Value) -> Value {
        let ty = self.ctx.index_type();
        self.value(ir, arith::binary_state(self.ctx, name, a, b, ty, self.loc))
    }
}

/// `(r + i) mod d` and `(d + r - i) mod d` as absolute ranks (`+ base`), computed at `e`.
fn ring_peers(e: &Emitter<'_>, ir: &mut Ir, iv: Value, d: i64, base: i64) -> (Value, Value) {
    let rank = e.value(ir, host::rank_state(e.ctx, e.loc));
    let dv = e.index(ir, d);
    let r = if base == 0 {
        rank
    } else {
        let b = e.index(ir, base);
        e.arith(ir, "arith.subi", rank, b)
    };
    let sum = e.arith(ir, "arith.addi", r, iv);
    let recv = e.arith(ir, "arith.remui", sum, dv);
    let dr = e.arith(ir, "arith.addi", dv, r);
    let diff = e.arith(ir, "arith.subi", dr, iv);
    let send = e.arith(ir, "arith.remui", diff, dv);
    if base == 0 {
        return (recv, send);
    }
    let b = e.index(ir, base);
    (e.arith(ir, "arith.addi", recv, b), e.arith(ir, "arith.addi", send, b))
}

fn rewrite_ring(ctx: &Context, ir: &mut Ir, ring: &RingLoop, cfg: RingConfig) -> Result<(), Diagnostic> {
    let loc = ir.loc(ring.bcast);
    let ipc = matches!(cfg.backend, Backend::CudaIpc);
    let bufs = if ipc {
        persistent_buffers(ctx, ir, ring, cfg.stage)?
    } else {
        RingBuffers { src: ring.src, recv: ring.dst, exported: ring.dst, chunk: ring.dst }
    };
    let (src, dst) = (bufs.src, bufs.recv);
    // Index math at the top of the body; every other use of the loop index reads the chunk.
    let first_op = ir.first_op(ring.body).expect("the body holds the broadcast");
    let top = Emitter { ctx, at: Placement::Before(first_op), loc };
    let (chunk, send_peer) = ring_peers(&top, ir, ring.iv, ring.d, ring.base);
    let chunk_index = if ring.base == 0 { chunk } else { relative(&top, ir, chunk, ring.base) };
    let math_end = first_op;
    let iv = ring.iv;
    ir.replace_uses_where(iv, chunk_index, |ir, u| {
        ir.op_block(u.op).is_some() && !precedes(ir, u.op, math_end) && u.op != ring.bcast
    });
    // Split the body: the broadcast and its wait go; what follows the wait runs in both
    // branches of `host.if i == 0`.
    let tail: Vec<OpId> = following(ir, ring.wait);
    let here = Emitter { ctx, at: Placement::Before(ring.wait), loc };
    let zero = here.index(ir, 0);
    let first = here.value(ir, arith::cmpi_state(ctx, ir, arith::CmpPredicate::Eq, iv, zero, loc));
    let (if_state, then_block, else_block) = host::if_state(ctx, ir, first, true, loc);
    let else_block = else_block.expect("if with else");
    let then_e = Emitter { ctx, at: Placement::End(then_block), loc };
    then_e.emit(ir, host::copy_state(ctx, src, bufs.chunk, loc));
    clone_ops(ir, &tail, then_block);
    let else_e = Emitter { ctx, at: Placement::End(else_block), loc };
    let pending_send = post_step(&else_e, ir, cfg, src, dst, send_peer, chunk);
    if bufs.chunk != dst {
        else_e.emit(ir, host::copy_state(ctx, dst, bufs.chunk, loc));
    }
    clone_ops(ir, &tail, else_block);
    if let Some(s) = pending_send {
        else_e.emit(ir, comm::wait_state(ctx, &[s], loc));
    }
    here.emit(ir, if_state);
    for op in tail.into_iter().rev() {
        ir.erase_op(op);
    }
    ir.erase_op(ring.wait);
    ir.erase_op(ring.bcast);
    if ipc {
        exchange_handles_before(ctx, ir, ring, src, bufs.exported, loc);
    }
    Ok(())
}

/// The buffers of one ring step.
struct RingBuffers {
    /// The shard sent to the peers.
    src: Value,
    /// Where a step receives its chunk.
    recv: Value,
    /// The buffer whose handle the peers open for `recv` (the persistent buffer it views).
    exported: Value,
    /// Where the body reads the chunk: `recv` itself, or the original destination that a
    /// staged receive is copied to.
    chunk: Value,
}

/// `abs - base`.
fn relative(e: &Emitter<'_>, ir: &mut Ir, abs: Value, base: i64) -> Value {
    let b = e.index(ir, base);
    e.arith(ir, "arith.subi", abs, b)
}

/// Whether `a` comes before `b` in their block.
fn precedes(ir: &Ir, a: OpId, b: OpId) -> bool {
    if ir.op_block(a) != ir.op_block(b) {
        return false;
    }
    let mut cur = ir.next_op(a);
    while let Some(op) = cur {
        if op == b {
            return true;
        }
        cur = ir.next_op(op);
    }
    false
}

/// The ops after `op` in its block.
fn following(ir: &Ir, op: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut cur = ir.next_op(op);
    while let Some(o) = cur {
        out.push(o);
        cur = ir.next_op(o);
    }
    out
}

/// Clones `ops` (in order) to the end of `block`, remapping values defined among them.
fn clone_ops(ir: &mut Ir, ops: &[OpId], block: BlockId) {
    let mut mapping = IrMapping::new();
    for &op in ops {
        let c = ir.clone_op(op, &mut mapping);
        ir.append_op(block, c);
    }
}

/// Posts one ring step; returns the send request still to wait for (CUDA IPC).
fn post_step(
    e: &Emitter<'_>,
    ir: &mut Ir,
    cfg: RingConfig,
    src: Value,
    dst: Value,
    send_peer: Value,
    recv_peer: Value,
) -> Option<Value> {
    let (ctx, loc) = (e.ctx, e.loc);
    match cfg.backend {
        Backend::Nccl => {
            let (group, block) = comm::group_state(ctx, ir, loc);
            let inner = Emitter { ctx, at: Placement::End(block), loc };
            inner.emit(ir, comm::send_state(ctx, src, send_peer, Backend::Nccl, None, loc));
            inner.emit(ir, comm::recv_state(ctx, dst, recv_peer, Backend::Nccl, None, loc));
            let g = e.value(ir, group);
            e.emit(ir, comm::wait_state(ctx, &[g], loc));
            None
        }
        Backend::CudaIpc => {
            let p = Some(cfg.protocol);
            let send = |ir: &mut Ir| e.value(ir, comm::send_state(ctx, src, send_peer, Backend::CudaIpc, p, loc));
            let recv = |ir: &mut Ir| e.value(ir, comm::recv_state(ctx, dst, recv_peer, Backend::CudaIpc, p, loc));
            let (s, r) = match cfg.protocol {
                Protocol::Get => {
                    let s = send(ir);
                    (s, recv(ir))
                }
                Protocol::Put => {
                    let r = recv(ir);
                    (send(ir), r)
                }
            };
            e.emit(ir, comm::wait_state(ctx, &[r], loc));
            Some(s)
        }
    }
}

fn is_persistent_alloc(ctx: &Context, ir: &Ir, v: Value) -> bool {
    ir.defining_op(v).is_some_and(|op| {
        is(ctx, ir, op, "host.alloc") && ir.props(op).and_then(|p| ctx.dict_get(p, "persistent")).is_some()
    })
}

/// With CUDA IPC: the shard and the chunk buffer as persistent `ipc` buffers (staged when
/// `stage`, diagnosed otherwise). A per-iteration allocation of the chunk becomes a view of one
/// persistent buffer; any other non-persistent destination (a view of a buffer the function
/// returns, say) is received into a slot of a persistent staging buffer and copied to it.
fn persistent_buffers(ctx: &Context, ir: &mut Ir, ring: &RingLoop, stage: bool) -> Result<RingBuffers, Diagnostic> {
    let loc = ir.loc(ring.bcast);
    let not_persistent = |what: &str| {
        Diagnostic::error(
            loc,
            format!(
                "comm-p2p-ring with cuda_ipc needs persistent buffers (identical across runs and ranks), but the {what} \
is not; allocate it `persistent` (host-hoist-alloc{{persistent=true}}) or let the pass stage it (stage-buffers=true)"
            ),
        )
    };
    let src = if is_persistent_alloc(ctx, ir, ring.src) {
        ring.src
    } else {
        if !stage || !defined_outside(ir, ring.src, ring.lp) {
            return Err(not_persistent("sent shard"));
        }
        let ty = BufferType::of(ctx, ir.value_type(ring.src)).ok_or_else(|| not_persistent("sent shard"))?;
        let before = Emitter { ctx, at: Placement::Before(ring.lp), loc };
        let staged_ty = buf_type(ctx, &ty.shape, ty.elem, MemoryKind::Ipc);
        let staged = before.value(ir, host::alloc_state(ctx, staged_ty, &[], true, loc));
        before.emit(ir, host::copy_state(ctx, ring.src, staged, loc));
        staged
    };
    let dst = ring.dst;
    if is_persistent_alloc(ctx, ir, dst) {
        return Ok(RingBuffers { src, recv: dst, exported: dst, chunk: dst });
    }
    if !stage {
        return Err(not_persistent("receive buffer"));
    }
    let ty = BufferType::of(ctx, ir.value_type(dst)).ok_or_else(|| not_persistent("receive buffer"))?;
    let before = Emitter { ctx, at: Placement::Before(ring.lp), loc };
    let mut shape = vec![ring.d];
    shape.extend(&ty.shape);
    let all = before.value(ir, host::alloc_state(ctx, buf_type(ctx, &shape, ty.elem, MemoryKind::Ipc), &[], true, loc));
    let slot_state =
        host::select_state(ctx, ir, all, ring.iv, 0, loc).map_err(|e| Diagnostic::error(loc, e.to_string()))?;
    let per_iteration = ir
        .defining_op(dst)
        .filter(|&op| is(ctx, ir, op, "host.alloc") && ir.op_block(op) == Some(ring.body) && ir.num_operands(op) == 0);
    let Some(alloc) = per_iteration else {
        // Staged receive: the slot of this iteration, copied to `dst` once received.
        let slot = Emitter { ctx, at: Placement::Before(ring.bcast), loc }.value(ir, slot_state);
        return Ok(RingBuffers { src, recv: slot, exported: all, chunk: dst });
    };
    let view = Emitter { ctx, at: Placement::Before(alloc), loc }.value(ir, slot_state);
    ir.replace_all_uses(dst, view);
    views_follow_memory_kind(ctx, ir, view, MemoryKind::Ipc);
    // Deallocations of the per-iteration buffer go with it.
    let deallocs: Vec<OpId> = ir.uses(dst).map(|u| u.op).collect();
    for d in deallocs {
        ir.erase_op(d);
    }
    ir.erase_op(alloc);
    Ok(RingBuffers { src, recv: view, exported: all, chunk: view })
}

/// Ops whose result is a view of their first operand in the same memory.
const VIEW_OPS: &[&str] =
    &["host.shard_by_stream", "host.select", "host.slice", "host.expand", "host.permute", "host.reshape"];

/// After `root` (a buffer that replaced another of the same layout) moved to `memory`: the
/// views made of it, and the views of those, are in `memory` too; their result types say so.
fn views_follow_memory_kind(ctx: &Context, ir: &mut Ir, root: Value, memory: MemoryKind) {
    let mut work = vec![root];
    while let Some(v) = work.pop() {
        let users: Vec<OpId> = ir.uses(v).filter(|u| u.index == 0).map(|u| u.op).collect();
        for op in users {
            if !VIEW_OPS.contains(&ctx.op_name_str(ir.op_name(op))) {
                continue;
            }
            for r in ir.results(op).to_vec() {
                let Some(t) = BufferType::of(ctx, ir.value_type(r)) else { continue };
                if t.memory == memory {
                    continue;
                }
                let strides = t.strides.clone().unwrap_or_else(|| BufferType::contiguous_strides(&t.shape));
                ir.set_value_type(r, host::types::view_type(ctx, &t.shape, t.elem, &strides, memory));
                work.push(r);
            }
        }
    }
}

/// Before the loop: `host.for %j = 1 to d { share_handles send(src to s_j) recv(dst from t_j) }`.
fn exchange_handles_before(ctx: &Context, ir: &mut Ir, ring: &RingLoop, src: Value, dst: Value, loc: Attr) {
    let before = Emitter { ctx, at: Placement::Before(ring.lp), loc };
    let one = before.index(ir, 1);
    let d = before.index(ir, ring.d);
    let (state, block, j) = host::for_state(ctx, ir, one, d, one, loc);
    let inner = Emitter { ctx, at: Placement::End(block), loc };
    let (recv_peer, send_peer) = ring_peers(&inner, ir, j, ring.d, ring.base);
    inner.emit(ir, comm::share_handles_state(ctx, &[(src, send_peer)], &[(dst, recv_peer)], loc));
    before.emit(ir, state);
}

/// The ring reduce-scatter (Matmul + ReduceScatter, PR 5618's shape) from the reduce-based one
/// (`comm.reduce %p into %y root %i` per chunk): iteration `i` of rank `r` computes the partial
/// of chunk `c = (r + d - 1 - i) mod d`, adds the running sum received from rank `r - 1` (from
/// iteration 1 on), and passes it to rank `r + 1` in one group with the receive of the next
/// running sum; at `i = d - 1` the chunk is `r` itself and its sum is complete: it is copied
/// into the rank's output. Iterations depend on each other through the received sums, so the
/// loop is marked `host.sequential` (host-assign-streams keeps it on one stream).
///
/// With `cuda_ipc` the inbox is a persistent `ipc` buffer whose handle rank `r` opens for its
/// neighbours once before the loop; the running sum always travels from this iteration's slot
/// (copied there when it was accumulated elsewhere) into the next slot of the next rank, in the
/// protocol's order, and the send is waited for before the iteration ends.
fn rewrite_reduce_ring(ctx: &Context, ir: &mut Ir, ring: &RingLoop, cfg: RingConfig) -> Result<(), Diagnostic> {
    let ipc = matches!(cfg.backend, Backend::CudaIpc);
    let loc = ir.loc(ring.bcast);
    let (partial, out) = (ring.src, ring.dst);
    let chunk = BufferType::of(ctx, ir.value_type(partial))
        .ok_or_else(|| fuser_ir::pass::op_error(ctx, ir, ring.bcast, "the reduced partial is not a buffer"))?;
    let kind = comm::reduction_kind(ctx, ir, ring.bcast).unwrap_or_default();
    if kind != fuser_dialects::reduction::ReductionKind::Sum {
        let msg = "the ring reduce-scatter supports sum reductions only";
        return Err(fuser_ir::pass::op_error(ctx, ir, ring.bcast, msg));
    }
    // The received running sums, one slot per iteration, allocated once before the loop.
    let before = Emitter { ctx, at: Placement::Before(ring.lp), loc };
    let mut shape = vec![ring.d];
    shape.extend(&chunk.shape);
    let memory = if ipc { MemoryKind::Ipc } else { MemoryKind::Device };
    let inbox = before.value(ir, host::alloc_state(ctx, buf_type(ctx, &shape, chunk.elem, memory), &[], ipc, loc));
    // Index math at the top of the body.
    let first_op = ir.first_op(ring.body).expect("the body holds the reduce");
    let top = Emitter { ctx, at: Placement::Before(first_op), loc };
    let rank = top.value(ir, host::rank_state(ctx, loc));
    let d = top.index(ir, ring.d);
    let r = if ring.base == 0 { rank } else { relative(&top, ir, rank, ring.base) };
    let dm1 = top.index(ir, ring.d - 1);
    let shifted = top.arith(ir, "arith.addi", r, dm1);
    let back = top.arith(ir, "arith.subi", shifted, ring.iv);
    let c = top.arith(ir, "arith.remui", back, d);
    let one = top.index(ir, 1);
    let r1 = top.arith(ir, "arith.addi", r, one);
    let mut next = top.arith(ir, "arith.remui", r1, d);
    let mut prev = top.arith(ir, "arith.remui", shifted, d);
    if ring.base != 0 {
        let b = top.index(ir, ring.base);
        next = top.arith(ir, "arith.addi", next, b);
        prev = top.arith(ir, "arith.addi", prev, b);
    }
    let iv = ring.iv;
    ir.replace_uses_where(iv, c, |ir, u| !precedes(ir, u.op, first_op) && u.op != ring.bcast);
    // At the reduce: accumulate, then pass on (or finish). When the partial comes from a GEMM
    // in the body, the received running sum is folded into its epilogue instead (beta = 1):
    // the GEMM writes into the received slot with `accumulate` from iteration 1 on.
    let here = Emitter { ctx, at: Placement::Before(ring.wait), loc };
    let zero = top.index(ir, 0);
    let slot_state =
        host::select_state(ctx, ir, inbox, iv, 0, loc).map_err(|e| Diagnostic::error(loc, e.to_string()))?;
    let running = match producing_gemm(ctx, ir, ring.body, partial) {
        Some(gemm) => fold_into_gemm(ctx, ir, gemm, slot_state, iv, zero, loc),
        None => {
            let not_first = here.value(ir, arith::cmpi_state(ctx, ir, arith::CmpPredicate::Ne, iv, zero, loc));
            let (acc_if, acc_block, _) = host::if_state(ctx, ir, not_first, false, loc);
            let acc = Emitter { ctx, at: Placement::End(acc_block), loc };
            let slot = acc.value(ir, slot_state);
            acc.emit(ir, host::elementwise_state(ctx, host::ElementwiseKind::Add, &[partial, slot], partial, loc));
            here.emit(ir, acc_if);
            partial
        }
    };
    let last = here.value(ir, arith::cmpi_state(ctx, ir, arith::CmpPredicate::Eq, iv, dm1, loc));
    let (pass_if, done_block, pass_block) = host::if_state(ctx, ir, last, true, loc);
    let pass_block = pass_block.expect("if with else");
    Emitter { ctx, at: Placement::End(done_block), loc }.emit(ir, host::copy_state(ctx, running, out, loc));
    let pass = Emitter { ctx, at: Placement::End(pass_block), loc };
    let following_iv = pass.arith(ir, "arith.addi", iv, one);
    let next_slot_state =
        host::select_state(ctx, ir, inbox, following_iv, 0, loc).map_err(|e| Diagnostic::error(loc, e.to_string()))?;
    let next_slot = pass.value(ir, next_slot_state);
    let outgoing = if ipc && running == partial {
        // The sum was accumulated in the partial: move it into this iteration's (shared) slot.
        let slot_state =
            host::select_state(ctx, ir, inbox, iv, 0, loc).map_err(|e| Diagnostic::error(loc, e.to_string()))?;
        let slot = pass.value(ir, slot_state);
        pass.emit(ir, host::copy_state(ctx, running, slot, loc));
        slot
    } else {
        running
    };
    if let Some(send) = post_step(&pass, ir, cfg, outgoing, next_slot, next, prev) {
        pass.emit(ir, comm::wait_state(ctx, &[send], loc));
    }
    here.emit(ir, pass_if);
    if ipc && ring.d > 1 {
        share_with_neighbours(ctx, ir, ring, inbox, loc);
    }
    ir.erase_op(ring.wait);
    ir.erase_op(ring.bcast);
    let attrs = ctx.dict_set(ir.attrs(ring.lp), crate::host::assign_streams::SEQUENTIAL_ATTR, Some(ctx.unit_attr()));
    ir.set_attrs(ring.lp, attrs);
    Ok(())
}

/// Before the loop: `share_handles send(inbox to r + 1) recv(inbox from r - 1)` (team-relative
/// neighbours on the ring).
fn share_with_neighbours(ctx: &Context, ir: &mut Ir, ring: &RingLoop, inbox: Value, loc: Attr) {
    let before = Emitter { ctx, at: Placement::Before(ring.lp), loc };
    let rank = before.value(ir, host::rank_state(ctx, loc));
    let r = if ring.base == 0 { rank } else { relative(&before, ir, rank, ring.base) };
    let d = before.index(ir, ring.d);
    let one = before.index(ir, 1);
    let dm1 = before.index(ir, ring.d - 1);
    let r1 = before.arith(ir, "arith.addi", r, one);
    let mut next = before.arith(ir, "arith.remui", r1, d);
    let rd = before.arith(ir, "arith.addi", r, dm1);
    let mut prev = before.arith(ir, "arith.remui", rd, d);
    if ring.base != 0 {
        let b = before.index(ir, ring.base);
        next = before.arith(ir, "arith.addi", next, b);
        prev = before.arith(ir, "arith.addi", prev, b);
    }
    before.emit(ir, comm::share_handles_state(ctx, &[(inbox, next)], &[(inbox, prev)], loc));
}

/// The `host.linear` / `host.matmul` directly in `body` that writes `partial` (its last operand).
fn producing_gemm(ctx: &Context, ir: &Ir, body: BlockId, partial: Value) -> Option<OpId> {
    ir.block_ops(body).find(|&op| {
        (is(ctx, ir, op, "host.linear") || is(ctx, ir, op, "host.matmul"))
            && ir.operands(op).last() == Some(&partial)
            && ir.props(op).and_then(|p| ctx.dict_get(p, "accumulate")).is_none()
            // A fused residual or activation cannot accumulate (beta = 1) into the running sum.
            && host::linear_parts(ctx, ir, op).is_none_or(|l| l.residual.is_none() && matches!(l.epilogue, Ok(None)))
    })
}

/// Rewrites `gemm` to write this iteration's slot of the inbox (made from `slot_state` right
/// before it): overwrite at iteration 0, accumulate (beta = 1) onto the received running sum
/// afterwards. Returns the slot, which then holds the running sum.
fn fold_into_gemm(
    ctx: &Context,
    ir: &mut Ir,
    gemm: OpId,
    slot_state: OperationState,
    iv: Value,
    zero: Value,
    loc: Attr,
) -> Value {
    let at = Emitter { ctx, at: Placement::Before(gemm), loc };
    let slot = at.value(ir, slot_state);
    let first = at.value(ir, arith::cmpi_state(ctx, ir, arith::CmpPredicate::Eq, iv, zero, loc));
    let (if_state, overwrite, accumulate) = host::if_state(ctx, ir, first, true, loc);
    let accumulate = accumulate.expect("if with else");
    let out_index = ir.num_operands(gemm) - 1;
    for (block, acc) in [(overwrite, false), (accumulate, true)] {
        let c = ir.clone_op(gemm, &mut IrMapping::new());
        ir.set_operand(c, out_index, slot);
        if acc {
            let props = ir.props(c).unwrap_or_else(|| ctx.empty_dict());
            ir.set_props(c, Some(ctx.dict_set(props, "accumulate", Some(ctx.unit_attr()))));
        }
        ir.append_op(block, c);
    }
    at.emit(ir, if_state);
    ir.erase_op(gemm);
    slot
}
