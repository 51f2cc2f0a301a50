//! Dominance: per-region dominator trees and MLIR's dominance queries between blocks, ops and
//! values, across nested regions.
//!
//! A [`DomTree`] is computed for one region from the control-flow graph formed by the
//! successors of each block's last op (successors outside the region are ignored), with the
//! iterative algorithm of Cooper, Harvey and Kennedy over a reverse post-order. Queries are O(1)
//! through pre/post numbering of the tree. Unreachable blocks are not in the tree; as in MLIR
//! (and LLVM), an unreachable block is dominated by every block and dominates none but itself.
//!
//! [`DominanceInfo`] answers the queries the verifier and CSE need, with MLIR's semantics:
//! - a region has *SSA dominance* unless its parent op is unregistered or declares graph
//!   regions ([`Traits::GRAPH_REGIONS`]); without it, ops of one block may use each other in any
//!   order (blocks are still ordered by the CFG);
//! - an op dominates the ops nested in the ops that follow it; a value defined by an op is not
//!   visible inside that op's own regions.
//!
//! Invariant: a `DominanceInfo` caches trees and op positions; it is valid only while the IR it
//! was built on is not structurally changed (make a new one after edits).

use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value, ValueDef};
use crate::registry::Traits;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

const UNDEF: u32 = u32::MAX;

/// The dominator tree of one region.
#[derive(Debug, Clone)]
pub struct DomTree {
    /// Reachable blocks in reverse post-order; `blocks[0]` is the entry block.
    blocks: Vec<BlockId>,
    /// Reverse post-order number of each reachable block.
    number: FxHashMap<BlockId, u32>,
    /// Immediate dominator (as an rpo number) of each reachable block; the entry's is itself.
    idom: Vec<u32>,
    children: Vec<Vec<u32>>,
    /// Pre-order entry and exit numbers of a DFS over the tree (for O(1) dominance).
    enter: Vec<u32>,
    exit: Vec<u32>,
}

/// The successors of `b` inside its own region: those of its last op.
pub fn block_successors_in_region(ir: &Ir, b: BlockId) -> Vec<BlockId> {
    let region = ir.block_region(b);
    match ir.last_op(b) {
        Some(last) => ir
            .successors(last)
            .iter()
            .copied()
            .filter(|&s| ir.is_live_block(s) && ir.block_region(s) == region)
            .collect(),
        None => Vec::new(),
    }
}

impl DomTree {
    /// Computes the dominator tree of `region` (an empty region gives an empty tree).
    pub fn compute(ir: &Ir, region: RegionId) -> DomTree {
        let blocks = reverse_post_order(ir, region);
        let number: FxHashMap<BlockId, u32> = blocks.iter().enumerate().map(|(i, &b)| (b, i as u32)).collect();
        let preds = predecessor_numbers(ir, &blocks, &number);
        let idom = immediate_dominators(&preds);
        let mut children = vec![Vec::new(); blocks.len()];
        for (i, &d) in idom.iter().enumerate().skip(1) {
            children[d as usize].push(i as u32);
        }
        let (enter, exit) = number_tree(&children);
        DomTree { blocks, number, idom, children, enter, exit }
    }

    /// The entry block, unless the region is empty.
    pub fn entry(&self) -> Option<BlockId> {
        self.blocks.first().copied()
    }
    /// Reachable blocks in reverse post-order.
    pub fn reachable_blocks(&self) -> &[BlockId] {
        &self.blocks
    }
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.number.contains_key(&b)
    }
    /// The immediate dominator of a reachable, non-entry block.
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        let &n = self.number.get(&b)?;
        if n == 0 { None } else { Some(self.blocks[self.idom[n as usize] as usize]) }
    }
    /// The blocks immediately dominated by `b`, in reverse post-order.
    pub fn children(&self, b: BlockId) -> Vec<BlockId> {
        match self.number.get(&b) {
            Some(&n) => self.children[n as usize].iter().map(|&c| self.blocks[c as usize]).collect(),
            None => Vec::new(),
        }
    }
    /// LLVM's semantics: every block dominates an unreachable block; an unreachable block
    /// dominates only itself.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        if a == b {
            return true;
        }
        let Some(&nb) = self.number.get(&b) else { return true };
        let Some(&na) = self.number.get(&a) else { return false };
        let (na, nb) = (na as usize, nb as usize);
        self.enter[na] <= self.enter[nb] && self.exit[nb] <= self.exit[na]
    }
    pub fn properly_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a != b && self.dominates(a, b)
    }
}

