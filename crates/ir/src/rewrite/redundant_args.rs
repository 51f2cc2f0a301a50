//! Dropping of redundant block arguments, run after identical-block merging at the
//! `aggressive` region-simplify level (MLIR's `dropRedundantArguments`).
//!
//! An argument of a block is redundant when every branch to the block forwards the same value
//! for it: its uses are replaced by that value, and the argument is erased together with the
//! operands the branches forward to it. Only blocks all of whose predecessor terminators have
//! the `successor_operands` and `erase_successor_operand` hooks (MLIR's `BranchOpInterface`)
//! are considered; entry blocks, which have no predecessors, never are.

use super::predecessors::Predecessors;
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::Range;

/// The operand ranges of the region's branches (`successor_operands`), computed on first use and
/// dropped when a branch loses operands: a `cf.switch` with N cases costs O(N) per call.
type RangeCache = FxHashMap<OpId, Option<Vec<Range<usize>>>>;

/// Drops redundant arguments of the blocks of `regions` and of regions nested in them. Returns
/// what mlir-opt-19 reports: whether the last block visited dropped one.
pub fn drop_redundant_arguments(ctx: &Context, ir: &mut Ir, regions: &[RegionId]) -> bool {
    let mut worklist: Vec<RegionId> = Vec::new();
    let mut queued: FxHashSet<RegionId> = FxHashSet::default();
    for &r in regions {
        if queued.insert(r) {
            worklist.push(r);
        }
    }
    let mut changed = false;
    while let Some(r) = worklist.pop() {
        // Dropping arguments changes no branch edge, so one scan serves the whole region.
        let preds = Predecessors::of_region(ir, r);
        let mut ranges = RangeCache::default();
        for b in ir.region_blocks(r).to_vec() {
            // As in MLIR 19, what is reported is whether the *last* block visited changed
            // (its `anyChanged = ...` overwrites instead of accumulating). The report only
            // decides whether the greedy driver runs another iteration, so copying it keeps
            // the output identical to mlir-opt-19's (it can stop one round early, never wrong).
            changed = drop_in_block(ctx, ir, &mut ranges, preds.edges(b), b);
            for op in ir.block_ops(b) {
                for &nested in ir.regions(op) {
                    if queued.insert(nested) {
                        worklist.push(nested);
                    }
                }
            }
        }
    }
    changed
}

/// The operands each edge forwards to its successor, or `None` if an edge's terminator cannot
/// have them erased.
fn forwarded(ctx: &Context, ir: &Ir, cache: &mut RangeCache, edges: &[(OpId, usize)]) -> Option<Vec<Vec<Value>>> {
    edges
        .iter()
        .map(|&(t, s)| {
            let def = ctx.op_def(ir.op_name(t))?;
            def.erase_successor_operand?;
            let ranges = cache.entry(t).or_insert_with(|| def.successor_operands.and_then(|f| f(ctx, ir, t)));
            let range = ranges.as_ref()?.get(s)?.clone();
            Some(range.map(|i| ir.operand(t, i)).collect())
        })
        .collect()
}

/// Drops the redundant arguments of one block; true if one was dropped.
fn drop_in_block(ctx: &Context, ir: &mut Ir, cache: &mut RangeCache, edges: &[(OpId, usize)], b: BlockId) -> bool {
    if edges.is_empty() || ir.block_args(b).is_empty() {
        return false;
    }
    let Some(operands) = forwarded(ctx, ir, cache, edges) else { return false };
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
        for &(t, s) in edges {
            if let Some(erase) = ctx.op_def(ir.op_name(t)).and_then(|d| d.erase_successor_operand) {
                erase(ctx, ir, t, s, i);
                cache.remove(&t);
            }
        }
    }
    !to_erase.is_empty()
}
