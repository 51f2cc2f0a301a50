//! `host-insert-dealloc`: frees every buffer a function allocates right after its last use.
//!
//! For each `host.alloc` in the function (at any depth) that is neither `persistent`, nor
//! returned (directly or through a view), nor already deallocated: the *uses* of the buffer are
//! the ops reading any value derived from it (views made from it, transitively), plus, for a
//! communication using it, the `comm.wait`s of its request (and of the request of an enclosing
//! `comm.group`): a buffer may only go after its communication completed. Each use is mapped to
//! its ancestor in the allocating block (a use inside a loop counts as the loop), and
//! `host.dealloc` goes after the last of them (right after the alloc when there is no use).
//!
//! Invariant: a use that is not nested in the allocating block (the buffer escapes it) makes
//! the pass leave the buffer alone rather than free it too early.

use super::build::*;
use fuser_dialects::host::types::is_buffer_like;
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, Value};
use fuser_ir::pass::{Pass, PassInfo, PassOutcome};
use fuser_ir::{Diagnostic, Type};
use rustc_hash::FxHashSet;

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
pub fn insert_deallocs(ctx: &Context, ir: &mut Ir, func: OpId) -> bool {
    let allocs: Vec<OpId> = nested(ir, func).into_iter().filter(|&op| is(ctx, ir, op, ALLOC)).collect();
    let mut changed = false;
    for alloc in allocs {
        if ctx.dict_get(ir.props(alloc).unwrap_or_else(|| ctx.empty_dict()), "persistent").is_some() {
            continue;
        }
        let (Some(block), Some(&buf)) = (ir.op_block(alloc), ir.results(alloc).first()) else { continue };
        let Some(after) = dealloc_point(ctx, ir, alloc, block, buf) else { continue };
        let loc = ir.loc(alloc);
        place(ir, Placement::After(after), state(ctx, DEALLOC, vec![buf], vec![], &[], loc));
        changed = true;
    }
    changed
}

/// The op after which `buf` can be freed, or `None` when it must stay (returned, escaping the
/// block, or already freed).
fn dealloc_point(ctx: &Context, ir: &Ir, alloc: OpId, block: BlockId, buf: Value) -> Option<OpId> {
    let mut last = alloc;
    for user in effective_uses(ctx, ir, buf) {
        if is(ctx, ir, user, DEALLOC) || is(ctx, ir, user, "func.return") {
            return None;
        }
        let anchor = ancestor_in_block(ir, block, user)?;
        if is_after(ir, anchor, last) {
            last = anchor;
        }
    }
    Some(last)
}

/// Every op that must run before `buf` is freed: users of `buf` and of views derived from it,
/// and the waits of the communications among them.
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

fn is_request(ctx: &Context, t: Type) -> bool {
    ctx.dialect_type_params(t, "comm", "request").is_some()
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

/// Whether `a` comes after `b` in their (common) block.
fn is_after(ir: &Ir, a: OpId, b: OpId) -> bool {
    let mut cur = ir.next_op(b);
    while let Some(op) = cur {
        if op == a {
            return true;
        }
        cur = ir.next_op(op);
    }
    false
}
