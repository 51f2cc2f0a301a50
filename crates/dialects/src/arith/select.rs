//! `arith.select`: picks one of two values by an `i1` condition (or elementwise by a
//! same-shaped `i1` container); custom form `arith.select %c, %a, %b : i32`, or
//! `: vector<4xi1>, vector<4xi32>` with a container condition. Folds a constant condition,
//! equal alternatives, `select %c, true, false` to `%c`, `select (cmpi eq|ne, %a, %b), %a, %b`,
//! and constant alternatives under a constant vector/tensor condition elementwise; the patterns that rewrite it into
//! other ops are in `select_patterns`.

use super::select_patterns::{
    REDUNDANT_SELECT_FALSE, REDUNDANT_SELECT_TRUE, SELECT_I1_TO_NOT, SELECT_NOT_COND, SELECT_TO_EXTUI,
};
use super::{BOOL_LIKE, CmpPredicate, fold_to_attr, fold_to_value};
use crate::support::{empty_state, int_const, printed_attr_dict, same_shape, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::{Attr, AttrKind, DenseData};
use fuser_ir::context::Context;
use fuser_ir::declare::ANY_TYPE;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, VerifyCtx};
use fuser_ir::types::Type;

fuser_ir::declare_op! {
    pub static SELECT: "arith.select" {
        summary: "Picks one of two values by an i1 condition",
        description: "Yields `true_value` where the condition is 1 and `false_value` where it is 0. \
A scalar `i1` condition selects whole values; a vector or tensor of `i1` selects elementwise \
and must have the shape of the result.\n\n\
```mlir\n%0 = arith.select %cond, %a, %b : i32\n%1 = arith.select %mask, %v, %w : vector<4xi1>, vector<4xi32>\n```",
        traits: [PURE],
        operands: { condition: BOOL_LIKE, true_value: ANY_TYPE, false_value: ANY_TYPE },
        results: { result: ANY_TYPE },
        hooks: {
            verify: verify_select,
            fold: fold_select,
            canonicalize: &[REDUNDANT_SELECT_FALSE, REDUNDANT_SELECT_TRUE, SELECT_NOT_COND, SELECT_I1_TO_NOT, SELECT_TO_EXTUI],
            parse: parse_select,
            print: print_select,
        },
    }
}

