//! `host-hoist-alloc{persistent=false}`: moves loop-invariant allocations out of loops.
//!
//! A `host.alloc` directly in the body of a `host.for` whose size operands are defined outside
//! the loop moves right before the loop, and its `host.dealloc`s in the body move right after
//! the loop, so that one buffer serves every iteration. Only loops without stream ops are
//! touched: iterations on different streams must not share a buffer (a later iteration would
//! overwrite what an earlier one, still running on another stream, reads). Inner loops are
//! processed first, so an allocation can climb several levels. Run it after
//! `host-assign-streams`: a loop it hoists from must not be spread over streams later.
//!
//! With `persistent=true`, every allocation of the function is also marked `persistent`:
//! allocated once and identical across runs and ranks, which CUDA IPC handle exchange needs.

use super::build::*;
use fuser_ir::Diagnostic;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::pass::{OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};

static OPTIONS: &[OptionDef] = &[OptionDef::new(
    "persistent",
    OptionType::Bool,
    "false",
    "Also mark every allocation persistent (same buffer across runs and ranks, for CUDA IPC)",
)];

pub static HOST_HOIST_ALLOC: PassInfo = PassInfo {
    name: "host-hoist-alloc",
    display: "HostHoistAlloc",
    summary: "Move loop-invariant allocations out of single-stream loops",
    description: "Moves each `host.alloc` whose sizes do not depend on the loop out of `host.for` \
loops that run on one stream (no `host.set_stream` inside), with its deallocation after the loop. \
Run it after `host-assign-streams`, which would spread a loop that shares a buffer over streams. \
`persistent=true` marks every allocation `persistent`.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| Ok(Box::new(HoistAlloc { persistent: o.get_bool("persistent"), values: o.clone() })),
};

struct HoistAlloc {
    persistent: bool,
    values: OptionValues,
}

impl Pass for HoistAlloc {
    fn info(&self) -> &'static PassInfo {
        &HOST_HOIST_ALLOC
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        let mut changed = hoist_allocs(ctx, ir, func);
        if self.persistent {
            changed |= mark_persistent(ctx, ir, func);
        }
        Ok(PassOutcome::from_changed(changed))
    }
}

/// Hoists what can be hoisted in `func`; returns whether anything moved.
pub fn hoist_allocs(ctx: &Context, ir: &mut Ir, func: OpId) -> bool {
    let mut changed = false;
    for lp in loops_innermost_first(ctx, ir, func) {
        if switches_streams(ctx, ir, lp) {
            continue;
        }
        let Some(body) = body_block(ir, lp) else { continue };
        let allocs: Vec<OpId> = ir.block_ops(body).filter(|&op| is(ctx, ir, op, ALLOC)).collect();
        let mut last_after = lp;
        for alloc in allocs {
            if ir.operands(alloc).iter().all(|&v| defined_outside(ir, v, lp)) {
                last_after = hoist_one(ctx, ir, lp, alloc, last_after);
                changed = true;
            }
        }
    }
    changed
}

/// Moves `alloc` before `lp` and its deallocs inside `lp` after `after` (an op following `lp`:
/// the last dealloc moved out of it so far), so deallocs keep the order of their allocations;
/// returns the new last one.
fn hoist_one(ctx: &Context, ir: &mut Ir, lp: OpId, alloc: OpId, mut after: OpId) -> OpId {
    let buf = ir.result(alloc, 0);
    let deallocs: Vec<OpId> =
        ir.uses(buf).map(|u| u.op).filter(|&op| is(ctx, ir, op, DEALLOC) && ir.is_ancestor(lp, op)).collect();
    ir.move_op_before(alloc, lp);
    for d in deallocs {
        ir.detach_op(d);
        ir.insert_op_after(after, d);
        after = d;
    }
    after
}

/// Sets the `persistent` property on every allocation of `func`.
pub fn mark_persistent(ctx: &Context, ir: &mut Ir, func: OpId) -> bool {
    let mut changed = false;
    for op in ir.nested_ops(func) {
        if !is(ctx, ir, op, ALLOC) {
            continue;
        }
        let props = ir.props(op).unwrap_or_else(|| ctx.empty_dict());
        if ctx.dict_get(props, "persistent").is_none() {
            ir.set_props(op, Some(ctx.dict_set(props, "persistent", Some(ctx.unit_attr()))));
            changed = true;
        }
    }
    changed
}
