//! Small helpers shared by the host passes: building host/comm/arith ops by name (their
//! generic structure is fixed by the op declarations in `fuser-dialects`), and structural
//! queries (is a value defined outside a loop, which ancestor of an op sits in a given block).
//!
//! Invariant: nothing here inserts ops implicitly; callers place what they build.

use fuser_dialects::host::types::stream_type;
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, OperationState, Value, ValueDef};
use fuser_ir::registry::Traits;

pub const FOR: &str = "host.for";
pub const ALLOC: &str = "host.alloc";
pub const DEALLOC: &str = "host.dealloc";
pub const SET_STREAM: &str = "host.set_stream";
pub const GET_STREAM: &str = "host.get_stream";
pub const CURRENT_STREAM: &str = "host.current_stream";
pub const STREAM_WAIT: &str = "host.stream_wait";
pub const COMM_GROUP: &str = "comm.group";

/// An op state with the given name, operands, result types and properties.
pub fn state(
    ctx: &Context,
    name: &str,
    operands: Vec<Value>,
    result_types: Vec<fuser_ir::Type>,
    props: &[(&str, Attr)],
    loc: Attr,
) -> OperationState {
    OperationState {
        name: ctx.op_name(name),
        operands,
        result_types,
        successors: Vec::new(),
        regions: Vec::new(),
        attrs: ctx.empty_dict(),
        props: if props.is_empty() {
            None
        } else {
            Some(ctx.dictionary(props.iter().map(|(k, v)| (ctx.ident(k), *v)).collect()))
        },
        loc,
    }
}

/// Whether `op` is named `name`.
pub fn is(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.op_name_str(ir.op_name(op)) == name
}

/// Whether `op` is registered with the `Pure` trait.
pub fn is_pure(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op)).is_some_and(|d| d.has(Traits::PURE))
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

/// `arith.constant N : index`.
pub fn index_constant(ctx: &Context, value: i64, loc: Attr) -> OperationState {
    let ty = ctx.index_type();
    state(ctx, "arith.constant", vec![], vec![ty], &[("value", ctx.int_attr(ty, value))], loc)
}

/// `%s = host.get_stream (%i mod %n)`: creates `arith.remui` and `host.get_stream` before
/// `anchor` (or at the end of `block` when `anchor` is `None`); returns the stream value.
pub fn worker_stream(ctx: &Context, ir: &mut Ir, at: Placement, i: Value, n: Value, loc: Attr) -> Value {
    let index = ctx.index_type();
    let rem = place(ir, at, state(ctx, "arith.remui", vec![i, n], vec![index], &[], loc));
    let k = ir.result(rem, 0);
    let get = place(ir, at, state(ctx, GET_STREAM, vec![k], vec![stream_type(ctx)], &[], loc));
    ir.result(get, 0)
}

/// Where a built op goes.
#[derive(Clone, Copy, Debug)]
pub enum Placement {
    Before(OpId),
    After(OpId),
    End(BlockId),
}

/// Creates the op and inserts it at `at`; returns it. `After` placements advance, so that a
/// sequence of `place` calls with the same `After(x)` keeps program order only if callers
/// thread the returned op: use [`Placement::Before`] or [`Placement::End`] for sequences.
pub fn place(ir: &mut Ir, at: Placement, s: OperationState) -> OpId {
    let op = ir.create_op(s);
    match at {
        Placement::Before(a) => ir.insert_op_before(a, op),
        Placement::After(a) => ir.insert_op_after(a, op),
        Placement::End(b) => ir.append_op(b, op),
    }
    op
}

/// The `host.for` ops among the direct children of block `b`, in order.
pub fn loops_in_block(ctx: &Context, ir: &Ir, b: BlockId) -> Vec<OpId> {
    ir.block_ops(b).filter(|&op| is(ctx, ir, op, FOR)).collect()
}

/// The body block of a `host.for` (its only region's entry block).
pub fn loop_body(ir: &Ir, for_op: OpId) -> Option<BlockId> {
    ir.regions(for_op).first().and_then(|&r| ir.region_entry(r))
}

/// Every op nested in `root` (not `root` itself), in pre-order.
pub fn nested(ir: &Ir, root: OpId) -> Vec<OpId> {
    ir.nested_ops(root)
}