/// What the declaration does not say: both alternatives have the result type; a container
/// condition has the result's shape.
fn verify_select(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let cond = ir.value_type(ir.operand(op, 0));
    let result = ir.value_type(ir.result(op, 0));
    if ir.value_type(ir.operand(op, 1)) != result || ir.value_type(ir.operand(op, 2)) != result {
        return Err(v.op_error(op, "failed to verify that all of {true_value, false_value, result} have same type"));
    }
    // `AllShapesMatch` compares dimensions only (a vector may match a tensor here).
    let dims = |t| crate::support::shape_of(ctx, t).map(|s| s.0);
    let shapes_match = same_shape(ctx, cond, result) || dims(cond).is_some() && dims(cond) == dims(result);
    if cond != ctx.i1_type() && !shapes_match {
        return Err(v.op_error(op, "failed to verify that condition is signless i1 or has matching shape"));
    }
    super::verify_elementwise(v, op)?;
    // A container condition is exactly `i1` with the result's shape (and encoding).
    if cond != ctx.i1_type() {
        let expected = super::bool_like_of(ctx, result);
        if crate::support::shape_of(ctx, result).is_none()
            && !matches!(ctx.type_kind(result), fuser_ir::types::TypeKind::UnrankedTensor { .. })
        {
            let msg = format!("expected condition to be a signless i1, but got {}", quoted(ctx, cond));
            return Err(v.op_error(op, msg));
        }
        if cond != expected {
            let msg = format!(
                "expected condition type to have the same shape as the result type, expected {}, but got {}",
                quoted(ctx, expected),
                quoted(ctx, cond)
            );
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

fn quoted(ctx: &Context, t: Type) -> String {
    format!("'{}'", type_str(ctx, t))
}

fn fold_select(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    if ir.num_operands(op) != 3 {
        return None;
    }
    let (cond, t, f) = (ir.operand(op, 0), ir.operand(op, 1), ir.operand(op, 2));
    if t == f {
        return fold_to_value(t);
    }
    // The condition as one bool: a scalar, or a splat of the condition's shape.
    let attr = |i: usize| operands.get(i).copied().flatten();
    let cond_ty = ir.value_type(cond);
    let known = |i: usize, ty| {
        let scalar = super::splat_scalar(ctx, attr(i)?, ty)?;
        int_const(ctx, scalar).map(|c| c.0.low_u64())
    };
    match known(0, cond_ty) {
        Some(1) => return fold_to_value(t),
        Some(0) => return fold_to_value(f),
        _ => {}
    }
    let i1 = ctx.i1_type();
    let result_ty = ir.value_type(t);
    if result_ty == i1 && known(1, i1) == Some(1) && known(2, i1) == Some(0) {
        return fold_to_value(cond);
    }
    // select (cmpi eq|ne, a, b), a, b  ->  b | a
    if let Some(cmp) = super::defined_by(ctx, ir, cond, super::CMPI.name)
        && ir.num_operands(cmp) == 2
        && let Some(pred) = super::cmpi::predicate(ctx, ir, cmp)
        && matches!(pred, CmpPredicate::Eq | CmpPredicate::Ne)
    {
        let (a, b) = (ir.operand(cmp, 0), ir.operand(cmp, 1));
        if (a == t && b == f) || (b == t && a == f) {
            return fold_to_value(if pred == CmpPredicate::Ne { t } else { f });
        }
    }
    // A constant vector or tensor condition picks elementwise between constant alternatives.
    if cond_ty != i1 {
        let picked = pick_elements(ctx, attr(0)?, attr(1)?, attr(2)?, result_ty)?;
        return fold_to_attr(picked);
    }
    None
}

/// `cond ? a : b` element by element over dense constants (any of them may be a splat).
fn pick_elements(ctx: &Context, cond: Attr, a: Attr, b: Attr, ty: Type) -> Option<Attr> {
    let n = crate::support::shape_of(ctx, ty)?.0.iter().product::<i64>().max(0) as usize;
    let elems = |x: Attr| -> Option<Vec<Attr>> {
        match ctx.attr_kind(x) {
            AttrKind::DenseElements { data: DenseData::Splat(s), .. } => Some(vec![*s; n]),
            AttrKind::DenseElements { data: DenseData::Elements(v), .. } if v.len() == n => Some(v.clone()),
            _ => None,
        }
    };
    let (c, x, y) = (elems(cond)?, elems(a)?, elems(b)?);
    let picked = c
        .iter()
        .zip(x.into_iter().zip(y))
        .map(|(&c, (x, y))| Some(if int_const(ctx, c)?.0.bit(0) { x } else { y }))
        .collect::<Option<Vec<_>>>()?;
    super::elementwise::dense_of(ctx, ty, picked)
}

fn parse_select(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let operands = p.parse_operand_list()?;
    if operands.len() != 3 {
        return Err(p.emit_error("expected 3 operands"));
    }
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    p.parse_punct(Punct::Colon)?;
    let first = p.parse_type()?;
    let (cond_ty, ty) =
        if p.parse_optional_punct(Punct::Comma) { (first, p.parse_type()?) } else { (p.ctx().i1_type(), first) };
    state.operands = vec![
        p.resolve_operand(&operands[0], cond_ty)?,
        p.resolve_operand(&operands[1], ty)?,
        p.resolve_operand(&operands[2], ty)?,
    ];
    state.result_types = vec![ty];
    state.attrs = p.ctx().dictionary(entries);
    Ok(())
}

fn print_select(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operands(op).to_vec(), printed_attr_dict(ctx, ir, op))
    };
    let [cond, t, _] = operands.as_slice() else { return };
    let (cond_ty, ty) = (p.ir().value_type(*cond), p.ir().value_type(*t));
    p.write(" ");
    p.print_operands(&operands);
    p.print_optional_attr_dict(dict, &[]);
    p.write(" : ");
    if cond_ty != p.ctx().i1_type() {
        p.print_type(cond_ty);
        p.write(", ");
    }
    p.print_type(ty);
}

/// The state of `arith.select cond, t, f`.
pub fn select_state(ctx: &Context, ir: &Ir, cond: Value, t: Value, f: Value, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, SELECT.name, loc);
    state.operands = vec![cond, t, f];
    state.result_types = vec![ir.value_type(t)];
    state
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;

    #[test]
    fn folds() {
        let mut b = Bench::new();
        let i32t = b.ctx.integer_type(32);
        let (c, x, y) = (b.arg(b.ctx.i1_type()), b.arg(i32t), b.arg(i32t));
        let (t, f) = (b.constant(b.ctx.bool_attr(true)), b.constant(b.ctx.bool_attr(false)));
        let loc = b.ctx.unknown_loc();
        let on_true = select_state(&b.ctx, &b.ir, t, x, y, loc);
        let on_true = b.op(on_true);
        let on_false = select_state(&b.ctx, &b.ir, f, x, y, loc);
        let on_false = b.op(on_false);
        let same = select_state(&b.ctx, &b.ir, c, x, x, loc);
        let same = b.op(same);
        let to_cond = select_state(&b.ctx, &b.ir, c, t, f, loc);
        let to_cond = b.op(to_cond);
        let open = select_state(&b.ctx, &b.ir, c, x, y, loc);
        let open = b.op(open);
        assert_eq!(b.fold_value(on_true), Some(x));
        assert_eq!(b.fold_value(on_false), Some(y));
        assert_eq!(b.fold_value(same), Some(x));
        assert_eq!(b.fold_value(to_cond), Some(c));
        assert_eq!(b.fold(open), None);
        assert_eq!(b.verify(open), Ok(()));
    }
}
