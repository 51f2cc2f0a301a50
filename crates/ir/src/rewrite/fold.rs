//! Folding support for the greedy driver: recognising constants, calling an op's folder (plus
//! the commutative-operand trait folder), deciding trivial deadness, and the table of known
//! constants that deduplicates constants and hoists them to the entry block of their
//! *insertion region* (MLIR's `OperationFolder`, as the greedy driver of mlir-opt-19 uses it).
//!
//! Insertion region of an op: the nearest enclosing region whose parent op might be isolated from
//! above (unregistered ops might be) or is a top-level op (not in a block).
//!
//! Invariant: [`KnownConstants`] only holds live ops; the driver removes an op from it when the
//! op is erased, and rebuilds the table at the start of every iteration.

use crate::attrs::Attr;
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value};
use crate::registry::{FoldResult, Traits};
use crate::types::Type;
use rustc_hash::{FxHashMap, FxHashSet};

/// An op's attribute by name: properties first, then discardable attributes.
fn op_attr(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Attr> {
    ir.props(op).and_then(|p| ctx.dict_get(p, name)).or_else(|| ctx.dict_get(ir.attrs(op), name))
}

/// The value of a constant-like op (`Traits::CONSTANT_LIKE`): what its folder returns with no
/// operands, or else its `value` attribute.
pub fn constant_value(ctx: &Context, ir: &Ir, op: OpId) -> Option<Attr> {
    let def = ctx.op_def(ir.op_name(op))?;
    if !def.has(Traits::CONSTANT_LIKE) || ir.num_results(op) != 1 {
        return None;
    }
    if let Some(fold) = def.fold {
        let none = vec![None; ir.num_operands(op)];
        if let Some(rs) = fold(ctx, ir, op, &none)
            && let [FoldResult::Attr(a)] = rs.as_slice()
        {
            return Some(*a);
        }
    }
    op_attr(ctx, ir, op, "value")
}

/// The constant value of each operand of `op` (when its definer is a constant).
pub fn operand_constants(ctx: &Context, ir: &Ir, op: OpId) -> Vec<Option<Attr>> {
    (0..ir.num_operands(op))
        .map(|i| ir.defining_op(ir.operand(op, i)).and_then(|d| constant_value(ctx, ir, d)))
        .collect()
}

/// MLIR's `wouldOpBeTriviallyDead` for our trait set: a registered `Pure` op that is neither a
/// terminator nor a symbol.
pub fn would_be_trivially_dead(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    match ctx.op_def(ir.op_name(op)) {
        Some(d) => d.has(Traits::PURE) && !d.has(Traits::TERMINATOR) && !d.has(Traits::SYMBOL),
        None => false,
    }
}

/// Trivially dead: would be, and no result is used.
pub fn is_trivially_dead(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ir.results_unused(op) && would_be_trivially_dead(ctx, ir, op)
}

/// What folding an op produced.
#[derive(Debug, PartialEq)]
pub enum Folded {
    /// Nothing.
    Failed,
    /// The op was updated in place.
    InPlace,
    /// One replacement per result.
    Results(Vec<FoldResult>),
}

/// Runs the op's folder and, if it fails, the commutative trait folder (which moves constant
/// operands to the end, keeping relative order).
pub fn fold_op(ctx: &Context, ir: &mut Ir, op: OpId) -> Folded {
    let Some(def) = ctx.op_def(ir.op_name(op)) else { return Folded::Failed };
    let consts = operand_constants(ctx, ir, op);
    if let Some(fold) = def.fold
        && let Some(rs) = fold(ctx, ir, op, &consts)
    {
        let own: Vec<Value> = ir.results(op).to_vec();
        let folds_to_self = rs.len() == own.len() && rs.iter().zip(&own).all(|(r, &v)| *r == FoldResult::Value(v));
        if rs.is_empty() || folds_to_self {
            return Folded::InPlace;
        }
        if rs.len() == own.len() {
            return Folded::Results(rs);
        }
    }
    if def.has(Traits::COMMUTATIVE) && move_constants_last(ir, op, &consts) {
        return Folded::InPlace;
    }
    Folded::Failed
}

/// Stable-partitions the operands so that constants come last; true if the order changed.
fn move_constants_last(ir: &mut Ir, op: OpId, consts: &[Option<Attr>]) -> bool {
    if consts.len() < 2 {
        return false;
    }
    let Some(first_const) = consts.iter().position(|c| c.is_some()) else { return false };
    let operands = ir.operands(op);
    let tail = first_const..operands.len();
    let non_const: Vec<Value> = tail.clone().filter(|&i| consts[i].is_none()).map(|i| operands[i]).collect();
    if non_const.is_empty() {
        return false;
    }
    let mut reordered: Vec<Value> = operands[..first_const].to_vec();
    reordered.extend(non_const);
    reordered.extend(tail.filter(|&i| consts[i].is_some()).map(|i| operands[i]));
    ir.set_operands(op, &reordered);
    true
}

/// The region constants folded from (or found in) `block` are uniqued and hoisted into.
pub fn insertion_region(ctx: &Context, ir: &Ir, block: BlockId) -> Option<RegionId> {
    let mut b = block;
    loop {
        let r = ir.block_region(b)?;
        let Some(parent) = ir.region_parent(r) else { return Some(r) };
        let might_be_isolated = ctx.op_def(ir.op_name(parent)).is_none_or(|d| d.has(Traits::ISOLATED_FROM_ABOVE));
        match ir.op_block(parent) {
            Some(pb) if !might_be_isolated => b = pb,
            _ => return Some(r),
        }
    }
}

/// Key of a uniqued constant: insertion region, dialect of the op, value and type.
type ConstKey = (RegionId, String, Attr, Type);

/// The constants known to the driver in the current iteration.
#[derive(Default)]
pub struct KnownConstants {
    map: FxHashMap<ConstKey, OpId>,
    owned: FxHashSet<OpId>,
}

/// What [`KnownConstants::insert`] decided.
#[derive(Debug, PartialEq, Eq)]
pub enum Insertion {
    /// The op is now the canonical constant (it may have been moved).
    Kept,
    /// An equal constant exists: replace the op by it.
    Duplicate(OpId),
    /// Not a constant in a block.
    NotConstant,
}

impl KnownConstants {
    pub fn clear(&mut self) {
        self.map.clear();
        self.owned.clear();
    }
    pub fn is_owned(&self, op: OpId) -> bool {
        self.owned.contains(&op)
    }
    /// Forgets an op that is being erased.
    pub fn remove(&mut self, op: OpId) {
        if self.owned.remove(&op) {
            self.map.retain(|_, v| *v != op);
        }
    }

    /// Registers a constant found in the IR (MLIR's `insertKnownConstant`): a duplicate is
    /// reported; a new one is moved to the start of its insertion region's entry block unless it
    /// is already there or right after another known constant (moving resets its location to
    /// `unknown`, as MLIR does).
    pub fn insert(&mut self, ctx: &Context, ir: &mut Ir, op: OpId) -> Insertion {
        let Some(value) = constant_value(ctx, ir, op) else { return Insertion::NotConstant };
        let Some(block) = ir.op_block(op) else { return Insertion::NotConstant };
        if self.owned.contains(&op) {
            return Insertion::Kept;
        }
        let Some(region) = insertion_region(ctx, ir, block) else { return Insertion::NotConstant };
        let key = (region, ctx.op_dialect(ir.op_name(op)).to_string(), value, ir.value_type(ir.result(op, 0)));
        if let Some(&existing) = self.map.get(&key) {
            return Insertion::Duplicate(existing);
        }
        let Some(entry) = ir.region_entry(region) else { return Insertion::NotConstant };
        let at_front = ir.first_op(entry) == Some(op);
        let after_known = ir.prev_op(op).is_some_and(|p| self.owned.contains(&p));
        if block != entry || (!at_front && !after_known) {
            ir.detach_op(op);
            ir.prepend_op(entry, op);
            ir.set_loc(op, ctx.unknown_loc());
        }
        self.map.insert(key, op);
        self.owned.insert(op);
        Insertion::Kept
    }
}
