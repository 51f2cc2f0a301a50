//! The IR verifier: structural rules, op traits and hooks, and SSA dominance, with the
//! diagnostics (wording, locations, notes, order) of `mlir-opt-19`.
//!
//! Order of checks, as MLIR does it (the first failure stops verification):
//! 1. A depth-first walk of the op tree. On *entering* an op: operands are live, the traits and
//!    the op's `verify` hook (registered ops; declared ops first check their declared
//!    structure, see [`declared`]), graph regions have at most one block, entry blocks
//!    have no predecessors. On entering a block: a terminator is present unless allowed absent,
//!    only the last op has successors. On *leaving* a block: successors stay in the region, the
//!    last op may be a terminator. On leaving an op: the nested isolated-from-above ops are
//!    verified completely (each with its own dominance check), then region-level traits
//!    (isolation, symbol table), then unregistered-op rules.
//! 2. Then SSA dominance for everything nested in the root that is not under a nested
//!    isolated-from-above op (those were checked in step 1).
//!
//! Isolated-from-above ops are not entered by the walk of step 1; they are verified when their
//! parent is left. The walk is iterative, so nesting depth cannot overflow the stack.
//!
//! Errors located at an op carry MLIR's `see current operation: <op>` note first; it is built
//! by [`current_op_note`] (the op in generic form, from the printer).

pub mod declared;
pub mod dominance;

use crate::attrs::AttrKind;
use crate::context::Context;
use crate::diag::{Diagnostic, Severity};
use crate::ir::{BlockId, Ir, OpId, RegionId, ValueDef};
use crate::registry::{OpDef, Traits, VerifyCtx};
use crate::types::{DYNAMIC, Type, TypeKind};
use dominance::{DominanceInfo, region_is_ancestor};
use rustc_hash::FxHashMap;

/// Verifies `op` and everything nested in it. Like mlir-opt, verification stops at the first
/// failing op, so the vector holds one error (with its notes).
pub fn verify(ctx: &Context, ir: &Ir, op: OpId) -> Result<(), Vec<Diagnostic>> {
    if !ir.is_live_op(op) {
        return Err(vec![Diagnostic::error(ctx.unknown_loc(), "verifying an erased operation")]);
    }
    let v = Verifier { ctx, ir, dom: DominanceInfo::new(ctx, ir) };
    v.verify_op_and_dominance(op).map_err(|d| vec![*d])
}

/// The `see current operation: ...` note MLIR attaches to errors emitted on an op.
pub fn current_op_note(ctx: &Context, ir: &Ir, op: OpId) -> Option<Diagnostic> {
    let text = op_text_for_diagnostic(ctx, ir, op)?;
    Some(Diagnostic::new(Severity::Note, ir.loc(op), format!("see current operation: {text}")))
}

/// The op as MLIR streams it into a diagnostic (generic form, local value numbering); an op
/// that spans several lines starts on a new line, as in mlir-opt's notes.
fn op_text_for_diagnostic(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    let text = crate::printer::print_op_for_diagnostic(ctx, ir, op);
    Some(if text.contains('\n') { format!("\n{text}") } else { text })
}

/// Attaches the `see current operation` note as the first note.
pub fn with_current_op_note(ctx: &Context, ir: &Ir, op: OpId, mut d: Diagnostic) -> Diagnostic {
    if let Some(n) = current_op_note(ctx, ir, op) {
        d.notes.insert(0, n);
    }
    d
}

type VResult = Result<(), Box<Diagnostic>>;

#[derive(Clone, Copy)]
enum Item {
    Op(OpId),
    Block(BlockId),
}

struct Verifier<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    dom: DominanceInfo<'a>,
}

impl<'a> Verifier<'a> {
    // ----- diagnostics ----------------------------------------------------------------------

    /// `op.emitError(msg)`: at the op, with the current-op note.
    fn op_error(&self, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
        Box::new(with_current_op_note(self.ctx, self.ir, op, Diagnostic::error(self.ir.loc(op), msg)))
    }
    /// `op.emitOpError(msg)`: `'name' op msg`.
    fn op_op_error(&self, op: OpId, msg: impl std::fmt::Display) -> Box<Diagnostic> {
        let name = self.ctx.op_name_str(self.ir.op_name(op));
        self.op_error(op, format!("'{name}' op {msg}"))
    }

