//! Dropping of redundant block arguments, run after identical-block merging at the
//! `aggressive` region-simplify level (MLIR's `dropRedundantArguments`).
//!
//! An argument of a block is redundant when every branch to the block forwards the same value
//! for it: its uses are replaced by that value, and the argument is erased together with the
//! operands the branches forward to it. Only blocks all of whose predecessor terminators have
//! the `successor_operands` and `erase_successor_operand` hooks (MLIR's `BranchOpInterface`)
//! are considered; entry blocks, which have no predecessors, never are.

use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value};

/// Drops redundant arguments of the blocks of `regions` and of regions nested in them; true if
/// one was dropped.
pub fn drop_redundant_arguments(ctx: &Context, ir: &mut Ir, regions: &[RegionId]) -> bool {
    let mut worklist: Vec<RegionId> = Vec::new();
    for &r in regions {
        if !worklist.contains(&r) {
            worklist.push(r);
        }
    }
    let mut changed = false;
    while let Some(r) = worklist.pop() {
        for b in ir.region_blocks(r).to_vec() {
            changed |= drop_in_block(ctx, ir, r, b);
            for op in ir.block_ops(b) {
                for &nested in ir.regions(op) {
                    if !worklist.contains(&nested) {
                        worklist.push(nested);
                    }
                }
            }
        }
    }
    changed
}

/// The (terminator, successor index) pairs of region `r` branching to `b`.
pub(crate) fn predecessor_edges(ir: &Ir, r: RegionId, b: BlockId) -> Vec<(OpId, usize)> {
    let mut out = Vec::new();
    for &p in ir.region_blocks(r) {
        let Some(t) = ir.last_op(p) else { continue };
        for (s, &dest) in ir.successors(t).iter().enumerate() {
            if dest == b {
                out.push((t, s));
            }
        }
    }
    out
}

/// The operands each edge forwards to its successor, or `None` if an edge's terminator cannot
/// have them erased.
fn forwarded(ctx: &Context, ir: &Ir, edges: &[(OpId, usize)]) -> Option<Vec<Vec<Value>>> {
    edges
        .iter()
        .map(|&(t, s)| {
            let def = ctx.op_def(ir.op_name(t))?;
            def.erase_successor_operand?;
            let ranges = def.successor_operands?(ctx, ir, t)?;
            let range = ranges.get(s)?.clone();
            Some(range.map(|i| ir.operand(t, i)).collect())
        })
        .collect()
}

/// Drops the redundant arguments of one block; true if one was dropped.
fn drop_in_block(ctx: &Context, ir: &mut Ir, r: RegionId, b: BlockId) -> bool {
    let edges = predecessor_edges(ir, r, b);
    if edges.is_empty() || ir.block_args(b).is_empty() {
        return false;
    }
    let Some(operands) = forwarded(ctx, ir, &edges) else { return false };
    let args = ir.block_args(b).to_vec();
    let mut to_erase = Vec::new();
    for (i, &arg) in args.iter().enumerate() {
        let Some(common) = operands[0].get(i).copied() else { continue };
        if common != arg && operands.iter().all(|ops| ops.get(i) == Some(&common)) {
            ir.replace_all_uses(arg, common);
            to_erase.push(i);
        }
    }
    for &i in to_erase.iter().rev() {
        ir.erase_block_arg(b, i);
        for &(t, s) in &edges {
            if let Some(erase) = ctx.op_def(ir.op_name(t)).and_then(|d| d.erase_successor_operand) {
                erase(ctx, ir, t, s, i);
            }
        }
    }
    !to_erase.is_empty()
}
