//! `cse`: common subexpression elimination, with the semantics of mlir-opt-19's CSE pass.
//!
//! Algorithm. The regions of the root op are walked with a *scoped* table of known ops:
//! - a single-block region is one scope; a multi-block region with SSA dominance is walked along
//!   its dominator tree, one scope per tree node, so an op is only replaced by an equivalent op
//!   in a dominating block; blocks unreachable from the entry are not visited; multi-block
//!   regions without SSA dominance (graph regions, regions of unregistered ops) are skipped;
//! - the regions of an op are walked (in nested scopes) before the op itself; the regions of an
//!   op that might be isolated from above (isolated, or unregistered) get an empty table;
//! - for each op of a block, in order: terminators are skipped; a trivially dead op (pure, result
//!   unused) is queued for erasure; ops with a multi-block region or that are not `Pure`
//!   (unregistered ops included: they may have side effects) are skipped; otherwise, if an
//!   equivalent op is known its uses are redirected to it and the op is queued for erasure, else
//!   the op becomes known.
//!
//! Equivalence: same name, discardable attributes, properties, result types, operands (the same
//! values; for a `Commutative` op the same values in any order, as MLIR sorts them), successors, and structurally equivalent regions; locations are ignored. In a block
//! without SSA dominance only uses by ops not in the table are redirected, and the op is erased
//! only if no use is left. When the kept op has an unknown location and the erased one does not,
//! the kept op takes that location. Queued ops are erased at the end; dead code is not chased
//! further (that is `canonicalize`'s and `dce`'s job).

use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, RegionId, Value};
use fuser_ir::registry::Traits;
use fuser_ir::rewrite::fold::is_trivially_dead;
use fuser_ir::verifier::dominance::{DomTree, region_has_ssa_dominance};
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

/// Counters of one CSE run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CseStats {
    /// Ops replaced by an equivalent op.
    pub num_cse: usize,
    /// Trivially dead ops erased.
    pub num_dce: usize,
}

/// Runs CSE on everything nested in `root`; returns whether the IR changed.
pub fn run_cse(ctx: &Context, ir: &mut Ir, root: OpId) -> bool {
    let stats = run_cse_with_stats(ctx, ir, root);
    stats.num_cse + stats.num_dce > 0
}

/// Like [`run_cse`], with counters.
pub fn run_cse_with_stats(ctx: &Context, ir: &mut Ir, root: OpId) -> CseStats {
    let mut d = Cse { ctx, ir, table: ScopedTable::default(), to_erase: Vec::new(), stats: CseStats::default() };
    for r in d.ir.regions(root).to_vec() {
        d.simplify_region(r);
    }
    for op in std::mem::take(&mut d.to_erase) {
        if d.ir.is_live_op(op) && d.ir.results_unused(op) {
            d.ir.erase_op(op);
        }
    }
    d.stats
}

/// A hash table of known ops with nested scopes.
#[derive(Default)]
struct ScopedTable {
    map: FxHashMap<u64, Vec<OpId>>,
    /// Hashes inserted in each open scope.
    scopes: Vec<Vec<u64>>,
}

impl ScopedTable {
    fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }
    fn pop_scope(&mut self) {
        for h in self.scopes.pop().unwrap_or_default() {
            if let Some(v) = self.map.get_mut(&h) {
                v.pop();
                if v.is_empty() {
                    self.map.remove(&h);
                }
            }
        }
    }
    fn insert(&mut self, h: u64, op: OpId) {
        self.map.entry(h).or_default().push(op);
        if let Some(s) = self.scopes.last_mut() {
            s.push(h);
        }
    }
}

struct Cse<'a> {
    ctx: &'a Context,
    ir: &'a mut Ir,
    table: ScopedTable,
    to_erase: Vec<OpId>,
    stats: CseStats,
}

