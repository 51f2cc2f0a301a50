//! The greedy pattern rewrite driver (MLIR's `GreedyPatternRewriteDriver` as of LLVM 19) and its
//! [`Rewriter`] implementation.
//!
//! One run simplifies one region (the *scope*). Each iteration:
//! 1. fills the worklist with every op nested in the scope, in pre-order (top-down, reversed so
//!    that popping gives program order) or post-order (bottom-up); with `cse_constants`,
//!    constants are registered in [`KnownConstants`] on the way (deduplicated, hoisted);
//! 2. pops ops until the worklist is empty (or `max_num_rewrites` is reached): erase the op if
//!    trivially dead; else fold it (not constants: materialize attribute results through the
//!    op's dialect right before the op, then replace); else try its canonicalization patterns in
//!    order, the first that succeeds counts as one rewrite;
//! 3. simplifies regions (erase unreachable blocks, region DCE) unless disabled.
//!
//! It stops when an iteration changed nothing (converged) or after `max_iterations`.
//!
//! Worklist bookkeeping follows the rewriter notifications: an inserted or modified op is pushed
//! with its ancestors up to the scope; when an op is replaced its users are pushed; when an op
//! is erased, the definers of its operands that are left with at most one other user are pushed
//! and the op is dropped from the worklist and the constant table. Popped handles are checked
//! for liveness, so edits made through [`Rewriter::ir_mut`] cannot make the driver touch a stale
//! op.

use super::fold::{self, Folded, Insertion, KnownConstants};
use super::simplify;
use super::{GreedyConfig, RegionSimplify};
use crate::attrs::Attr;
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, OperationState, RegionId, Value, WalkOrder, WalkResult};
use crate::registry::{FoldResult, Traits};
use crate::rewrite_api::Rewriter;
use crate::types::Type;
use rustc_hash::FxHashMap;

/// A LIFO worklist without duplicates, with O(1) removal.
#[derive(Default)]
struct Worklist {
    list: Vec<Option<OpId>>,
    index: FxHashMap<OpId, usize>,
}

impl Worklist {
    fn clear(&mut self) {
        self.list.clear();
        self.index.clear();
    }
    fn push(&mut self, op: OpId) {
        if !self.index.contains_key(&op) {
            self.index.insert(op, self.list.len());
            self.list.push(Some(op));
        }
    }
    fn pop(&mut self) -> Option<OpId> {
        while let Some(slot) = self.list.pop() {
            if let Some(op) = slot {
                self.index.remove(&op);
                return Some(op);
            }
        }
        None
    }
    fn remove(&mut self, op: OpId) {
        if let Some(i) = self.index.remove(&op) {
            self.list[i] = None;
        }
    }
    fn reverse(&mut self) {
        self.list.reverse();
        self.index.clear();
        for (i, slot) in self.list.iter().enumerate() {
            if let Some(op) = slot {
                self.index.insert(*op, i);
            }
        }
    }
}

#[derive(Clone, Copy)]
enum InsertPoint {
    Before(OpId),
    End(BlockId),
    Unset,
}

/// The driver for one scope region.
pub(crate) struct Driver<'a> {
    ctx: &'a Context,
    ir: &'a mut Ir,
    cfg: &'a GreedyConfig,
    scope: RegionId,
    worklist: Worklist,
    constants: KnownConstants,
    ip: InsertPoint,
}

impl<'a> Driver<'a> {
    pub(crate) fn new(ctx: &'a Context, ir: &'a mut Ir, cfg: &'a GreedyConfig, scope: RegionId) -> Self {
        Driver {
            ctx,
            ir,
            cfg,
            scope,
            worklist: Worklist::default(),
            constants: KnownConstants::default(),
            ip: InsertPoint::Unset,
        }
    }

    /// Runs to a fixpoint; returns (changed, converged).
    pub(crate) fn simplify(mut self) -> (bool, bool) {
        let mut iteration: i64 = 0;
        let mut continue_rewrites = false;
        loop {
            iteration += 1;
            if self.cfg.max_iterations != -1 && iteration > self.cfg.max_iterations {
                return (iteration > 1, !continue_rewrites);
            }
            self.fill_worklist();
            continue_rewrites = self.process_worklist();
            if self.cfg.region_simplify != RegionSimplify::Disabled {
                let scope = self.scope;
                continue_rewrites |= simplify::simplify_regions(
                    self.ctx,
                    self.ir,
                    &[scope],
                    self.cfg.region_simplify == RegionSimplify::Aggressive,
                );
            }
            if !continue_rewrites {
                return (iteration > 1, true);
            }
        }
    }

