//! Region simplification run by the greedy driver after each iteration (MLIR's
//! `simplifyRegions` at the `normal` level): erase blocks unreachable from their region's entry,
//! then erase ops proven dead by a liveness fixpoint (region DCE).
//!
//! Liveness: an op is live if it could have side effects (unregistered, not `Pure`), is a
//! terminator or a symbol, or if a result is used by a live op. Everything else (including
//! cycles of pure ops feeding each other in graph regions) is dead. Block arguments are never
//! removed: that needs knowledge of branch operands that our op definitions do not describe.
//!
//! Both passes work with explicit worklists (no recursion over nesting).

use super::fold::would_be_trivially_dead;
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, WalkOrder, WalkResult};
use crate::verifier::dominance::block_successors_in_region;
use rustc_hash::FxHashSet;

/// Erases unreachable blocks, then dead ops; true if anything was erased.
pub fn simplify_regions(ctx: &Context, ir: &mut Ir, regions: &[RegionId]) -> bool {
    let a = erase_unreachable_blocks(ir, regions);
    let b = region_dce(ctx, ir, regions);
    a | b
}

/// The blocks of a region reachable from its entry.
fn reachable_blocks(ir: &Ir, r: RegionId) -> FxHashSet<BlockId> {
    let mut seen = FxHashSet::default();
    let Some(entry) = ir.region_entry(r) else { return seen };
    let mut stack = vec![entry];
    seen.insert(entry);
    while let Some(b) = stack.pop() {
        for s in block_successors_in_region(ir, b) {
            if seen.insert(s) {
                stack.push(s);
            }
        }
    }
    seen
}

/// All ops in the given blocks and nested in them.
fn ops_in_blocks(ir: &Ir, blocks: &[BlockId]) -> Vec<OpId> {
    let mut out = Vec::new();
    for &b in blocks {
        for op in ir.block_ops(b) {
            ir.walk(op, WalkOrder::PreOrder, |o| {
                out.push(o);
                WalkResult::Advance
            });
        }
    }
    out
}

/// Erases the blocks of `regions` (and of regions nested in them) that cannot be reached from
/// their region's entry block. True if a block was erased.
pub fn erase_unreachable_blocks(ir: &mut Ir, regions: &[RegionId]) -> bool {
    let mut erased = false;
    let mut worklist: Vec<RegionId> = regions.to_vec();
    while let Some(r) = worklist.pop() {
        let blocks = ir.region_blocks(r).to_vec();
        if blocks.len() > 1 {
            let reachable = reachable_blocks(ir, r);
            let dead: Vec<BlockId> = blocks.iter().copied().filter(|b| !reachable.contains(b)).collect();
            if !dead.is_empty() && erase_blocks_together(ir, &dead) {
                erased = true;
            }
        }
        for &b in ir.region_blocks(r) {
            for op in ir.block_ops(b) {
                worklist.extend(ir.regions(op).iter().copied());
            }
        }
    }
    erased
}

/// Erases a set of blocks whose values may be used across the set (but nowhere else; if they
/// are, nothing is erased and false is returned).
fn erase_blocks_together(ir: &mut Ir, dead: &[BlockId]) -> bool {
    let ops = ops_in_blocks(ir, dead);
    let inside: FxHashSet<OpId> = ops.iter().copied().collect();
    let mut defined = Vec::new();
    for &o in &ops {
        defined.extend(ir.results(o).iter().copied());
        for &r in ir.regions(o) {
            for &b in ir.region_blocks(r) {
                defined.extend(ir.block_args(b).iter().copied());
            }
        }
    }
    for &b in dead {
        defined.extend(ir.block_args(b).iter().copied());
    }
    if defined.iter().any(|&v| ir.uses(v).any(|u| !inside.contains(&u.op))) {
        return false;
    }
    for &o in &ops {
        ir.set_operands(o, &[]);
    }
    for &b in dead {
        ir.erase_block(b);
    }
    true
}

/// Erases ops of `regions` (at any depth) that are not live; true if any was erased.
pub fn region_dce(ctx: &Context, ir: &mut Ir, regions: &[RegionId]) -> bool {
    let mut all = Vec::new();
    for &r in regions {
        let blocks = ir.region_blocks(r).to_vec();
        all.extend(ops_in_blocks(ir, &blocks));
    }
    let live = liveness(ctx, ir, &all);
    let mut dead_roots = Vec::new();
    for &r in regions {
        for &b in ir.region_blocks(r) {
            for op in ir.block_ops(b) {
                ir.walk(op, WalkOrder::PreOrder, |o| {
                    if live.contains(&o) {
                        WalkResult::Advance
                    } else {
                        dead_roots.push(o);
                        WalkResult::Skip
                    }
                });
            }
        }
    }
    if dead_roots.is_empty() {
        return false;
    }
    let dead_ops: Vec<OpId> = dead_roots.iter().flat_map(|&o| ir.collect_ops(o, WalkOrder::PreOrder)).collect();
    let dead_set: FxHashSet<OpId> = dead_ops.iter().copied().collect();
    // A dead op whose results are read by a surviving op (only in invalid IR) is kept.
    let unsafe_roots: FxHashSet<OpId> = dead_roots
        .iter()
        .copied()
        .filter(|&root| {
            ir.collect_ops(root, WalkOrder::PreOrder)
                .iter()
                .any(|&o| ir.results(o).iter().any(|&v| ir.uses(v).any(|u| !dead_set.contains(&u.op))))
        })
        .collect();
    let mut erased = false;
    for &root in &dead_roots {
        if unsafe_roots.contains(&root) {
            continue;
        }
        for o in ir.collect_ops(root, WalkOrder::PreOrder) {
            ir.set_operands(o, &[]);
        }
    }
    for &root in &dead_roots {
        if !unsafe_roots.contains(&root) && ir.is_live_op(root) {
            ir.erase_op(root);
            erased = true;
        }
    }
    erased
}

/// The live ops among `ops` (a fixpoint, visiting ops last to first to see uses before defs).
fn liveness(ctx: &Context, ir: &Ir, ops: &[OpId]) -> FxHashSet<OpId> {
    let mut live: FxHashSet<OpId> = FxHashSet::default();
    loop {
        let mut changed = false;
        for &op in ops.iter().rev() {
            if live.contains(&op) {
                continue;
            }
            let is_live = !would_be_trivially_dead(ctx, ir, op)
                || ir.results(op).iter().any(|&v| ir.uses(v).any(|u| live.contains(&u.op)));
            if is_live {
                live.insert(op);
                changed = true;
            }
        }
        if !changed {
            return live;
        }
    }
}