impl Cse<'_> {
    fn simplify_region(&mut self, r: RegionId) {
        let blocks = self.ir.region_blocks(r).to_vec();
        if blocks.is_empty() {
            return;
        }
        let ssa = region_has_ssa_dominance(self.ctx, self.ir, r);
        if blocks.len() == 1 {
            self.table.push_scope();
            self.simplify_block(blocks[0], ssa);
            self.table.pop_scope();
            return;
        }
        if !ssa {
            return;
        }
        let tree = DomTree::compute(self.ir, r);
        let Some(entry) = tree.entry() else { return };
        // Depth-first over the dominator tree, one scope per node.
        let mut stack: Vec<(Vec<BlockId>, usize)> = Vec::new();
        self.table.push_scope();
        self.simplify_block(entry, ssa);
        stack.push((tree.children(entry), 0));
        while let Some(top) = stack.last_mut() {
            if top.1 < top.0.len() {
                let child = top.0[top.1];
                top.1 += 1;
                self.table.push_scope();
                self.simplify_block(child, ssa);
                stack.push((tree.children(child), 0));
            } else {
                stack.pop();
                self.table.pop_scope();
            }
        }
    }

    fn simplify_block(&mut self, b: BlockId, ssa: bool) {
        let ops: Vec<OpId> = self.ir.block_ops(b).collect();
        for op in ops {
            if !self.ir.is_live_op(op) {
                continue;
            }
            let regions = self.ir.regions(op).to_vec();
            if !regions.is_empty() {
                if self.might_be_isolated(op) {
                    let saved = std::mem::take(&mut self.table);
                    for &r in &regions {
                        self.simplify_region(r);
                    }
                    self.table = saved;
                } else {
                    for &r in &regions {
                        self.simplify_region(r);
                    }
                }
            }
            self.simplify_operation(op, ssa);
        }
    }

    fn might_be_isolated(&self, op: OpId) -> bool {
        self.ctx.op_def(self.ir.op_name(op)).is_none_or(|d| d.has(Traits::ISOLATED_FROM_ABOVE))
    }

    fn simplify_operation(&mut self, op: OpId, ssa: bool) {
        let Some(def) = self.ctx.op_def(self.ir.op_name(op)) else { return };
        if def.has(Traits::TERMINATOR) {
            return;
        }
        if is_trivially_dead(self.ctx, self.ir, op) {
            self.to_erase.push(op);
            self.stats.num_dce += 1;
            return;
        }
        if self.ir.regions(op).iter().any(|&r| self.ir.region_blocks(r).len() > 1) {
            return;
        }
        if !def.has(Traits::PURE) {
            return;
        }
        let h = op_hash(self.ctx, self.ir, op);
        match self.lookup(h, op) {
            Some(existing) => self.replace_uses_and_delete(op, existing, ssa),
            None => self.table.insert(h, op),
        }
    }

    fn lookup(&self, h: u64, op: OpId) -> Option<OpId> {
        let candidates = self.table.map.get(&h)?;
        candidates.iter().rev().copied().find(|&c| c != op && ops_equivalent(self.ctx, self.ir, c, op))
    }

    /// Whether an op equivalent to `op` is in the table (MLIR's `knownValues.count(op)`).
    fn is_known(&self, op: OpId) -> bool {
        let h = op_hash(self.ctx, self.ir, op);
        self.table.map.get(&h).is_some_and(|v| v.iter().any(|&c| c == op || ops_equivalent(self.ctx, self.ir, c, op)))
    }

    fn replace_uses_and_delete(&mut self, op: OpId, existing: OpId, ssa: bool) {
        let results: Vec<Value> = self.ir.results(op).to_vec();
        let with: Vec<Value> = self.ir.results(existing).to_vec();
        if ssa {
            for (&r, &w) in results.iter().zip(&with) {
                self.ir.replace_all_uses(r, w);
            }
            self.to_erase.push(op);
        } else {
            for (&r, &w) in results.iter().zip(&with) {
                let uses: Vec<_> = self.ir.uses(r).collect();
                for u in uses {
                    if !self.is_known(u.op) {
                        self.ir.set_operand(u.op, u.index as usize, w);
                    }
                }
            }
            if self.ir.results_unused(op) {
                self.to_erase.push(op);
            }
        }
        let unknown = self.ctx.unknown_loc();
        if self.ir.loc(existing) == unknown && self.ir.loc(op) != unknown {
            let loc = self.ir.loc(op);
            self.ir.set_loc(existing, loc);
        }
        self.stats.num_cse += 1;
    }
}

