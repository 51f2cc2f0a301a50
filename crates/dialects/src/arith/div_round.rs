//! The rounding divisions `arith.ceildivui`, `ceildivsi` (towards positive infinity) and
//! `floordivsi` (towards negative infinity): two operands and a result of one
//! signless-integer-like type, custom form `arith.ceildivsi %a, %b : i32`.
//!
//! Folders follow MLIR: `x / 1` is `x`; constants are evaluated elementwise, except a zero
//! divisor or any signed overflow of MLIR's evaluation steps (e.g. `INT_MIN / -1`), which leave
//! the op alone (for `floordivsi`, as in MLIR, only when it is the last element's).

use super::binary::{eval, eval_last, inputs};
use super::binary_syntax::INT_BINARY_HOOKS;
use super::{SIGNLESS_INTEGER_LIKE, fold_to_value};
use crate::support::IntConst;
use fuser_ir::apint::ApInt;
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::registry::FoldResult;

macro_rules! div_op {
    ($name:ident, $mnemonic:literal, $summary:literal, $desc:literal, $fold:ident) => {
        fuser_ir::declare_op! {
            pub static $name: $mnemonic {
                summary: $summary,
                description: concat!($desc, " Division by zero is undefined behaviour.\n\n\
```mlir\n%0 = ", $mnemonic, " %a, %b : i32\n```"),
                traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
                operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
                results: { result: SIGNLESS_INTEGER_LIKE },
                hook_set: INT_BINARY_HOOKS,
                hooks: { fold: $fold },
            }
        }
    };
}

div_op!(
    CEILDIVUI,
    "arith.ceildivui",
    "Unsigned division rounding up",
    "Divides two integers read as unsigned numbers, rounding towards positive infinity.",
    fold_ceildivui
);
div_op!(
    CEILDIVSI,
    "arith.ceildivsi",
    "Signed division rounding up",
    "Divides two integers read as two's complement, rounding towards positive infinity; \
`INT_MIN / -1` is undefined behaviour.",
    fold_ceildivsi
);
div_op!(
    FLOORDIVSI,
    "arith.floordivsi",
    "Signed division rounding down",
    "Divides two integers read as two's complement, rounding towards negative infinity; \
`INT_MIN / -1` is undefined behaviour.",
    fold_floordivsi
);

/// `APInt::ssub_ov`: the wrapping difference, and whether it overflowed as a signed operation.
fn ssub_ov(a: &ApInt, b: &ApInt) -> (ApInt, bool) {
    let d = a.sub(b);
    let overflow = a.is_negative() != b.is_negative() && d.is_negative() != a.is_negative();
    (d, overflow)
}

/// `APInt::sadd_ov`.
fn sadd_ov(a: &ApInt, b: &ApInt) -> (ApInt, bool) {
    let s = a.add(b);
    let overflow = a.is_negative() == b.is_negative() && s.is_negative() != a.is_negative();
    (s, overflow)
}

/// `APInt::sdiv_ov` for a non-zero divisor.
fn sdiv_ov(a: &ApInt, b: &ApInt) -> (ApInt, bool) {
    (a.sdiv(b).unwrap_or_else(|| a.clone()), a.is_signed_min() && b.is_all_ones())
}

/// MLIR's `signedCeilNonnegInputs`: `(a - 1) / b + 1`, overflowing as its last step does
/// (each `*_ov` step overwrites the flag).
fn signed_ceil_nonneg(a: &ApInt, b: &ApInt) -> (ApInt, bool) {
    let one = ApInt::one(a.width());
    let (d, _) = ssub_ov(a, &one);
    let (q, _) = sdiv_ov(&d, b);
    sadd_ov(&q, &one)
}

fn fold_ceildivui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_one) {
        return fold_to_value(x.lhs);
    }
    eval(ctx, &x, |l, r| {
        let (q, rem) = l.udivrem(r)?;
        Some(if rem.is_zero() { q } else { q.add(&ApInt::one(q.width())) })
    })
}

