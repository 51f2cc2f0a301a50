//! Identical-block merging, the extra region simplification of the `aggressive` level (MLIR's
//! `mergeIdenticalBlocks`).
//!
//! Per region (and every region nested in it, each revisited while it changes), the non-entry
//! blocks are grouped by their terminator's successor list. Within a group, blocks without ops
//! holding a non-empty region form clusters around a leader: a block joins a cluster when it
//! has the leader's argument types and, op by op, ops equal up to locations whose operands are either
//! the same value, values defined in the respective block at the same position (arguments by
//! number, results by order of definition), or values defined elsewhere (not by the terminator
//! of a predecessor of the block); no op result may be used outside its block.
//!
//! A cluster is merged into its leader: operands that differ between the blocks become new
//! leader arguments, which every predecessor branch passes (so all predecessors must have the
//! `successor_operands` and `append_successor_operand` hooks, MLIR's `BranchOpInterface`);
//! a new argument that receives, from every member's branches, the same values as an earlier
//! new argument is replaced by it. Branches to the other blocks are redirected to the leader
//! and those blocks are erased. Blocks whose arguments are used outside them never merge.

use super::predecessors::Predecessors;
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;

/// Merges identical blocks in `regions` and the regions nested in them; true if any merged.
pub fn merge_identical_blocks(ctx: &Context, ir: &mut Ir, regions: &[RegionId]) -> bool {
    let mut worklist: Vec<RegionId> = Vec::new();
    let mut queued: FxHashSet<RegionId> = FxHashSet::default();
    let push = |w: &mut Vec<RegionId>, q: &mut FxHashSet<RegionId>, r: RegionId| {
        if q.insert(r) {
            w.push(r);
        }
    };
    for &r in regions {
        push(&mut worklist, &mut queued, r);
    }
    let mut changed = false;
    while let Some(r) = worklist.pop() {
        queued.remove(&r);
        if merge_in_region(ctx, ir, r) {
            push(&mut worklist, &mut queued, r);
            changed = true;
        }
        for &b in ir.region_blocks(r) {
            for op in ir.block_ops(b) {
                for &nested in ir.regions(op) {
                    push(&mut worklist, &mut queued, nested);
                }
            }
        }
    }
    changed
}

/// The successors of a block's terminator (none for an empty block).
fn block_successors(ir: &Ir, b: BlockId) -> Vec<BlockId> {
    ir.last_op(b).map(|t| ir.successors(t).to_vec()).unwrap_or_default()
}

/// One round of merging in one region; true if a block was merged.
fn merge_in_region(ctx: &Context, ir: &mut Ir, r: RegionId) -> bool {
    let blocks = ir.region_blocks(r).to_vec();
    if blocks.len() <= 1 {
        return false;
    }
    // Groups in order of first appearance, found by successor list.
    let mut groups: Vec<Vec<BlockId>> = Vec::new();
    let mut group_of: FxHashMap<Vec<BlockId>, usize> = FxHashMap::default();
    for &b in &blocks[1..] {
        let next = groups.len();
        let g = *group_of.entry(block_successors(ir, b)).or_insert(next);
        if g == next {
            groups.push(Vec::new());
        }
        groups[g].push(b);
    }
    let mut preds = Predecessors::of_region(ir, r);
    let mut merged = false;
    for members in groups {
        if members.len() == 1 {
            continue;
        }
        let mut clusters: Vec<Cluster> = Vec::new();
        for b in members {
            if ir.block_ops(b).any(|op| ir.regions(op).iter().any(|&nr| !ir.region_blocks(nr).is_empty())) {
                continue;
            }
            let arg_used_outside = ir.block_args(b).iter().any(|&a| ir.uses(a).any(|u| ir.op_block(u.op) != Some(b)));
            if arg_used_outside {
                continue;
            }
            if !clusters.iter_mut().any(|c| c.try_add(ir, &preds, b)) {
                clusters.push(Cluster::new(ir, b));
            }
        }
        for c in clusters {
            merged |= c.merge(ctx, ir, &mut preds);
        }
    }
    merged
}

/// A leader block and the blocks equivalent to it.
struct Cluster {
    leader: BlockId,
    others: Vec<BlockId>,
    /// (op position, operand index) of the operands that differ between the blocks.
    operands: BTreeSet<(usize, usize)>,
    /// The positions of the values defined in the leader (computed once per cluster).
    leader_positions: FxHashMap<Value, usize>,
}

/// The positions of the values defined in block `b`: arguments by number, results after them
/// in order of definition.
fn positions_in_block(ir: &Ir, b: BlockId) -> FxHashMap<Value, usize> {
    let mut out: FxHashMap<Value, usize> = FxHashMap::default();
    let results = ir.block_ops(b).flat_map(|op| ir.results(op).iter().copied());
    for (i, v) in ir.block_args(b).iter().copied().chain(results).enumerate() {
        out.insert(v, i);
    }
    out
}