/// Hash of the parts compared by [`ops_equivalent`] that do not need a value mapping.
fn op_hash(ctx: &Context, ir: &Ir, op: OpId) -> u64 {
    let mut h = FxHasher::default();
    ir.op_name(op).hash(&mut h);
    ir.attrs(op).hash(&mut h);
    ir.props(op).hash(&mut h);
    for &r in ir.results(op) {
        ir.value_type(r).hash(&mut h);
    }
    for v in compared_operands(ctx, ir, op, |v| v) {
        v.hash(&mut h);
    }
    ir.regions(op).len().hash(&mut h);
    h.finish()
}

/// The operands of `op` as equivalence compares them, each read through `map`: in order, or
/// sorted for a `Commutative` op (so `addi %a, %b` and `addi %b, %a` are one expression).
fn compared_operands(ctx: &Context, ir: &Ir, op: OpId, map: impl Fn(Value) -> Value) -> Vec<Value> {
    let mut vs: Vec<Value> = ir.operands(op).iter().map(|&v| map(v)).collect();
    if ctx.op_def(ir.op_name(op)).is_some_and(|d| d.has(Traits::COMMUTATIVE)) {
        vs.sort_by_key(|v| v.index());
    }
    vs
}

/// Equivalence of two ops reading the same values, ignoring locations.
pub fn ops_equivalent(ctx: &Context, ir: &Ir, a: OpId, b: OpId) -> bool {
    let mut map = FxHashMap::default();
    let mut blocks = FxHashMap::default();
    ops_equivalent_mapped(ctx, ir, a, b, &mut map, &mut blocks)
}

/// `map` sends values defined inside `a`'s regions to their counterparts in `b`'s.
fn ops_equivalent_mapped(
    ctx: &Context,
    ir: &Ir,
    a: OpId,
    b: OpId,
    map: &mut FxHashMap<Value, Value>,
    blocks: &mut FxHashMap<BlockId, BlockId>,
) -> bool {
    if ir.op_name(a) != ir.op_name(b)
        || ir.attrs(a) != ir.attrs(b)
        || ir.props(a) != ir.props(b)
        || ir.num_operands(a) != ir.num_operands(b)
        || ir.num_results(a) != ir.num_results(b)
        || ir.successors(a).len() != ir.successors(b).len()
        || ir.regions(a).len() != ir.regions(b).len()
    {
        return false;
    }
    let types_equal = ir.results(a).iter().zip(ir.results(b)).all(|(&x, &y)| ir.value_type(x) == ir.value_type(y));
    let operands_equal =
        compared_operands(ctx, ir, a, |x| map.get(&x).copied().unwrap_or(x)) == compared_operands(ctx, ir, b, |y| y);
    let successors_equal =
        ir.successors(a).iter().zip(ir.successors(b)).all(|(x, y)| blocks.get(x).copied().unwrap_or(*x) == *y);
    if !(types_equal && operands_equal && successors_equal) {
        return false;
    }
    for (&x, &y) in ir.results(a).iter().zip(ir.results(b)) {
        map.insert(x, y);
    }
    let regions: Vec<(RegionId, RegionId)> = ir.regions(a).iter().copied().zip(ir.regions(b).iter().copied()).collect();
    regions.into_iter().all(|(ra, rb)| regions_equivalent(ctx, ir, ra, rb, map, blocks))
}

