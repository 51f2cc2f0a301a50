//! The type constraints the arith ops share (MLIR's `SignlessIntegerLike`, `BoolLike`,
//! `FloatLike`) and the `ElementwiseMappable` verifier.

use crate::support::{element_type, is_bool_like, is_signless_integer_like};
use fuser_ir::context::Context;
use fuser_ir::declare::TypeConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::OpId;
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{Type, TypeKind};

/// MLIR's `SignlessIntegerLike`: a signless integer or `index`, or a vector/tensor of them.
pub(crate) const SIGNLESS_INTEGER_LIKE: TypeConstraint =
    TypeConstraint::new("signless-integer-like", is_signless_integer_like);
/// MLIR's `BoolLike`: `i1`, or a vector/tensor of `i1`.
pub(crate) const BOOL_LIKE: TypeConstraint = TypeConstraint::new("bool-like", is_bool_like);
/// MLIR's `FloatLike`: a float, or a vector/tensor of floats.
pub(crate) const FLOAT_LIKE: TypeConstraint =
    TypeConstraint::new("floating-point-like", |ctx, t| ctx.type_kind(element_type(ctx, t)).is_float());

/// `i1` with the shape of `operand_ty` (scalar, vector or tensor): the result type of the
/// comparisons.
pub(crate) fn bool_like_of(ctx: &Context, operand_ty: Type) -> Type {
    let i1 = ctx.i1_type();
    match ctx.type_kind(operand_ty).clone() {
        TypeKind::Vector { shape, scalable, .. } => ctx.intern_type(TypeKind::Vector { shape, scalable, elem: i1 }),
        TypeKind::RankedTensor { shape, encoding, .. } => {
            ctx.intern_type(TypeKind::RankedTensor { shape, elem: i1, encoding })
        }
        TypeKind::UnrankedTensor { .. } => ctx.intern_type(TypeKind::UnrankedTensor { elem: i1 }),
        _ => i1,
    }
}

/// MLIR's `ElementwiseMappable` verifier: vectors and tensors go together, of one shape and
/// one container kind.
pub(crate) fn verify_elementwise(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let mappable = |t: &Type| {
        matches!(
            ctx.type_kind(*t),
            TypeKind::Vector { .. } | TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }
        )
    };
    let operands: Vec<Type> = ir.operands(op).iter().map(|&x| ir.value_type(x)).filter(mappable).collect();
    let results: Vec<Type> = ir.results(op).iter().map(|&x| ir.value_type(x)).filter(mappable).collect();
    if operands.is_empty() && results.is_empty() {
        return Ok(());
    }
    if operands.is_empty() {
        return Err(v.op_error(op, "if a result is non-scalar, then at least one operand must be non-scalar"));
    }
    if results.is_empty() {
        return Err(v.op_error(op, "if an operand is non-scalar, then there must be at least one non-scalar result"));
    }
    if results.len() != ir.num_results(op) {
        return Err(v.op_error(op, "if an operand is non-scalar, then all results must be non-scalar"));
    }
    let all: Vec<Type> = operands.into_iter().chain(results).collect();
    let kind = |t: Type| match ctx.type_kind(t) {
        TypeKind::Vector { .. } => 0,
        _ => 1,
    };
    let shape = |t: Type| crate::support::shape_of(ctx, t).map(|s| s.0);
    let compatible = |a: &Option<Vec<i64>>, b: &Option<Vec<i64>>| match (a, b) {
        (Some(x), Some(y)) => x.len() == y.len() && x.iter().zip(y).all(|(&m, &n)| m == n || m < 0 || n < 0),
        _ => true,
    };
    let first = shape(all[0]);
    if all.iter().any(|&t| kind(t) != kind(all[0]) || !compatible(&shape(t), &first)) {
        return Err(v.op_error(op, "all non-scalar operands/results must have the same shape and base type"));
    }
    Ok(())
}
