//! Helpers for folders and canonicalization patterns: folder answers, splat constants, the
//! op defining a value, and the commutative-constant-right pattern.

use crate::support::{element_type, shape_of};
use fuser_ir::attrs::{Attr, AttrKind, DenseData};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::registry::{FoldResult, PatternDef, Traits};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::Type;

/// A folder's answer: this existing value.
pub(crate) fn fold_to_value(v: Value) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Value(v)])
}

/// A folder's answer: this constant.
pub(crate) fn fold_to_attr(a: Attr) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Attr(a)])
}

/// An integer constant of type `ty` (scalar, or a splat for static vectors and tensors) whose
/// every element is `value` (interpreted in the element's width).
pub(crate) fn splat_int(ctx: &Context, ty: Type, value: i128) -> Option<Attr> {
    let elem = element_type(ctx, ty);
    let width = ctx.type_kind(elem).int_or_float_width()?;
    let scalar = crate::support::ap_attr(ctx, elem, fuser_ir::apint::ApInt::from_i128(width, value));
    if elem == ty {
        return Some(scalar);
    }
    let (shape, _) = shape_of(ctx, ty)?;
    if shape.iter().any(|&d| d < 0) {
        return None;
    }
    Some(ctx.intern_attr(AttrKind::DenseElements { ty, data: DenseData::Splat(scalar) }))
}

/// The scalar of a constant of type `ty`: the attribute itself for a scalar type, the splat
/// element for a vector or tensor type.
pub(crate) fn splat_scalar(ctx: &Context, a: Attr, ty: Type) -> Option<Attr> {
    if ctx.attr_type(a) != Some(ty) {
        return None;
    }
    match ctx.attr_kind(a) {
        AttrKind::DenseElements { data: DenseData::Splat(s), .. } => Some(*s),
        AttrKind::DenseElements { .. } => None,
        _ => (element_type(ctx, ty) == ty).then_some(a),
    }
}

/// The splat of `scalar` with the static vector or tensor type `ty`.
pub(crate) fn splat_of(ctx: &Context, ty: Type, scalar: Attr) -> Option<Attr> {
    let (shape, _) = shape_of(ctx, ty)?;
    if shape.iter().any(|&d| d < 0) {
        return None;
    }
    Some(ctx.intern_attr(AttrKind::DenseElements { ty, data: DenseData::Splat(scalar) }))
}

/// The op defining `v` when its name is `name`.
pub(crate) fn defined_by(ctx: &Context, ir: &Ir, v: Value, name: &str) -> Option<OpId> {
    ir.defining_op(v).filter(|&d| ctx.op_name_str(ir.op_name(d)) == name)
}

/// True when `v` is the result of a constant-like op.
pub(crate) fn is_constant_value(ctx: &Context, ir: &Ir, v: Value) -> bool {
    ir.defining_op(v).and_then(|d| ctx.op_def(ir.op_name(d))).is_some_and(|def| def.has(Traits::CONSTANT_LIKE))
}

/// Canonicalization of commutative ops: a constant left operand moves to the right, so that
/// folders and patterns only look for constants on the right (MLIR does this while folding).
pub(crate) static MOVE_CONSTANT_RIGHT: PatternDef =
    PatternDef { name: "arith-commutative-constant-right", apply: move_constant_right };

fn move_constant_right(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 2 {
        return false;
    }
    let (l, r) = (ir.operand(op, 0), ir.operand(op, 1));
    if !is_constant_value(ctx, ir, l) || is_constant_value(ctx, ir, r) {
        return false;
    }
    let ir = rw.ir_mut();
    ir.set_operand(op, 0, r);
    ir.set_operand(op, 1, l);
    rw.notify_changed(op);
    true
}
