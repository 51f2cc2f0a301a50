//! Small helpers shared by the host passes: recognizing host/comm ops, structural queries (is a
//! value defined outside a loop, which ancestor of an op sits in a given block, does a loop run
//! its iterations on worker streams) and placing built ops.
//!
//! Ops are built with the builders of `fuser-dialects` (`host::for_state`,
//! `host::get_stream_state`, `arith::binary_state`, ...), so their generic structure stays the one
//! the op declarations fix. Invariant: nothing here inserts ops implicitly; callers place what
//! they build with [`place`].

use fuser_dialects::arith::{REMUI, binary_state, constant_state};
use fuser_dialects::host::{self, get_stream_state};
use fuser_dialects::int_const;
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, OperationState, Value, ValueDef};
use fuser_ir::registry::Traits;
use fuser_ir::rewrite::fold::constant_value;

pub const FOR: &str = host::FOR.name;
pub const ALLOC: &str = host::ALLOC.name;
pub const DEALLOC: &str = host::DEALLOC.name;
pub const SET_STREAM: &str = host::SET_STREAM.name;
pub const STREAM_WAIT: &str = host::STREAM_WAIT.name;
pub const COMM_GROUP: &str = fuser_dialects::comm::GROUP.name;

/// The ops that read or change which stream work goes to.
const STREAM_OPS: &[&str] = &[
    host::CURRENT_STREAM.name,
    host::GET_STREAM.name,
    host::SET_STREAM.name,
    host::STREAM_WAIT.name,
    host::SYNCHRONIZE.name,
];

/// Whether `op` is named `name`.
pub fn is(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.op_name_str(ir.op_name(op)) == name
}

/// Whether `op` is registered with the `Pure` trait.
pub fn is_pure(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op)).is_some_and(|d| d.has(Traits::PURE))
}

/// Whether `op` or an op nested in it is named `name`.
pub fn contains_op(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    is(ctx, ir, op, name) || ir.nested_ops(op).into_iter().any(|o| is(ctx, ir, o, name))
}

/// Whether `op` or an op nested in it reads or changes streams (`host.current_stream`,
/// `get_stream`, `set_stream`, `stream_wait`, `synchronize`): such code manages its streams
/// itself.
pub fn has_stream_ops(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let is_stream_op = |o: OpId| STREAM_OPS.contains(&ctx.op_name_str(ir.op_name(o)));
    is_stream_op(op) || ir.nested_ops(op).into_iter().any(is_stream_op)
}

/// Whether `op` switches streams inside (a stream-parallel loop, for instance): what it posts
/// may run on several streams, so the stream current after it has not necessarily seen it.
pub fn switches_streams(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    contains_op(ctx, ir, op, SET_STREAM)
}

/// Whether `op` is the join loop of a stream-parallel loop: a `host.for` that waits for streams
/// without switching to any.
pub fn is_join_loop(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    is(ctx, ir, op, FOR) && contains_op(ctx, ir, op, STREAM_WAIT) && !switches_streams(ctx, ir, op)
}

/// The op that contains `op` (or `op` itself) and sits directly in block `b`, if any.
pub fn ancestor_in_block(ir: &Ir, b: BlockId, op: OpId) -> Option<OpId> {
    let mut cur = op;
    loop {
        if ir.op_block(cur) == Some(b) {
            return Some(cur);
        }
        cur = ir.parent_op(cur)?;
    }
}

/// Whether `v` is defined outside `op` (not by an op nested in it, nor as an argument of one of
/// its blocks or of a block nested in it).
pub fn defined_outside(ir: &Ir, v: Value, op: OpId) -> bool {
    let owner = match ir.value_def(v) {
        ValueDef::OpResult { op: def, .. } => Some(def),
        ValueDef::BlockArg { block, .. } => ir.block_parent_op(block),
        ValueDef::Placeholder => None,
    };
    match owner {
        Some(o) => o != op && !ir.is_ancestor(op, o),
        None => true,
    }
}

/// The integer held by the constant op defining `v`, if any.
pub fn constant_int(ctx: &Context, ir: &Ir, v: Value) -> Option<i128> {
    let def = ir.defining_op(v)?;
    let (c, _) = int_const(ctx, constant_value(ctx, ir, def)?)?;
    c.signed()
}

/// `arith.constant N : index`.
pub fn index_constant(ctx: &Context, value: i64, loc: Attr) -> OperationState {
    let attr = ctx.int_attr(ctx.index_type(), value);
    constant_state(ctx, attr, loc).expect("an index integer attribute has a type")
}

/// `arith.<name> lhs, rhs : index`, placed at `at`; returns its result.
pub fn index_binary(ctx: &Context, ir: &mut Ir, at: Placement, name: &str, lhs: Value, rhs: Value, loc: Attr) -> Value {
    let op = place(ir, at, binary_state(ctx, name, lhs, rhs, ctx.index_type(), loc));
    ir.result(op, 0)
}

/// `%s = host.get_stream (%k mod %n)`, placed at `at`; returns the stream.
pub fn worker_stream(ctx: &Context, ir: &mut Ir, at: Placement, k: Value, n: Value, loc: Attr) -> Value {
    let slot = index_binary(ctx, ir, at, REMUI.name, k, n, loc);
    let get = place(ir, at, get_stream_state(ctx, slot, loc));
    ir.result(get, 0)
}

/// Where a built op goes.
#[derive(Clone, Copy, Debug)]
pub enum Placement {
    Before(OpId),
    After(OpId),
    End(BlockId),
}

/// Creates the op and inserts it at `at`; returns it. A sequence of `place` calls with the same
/// `Before(x)` or `End(b)` keeps program order; with `After(x)` each op lands before the
/// previous one, so callers placing several ops after `x` thread the returned op.
pub fn place(ir: &mut Ir, at: Placement, s: OperationState) -> OpId {
    let op = ir.create_op(s);
    match at {
        Placement::Before(a) => ir.insert_op_before(a, op),
        Placement::After(a) => ir.insert_op_after(a, op),
        Placement::End(b) => ir.append_op(b, op),
    }
    op
}

/// The entry block of `op`'s first region (a function's or a loop's body).
pub fn body_block(ir: &Ir, op: OpId) -> Option<BlockId> {
    ir.regions(op).first().and_then(|&r| ir.region_entry(r))
}

/// The `host.for` ops among the direct children of block `b`, in order.
pub fn loops_in_block(ctx: &Context, ir: &Ir, b: BlockId) -> Vec<OpId> {
    ir.block_ops(b).filter(|&op| is(ctx, ir, op, FOR)).collect()
}

/// Every `host.for` nested in `root`, inner loops before the loops containing them.
pub fn loops_innermost_first(ctx: &Context, ir: &Ir, root: OpId) -> Vec<OpId> {
    ir.collect_ops(root, fuser_ir::ir::WalkOrder::PostOrder).into_iter().filter(|&op| is(ctx, ir, op, FOR)).collect()
}
