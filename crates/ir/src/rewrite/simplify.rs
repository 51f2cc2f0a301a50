//! Region simplification run by the greedy driver after each iteration (MLIR's
//! `simplifyRegions`): erase blocks unreachable from their region's entry, then erase ops
//! proven dead by a liveness fixpoint (region DCE), then, at the `aggressive` level only, merge
//! identical blocks ([`super::block_merge`]) and drop redundant block arguments
//! ([`super::redundant_args`]).
//!
//! Liveness: an op is live if it could have side effects (unregistered, not `Pure`), is a
//! terminator or a symbol, or if a result is used by a live op. Everything else (including
//! cycles of pure ops feeding each other in graph regions) is dead. As in MLIR, arguments of
//! non-entry blocks are live when a live op uses them; an operand a branch forwards to a
//! block argument (ops with a `successor_operands` hook, MLIR's `BranchOpInterface`) is a use
//! only when that argument is live, and every argument of a block reached by another
//! terminator is live. Dead arguments are erased with the branch operands feeding them.
//!
//! Both passes work with explicit worklists (no recursion over nesting).

use super::fold::would_be_trivially_dead;
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value, WalkOrder, WalkResult};
use crate::verifier::dominance::block_successors_in_region;
use rustc_hash::{FxHashMap, FxHashSet};