    fn fill_worklist(&mut self) {
        self.worklist.clear();
        self.constants.clear();
        let ops = self.scope_ops(if self.cfg.top_down { WalkOrder::PreOrder } else { WalkOrder::PostOrder });
        for op in ops {
            if !self.ir.is_live_op(op) {
                continue;
            }
            if self.cfg.cse_constants && self.register_known_constant(op) {
                continue;
            }
            self.worklist.push(op);
        }
        if self.cfg.top_down {
            self.worklist.reverse();
        }
    }

    /// All ops nested in the scope region, in the given order.
    fn scope_ops(&self, order: WalkOrder) -> Vec<OpId> {
        let mut out = Vec::new();
        for &b in self.ir.region_blocks(self.scope) {
            for op in self.ir.block_ops(b) {
                self.ir.walk(op, order, |o| {
                    out.push(o);
                    WalkResult::Advance
                });
            }
        }
        out
    }

    /// Registers `op` if it is a constant; true when it was a duplicate and got replaced.
    fn register_known_constant(&mut self, op: OpId) -> bool {
        match self.constants.insert(self.ctx, self.ir, op) {
            Insertion::Duplicate(existing) => {
                let with: Vec<Value> = self.ir.results(existing).to_vec();
                self.replace_op(op, &with);
                self.ir.set_loc(existing, self.ctx.unknown_loc());
                true
            }
            Insertion::Kept | Insertion::NotConstant => false,
        }
    }

    fn process_worklist(&mut self) -> bool {
        let mut changed = false;
        let mut rewrites: i64 = 0;
        while self.cfg.max_num_rewrites == -1 || rewrites < self.cfg.max_num_rewrites {
            let Some(op) = self.worklist.pop() else { break };
            if !self.ir.is_live_op(op) || self.ir.op_block(op).is_none() {
                continue;
            }
            if fold::is_trivially_dead(self.ctx, self.ir, op) {
                self.erase_op(op);
                changed = true;
                continue;
            }
            if self.cfg.fold && self.try_fold(op) {
                changed = true;
                continue;
            }
            if self.try_patterns(op) {
                changed = true;
                rewrites += 1;
            }
        }
        changed
    }

    fn is_constant_like(&self, op: OpId) -> bool {
        self.ctx.op_def(self.ir.op_name(op)).is_some_and(|d| d.has(Traits::CONSTANT_LIKE))
    }

    /// Folds `op` (never a constant); true if the IR changed.
    fn try_fold(&mut self, op: OpId) -> bool {
        if self.is_constant_like(op) {
            return false;
        }
        match fold::fold_op(self.ctx, self.ir, op) {
            Folded::Failed => false,
            Folded::InPlace => {
                self.add_to_worklist(op);
                true
            }
            Folded::Results(results) => self.replace_with_fold_results(op, &results),
        }
    }

    /// Materializes attribute results right before `op` and replaces it; on a failed
    /// materialization, erases what was created and leaves `op` alone.
    fn replace_with_fold_results(&mut self, op: OpId, results: &[FoldResult]) -> bool {
        let mut replacements = Vec::with_capacity(results.len());
        let mut created = Vec::new();
        for (i, r) in results.iter().enumerate() {
            match *r {
                FoldResult::Value(v) => replacements.push(v),
                FoldResult::Attr(a) => {
                    let ty = self.ir.value_type(self.ir.result(op, i));
                    match self.materialize_constant(op, a, ty) {
                        Some(v) => {
                            if let Some(d) = self.ir.defining_op(v) {
                                created.push(d);
                            }
                            replacements.push(v);
                        }
                        None => {
                            for c in created.into_iter().rev() {
                                if self.ir.is_live_op(c) && self.ir.results_unused(c) {
                                    self.erase_op(c);
                                }
                            }
                            return false;
                        }
                    }
                }
            }
        }
        self.replace_op(op, &replacements);
        true
    }

    fn try_patterns(&mut self, op: OpId) -> bool {
        let Some(def) = self.ctx.op_def(self.ir.op_name(op)) else { return false };
        for p in def.canonicalize {
            self.ip = InsertPoint::Before(op);
            if (p.apply)(self, op) {
                return true;
            }
            if !self.ir.is_live_op(op) {
                return true;
            }
        }
        false
    }

    // ----- worklist notifications ------------------------------------------------------------

