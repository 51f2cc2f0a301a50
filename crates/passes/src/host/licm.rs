//! `licm`: loop-invariant code motion for host loops. A side-effect-free op (registered
//! `Pure`, without regions) in the body of a `host.for` whose operands are all defined outside
//! the loop moves right before the loop. Since a loop may run no iteration, an op that can fault
//! (an integer division or remainder whose divisor is not a safe constant) stays. Ops are visited in order, so a chain of invariant ops
//! moves together; inner loops are processed first, so invariant index math climbs out of
//! nested loops.
//!
//! Invariant: only pure ops move, so the order of effects is unchanged; a moved op still
//! dominates all its uses (it lands before the loop that contained them).

use super::build::*;
use fuser_ir::Diagnostic;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
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
    let mut changed = false;
    for lp in loops_innermost_first(ctx, ir, root) {
        let Some(body) = body_block(ir, lp) else { continue };
        let ops: Vec<OpId> = ir.block_ops(body).collect();
        for op in ops {
            let invariant = is_speculatable(ctx, ir, op) && ir.operands(op).iter().all(|&v| defined_outside(ir, v, lp));
            if invariant {
                ir.move_op_before(op, lp);
                changed = true;
            }
        }
    }
    changed
}

/// Integer divisions and remainders: pure, but undefined for some divisors.
const DIVISIONS: &[&str] = &[
    "arith.divsi",
    "arith.divui",
    "arith.remsi",
    "arith.remui",
    "arith.ceildivsi",
    "arith.ceildivui",
    "arith.floordivsi",
];

/// Whether `op` may run even on a path that did not run it (a loop with no iteration): a pure op
/// without regions, and for a division or remainder, one whose divisor is a constant that
/// cannot fault (not 0, and not -1 for the signed ones, whose `MIN / -1` overflows).
fn is_speculatable(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    if !is_pure(ctx, ir, op) || !ir.regions(op).is_empty() {
        return false;
    }
    let name = ctx.op_name_str(ir.op_name(op));
    if !DIVISIONS.contains(&name) {
        return true;
    }
    let signed = name.ends_with("si");
    match ir.operands(op).get(1).and_then(|&d| constant_int(ctx, ir, d)) {
        Some(d) => d != 0 && !(signed && d == -1),
        None => false,
    }
}