/// False when `v` is the result of the terminator of a predecessor of `block` (it would not
/// dominate the branch passing it to the merged block).
fn valid_successor_arg(ir: &Ir, preds: &Predecessors, block: BlockId, v: Value) -> bool {
    let Some(def_block) = ir.value_block(v) else { return true };
    if ir.defining_op(v).is_none() || ir.defining_op(v) != ir.last_op(def_block) {
        return true;
    }
    !preds.has_predecessor_block(ir, block, def_block)
}

/// Same op up to locations and operand values (MLIR's `OperationEquivalence::isEquivalentTo`
/// ignoring value equivalence): name, attributes, properties, counts, operand and result types.
fn same_op_shape(ir: &Ir, a: OpId, b: OpId) -> bool {
    ir.op_name(a) == ir.op_name(b)
        && ir.attrs(a) == ir.attrs(b)
        && ir.props(a) == ir.props(b)
        && ir.regions(a).len() == ir.regions(b).len()
        && ir.successors(a).len() == ir.successors(b).len()
        && ir.num_operands(a) == ir.num_operands(b)
        && ir.num_results(a) == ir.num_results(b)
        && (0..ir.num_operands(a)).all(|i| ir.value_type(ir.operand(a, i)) == ir.value_type(ir.operand(b, i)))
        && ir.results(a).iter().zip(ir.results(b)).all(|(&x, &y)| ir.value_type(x) == ir.value_type(y))
}

/// True if a result of `op` is used by an op outside block `b`.
fn used_outside(ir: &Ir, op: OpId, b: BlockId) -> bool {
    ir.results(op).iter().any(|&v| ir.uses(v).any(|u| ir.op_block(u.op) != Some(b)))
}

/// Drops new leader arguments (those from `first_new` on) that duplicate an earlier new one in
/// every list of passed values: `lists[m][j]` is what the branches to cluster member `m` pass
/// for new argument `j`. Argument `j` duplicates `k` when `k` is where the value `lists[0][j]`
/// first occurs in `lists[0]` and every other list also has equal values at `k` and `j`.
/// Returns the lists without the dropped positions.
fn prune_redundant_new_args(ir: &mut Ir, leader: BlockId, first_new: usize, lists: Vec<Vec<Value>>) -> Vec<Vec<Value>> {
    let Some(first) = lists.first() else { return lists };
    let mut first_index: FxHashMap<Value, usize> = FxHashMap::default();
    for (j, &v) in first.iter().enumerate() {
        first_index.entry(v).or_insert(j);
    }
    let mut replacement: Vec<Option<usize>> = vec![None; first.len()];
    for (j, v) in first.iter().enumerate() {
        let k = first_index[v];
        if k != j && lists[1..].iter().all(|l| l[k] == l[j]) {
            replacement[j] = Some(k);
        }
    }
    for j in (0..replacement.len()).rev() {
        if let Some(k) = replacement[j] {
            let args = ir.block_args(leader);
            let (old, new) = (args[first_new + j], args[first_new + k]);
            ir.replace_all_uses(old, new);
            ir.erase_block_arg(leader, first_new + j);
        }
    }
    lists
        .into_iter()
        .map(|l| l.into_iter().zip(&replacement).filter(|(_, r)| r.is_none()).map(|(v, _)| v).collect())
        .collect()
}

impl Cluster {
    fn new(ir: &Ir, leader: BlockId) -> Cluster {
        Cluster {
            leader,
            others: Vec::new(),
            operands: BTreeSet::new(),
            leader_positions: positions_in_block(ir, leader),
        }
    }

    /// Adds `b` if it is equivalent to the leader.
    fn try_add(&mut self, ir: &Ir, preds: &Predecessors, b: BlockId) -> bool {
        let leader = self.leader;
        let types = |blk: BlockId| ir.block_args(blk).iter().map(|&a| ir.value_type(a)).collect::<Vec<_>>();
        if types(leader) != types(b) {
            return false;
        }
        let lhs: Vec<OpId> = ir.block_ops(leader).collect();
        let rhs: Vec<OpId> = ir.block_ops(b).collect();
        if lhs.len() != rhs.len() {
            return false;
        }
        let mut mismatched = Vec::new();
        let r_pos = positions_in_block(ir, b);
        for (i, (&l, &r)) in lhs.iter().zip(&rhs).enumerate() {
            if !same_op_shape(ir, l, r) {
                return false;
            }
            for k in 0..ir.num_operands(l) {
                let (lv, rv) = (ir.operand(l, k), ir.operand(r, k));
                if lv == rv {
                    continue;
                }
                let l_in = ir.value_block(lv) == Some(leader);
                let r_in = ir.value_block(rv) == Some(b);
                if l_in != r_in {
                    return false;
                }
                if !l_in {
                    if !valid_successor_arg(ir, preds, leader, lv) || !valid_successor_arg(ir, preds, b, rv) {
                        return false;
                    }
                    mismatched.push((i, k));
                } else if self.leader_positions.get(&lv) != r_pos.get(&rv) {
                    return false;
                }
            }
            if used_outside(ir, r, b) || used_outside(ir, l, leader) {
                return false;
            }
        }
        self.operands.extend(mismatched);
        self.others.push(b);
        true
    }