/// MLIR's evaluation of `ceildivsi`, step by step so that its overflows refuse alike (`None`).
fn ceildivsi(a: &ApInt, b: &ApInt) -> Option<ApInt> {
    if b.is_zero() {
        return None;
    }
    if a.is_zero() {
        return Some(a.clone());
    }
    let zero = ApInt::zero(a.width());
    let (a_pos, b_pos) = (!a.is_negative(), !b.is_negative());
    let (v, overflow) = match (a_pos, b_pos) {
        (true, true) => signed_ceil_nonneg(a, b),
        (false, false) => {
            let ((pa, oa), (pb, ob)) = (ssub_ov(&zero, a), ssub_ov(&zero, b));
            let (v, od) = signed_ceil_nonneg(&pa, &pb);
            (v, oa || ob || od)
        }
        (false, true) => {
            let (pa, oa) = ssub_ov(&zero, a);
            let (q, od) = sdiv_ov(&pa, b);
            let (v, on) = ssub_ov(&zero, &q);
            (v, oa || od || on)
        }
        (true, false) => {
            let (pb, ob) = ssub_ov(&zero, b);
            let (q, od) = sdiv_ov(a, &pb);
            let (v, on) = ssub_ov(&zero, &q);
            (v, ob || od || on)
        }
    };
    (!overflow).then_some(v)
}

fn fold_ceildivsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_one) {
        return fold_to_value(x.lhs);
    }
    eval(ctx, &x, |l, r| ceildivsi(l, r))
}

/// `APInt::sfloordiv_ov` as MLIR's folder uses it: the truncated quotient, one less when
/// inexact with operands of different signs; with whether the element is valid. A zero divisor
/// gives the dividend, `INT_MIN / -1` wraps, both invalid.
fn floordivsi(a: &ApInt, b: &ApInt) -> (ApInt, bool) {
    if b.is_zero() {
        return (a.clone(), false);
    }
    let (q, overflow) = sdiv_ov(a, b);
    let inexact = q.mul(b) != *a;
    let q = if inexact && a.is_negative() != b.is_negative() { q.sub(&ApInt::one(q.width())) } else { q };
    (q, !overflow)
}

fn fold_floordivsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_one) {
        return fold_to_value(x.lhs);
    }
    // MLIR's flag is overwritten per element: only the last element decides.
    eval_last(ctx, &x, |l, r| floordivsi(l, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(width: u32, v: i128) -> ApInt {
        ApInt::from_i128(width, v)
    }

    fn cs(width: u32, a: i128, b: i128) -> Option<i128> {
        ceildivsi(&c(width, a), &c(width, b)).and_then(|v| v.to_i128())
    }

    fn fs(width: u32, a: i128, b: i128) -> (i128, bool) {
        let (v, ok) = floordivsi(&c(width, a), &c(width, b));
        (v.to_i128().unwrap(), ok)
    }

    #[test]
    fn rounding_directions() {
        for w in [32, 200] {
            assert_eq!(cs(w, 7, 2), Some(4));
            assert_eq!(cs(w, -7, 2), Some(-3));
            assert_eq!(cs(w, 7, -2), Some(-3));
            assert_eq!(cs(w, -7, -2), Some(4));
            assert_eq!(fs(w, 7, 2), (3, true));
            assert_eq!(fs(w, -7, 2), (-4, true));
            assert_eq!(fs(w, -8, 2), (-4, true));
        }
    }

    #[test]
    fn overflow_and_zero_refuse() {
        assert_eq!(cs(8, -128, -1), None);
        assert_eq!(cs(8, -128, 1), None, "negating INT_MIN overflows in MLIR's steps");
        assert_eq!(cs(8, 5, -128), None, "negating INT_MIN overflows in MLIR's steps");
        assert_eq!(fs(8, -128, -1), (-128, false));
        assert_eq!(fs(8, 5, 0), (5, false));
        assert_eq!(cs(8, 0, 0), None);
        let min = ApInt::signed_min(300);
        assert_eq!(ceildivsi(&min, &ApInt::all_ones(300)), None);
        assert!(!floordivsi(&min, &ApInt::all_ones(300)).1);
    }
}
