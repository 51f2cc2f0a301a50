//! What the one-operand cast ops share: the custom form `%in {attrs}? : T to U`, and the
//! verifier steps of MLIR's `Arith_CastOp` in its order: `SameInputOutputTensorDims` (ranked
//! tensors keep their dimensions exactly; unranked tensors are rejected, as mlir-opt-19 does), `SameOperandsAndResultShape` (compatible shapes,
//! dynamic sizes matching anything), then the op's own cast-compatibility rule.

use crate::support::{element_type, empty_state, printed_attr_dict, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{Type, TypeKind};

/// The state of a cast op `name` from `input` to `ty`.
pub(crate) fn cast_state(ctx: &Context, name: &str, input: Value, ty: Type, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = vec![input];
    state.result_types = vec![ty];
    state
}

/// `%in {attrs}? : T to U` (attributes all discardable: these casts have no properties).
pub(crate) fn parse_cast(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let operand = p.parse_operand()?;
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let (from, to) = parse_cast_types(p)?;
    state.operands = vec![p.resolve_operand(&operand, from)?];
    state.result_types = vec![to];
    state.attrs = p.ctx().dictionary(entries);
    Ok(())
}

/// `: T to U`.
pub(crate) fn parse_cast_types(p: &mut dyn OpAsmParser) -> ParseResult<(Type, Type)> {
    p.parse_punct(Punct::Colon)?;
    let from = p.parse_type()?;
    p.parse_keyword("to")?;
    Ok((from, p.parse_type()?))
}

pub(crate) fn print_cast(p: &mut dyn OpAsmPrinter, op: OpId) {
    let dict = printed_attr_dict(p.ctx(), p.ir(), op);
    let Some((input, _)) = cast_operand(p, op) else { return };
    p.write(" ");
    p.print_operand(input);
    p.print_optional_attr_dict(dict, &[]);
    print_cast_types(p, op);
}

/// The input of a well-formed cast and its result type.
pub(crate) fn cast_operand(p: &dyn OpAsmPrinter, op: OpId) -> Option<(Value, Type)> {
    let ir = p.ir();
    let input = (ir.num_operands(op) == 1).then(|| ir.operand(op, 0))?;
    Some((input, ir.value_type(*ir.results(op).first()?)))
}

/// ` : T to U`.
pub(crate) fn print_cast_types(p: &mut dyn OpAsmPrinter, op: OpId) {
    let Some((input, to)) = cast_operand(p, op) else { return };
    let from = p.ir().value_type(input);
    p.write(" : ");
    p.print_type(from);
    p.write(" to ");
    p.print_type(to);
}

/// The dimensions `SameInputOutputTensorDims` compares: a ranked tensor's, none for other
/// types; `None` for an unranked tensor, which mlir-opt-19 never accepts there.
fn tensor_dims(ctx: &Context, t: Type) -> Option<&[i64]> {
    match ctx.type_kind(t) {
        TypeKind::RankedTensor { shape, .. } => Some(shape),
        TypeKind::UnrankedTensor { .. } => None,
        _ => Some(&[]),
    }
}

/// The shape `SameOperandsAndResultShape` compares: `None` for unranked tensors, which match
/// any shape; scalars have rank 0.
fn shape_for_compat(ctx: &Context, t: Type) -> Option<&[i64]> {
    match ctx.type_kind(t) {
        TypeKind::RankedTensor { shape, .. } | TypeKind::Vector { shape, .. } => Some(shape),
        TypeKind::UnrankedTensor { .. } => None,
        _ => Some(&[]),
    }
}

/// MLIR's `verifyCompatibleShape`: same rank, and equal sizes where both are static.
fn compatible_shapes(ctx: &Context, a: Type, b: Type) -> bool {
    let (Some(x), Some(y)) = (shape_for_compat(ctx, a), shape_for_compat(ctx, b)) else { return true };
    let is_scalar = |t| !matches!(ctx.type_kind(t), TypeKind::RankedTensor { .. } | TypeKind::Vector { .. });
    // Scalable and fixed-size vectors never mix.
    let scalable = |t| matches!(ctx.type_kind(t), TypeKind::Vector { scalable, .. } if scalable.iter().any(|&s| s));
    let vector = |t| matches!(ctx.type_kind(t), TypeKind::Vector { .. });
    if vector(a) && vector(b) && scalable(a) != scalable(b) {
        return false;
    }
    is_scalar(a) == is_scalar(b) && x.len() == y.len() && x.iter().zip(y).all(|(&m, &n)| m == n || m < 0 || n < 0)
}

/// MLIR's `areSameShapedTypeIgnoringElementType`: `to` is `from` with another element type
/// (same container kind, shape, scalable dimensions and encoding), or both are scalars.
fn same_container(ctx: &Context, from: Type, to: Type) -> bool {
    match (ctx.type_kind(from), ctx.type_kind(to)) {
        (TypeKind::Vector { shape: s1, scalable: c1, .. }, TypeKind::Vector { shape: s2, scalable: c2, .. }) => {
            s1 == s2 && c1 == c2
        }
        (
            TypeKind::RankedTensor { shape: s1, encoding: e1, .. },
            TypeKind::RankedTensor { shape: s2, encoding: e2, .. },
        ) => s1 == s2 && e1 == e2,
        (TypeKind::UnrankedTensor { .. }, TypeKind::UnrankedTensor { .. }) => true,
        (a, b) => {
            let shaped = |k: &TypeKind| {
                matches!(k, TypeKind::Vector { .. } | TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. })
            };
            !shaped(a) && !shaped(b)
        }
    }
}