    fn def(&self, op: OpId) -> Option<&'static OpDef> {
        self.ctx.op_def(self.ir.op_name(op))
    }
    fn has_trait(&self, op: OpId, t: Traits) -> bool {
        self.def(op).is_some_and(|d| d.has(t))
    }
    /// MLIR's `mightHaveTrait`: unregistered ops might have any trait.
    fn might_have_trait(&self, op: OpId, t: Traits) -> bool {
        self.def(op).is_none_or(|d| d.has(t))
    }
    fn is_isolated(&self, op: OpId) -> bool {
        !self.ir.regions(op).is_empty() && self.has_trait(op, Traits::ISOLATED_FROM_ABOVE)
    }

    // ----- driver ---------------------------------------------------------------------------

    fn verify_op_and_dominance(&self, op: OpId) -> VResult {
        self.verify_operation(op)?;
        self.verify_dominance_of_contained_regions(op)
    }

    /// Step 1: the entrance/exit walk.
    fn verify_operation(&self, root: OpId) -> VResult {
        let mut stack: Vec<(Item, bool)> = vec![(Item::Op(root), false)];
        while let Some(top) = stack.last_mut() {
            let (item, exiting) = *top;
            if exiting {
                match item {
                    Item::Op(op) => self.on_exit_op(op)?,
                    Item::Block(b) => self.on_exit_block(b)?,
                }
                stack.pop();
                continue;
            }
            top.1 = true;
            match item {
                Item::Op(op) => {
                    self.on_entrance_op(op)?;
                    for &r in self.ir.regions(op).iter().rev() {
                        for &b in self.ir.region_blocks(r).iter().rev() {
                            stack.push((Item::Block(b), false));
                        }
                    }
                }
                Item::Block(b) => {
                    self.on_entrance_block(b)?;
                    let ops: Vec<OpId> = self.ir.block_ops(b).collect();
                    for &o in ops.iter().rev() {
                        if !self.is_isolated(o) {
                            stack.push((Item::Op(o), false));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    // ----- ops ------------------------------------------------------------------------------

    fn on_entrance_op(&self, op: OpId) -> VResult {
        for i in 0..self.ir.num_operands(op) {
            let v = self.ir.operand(op, i);
            if !self.ir.is_live_value(v) || self.ir.value_def(v) == ValueDef::Placeholder {
                return Err(self.op_error(op, "null operand found"));
            }
        }
        if let Some(def) = self.def(op) {
            self.verify_invariants(op, def)?;
        }
        for (i, &r) in self.ir.regions(op).iter().enumerate() {
            let blocks = self.ir.region_blocks(r);
            if self.has_trait(op, Traits::GRAPH_REGIONS) && blocks.len() > 1 {
                return Err(self.op_op_error(op, format!("expects graph region #{i} to have 0 or 1 blocks")));
            }
            if let Some(&entry) = blocks.first()
                && self.block_has_predecessor(r, entry)
            {
                return Err(Box::new(Diagnostic::error(
                    self.ir.loc(op),
                    "entry block of region may not have predecessors",
                )));
            }
        }
        Ok(())
    }

    fn block_has_predecessor(&self, r: RegionId, target: BlockId) -> bool {
        self.ir.region_blocks(r).iter().any(|&b| self.ir.block_ops(b).any(|o| self.ir.successors(o).contains(&target)))
    }

    /// The declared structure first (MLIR's structural traits and `OpInvariants`), then the
    /// other traits, then the op's own hook (MLIR's `verifyInvariants`).
    fn verify_invariants(&self, op: OpId, def: &OpDef) -> VResult {
        if let Some(decl) = def.decl {
            let vctx = VerifyCtx { ctx: self.ctx, ir: self.ir };
            if let Err(d) = declared::verify_declared(&vctx, decl, op) {
                return Err(Box::new(with_current_op_note(self.ctx, self.ir, op, d)));
            }
        }
        if def.has(Traits::TERMINATOR) {
            let last = self.ir.op_block(op).and_then(|b| self.ir.last_op(b));
            if last != Some(op) {
                return Err(self.op_op_error(op, "must be the last operation in the parent block"));
            }
        }
        if def.has(Traits::SINGLE_BLOCK) {
            self.verify_single_block(op, def)?;
        }
        if def.has(Traits::SAME_OPERANDS_AND_RESULT_TYPE) {
            self.verify_same_operands_and_result_type(op)?;
        }
        if def.has(Traits::SYMBOL) {
            self.verify_symbol(op)?;
        }
        if let Some(hook) = def.verify {
            let vctx = VerifyCtx { ctx: self.ctx, ir: self.ir };
            if let Err(d) = hook(&vctx, op) {
                let d = if d.loc == self.ir.loc(op) { with_current_op_note(self.ctx, self.ir, op, d) } else { d };
                return Err(Box::new(d));
            }
        }
        Ok(())
    }

    fn verify_single_block(&self, op: OpId, def: &OpDef) -> VResult {
        for (i, &r) in self.ir.regions(op).iter().enumerate() {
            let blocks = self.ir.region_blocks(r);
            if blocks.is_empty() {
                continue;
            }
            if blocks.len() > 1 {
                return Err(self.op_op_error(op, format!("expects region #{i} to have 0 or 1 blocks")));
            }
            if !def.has(Traits::NO_TERMINATOR) && self.ir.block_is_empty(blocks[0]) {
                return Err(self.op_op_error(op, "expects a non-empty block"));
            }
        }
        Ok(())
    }

    fn verify_same_operands_and_result_type(&self, op: OpId) -> VResult {
        let ir = self.ir;
        if ir.num_operands(op) < 1 {
            return Err(self.op_op_error(op, "expected 1 or more operands, but found 0"));
        }
        if ir.num_results(op) < 1 {
            return Err(self.op_op_error(op, "expected 1 or more results, but found 0"));
        }
        let ty = ir.value_type(ir.result(op, 0));
        let elem = self.element_type_or_self(ty);
        let encoding = self.tensor_encoding(ty);
        let others = ir.results(op)[1..]
            .iter()
            .map(|&v| ir.value_type(v))
            .chain((0..ir.num_operands(op)).map(|i| ir.value_type(ir.operand(op, i))));
        for t in others {
            if self.element_type_or_self(t) != elem || !self.compatible_shapes(t, ty) {
                return Err(self.op_op_error(op, "requires the same type for all operands and results"));
            }
            if encoding.is_some() && self.tensor_encoding(t) != encoding {
                return Err(self.op_op_error(op, "requires the same encoding for all operands and results"));
            }
        }
        Ok(())
    }

    fn element_type_or_self(&self, t: Type) -> Type {
        match self.ctx.type_kind(t) {
            TypeKind::Complex(_) => t,
            k => k.element_type().unwrap_or(t),
        }
    }
    fn tensor_encoding(&self, t: Type) -> Option<crate::attrs::Attr> {
        match self.ctx.type_kind(t) {
            TypeKind::RankedTensor { encoding, .. } => *encoding,
            _ => None,
        }
    }
    /// MLIR's `verifyCompatibleShape`: both or neither shaped; unranked fits anything; equal
    /// ranks with each extent equal or dynamic.
    fn compatible_shapes(&self, a: Type, b: Type) -> bool {
        let shape = |t: Type| -> Option<Option<&[i64]>> {
            match self.ctx.type_kind(t) {
                TypeKind::RankedTensor { shape, .. }
                | TypeKind::Vector { shape, .. }
                | TypeKind::MemRef { shape, .. } => Some(Some(shape.as_slice())),
                TypeKind::UnrankedTensor { .. } | TypeKind::UnrankedMemRef { .. } => Some(None),
                _ => None,
            }
        };
        match (shape(a), shape(b)) {
            (None, None) => true,
            (None, Some(_)) | (Some(_), None) => false,
            (Some(None), _) | (_, Some(None)) => true,
            (Some(Some(x)), Some(Some(y))) => {
                x.len() == y.len() && x.iter().zip(y).all(|(&p, &q)| p == q || p == DYNAMIC || q == DYNAMIC)
            }
        }
    }

    fn verify_symbol(&self, op: OpId) -> VResult {
        if symbol_name(self.ctx, self.ir, op).is_none() {
            return Err(self.op_op_error(op, "requires string attribute 'sym_name'"));
        }
        if let Some(vis) = op_attr(self.ctx, self.ir, op, "sym_visibility") {
            match self.ctx.attr_str(vis) {
                Some("public" | "private" | "nested") => {}
                Some(s) => {
                    return Err(self.op_op_error(
                        op,
                        format!(
                            "visibility expected to be one of [\"public\", \"private\", \"nested\"], but got \"{s}\""
                        ),
                    ));
                }
                None => {
                    return Err(
                        self.op_op_error(op, "requires visibility attribute 'sym_visibility' to be a string attribute")
                    );
                }
            }
        }
        if let Some(parent) = self.ir.parent_op(op)
            && !self.might_have_trait(parent, Traits::SYMBOL_TABLE)
        {
            return Err(self.op_op_error(op, "symbol's parent must have the SymbolTable trait"));
        }
        Ok(())
    }

    fn on_exit_op(&self, op: OpId) -> VResult {
        let mut isolated = Vec::new();
        for &r in self.ir.regions(op) {
            for &b in self.ir.region_blocks(r) {
                isolated.extend(self.ir.block_ops(b).filter(|&o| self.is_isolated(o)));
            }
        }
        for o in isolated {
            self.verify_op_and_dominance(o)?;
        }
        match self.def(op) {
            Some(def) => {
                if def.has(Traits::ISOLATED_FROM_ABOVE) {
                    self.verify_isolated_from_above(op)?;
                }
                if def.has(Traits::SYMBOL_TABLE) {
                    self.verify_symbol_table(op)?;
                }
                Ok(())
            }
            None => self.verify_unregistered(op),
        }
    }

    fn verify_unregistered(&self, op: OpId) -> VResult {
        let name = self.ir.op_name(op);
        let ns = self.ctx.op_dialect(name);
        if self.ctx.dialect(ns).is_some() {
            return Err(self.op_error(
                op,
                format!(
                    "unregistered operation '{}' found in dialect ('{ns}') that does not allow unknown operations",
                    self.ctx.op_name_str(name)
                ),
            ));
        }
        if !self.ctx.allows_unregistered() {
            return Err(self.op_op_error(
                op,
                "created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used",
            ));
        }
        Ok(())
    }

    /// No op in the regions (outside nested isolated ops) reads a value defined outside.
    fn verify_isolated_from_above(&self, isolated: OpId) -> VResult {
        let ir = self.ir;
        for &region in ir.regions(isolated) {
            let mut pending = vec![region];
            while let Some(r) = pending.pop() {
                for &b in ir.region_blocks(r) {
                    for o in ir.block_ops(b) {
                        for i in 0..ir.num_operands(o) {
                            let v = ir.operand(o, i);
                            let Some(vr) = ir.value_block(v).and_then(|vb| ir.block_region(vb)) else {
                                return Err(self.op_error(o, "operation's operand is unlinked"));
                            };
                            if !region_is_ancestor(ir, region, vr) {
                                let mut d = self.op_op_error(o, "using value defined outside the region");
                                d.notes.push(Diagnostic::new(
                                    Severity::Note,
                                    ir.loc(isolated),
                                    "required by region isolation constraints",
                                ));
                                return Err(d);
                            }
                        }
                        if !ir.regions(o).is_empty() && !self.has_trait(o, Traits::ISOLATED_FROM_ABOVE) {
                            pending.extend(ir.regions(o).iter().copied());
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// One region, one block, unique `sym_name`s among the ops of that block.
    fn verify_symbol_table(&self, op: OpId) -> VResult {
        let regions = self.ir.regions(op);
        if regions.len() != 1 {
            return Err(self.op_op_error(op, "Operations with a 'SymbolTable' must have exactly one region"));
        }
        if self.ir.region_blocks(regions[0]).len() != 1 {
            return Err(self.op_op_error(op, "Operations with a 'SymbolTable' must have exactly one block"));
        }
        let mut seen: FxHashMap<String, crate::attrs::Attr> = FxHashMap::default();
        for o in self.ir.block_ops(self.ir.region_blocks(regions[0])[0]) {
            let Some(name) = symbol_name(self.ctx, self.ir, o) else { continue };
            if let Some(&first_loc) = seen.get(name) {
                let mut d = self.op_error(o, format!("redefinition of symbol named '{name}'"));
                d.notes.push(Diagnostic::new(Severity::Note, first_loc, "see existing symbol definition here"));
                return Err(d);
            }
            seen.insert(name.to_string(), self.ir.loc(o));
        }
        Ok(())
    }

    // ----- blocks ---------------------------------------------------------------------------

    /// MLIR's `mayBeValidWithoutTerminator`: the only block of a region whose parent might have
    /// the `NoTerminator` trait.
    fn may_be_valid_without_terminator(&self, b: BlockId) -> bool {
        let Some(r) = self.ir.block_region(b) else { return true };
        if self.ir.region_blocks(r).len() != 1 {
            return false;
        }
        match self.ir.region_parent(r) {
            Some(p) => self.might_have_trait(p, Traits::NO_TERMINATOR),
            None => true,
        }
    }

    fn on_entrance_block(&self, b: BlockId) -> VResult {
        let Some(last) = self.ir.last_op(b) else {
            if self.may_be_valid_without_terminator(b) {
                return Ok(());
            }
            let loc = self.ir.block_parent_op(b).map(|p| self.ir.loc(p)).unwrap_or_else(|| self.ctx.unknown_loc());
            return Err(Box::new(Diagnostic::error(loc, "empty block: expect at least a terminator")));
        };
        for o in self.ir.block_ops(b) {
            if o != last && !self.ir.successors(o).is_empty() {
                return Err(self.op_error(o, "operation with block successors must terminate its parent block"));
            }
        }
        Ok(())
    }

    fn on_exit_block(&self, b: BlockId) -> VResult {
        let Some(last) = self.ir.last_op(b) else { return Ok(()) };
        let region = self.ir.block_region(b);
        for &s in self.ir.successors(last) {
            if !self.ir.is_live_block(s) || self.ir.block_region(s) != region {
                return Err(self.op_op_error(last, "branching to block of a different region"));
            }
        }
        if self.may_be_valid_without_terminator(b) {
            return Ok(());
        }
        if !self.might_have_trait(last, Traits::TERMINATOR) {
            let text = op_text_for_diagnostic(self.ctx, self.ir, last).unwrap_or_default();
            return Err(self.op_error(last, format!("block with no terminator, has {text}")));
        }
        Ok(())
    }

    // ----- dominance ------------------------------------------------------------------------

    /// Step 2: every operand of an op in a reachable block properly dominates the op. Nested
    /// isolated-from-above ops are skipped (verified on their own).
    fn verify_dominance_of_contained_regions(&self, root: OpId) -> VResult {
        let ir = self.ir;
        let mut worklist = vec![root];
        while let Some(op) = worklist.pop() {
            for &r in ir.regions(op) {
                for &b in ir.region_blocks(r) {
                    let reachable = self.dom.is_reachable(b);
                    for o in ir.block_ops(b) {
                        if reachable {
                            for i in 0..ir.num_operands(o) {
                                if !self.dom.value_properly_dominates(ir.operand(o, i), o) {
                                    return Err(self.operand_dominance_error(o, i));
                                }
                            }
                        }
                        if !ir.regions(o).is_empty() && !self.has_trait(o, Traits::ISOLATED_FROM_ABOVE) {
                            worklist.push(o);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn operand_dominance_error(&self, user: OpId, index: usize) -> Box<Diagnostic> {
        let ir = self.ir;
        let mut d = self.op_error(user, format!("operand #{index} does not dominate this use"));
        let v = ir.operand(user, index);
        let user_region = ir.op_block(user).and_then(|b| ir.block_region(b));
        let relation = |def_region: Option<RegionId>| -> &'static str {
            match (user_region, def_region) {
                (Some(r1), Some(r2)) if r1 == r2 => "same",
                (Some(r1), Some(r2)) if region_is_ancestor(ir, r2, r1) => "parent",
                (Some(r1), Some(r2)) if region_is_ancestor(ir, r1, r2) => "child",
                _ => "neither",
            }
        };
        let note = match ir.value_def(v) {
            ValueDef::OpResult { op: def, .. } => {
                let def_block = ir.op_block(def);
                let suffix = if def_block.is_some() && def_block == ir.op_block(user) {
                    " (op in the same block)"
                } else {
                    match relation(def_block.and_then(|b| ir.block_region(b))) {
                        "same" => " (op in the same region)",
                        "parent" => " (op in a parent region)",
                        "child" => " (op in a child region)",
                        _ => " (op is neither in a parent nor in a child region)",
                    }
                };
                Diagnostic::new(Severity::Note, ir.loc(def), format!("operand defined here{suffix}"))
            }
            ValueDef::BlockArg { block, .. } => {
                let loc = ir.block_parent_op(block).map(|p| ir.loc(p)).unwrap_or_else(|| self.ctx.unknown_loc());
                let msg = match ir.block_region(block) {
                    None => " (block without parent)".to_string(),
                    Some(r2) => {
                        let index = ir.block_index(block).unwrap_or(0);
                        let rel = match relation(Some(r2)) {
                            "same" => "in the same region",
                            "parent" => "in a parent region",
                            "child" => "in a child region",
                            _ => "neither in a parent nor in a child region",
                        };
                        format!("operand defined as a block argument (block #{index} {rel})")
                    }
                };
                Diagnostic::new(Severity::Note, loc, msg)
            }
            ValueDef::Placeholder => return d,
        };
        d.notes.push(note);
        d
    }
}

/// An attribute of an op by name: its properties first, then its discardable attributes.
pub fn op_attr(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<crate::attrs::Attr> {
    ir.props(op).and_then(|p| ctx.dict_get(p, name)).or_else(|| ctx.dict_get(ir.attrs(op), name))
}

/// The `sym_name` string of an op, if it has one.
pub fn symbol_name<'c>(ctx: &'c Context, ir: &Ir, op: OpId) -> Option<&'c str> {
    let a = op_attr(ctx, ir, op, "sym_name")?;
    match ctx.attr_kind(a) {
        AttrKind::String { .. } => ctx.attr_str(a),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