    /// Pushes `op` and its ancestors up to the scope (nothing if `op` is outside the scope).
    fn add_to_worklist(&mut self, op: OpId) {
        let mut chain = Vec::new();
        let mut cur = op;
        loop {
            chain.push(cur);
            let Some(r) = self.ir.op_block(cur).and_then(|b| self.ir.block_region(b)) else { return };
            if r == self.scope {
                for o in chain {
                    self.worklist.push(o);
                }
                return;
            }
            match self.ir.region_parent(r) {
                Some(p) => cur = p,
                None => return,
            }
        }
    }

    /// Before `op` is erased: its operands' definers may become dead or simpler.
    fn add_operands_to_worklist(&mut self, op: OpId) {
        for i in 0..self.ir.num_operands(op) {
            let v = self.ir.operand(op, i);
            let Some(def) = self.ir.defining_op(v) else { continue };
            let mut other: Option<OpId> = None;
            let mut more = false;
            for u in self.ir.uses(v) {
                if u.op == op || Some(u.op) == other {
                    continue;
                }
                if other.is_none() {
                    other = Some(u.op);
                    continue;
                }
                more = true;
                break;
            }
            if !more {
                self.add_to_worklist(def);
            }
        }
    }

    fn insert_at_ip(&mut self, op: OpId) {
        match self.ip {
            InsertPoint::Before(anchor) if self.ir.is_live_op(anchor) && self.ir.op_block(anchor).is_some() => {
                self.ir.insert_op_before(anchor, op)
            }
            InsertPoint::End(b) if self.ir.is_live_block(b) => self.ir.append_op(b, op),
            _ => {
                // No valid insertion point: put it at the start of the scope's entry block.
                if let Some(entry) = self.ir.region_entry(self.scope) {
                    self.ir.prepend_op(entry, op);
                }
            }
        }
    }
}

impl Rewriter for Driver<'_> {
    fn ctx(&self) -> &Context {
        self.ctx
    }
    fn ir(&self) -> &Ir {
        self.ir
    }
    fn ir_mut(&mut self) -> &mut Ir {
        self.ir
    }
    fn create_op(&mut self, state: OperationState) -> OpId {
        let op = self.ir.create_op(state);
        self.insert_at_ip(op);
        self.add_to_worklist(op);
        op
    }
    fn set_insertion_point_before(&mut self, op: OpId) {
        self.ip = match self.ir.op_block(op) {
            Some(_) => InsertPoint::Before(op),
            None => InsertPoint::Unset,
        };
    }
    fn replace_op(&mut self, op: OpId, values: &[Value]) {
        let mut users = Vec::new();
        for &r in self.ir.results(op) {
            for u in self.ir.uses(r) {
                if !users.contains(&u.op) {
                    users.push(u.op);
                }
            }
        }
        self.ir.replace_op_results(op, values);
        for u in users {
            self.add_to_worklist(u);
        }
        // A pattern that replaced an op by its own results (a bug) must not make us panic.
        if self.ir.results_unused(op) {
            self.erase_op(op);
        }
    }
    fn erase_op(&mut self, op: OpId) {
        if !self.ir.is_live_op(op) {
            return;
        }
        // Notify nested ops first, last to first (users before definers), then the op itself.
        let mut subtree = self.ir.collect_ops(op, WalkOrder::PreOrder);
        subtree.reverse();
        for &o in &subtree {
            self.add_operands_to_worklist(o);
            self.worklist.remove(o);
            self.constants.remove(o);
        }
        if let InsertPoint::Before(anchor) = self.ip
            && subtree.contains(&anchor)
        {
            self.ip = match self.ir.op_block(op) {
                Some(b) => match self.ir.next_op(op) {
                    Some(n) => InsertPoint::Before(n),
                    None => InsertPoint::End(b),
                },
                None => InsertPoint::Unset,
            };
        }
        self.ir.erase_op(op);
    }
    fn notify_changed(&mut self, op: OpId) {
        self.add_to_worklist(op);
    }
    fn materialize_constant(&mut self, near: OpId, value: Attr, ty: Type) -> Option<Value> {
        let dialect = self.ctx.dialect(self.ctx.op_dialect(self.ir.op_name(near)))?;
        let hook = dialect.materialize_constant?;
        let saved = self.ip;
        self.set_insertion_point_before(near);
        let loc = self.ir.loc(near);
        let made = hook(self, value, ty, loc);
        self.ip = saved;
        let c = made?;
        if !self.ir.is_live_op(c) || self.ir.num_results(c) != 1 {
            return None;
        }
        Some(self.ir.result(c, 0))
    }
}