/// The shape checks of every cast, then `compatible(from_elem, to_elem)` on the element types
/// ("operand type 'T' and result type 'U' are cast incompatible").
pub(crate) fn verify_cast(
    v: &VerifyCtx<'_>,
    op: OpId,
    compatible: impl Fn(&Context, Type, Type) -> bool,
) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let (from, to) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.result(op, 0)));
    let dims = (tensor_dims(ctx, from), tensor_dims(ctx, to));
    if dims.0.is_none() || dims.0 != dims.1 {
        return Err(v.op_error(op, "failed to verify that input and output have the same tensor dimensions"));
    }
    if !compatible_shapes(ctx, from, to) {
        return Err(v.op_error(op, "requires the same shape for all operands and results"));
    }
    if !same_container(ctx, from, to) || !compatible(ctx, element_type(ctx, from), element_type(ctx, to)) {
        let msg = format!(
            "operand type '{}' and result type '{}' are cast incompatible",
            type_str(ctx, from),
            type_str(ctx, to)
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// Folds a cast of a constant elementwise: `f` maps each scalar element to the result element
/// type; splats fold to splats, other dense constants element by element.
pub(crate) fn fold_cast_constant(
    ctx: &Context,
    operand: Option<Attr>,
    to: Type,
    f: impl Fn(Attr, Type) -> Option<Attr>,
) -> Option<Attr> {
    let operand = operand?;
    let elem = element_type(ctx, to);
    super::elementwise::map1(ctx, Some(operand), ctx.attr_type(operand)?, to, |s| f(s, elem))
}

/// The bit width of a signless integer or float element type (`index` has none).
pub(crate) fn width_of(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.type_kind(t) {
        TypeKind::Index => None,
        k => k.int_or_float_width(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_compatible_up_to_dynamic_sizes() {
        let ctx = Context::empty();
        let i32t = ctx.integer_type(32);
        let t = |shape: Vec<i64>| ctx.intern_type(TypeKind::RankedTensor { shape, elem: i32t, encoding: None });
        let v = |shape: Vec<i64>| ctx.intern_type(TypeKind::Vector { shape, scalable: vec![false], elem: i32t });
        assert!(compatible_shapes(&ctx, t(vec![4]), t(vec![-1])));
        assert!(!compatible_shapes(&ctx, v(vec![4]), v(vec![2])));
        assert!(!compatible_shapes(&ctx, v(vec![4]), i32t));
        assert!(compatible_shapes(&ctx, i32t, i32t));
        assert_eq!(tensor_dims(&ctx, t(vec![4])), Some(&[4][..]));
        assert_eq!(tensor_dims(&ctx, v(vec![4])), Some(&[][..]));
        assert_eq!(tensor_dims(&ctx, ctx.intern_type(TypeKind::UnrankedTensor { elem: i32t })), None);
    }
}
