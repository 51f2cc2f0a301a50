//! The rounding divisions `arith.ceildivui`, `ceildivsi` (towards positive infinity) and
//! `floordivsi` (towards negative infinity): two operands and a result of one
//! signless-integer-like type, custom form `arith.ceildivsi %a, %b : i32`.
//!
//! Folders follow MLIR: `x / 1` is `x`; constants are evaluated elementwise, except a zero
//! divisor or any signed overflow of MLIR's evaluation steps (e.g. `INT_MIN / -1`), which leave
//! the op alone (for `floordivsi`, as in MLIR, only when it is the last element's).

use super::binary::{eval, eval_last, inputs, parse_binary, print_binary, verify_binary};
use super::{SIGNLESS_INTEGER_LIKE, fold_to_value};
use crate::support::IntConst;
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
                hooks: { verify: verify_binary, fold: $fold, parse: parse_binary, print: print_binary },
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

/// Two's-complement arithmetic in one width that reports overflow as `None`, as `APInt`'s
/// `*_ov` operations do.
#[derive(Clone, Copy)]
struct Signed {
    width: u32,
}

impl Signed {
    fn fits(self, v: i128) -> Option<i128> {
        if self.width >= 128 {
            return Some(v);
        }
        let (lo, hi) = (-(1i128 << (self.width - 1)), (1i128 << (self.width - 1)) - 1);
        (lo..=hi).contains(&v).then_some(v)
    }
    fn sub(self, a: i128, b: i128) -> Option<i128> {
        self.fits(a.checked_sub(b)?)
    }
    fn add(self, a: i128, b: i128) -> Option<i128> {
        self.fits(a.checked_add(b)?)
    }
    /// Division rounding towards zero.
    fn div(self, a: i128, b: i128) -> Option<i128> {
        self.fits(a.checked_div(b)?)
    }
    /// `(a - 1) / b + 1` for positive `a`, `b`.
    fn ceil_nonneg(self, a: i128, b: i128) -> Option<i128> {
        self.add(self.div(self.sub(a, 1)?, b)?, 1)
    }
}

fn fold_ceildivui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.is_some_and(IntConst::is_one) {
        return fold_to_value(x.lhs);
    }
    eval(ctx, &x, |l, r| {
        let (a, b) = (l.unsigned(), r.unsigned());
        let q = a.checked_div(b)?;
        Some(if a % b == 0 { q } else { q + 1 })
    })
}

/// MLIR's evaluation of `ceildivsi`, step by step so that its overflows refuse alike.
fn ceildivsi(l: IntConst, r: IntConst) -> Option<i128> {
    let s = Signed { width: l.width };
    let (a, b) = (l.signed(), r.signed());
    if b == 0 {
        return None;
    }
    if a == 0 {
        return Some(0);
    }
    match (a > 0, b > 0) {
        (true, true) => s.ceil_nonneg(a, b),
        (false, false) => s.ceil_nonneg(s.sub(0, a)?, s.sub(0, b)?),
        (false, true) => s.sub(0, s.div(s.sub(0, a)?, b)?),
        (true, false) => s.sub(0, s.div(a, s.sub(0, b)?)?),
    }
}

fn fold_ceildivsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.is_some_and(IntConst::is_one) {
        return fold_to_value(x.lhs);
    }
    eval(ctx, &x, |l, r| ceildivsi(l, r).map(|v| v as u128))
}

/// `APInt::sfloordiv_ov` as MLIR's folder uses it: the truncated quotient, one less when
/// inexact with operands of different signs; with whether the element is valid. A zero divisor
/// gives the dividend, `INT_MIN / -1` wraps, both invalid.
fn floordivsi(l: IntConst, r: IntConst) -> (i128, bool) {
    let s = Signed { width: l.width };
    let (a, b) = (l.signed(), r.signed());
    if b == 0 {
        return (a, false);
    }
    let Some(q) = s.div(a, b) else { return (a, false) };
    let inexact = q.wrapping_mul(b) != a;
    (if inexact && (a < 0) != (b < 0) { q - 1 } else { q }, true)
}

fn fold_floordivsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.is_some_and(IntConst::is_one) {
        return fold_to_value(x.lhs);
    }
    // MLIR's flag is overwritten per element: only the last element decides.
    eval_last(ctx, &x, |l, r| {
        let (v, ok) = floordivsi(l, r);
        (v as u128, ok)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(width: u32, v: i128) -> IntConst {
        IntConst::new(width, v as u128)
    }

    #[test]
    fn rounding_directions() {
        assert_eq!(ceildivsi(c(32, 7), c(32, 2)), Some(4));
        assert_eq!(ceildivsi(c(32, -7), c(32, 2)), Some(-3));
        assert_eq!(ceildivsi(c(32, 7), c(32, -2)), Some(-3));
        assert_eq!(ceildivsi(c(32, -7), c(32, -2)), Some(4));
        assert_eq!(floordivsi(c(32, 7), c(32, 2)), (3, true));
        assert_eq!(floordivsi(c(32, -7), c(32, 2)), (-4, true));
        assert_eq!(floordivsi(c(32, -8), c(32, 2)), (-4, true));
    }

    #[test]
    fn overflow_and_zero_refuse() {
        assert_eq!(ceildivsi(c(8, -128), c(8, -1)), None);
        assert_eq!(ceildivsi(c(8, -128), c(8, 1)), None, "negating INT_MIN overflows in MLIR's steps");
        assert_eq!(floordivsi(c(8, -128), c(8, -1)), (-128, false));
        assert_eq!(floordivsi(c(8, 5), c(8, 0)), (5, false));
        assert_eq!(ceildivsi(c(8, 0), c(8, 0)), None);
    }
}