/// Reachable blocks of a region in reverse post-order of an iterative DFS from the entry.
fn reverse_post_order(ir: &Ir, region: RegionId) -> Vec<BlockId> {
    let Some(entry) = ir.region_entry(region) else { return Vec::new() };
    let mut visited: FxHashMap<BlockId, ()> = FxHashMap::default();
    let mut post = Vec::new();
    let mut stack: Vec<(BlockId, Vec<BlockId>, usize)> = Vec::new();
    visited.insert(entry, ());
    stack.push((entry, block_successors_in_region(ir, entry), 0));
    while let Some(top) = stack.last_mut() {
        if top.2 < top.1.len() {
            let s = top.1[top.2];
            top.2 += 1;
            if visited.insert(s, ()).is_none() {
                let succ = block_successors_in_region(ir, s);
                stack.push((s, succ, 0));
            }
        } else {
            post.push(top.0);
            stack.pop();
        }
    }
    post.reverse();
    post
}

fn predecessor_numbers(ir: &Ir, blocks: &[BlockId], number: &FxHashMap<BlockId, u32>) -> Vec<Vec<u32>> {
    let mut preds = vec![Vec::new(); blocks.len()];
    for (i, &b) in blocks.iter().enumerate() {
        for s in block_successors_in_region(ir, b) {
            if let Some(&n) = number.get(&s) {
                preds[n as usize].push(i as u32);
            }
        }
    }
    preds
}

/// Cooper–Harvey–Kennedy: iterate `idom(b) = meet of processed predecessors` to a fixpoint.
fn immediate_dominators(preds: &[Vec<u32>]) -> Vec<u32> {
    let n = preds.len();
    let mut idom = vec![UNDEF; n];
    if n == 0 {
        return idom;
    }
    idom[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..n {
            let mut new_idom = UNDEF;
            for &p in &preds[b] {
                if idom[p as usize] == UNDEF {
                    continue;
                }
                new_idom = if new_idom == UNDEF { p } else { intersect(&idom, p, new_idom) };
            }
            if new_idom != UNDEF && idom[b] != new_idom {
                idom[b] = new_idom;
                changed = true;
            }
        }
    }
    idom
}

fn intersect(idom: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while a > b {
            a = idom[a as usize];
        }
        while b > a {
            b = idom[b as usize];
        }
    }
    a
}

/// Pre-order entry/exit counters of an iterative DFS over the tree rooted at 0.
fn number_tree(children: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>) {
    let n = children.len();
    let (mut enter, mut exit) = (vec![0; n], vec![0; n]);
    if n == 0 {
        return (enter, exit);
    }
    let mut clock = 0;
    let mut stack = vec![(0u32, 0usize)];
    enter[0] = clock;
    while let Some(top) = stack.last_mut() {
        let node = top.0 as usize;
        if top.1 < children[node].len() {
            let c = children[node][top.1];
            top.1 += 1;
            clock += 1;
            enter[c as usize] = clock;
            stack.push((c, 0));
        } else {
            clock += 1;
            exit[node] = clock;
            stack.pop();
        }
    }
    (enter, exit)
}

/// Dominance queries over all regions of an IR, with lazily computed, cached trees.
pub struct DominanceInfo<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    trees: RefCell<FxHashMap<RegionId, Rc<DomTree>>>,
    /// Position of each op in its block, for blocks numbered so far (indexed by op slot).
    positions: RefCell<(Vec<u32>, FxHashMap<BlockId, ()>)>,
}

impl<'a> DominanceInfo<'a> {
    pub fn new(ctx: &'a Context, ir: &'a Ir) -> Self {
        DominanceInfo {
            ctx,
            ir,
            trees: RefCell::new(FxHashMap::default()),
            positions: RefCell::new((Vec::new(), FxHashMap::default())),
        }
    }

    /// The (cached) dominator tree of a region.
    pub fn tree(&self, region: RegionId) -> Rc<DomTree> {
        if let Some(t) = self.trees.borrow().get(&region) {
            return t.clone();
        }
        let t = Rc::new(DomTree::compute(self.ir, region));
        self.trees.borrow_mut().insert(region, t.clone());
        t
    }

    /// False when the region's parent op is unregistered or declares graph regions.
    pub fn has_ssa_dominance(&self, region: RegionId) -> bool {
        region_has_ssa_dominance(self.ctx, self.ir, region)
    }

