//! The branch edges into the blocks of one region, computed in one scan of its terminators, for
//! the region simplifications that ask "who branches here?" of many blocks (identical-block
//! merging, redundant-argument dropping). Asking the region itself costs a scan of all its
//! blocks per question, quadratic over a region.
//!
//! Invariant: `edges(b)` lists every `(terminator, successor index)` of the region whose
//! successor is `b`, in block order then successor order, as long as the owner keeps the map in
//! step with the edits it makes ([`Predecessors::redirect`], [`Predecessors::forget_block`]).

use crate::ir::{BlockId, Ir, OpId, RegionId};
use rustc_hash::FxHashMap;

/// `(terminator, successor index)`: one branch edge.
pub type Edge = (OpId, usize);

/// The predecessor edges of every block of a region.
#[derive(Default)]
pub struct Predecessors {
    into: FxHashMap<BlockId, Vec<Edge>>,
}

impl Predecessors {
    /// Scans the terminators of `r` once.
    pub fn of_region(ir: &Ir, r: RegionId) -> Self {
        let mut into: FxHashMap<BlockId, Vec<Edge>> = FxHashMap::default();
        for &p in ir.region_blocks(r) {
            let Some(t) = ir.last_op(p) else { continue };
            for (s, &dest) in ir.successors(t).iter().enumerate() {
                into.entry(dest).or_default().push((t, s));
            }
        }
        Predecessors { into }
    }

    /// The edges into `b` (none for an entry block).
    pub fn edges(&self, b: BlockId) -> &[Edge] {
        self.into.get(&b).map_or(&[], Vec::as_slice)
    }

    /// True if the terminator of `p` branches to `b`.
    pub fn has_predecessor_block(&self, ir: &Ir, b: BlockId, p: BlockId) -> bool {
        self.edges(b).iter().any(|&(t, _)| ir.op_block(t) == Some(p))
    }

    /// Records that the edges into `from` now lead to `to` (the caller retargets them).
    pub fn redirect(&mut self, from: BlockId, to: BlockId) {
        if let Some(moved) = self.into.remove(&from) {
            self.into.entry(to).or_default().extend(moved);
        }
    }

    /// Forgets the edges out of block `b`'s terminator `t` (before `b` is erased).
    pub fn forget_block(&mut self, ir: &Ir, b: BlockId) {
        let Some(t) = ir.last_op(b) else { return };
        for &dest in ir.successors(t) {
            if let Some(edges) = self.into.get_mut(&dest) {
                edges.retain(|&(op, _)| op != t);
            }
        }
        self.into.remove(&b);
    }
}
