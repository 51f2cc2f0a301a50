//! `licm`: loop-invariant code motion for host loops. A side-effect-free op (registered
//! `Pure`, without regions) in the body of a `host.for` whose operands are all defined outside
//! the loop moves right before the loop. Ops are visited in order, so a chain of invariant ops
//! moves together; inner loops are processed first, so invariant index math climbs out of
//! nested loops.
//!
//! Invariant: only pure ops move, so the order of effects is unchanged; a moved op still
//! dominates all its uses (it lands before the loop that contained them).

use super::build::*;
use fuser_ir::Diagnostic;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, WalkOrder};
use fuser_ir::pass::{Pass, PassInfo, PassOutcome};

pub static LICM: PassInfo = PassInfo {
    name: "licm",
    display: "LoopInvariantCodeMotion",
    summary: "Hoist loop-invariant pure ops (index math) out of host loops",
    description: "Moves side-effect-free ops whose operands are defined outside a `host.for` to \
just before the loop, innermost loops first.",
    anchor: None,
    options: &[],
    create: |_| Ok(Box::new(Licm)),
};

struct Licm;

impl Pass for Licm {
    fn info(&self) -> &'static PassInfo {
        &LICM
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, root: OpId) -> Result<PassOutcome, Diagnostic> {
        Ok(PassOutcome::from_changed(hoist_invariants(ctx, ir, root)))
    }
}

/// Hoists the invariant ops of every loop nested in `root`; returns whether anything moved.
pub fn hoist_invariants(ctx: &Context, ir: &mut Ir, root: OpId) -> bool {
    let loops: Vec<OpId> =
        ir.collect_ops(root, WalkOrder::PostOrder).into_iter().filter(|&op| is(ctx, ir, op, FOR)).collect();
    let mut changed = false;
    for lp in loops {
        let Some(body) = loop_body(ir, lp) else { continue };
        let ops: Vec<OpId> = ir.block_ops(body).collect();
        for op in ops {
            let invariant = is_pure(ctx, ir, op)
                && ir.regions(op).is_empty()
                && ir.operands(op).iter().all(|&v| defined_outside(ir, v, lp));
            if invariant {
                ir.move_op_before(op, lp);
                changed = true;
            }
        }
    }
    changed
}