/// Erases unreachable blocks, then dead ops, then (with `merge_blocks`) merges identical
/// blocks and drops redundant block arguments; true if anything changed.
pub fn simplify_regions(ctx: &Context, ir: &mut Ir, regions: &[RegionId], merge_blocks: bool) -> bool {
    let a = erase_unreachable_blocks(ir, regions);
    let b = region_dce(ctx, ir, regions);
    let (mut c, mut d) = (false, false);
    if merge_blocks {
        c = super::block_merge::merge_identical_blocks(ctx, ir, regions);
        d = super::redundant_args::drop_redundant_arguments(ctx, ir, regions);
    }
    a | b | c | d
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

/// Erases ops of `regions` (at any depth) that are not live, and dead arguments of non-entry
/// blocks with the branch operands feeding them; true if an op was erased (as MLIR reports).
pub fn region_dce(ctx: &Context, ir: &mut Ir, regions: &[RegionId]) -> bool {
    let mut all = Vec::new();
    let mut blocks = Vec::new();
    for &r in regions {
        let rb = ir.region_blocks(r).to_vec();
        blocks.extend(rb.iter().skip(1).copied());
        all.extend(ops_in_blocks(ir, &rb));
    }
    for &o in &all {
        for &r in ir.regions(o) {
            blocks.extend(ir.region_blocks(r).iter().skip(1).copied());
        }
    }
    let live = liveness(ctx, ir, &all, &blocks);
    erase_dead_successor_operands(ctx, ir, &all, &live);
    let live_ops = &live.ops;
    let mut dead_roots = Vec::new();
    for &r in regions {
        for &b in ir.region_blocks(r) {
            for op in ir.block_ops(b) {
                ir.walk(op, WalkOrder::PreOrder, |o| {
                    if live_ops.contains(&o) {
                        WalkResult::Advance
                    } else {
                        dead_roots.push(o);
                        WalkResult::Skip
                    }
                });
            }
        }
    }
    let mut erased = false;
    if !dead_roots.is_empty() {
        erased = erase_dead_roots(ir, &dead_roots);
    }
    for &b in &blocks {
        if !ir.is_live_block(b) {
            continue;
        }
        for i in (0..ir.block_args(b).len()).rev() {
            let a = ir.block_args(b)[i];
            if live.tracked.contains(&a) && !live.args.contains(&a) && !ir.has_uses(a) {
                ir.erase_block_arg(b, i);
            }
        }
    }
    erased
}

/// Erases the operands branches forward to dead block arguments (last to first).
fn erase_dead_successor_operands(ctx: &Context, ir: &mut Ir, ops: &[OpId], live: &Live) {
    for &op in ops {
        if !ir.is_live_op(op) || ir.successors(op).is_empty() {
            continue;
        }
        let Some(def) = ctx.op_def(ir.op_name(op)) else { continue };
        let (Some(ranges), Some(erase)) =
            (def.successor_operands.and_then(|f| f(ctx, ir, op)), def.erase_successor_operand)
        else {
            continue;
        };
        let succs = ir.successors(op).to_vec();
        for (s, r) in ranges.iter().enumerate().rev() {
            let Some(&dest) = succs.get(s) else { continue };
            for k in (0..r.len()).rev() {
                let Some(&arg) = ir.block_args(dest).get(k) else { continue };
                if live.tracked.contains(&arg) && !live.args.contains(&arg) {
                    erase(ctx, ir, op, s, k);
                }
            }
        }
    }
}

/// Erases dead subtrees whose results only dead ops read; true if one was erased.
fn erase_dead_roots(ir: &mut Ir, dead_roots: &[OpId]) -> bool {
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
    for &root in dead_roots {
        if unsafe_roots.contains(&root) {
            continue;
        }
        for o in ir.collect_ops(root, WalkOrder::PreOrder) {
            ir.set_operands(o, &[]);
        }
    }
    for &root in dead_roots {
        if !unsafe_roots.contains(&root) && ir.is_live_op(root) {
            ir.erase_op(root);
            erased = true;
        }
    }
    erased
}

/// Live ops and block arguments; `tracked` are the arguments whose liveness is computed
/// (those of non-entry blocks), the others are live.
struct Live {
    ops: FxHashSet<OpId>,
    args: FxHashSet<Value>,
    tracked: FxHashSet<Value>,
}

/// The operand ranges each branch among `ops` forwards to its successors (`successor_operands`
/// hooks, computed once: a `cf.switch` with N cases costs O(N) per call).
type BranchRanges = FxHashMap<OpId, Vec<std::ops::Range<usize>>>;

fn branch_ranges(ctx: &Context, ir: &Ir, ops: &[OpId]) -> BranchRanges {
    let mut out = BranchRanges::default();
    for &op in ops {
        if ir.successors(op).is_empty() {
            continue;
        }
        let hook = ctx.op_def(ir.op_name(op)).and_then(|d| d.successor_operands);
        if let Some(ranges) = hook.and_then(|f| f(ctx, ir, op)) {
            out.insert(op, ranges);
        }
    }
    out
}

/// For a branch with a `successor_operands` hook: the block argument operand `index` feeds.
fn forwarded_arg(ir: &Ir, ranges: &BranchRanges, op: OpId, index: usize) -> Option<Value> {
    let ranges = ranges.get(&op)?;
    // The ranges are consecutive and ascending: the first whose end is past `index`.
    let s = ranges.partition_point(|r| r.end <= index);
    let r = ranges.get(s).filter(|r| r.contains(&index))?;
    let dest = *ir.successors(op).get(s)?;
    ir.block_args(dest).get(index - r.start).copied()
}

/// The live ops among `ops` and arguments of `blocks` (a fixpoint, visiting ops last to first
/// to see uses before defs).
fn liveness(ctx: &Context, ir: &Ir, ops: &[OpId], blocks: &[BlockId]) -> Live {
    let tracked: FxHashSet<Value> = blocks.iter().flat_map(|&b| ir.block_args(b).iter().copied()).collect();
    let mut live = Live { ops: FxHashSet::default(), args: FxHashSet::default(), tracked };
    let ranges = branch_ranges(ctx, ir, ops);
    // Arguments of blocks reached by a terminator we cannot reason about are live.
    for &op in ops {
        if ir.successors(op).is_empty() {
            continue;
        }
        if !ranges.contains_key(&op) {
            for &s in ir.successors(op) {
                live.args.extend(ir.block_args(s).iter().copied());
            }
        }
    }
    let use_is_live = |live: &Live, u: crate::ir::OpOperand| {
        if !live.ops.contains(&u.op) {
            return false;
        }
        match forwarded_arg(ir, &ranges, u.op, u.index as usize) {
            Some(arg) if live.tracked.contains(&arg) => live.args.contains(&arg),
            _ => true,
        }
    };
    loop {
        let mut changed = false;
        for &op in ops.iter().rev() {
            if live.ops.contains(&op) {
                continue;
            }
            let is_live = !would_be_trivially_dead(ctx, ir, op)
                || ir.results(op).iter().any(|&v| ir.uses(v).any(|u| use_is_live(&live, u)));
            if is_live {
                live.ops.insert(op);
                changed = true;
            }
        }
        for &b in blocks {
            for &a in ir.block_args(b) {
                if !live.args.contains(&a) && ir.uses(a).any(|u| use_is_live(&live, u)) {
                    live.args.insert(a);
                    changed = true;
                }
            }
        }
        if !changed {
            return live;
        }
    }
}