    /// True if every branch to the cluster's blocks can take extra successor operands.
    /// Each terminator is checked once, however many of its successors are in the cluster (a
    /// `cf.switch` computes its operand ranges in O(cases)).
    fn predecessors_updatable(&self, ctx: &Context, ir: &Ir, preds: &Predecessors) -> bool {
        let mut checked: FxHashSet<OpId> = FxHashSet::default();
        std::iter::once(self.leader).chain(self.others.iter().copied()).all(|b| {
            preds.edges(b).iter().all(|&(t, _)| {
                !checked.insert(t)
                    || ctx.op_def(ir.op_name(t)).is_some_and(|d| {
                        d.append_successor_operand.is_some()
                            && d.successor_operands.and_then(|f| f(ctx, ir, t)).is_some()
                    })
            })
        })
    }

    /// Merges the cluster into its leader, keeping `preds` in step; true if a block was merged.
    fn merge(self, ctx: &Context, ir: &mut Ir, preds: &mut Predecessors) -> bool {
        if self.others.is_empty() {
            return false;
        }
        let members: Vec<BlockId> = std::iter::once(self.leader).chain(self.others.iter().copied()).collect();
        if !self.operands.is_empty() {
            if !self.predecessors_updatable(ctx, ir, preds) {
                return false;
            }
            let num_old_args = ir.block_args(self.leader).len();
            let op_lists: Vec<Vec<OpId>> = members.iter().map(|&b| ir.block_ops(b).collect()).collect();
            let mut new_args: Vec<Vec<Value>> = vec![Vec::new(); members.len()];
            for &(i, k) in &self.operands {
                for (m, ops) in op_lists.iter().enumerate() {
                    let v = ir.operand(ops[i], k);
                    new_args[m].push(v);
                    if m == 0 {
                        let loc = ir.value_loc(v).or_else(|| ir.defining_op(v).map(|o| ir.loc(o)));
                        let arg = ir.add_block_arg(self.leader, ir.value_type(v), loc);
                        ir.set_operand(ops[i], k, arg);
                    }
                }
            }
            let new_args = prune_redundant_new_args(ir, self.leader, num_old_args, new_args);
            for (m, &b) in members.iter().enumerate() {
                for &(t, s) in preds.edges(b) {
                    let Some(append) = ctx.op_def(ir.op_name(t)).and_then(|d| d.append_successor_operand) else {
                        continue;
                    };
                    for &v in &new_args[m] {
                        append(ctx, ir, t, s, v);
                    }
                }
            }
        }
        let leader_args = ir.block_args(self.leader).to_vec();
        for &b in &self.others {
            for &(t, s) in preds.edges(b) {
                ir.set_successor(t, s, self.leader);
            }
            preds.redirect(b, self.leader);
            preds.forget_block(ir, b);
            let ops: Vec<OpId> = ir.block_ops(b).collect();
            for o in ops {
                ir.set_operands(o, &[]);
            }
            let args = ir.block_args(b).to_vec();
            for (a, &l) in args.iter().zip(&leader_args) {
                ir.replace_all_uses(*a, l);
            }
            ir.erase_block(b);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::OperationState;
    use crate::registry::Registry;

    fn state(ctx: &Context, name: &str, successors: Vec<BlockId>) -> OperationState {
        OperationState {
            name: ctx.op_name(name),
            operands: vec![],
            result_types: vec![],
            successors,
            regions: vec![],
            attrs: ctx.empty_dict(),
            props: None,
            loc: ctx.unknown_loc(),
        }
    }

    /// Two non-entry blocks with the same (empty) successor list and equal ops merge; a block
    /// with a different op count does not join them.
    #[test]
    fn merges_equal_blocks_only() {
        let ctx = Context::new(Registry::new());
        let mut ir = Ir::new();
        let r = ir.create_region();
        let entry = ir.create_block(&[]);
        ir.append_block(r, entry);
        let mut blocks = Vec::new();
        for n in [1, 1, 2] {
            let b = ir.create_block(&[]);
            ir.append_block(r, b);
            for _ in 0..n {
                let op = ir.create_op(state(&ctx, "foo.op", vec![]));
                ir.append_op(b, op);
            }
            blocks.push(b);
        }
        let br = ir.create_op(state(&ctx, "foo.br", blocks.clone()));
        ir.append_op(entry, br);
        assert!(merge_identical_blocks(&ctx, &mut ir, &[r]));
        assert_eq!(ir.region_blocks(r), &[entry, blocks[0], blocks[2]]);
        assert_eq!(ir.successors(br), &[blocks[0], blocks[0], blocks[2]]);
        assert!(!merge_identical_blocks(&ctx, &mut ir, &[r]));
    }
}
