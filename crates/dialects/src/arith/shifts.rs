//! The shifts `arith.shli` (with overflow flags), `shrsi` (arithmetic) and `shrui` (logical):
//! two operands and a result of one signless-integer-like type; the second operand is the
//! shift amount, read as unsigned. Custom form `arith.shli %a, %b (overflow<nsw>)? : i32`.
//! Folders follow MLIR: a shift by zero is the value, constants shift unless the amount is at
//! least the bit width (the result is poison then, and left alone).

use super::binary::{eval_last, inputs};
use super::binary_syntax::{INT_BINARY_FLAGS_HOOKS, INT_BINARY_HOOKS, OVERFLOW_FLAGS};
use super::{SIGNLESS_INTEGER_LIKE, fold_to_value};
use fuser_ir::apint::ApInt;
use fuser_ir::attrs::{Attr, AttrKind, DenseData};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::registry::FoldResult;

fuser_ir::declare_op! {
    pub static SHLI: "arith.shli" {
        summary: "integer left-shift",
        description: "Shifts the first operand left by the second (unsigned) operand, filling \
with zeros; shifting by the bit width or more gives poison. Overflow flags as for \
`arith.addi`.\n\n```mlir\n%0 = arith.shli %a, %b : i32\n%1 = arith.shli %a, %b overflow<nuw> : i64\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        properties: { overflowFlags: OVERFLOW_FLAGS },
        hook_set: INT_BINARY_FLAGS_HOOKS,
        hooks: { fold: fold_shli },
    }
}

fuser_ir::declare_op! {
    pub static SHRSI: "arith.shrsi" {
        summary: "signed integer right-shift",
        description: "Shifts the first operand right by the second (unsigned) operand, copying \
the sign bit into the vacated bits; shifting by the bit width or more gives poison.\n\n\
```mlir\n%0 = arith.shrsi %a, %b : i32\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        hook_set: INT_BINARY_HOOKS,
        hooks: { fold: fold_shrsi },
    }
}

fuser_ir::declare_op! {
    pub static SHRUI: "arith.shrui" {
        summary: "unsigned integer right-shift",
        description: "Shifts the first operand right by the second (unsigned) operand, filling \
with zeros; shifting by the bit width or more gives poison.\n\n\
```mlir\n%0 = arith.shrui %a, %b : i32\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        hook_set: INT_BINARY_HOOKS,
        hooks: { fold: fold_shrui },
    }
}

/// True when the shift amount (scalar or splat of the op's type) is zero.
fn shifts_by_zero(ctx: &Context, amount: Option<Attr>, ty: fuser_ir::types::Type) -> bool {
    let Some(a) = amount.filter(|&a| ctx.attr_type(a) == Some(ty)) else { return false };
    let scalar = match ctx.attr_kind(a) {
        AttrKind::DenseElements { data: DenseData::Splat(s), .. } => *s,
        _ => a,
    };
    crate::support::int_const(ctx, scalar).is_some_and(|(c, _)| c.is_zero())
}

/// The shared folder: `x >> 0`, then `shift(value, amount)` on constants with an amount below
/// the width.
fn fold_shift(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    operands: &[Option<Attr>],
    shift: fn(&ApInt, u32) -> ApInt,
) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if shifts_by_zero(ctx, operands.get(1).copied().flatten(), x.ty) {
        return fold_to_value(x.lhs);
    }
    // An amount of the width or more gives what `APInt` gives (0, or the sign for `shrsi`),
    // and MLIR folds only when the last element's amount is below the width.
    eval_last(ctx, &x, |l, r| {
        let n = r.shift_amount();
        (shift(l, n), n < l.width())
    })
}

fn fold_shli(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_shift(ctx, ir, op, operands, ApInt::shl)
}

fn fold_shrsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_shift(ctx, ir, op, operands, ApInt::ashr)
}

fn fold_shrui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_shift(ctx, ir, op, operands, ApInt::lshr)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;

    #[test]
    fn shifts_fold_below_the_width_only() {
        let mut b = Bench::new();
        let i8t = b.ctx.integer_type(8);
        let x = b.arg(i8t);
        let (zero, m128, c1, c7, c8) = (b.int(i8t, 0), b.int(i8t, -128), b.int(i8t, 1), b.int(i8t, 7), b.int(i8t, 8));
        let by0 = b.binary("arith.shrsi", x, zero);
        assert_eq!(b.fold_value(by0), Some(x));
        let shl = b.binary("arith.shli", c1, c7);
        let sra = b.binary("arith.shrsi", m128, c7);
        let srl = b.binary("arith.shrui", m128, c7);
        assert_eq!((b.fold_int(shl), b.fold_int(sra), b.fold_int(srl)), (Some(-128), Some(-1), Some(1)));
        let too_far = b.binary("arith.shli", c1, c8);
        assert_eq!(b.fold(too_far), None);
        // Elementwise, only the last element's amount decides (MLIR's shared flag).
        let v =
            b.ctx.intern_type(fuser_ir::types::TypeKind::Vector { shape: vec![2], scalable: vec![false], elem: i8t });
        let dense = |b: &mut Bench, xs: [i64; 2]| {
            let elems = xs.iter().map(|&x| b.ctx.int_attr(i8t, x)).collect();
            let a = b.ctx.intern_attr(fuser_ir::attrs::AttrKind::DenseElements {
                ty: v,
                data: fuser_ir::attrs::DenseData::Elements(elems),
            });
            b.constant(a)
        };
        let (ones, last_far, first_far) = (dense(&mut b, [1, 2]), dense(&mut b, [1, 9]), dense(&mut b, [9, 1]));
        let refused = b.binary("arith.shli", ones, last_far);
        assert_eq!(b.fold(refused), None);
        let folded = b.binary("arith.shli", ones, first_far);
        let expect = dense(&mut b, [0, 4]);
        let expect = b.fold(b.ir.defining_op(expect).unwrap());
        assert_eq!(b.fold(folded), expect);
    }
}
