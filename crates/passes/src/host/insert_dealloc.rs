//! `host-insert-dealloc`: frees every buffer a function allocates right after its last use.
//!
//! For each `host.alloc` in the function (at any depth) that is neither `persistent`, nor
//! returned (directly or through a view), nor already deallocated: the *uses* of the buffer are
//! the ops reading any value derived from it (views made from it, transitively), plus, for a
//! communication using it, the `comm.wait`s of its request (and of the request of an enclosing
//! `comm.group`): a buffer may only go after its communication completed. Each use is mapped to
//! its ancestor in the allocating block (a use inside a loop counts as the loop), and
//! `host.dealloc` goes after the last of them (right after the alloc when there is no use).
//! When that last use ran work on worker streams (a loop rewritten by `host-assign-streams`),
//! the dealloc goes after the main stream is restored and has joined the workers: a dealloc is
//! ordered on the current stream only.
//!
//! Invariant: a use that is not nested in the allocating block (the buffer escapes it) makes
//! the pass leave the buffer alone rather than free it too early.

use super::build::*;
use fuser_dialects::comm::is_request;
use fuser_dialects::host::dealloc_state;
use fuser_dialects::host::types::is_buffer_like;
use fuser_ir::Diagnostic;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::pass::{Pass, PassInfo, PassOutcome};
use fuser_ir::registry::Traits;
use rustc_hash::{FxHashMap, FxHashSet};

pub static HOST_INSERT_DEALLOC: PassInfo = PassInfo {
    name: "host-insert-dealloc",
    display: "HostInsertDealloc",
    summary: "Free each allocated buffer after its last use (and after the wait of its communications)",
    description: "Inserts `host.dealloc` after the last use of every `host.alloc` that is not \
persistent and not returned. Uses include views made from the buffer and the `comm.wait` of any \
communication that reads or writes it; a use nested in a loop or conditional counts as that op.",
    anchor: Some("func.func"),
    options: &[],
    create: |_| Ok(Box::new(InsertDealloc)),
};

struct InsertDealloc;

impl Pass for InsertDealloc {
    fn info(&self) -> &'static PassInfo {
        &HOST_INSERT_DEALLOC
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        Ok(PassOutcome::from_changed(insert_deallocs(ctx, ir, func)))
    }
}

/// Inserts the deallocations of `func`; returns whether anything changed.
///
/// All dealloc points are computed before anything is inserted; deallocs that land after the
/// same op keep the order of their allocations.
pub fn insert_deallocs(ctx: &Context, ir: &mut Ir, func: OpId) -> bool {
    let mut order = BlockOrder::default();
    let plans: Vec<(OpId, OpId, Value)> = ir
        .nested_ops(func)
        .into_iter()
        .filter(|&op| is(ctx, ir, op, ALLOC) && !is_persistent(ctx, ir, op))
        .filter_map(|alloc| {
            let buf = *ir.results(alloc).first()?;
            Some((dealloc_point(ctx, ir, &mut order, alloc, buf)?, alloc, buf))
        })
        .collect();
    let mut last_inserted: FxHashMap<OpId, OpId> = FxHashMap::default();
    for &(after, alloc, buf) in &plans {
        let anchor = last_inserted.get(&after).copied().unwrap_or(after);
        let dealloc = place(ir, Placement::After(anchor), dealloc_state(ctx, buf, ir.loc(alloc)));
        last_inserted.insert(after, dealloc);
    }
    !plans.is_empty()
}

fn is_persistent(ctx: &Context, ir: &Ir, alloc: OpId) -> bool {
    ir.props(alloc).is_some_and(|p| ctx.dict_get(p, "persistent").is_some())
}

/// The op after which `buf` (made by `alloc`) can be freed, or `None` when it must stay
/// (returned, escaping the block, or already freed).
fn dealloc_point(ctx: &Context, ir: &Ir, order: &mut BlockOrder, alloc: OpId, buf: Value) -> Option<OpId> {
    let block = ir.op_block(alloc)?;
    let mut last = alloc;
    for user in effective_uses(ctx, ir, buf) {
        if is(ctx, ir, user, DEALLOC) || ctx.op_def(ir.op_name(user)).is_some_and(|d| d.has(Traits::RETURN_LIKE)) {
            return None;
        }
        let anchor = ancestor_in_block(ir, block, user)?;
        if order.position(ir, anchor) > order.position(ir, last) {
            last = anchor;
        }
    }
    Some(past_stream_join(ctx, ir, last))
}

/// When `op` ran work on worker streams (a stream-parallel loop), the first point after it
/// where the current stream has waited for them: after the `host.set_stream` that restores the
/// main stream and the join loop that follows it. Freeing earlier would post the dealloc on
/// the last worker's stream while other workers may still use the buffer. `op` itself when it
/// does not switch streams, or when no restoring `host.set_stream` follows it.
fn past_stream_join(ctx: &Context, ir: &Ir, op: OpId) -> OpId {
    if !switches_streams(ctx, ir, op) {
        return op;
    }
    let mut cur = ir.next_op(op);
    while let Some(o) = cur {
        if is(ctx, ir, o, SET_STREAM) {
            return match ir.next_op(o) {
                Some(join) if is_join_loop(ctx, ir, join) => join,
                _ => o,
            };
        }
        cur = ir.next_op(o);
    }
    op
}

/// Every op that must run before `buf` is freed: users of `buf` and of views derived from it,
/// and the waits of the communications among them (through an enclosing `comm.group`).
fn effective_uses(ctx: &Context, ir: &Ir, buf: Value) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut seen_values = FxHashSet::default();
    let mut work = vec![buf];
    while let Some(v) = work.pop() {
        if !seen_values.insert(v) {
            continue;
        }
        for u in ir.uses(v) {
            out.push(u.op);
            for &r in ir.results(u.op) {
                let ty = ir.value_type(r);
                if is_buffer_like(ctx, ty) || is_request(ctx, ty) {
                    work.push(r);
                }
            }
            if let Some(group) = enclosing_group(ctx, ir, u.op) {
                work.extend(ir.results(group).iter().copied());
            }
        }
    }
    out
}

fn enclosing_group(ctx: &Context, ir: &Ir, op: OpId) -> Option<OpId> {
    let mut cur = ir.parent_op(op)?;
    loop {
        if is(ctx, ir, cur, COMM_GROUP) {
            return Some(cur);
        }
        cur = ir.parent_op(cur)?;
    }
}

/// Positions of ops in their blocks, numbered on first query (the pass inserts only after all
/// queries, so the numbering stays valid while it is used).
#[derive(Default)]
struct BlockOrder {
    positions: FxHashMap<OpId, usize>,
}

impl BlockOrder {
    fn position(&mut self, ir: &Ir, op: OpId) -> usize {
        if let Some(&p) = self.positions.get(&op) {
            return p;
        }
        if let Some(block) = ir.op_block(op) {
            for (k, o) in ir.block_ops(block).enumerate() {
                self.positions.insert(o, k);
            }
        }
        self.positions.get(&op).copied().unwrap_or(0)
    }
}