fn regions_equivalent(
    ctx: &Context,
    ir: &Ir,
    ra: RegionId,
    rb: RegionId,
    map: &mut FxHashMap<Value, Value>,
    blocks: &mut FxHashMap<BlockId, BlockId>,
) -> bool {
    let (ba, bb) = (ir.region_blocks(ra), ir.region_blocks(rb));
    if ba.len() != bb.len() {
        return false;
    }
    for (&x, &y) in ba.iter().zip(bb) {
        let (xa, ya) = (ir.block_args(x), ir.block_args(y));
        if xa.len() != ya.len() || xa.iter().zip(ya).any(|(&p, &q)| ir.value_type(p) != ir.value_type(q)) {
            return false;
        }
        for (&p, &q) in xa.iter().zip(ya) {
            map.insert(p, q);
        }
        blocks.insert(x, y);
    }
    for (&x, &y) in ba.iter().zip(bb) {
        let xs: Vec<OpId> = ir.block_ops(x).collect();
        let ys: Vec<OpId> = ir.block_ops(y).collect();
        if xs.len() != ys.len() {
            return false;
        }
        if !xs.iter().zip(&ys).all(|(&p, &q)| ops_equivalent_mapped(ctx, ir, p, q, map, blocks)) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::T;

    #[test]
    fn merges_identical_pure_ops_but_not_unregistered_ones() {
        let mut t = T::new();
        let (f, b) = t.root();
        let x = t.val(b, "u.src", &[]);
        let a1 = t.val(b, "p.add", &[x, x]);
        let a2 = t.val(b, "p.add", &[x, x]);
        let u1 = t.val(b, "u.add", &[x, x]);
        let u2 = t.val(b, "u.add", &[x, x]);
        t.val(b, "p.add", &[a1, x]); // dead: erased as DCE
        t.op(b, "u.sink", &[a1, a2, u1, u2], 0);
        let stats = run_cse_with_stats(&t.ctx, &mut t.ir, f);
        assert_eq!(stats, CseStats { num_cse: 1, num_dce: 1 });
        assert_eq!(t.dump(b), ["u.src", "p.add %0 %0", "u.add %0 %0", "u.add %0 %0", "u.sink %1 %1 %2 %3"]);
    }

    #[test]
    fn dominance_scopes() {
        // ^0: a = add x x; cond_br ^1, ^2   ^1: b = add x x (dominated: merged)
        // ^2: c = add y y ... ^3 (from ^1 and ^2): d = add y y is not dominated by ^2's c.
        let mut t = T::new();
        let (f, _, bs) = t.root_with_blocks(4);
        let x = t.val(bs[0], "u.src", &[]);
        let y = t.val(bs[0], "u.src", &[]);
        let a = t.val(bs[0], "p.add", &[x, x]);
        t.br(bs[0], &[bs[1], bs[2]]);
        let b1 = t.val(bs[1], "p.add", &[x, x]);
        t.op(bs[1], "u.sink", &[b1], 0);
        t.br(bs[1], &[bs[3]]);
        let c = t.val(bs[2], "p.add", &[y, y]);
        t.op(bs[2], "u.sink", &[c], 0);
        t.br(bs[2], &[bs[3]]);
        let d = t.val(bs[3], "p.add", &[y, y]);
        t.op(bs[3], "u.sink", &[a, d], 0);
        t.op(bs[3], "p.ret", &[], 0);
        assert!(run_cse(&t.ctx, &mut t.ir, f));
        assert_eq!(t.dump(bs[1]), ["u.sink %?", "p.br"]);
        assert_eq!(t.ir.block_ops(bs[3]).count(), 3, "d kept");
    }

    #[test]
    fn nested_regions_see_outer_values_and_isolated_ones_do_not() {
        let mut t = T::new();
        let (f, b) = t.root();
        let x = t.val(b, "u.src", &[]);
        let a = t.val(b, "p.add", &[x, x]);
        t.op(b, "u.sink", &[a], 0);
        let (_, inner) = t.region_op(b, "p.wrap");
        let a2 = t.val(inner, "p.add", &[x, x]);
        t.op(inner, "u.sink", &[a2], 0);
        let (_, iso) = t.region_op(b, "u.iso");
        let a3 = t.val(iso, "p.add", &[x, x]);
        t.op(iso, "u.sink", &[a3], 0);
        run_cse(&t.ctx, &mut t.ir, f);
        assert_eq!(t.dump(inner), ["u.sink %?"]);
        assert_eq!(t.dump(iso), ["p.add %? %?", "u.sink %0"]);
    }

    #[test]
    fn ops_with_equal_regions_are_merged() {
        let mut t = T::new();
        let (f, b) = t.root();
        let x = t.val(b, "u.src", &[]);
        let mut outs = vec![];
        for _ in 0..2 {
            let (w, inner) = t.region_op_with_result(b, "p.pwrap");
            let v = t.val(inner, "p.add", &[x, x]);
            t.op(inner, "p.ret", &[v], 0);
            outs.push(t.ir.result(w, 0));
        }
        t.op(b, "u.sink", &outs, 0);
        run_cse(&t.ctx, &mut t.ir, f);
        assert_eq!(t.ir.block_ops(b).count(), 3);
    }
}