    /// The entry block of every region is reachable; other blocks per the region's CFG.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        let Some(r) = self.ir.block_region(b) else { return true };
        if self.ir.region_entry(r) == Some(b) {
            return true;
        }
        self.tree(r).is_reachable(b)
    }

    pub fn block_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a == b || self.block_properly_dominates(a, b)
    }

    /// `a` properly dominates `b`, where `b` may be nested in an op of `a`'s region.
    pub fn block_properly_dominates(&self, a: BlockId, mut b: BlockId) -> bool {
        let Some(ra) = self.ir.block_region(a) else { return false };
        if a == b {
            return !self.has_ssa_dominance(ra);
        }
        if self.ir.block_region(b) != Some(ra) {
            match find_ancestor_block_in_region(self.ir, ra, b) {
                Some(anc) => b = anc,
                None => return false,
            }
            if a == b {
                return true;
            }
        }
        self.tree(ra).properly_dominates(a, b)
    }

    /// `a` properly dominates `b`; with `enclosing_ok`, an op also dominates the ops nested in
    /// it.
    pub fn op_properly_dominates(&self, a: OpId, mut b: OpId, enclosing_ok: bool) -> bool {
        let ir = self.ir;
        let (Some(a_block), Some(mut b_block)) = (ir.op_block(a), ir.op_block(b)) else { return false };
        let Some(ra) = ir.block_region(a_block) else { return false };
        if a == b {
            // An op properly dominates itself only in a graph region (`%x = "op"(%x)`).
            return !self.has_ssa_dominance(ra);
        }
        if ir.block_region(b_block) != Some(ra) {
            match find_ancestor_op_in_region(ir, ra, b) {
                Some(anc) => b = anc,
                None => return false,
            }
            b_block = match ir.op_block(b) {
                Some(bb) => bb,
                None => return false,
            };
            if a == b && enclosing_ok {
                return true;
            }
        }
        if a_block == b_block {
            return !self.has_ssa_dominance(ra) || self.is_before_in_block(a, b);
        }
        self.tree(ra).properly_dominates(a_block, b_block)
    }

    /// Whether the definition of `v` properly dominates its use by `user`.
    pub fn value_properly_dominates(&self, v: Value, user: OpId) -> bool {
        if !self.ir.is_live_value(v) {
            return false;
        }
        match self.ir.value_def(v) {
            ValueDef::BlockArg { block, .. } => match self.ir.op_block(user) {
                Some(ub) => self.block_dominates(block, ub),
                None => false,
            },
            ValueDef::OpResult { op, .. } => self.op_properly_dominates(op, user, false),
            ValueDef::Placeholder => false,
        }
    }

    /// `a` comes strictly before `b`; both are in the same block.
    pub fn is_before_in_block(&self, a: OpId, b: OpId) -> bool {
        let Some(block) = self.ir.op_block(a) else { return false };
        let mut pos = self.positions.borrow_mut();
        let (table, numbered) = &mut *pos;
        numbered.entry(block).or_insert_with(|| {
            let bound = self.ir.op_index_bound();
            if table.len() < bound {
                table.resize(bound, 0);
            }
            for (i, op) in self.ir.block_ops(block).enumerate() {
                table[op.index()] = i as u32;
            }
        });
        table[a.index()] < table[b.index()]
    }
}

/// False when the region's parent op is unregistered or declares graph regions.
pub fn region_has_ssa_dominance(ctx: &Context, ir: &Ir, region: RegionId) -> bool {
    match ir.region_parent(region) {
        Some(p) => match ctx.op_def(ir.op_name(p)) {
            Some(def) => !def.has(Traits::GRAPH_REGIONS),
            None => false,
        },
        None => true,
    }
}

/// The op of `region` that is `op` or contains it.
pub fn find_ancestor_op_in_region(ir: &Ir, region: RegionId, op: OpId) -> Option<OpId> {
    let mut cur = op;
    loop {
        let b = ir.op_block(cur)?;
        let r = ir.block_region(b)?;
        if r == region {
            return Some(cur);
        }
        cur = ir.region_parent(r)?;
    }
}

/// The block of `region` that is `block` or contains it.
pub fn find_ancestor_block_in_region(ir: &Ir, region: RegionId, block: BlockId) -> Option<BlockId> {
    let mut cur = block;
    loop {
        let r = ir.block_region(cur)?;
        if r == region {
            return Some(cur);
        }
        let parent = ir.region_parent(r)?;
        cur = ir.op_block(parent)?;
    }
}

/// True when `anc` is `region` or (transitively) contains it.
pub fn region_is_ancestor(ir: &Ir, anc: RegionId, region: RegionId) -> bool {
    let mut cur = region;
    loop {
        if cur == anc {
            return true;
        }
        let Some(p) = ir.region_parent(cur) else { return false };
        let Some(b) = ir.op_block(p) else { return false };
        let Some(r) = ir.block_region(b) else { return false };
        cur = r;
    }
}
