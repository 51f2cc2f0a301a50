//! The conversions between integers and floats: `arith.sitofp`, `uitofp` (a signed/unsigned
//! integer to the nearest float, ties to even) and `fptosi`, `fptoui` (a float rounded towards
//! zero to a signed/unsigned integer); custom form `arith.sitofp %a : i32 to f32`. Any widths
//! combine. Scalar and splat constants fold as MLIR folds them: conversions to floats round to
//! the result's precision (`f16`, `bf16`, `f32`, `f64`); conversions to integers fold unless the
//! value is NaN, infinite or out of the result's range.

use super::cast_common::{cast_state, fold_cast_constant, parse_cast, print_cast, verify_cast, width_of};
use super::float_const::{any_float_value, exact_float_attr};
use super::int_casts::SIGNLESS_FIXED_WIDTH_INTEGER_LIKE;
use super::{FLOAT_LIKE, fold_to_attr};
use crate::support::{IntConst, int_attr, int_const};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, VerifyCtx};
use fuser_ir::types::{FloatKind, Type, TypeKind};

macro_rules! conversion_op {
    ($name:ident, $mnemonic:literal, $summary:literal, $description:literal, $from:expr, $to:expr, $fold:ident) => {
        fuser_ir::declare_op! {
            pub static $name: $mnemonic {
                summary: $summary,
                description: $description,
                traits: [PURE],
                operands: { in: $from },
                results: { out: $to },
                hooks: { verify: verify_conversion, fold: $fold, parse: parse_cast, print: print_cast },
            }
        }
    };
}

conversion_op!(
    SITOFP,
    "arith.sitofp",
    "cast from integer type to floating-point",
    "Converts a signed (two's complement) integer to the nearest float, ties to even, \
elementwise for vectors and tensors.\n\n```mlir\n%0 = arith.sitofp %a : i32 to f32\n```",
    SIGNLESS_FIXED_WIDTH_INTEGER_LIKE,
    FLOAT_LIKE,
    fold_sitofp
);

conversion_op!(
    UITOFP,
    "arith.uitofp",
    "cast from unsigned integer type to floating-point",
    "Converts an integer read as unsigned to the nearest float, ties to even, elementwise for \
vectors and tensors.\n\n```mlir\n%0 = arith.uitofp %a : i8 to f16\n```",
    SIGNLESS_FIXED_WIDTH_INTEGER_LIKE,
    FLOAT_LIKE,
    fold_uitofp
);

conversion_op!(
    FPTOSI,
    "arith.fptosi",
    "cast from floating-point type to integer type",
    "Converts a float to a signed integer, rounding towards zero; a value out of range is \
poison.\n\n```mlir\n%0 = arith.fptosi %a : f32 to i32\n```",
    FLOAT_LIKE,
    SIGNLESS_FIXED_WIDTH_INTEGER_LIKE,
    fold_fptosi
);

conversion_op!(
    FPTOUI,
    "arith.fptoui",
    "cast from floating-point type to unsigned integer type",
    "Converts a float to an unsigned integer, rounding towards zero; a value out of range is \
poison.\n\n```mlir\n%0 = arith.fptoui %a : f64 to i8\n```",
    FLOAT_LIKE,
    SIGNLESS_FIXED_WIDTH_INTEGER_LIKE,
    fold_fptoui
);

/// The state of the conversion `name` (`"arith.sitofp"`, ...) of `input` to `ty`.
pub fn conversion_state(ctx: &Context, name: &str, input: Value, ty: Type, loc: Attr) -> OperationState {
    cast_state(ctx, name, input, ty, loc)
}

/// The declared types say it all: any integer converts to any float and back.
fn verify_conversion(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_cast(v, op, |_, _, _| true)
}

// ----- integer to float ---------------------------------------------------------------------

/// The precision (significand bits) and largest finite value of the float kinds folded to.
pub(super) fn precision(k: FloatKind) -> Option<(u32, f64)> {
    match k {
        FloatKind::F16 => Some((11, 65504.0)),
        FloatKind::BF16 => Some((8, f32::MAX as f64)),
        FloatKind::F32 => Some((24, f32::MAX as f64)),
        FloatKind::F64 => Some((53, f64::MAX)),
        _ => None,
    }
}

/// `mag` rounded to `p` significant bits, ties to even (exact in `f64` since `p <= 53`).
pub(super) fn round_to_precision(mag: u128, p: u32) -> f64 {
    let len = 128 - mag.leading_zeros();
    if len <= p {
        return mag as f64;
    }
    let shift = len - p;
    let kept = mag >> shift;
    let rest = mag & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let up = rest > half || (rest == half && kept & 1 == 1);
    ((kept + up as u128) as f64) * 2f64.powi(shift as i32)
}

/// The float of type `to` nearest to the integer `negative ? -mag : mag`.
fn int_to_float(ctx: &Context, to: Type, negative: bool, mag: u128) -> Option<Attr> {
    let TypeKind::Float(k) = ctx.type_kind(to) else { return None };
    let (p, max) = precision(*k)?;
    let mut v = round_to_precision(mag, p);
    if v > max {
        v = f64::INFINITY;
    }
    exact_float_attr(ctx, to, if negative { -v } else { v })
}

fn fold_to_float(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>], signed: bool) -> Option<Vec<FoldResult>> {
    let to = ir.value_type(ir.result(op, 0));
    let folded = fold_cast_constant(ctx, operands.first().copied().flatten(), to, |a, elem| {
        let (c, _) = int_const(ctx, a)?;
        // Magnitudes past 128 bits are not folded here.
        let negative = signed && c.is_negative();
        let mag = if negative { IntConst(c.negate()).unsigned()? } else { c.unsigned()? };
        int_to_float(ctx, elem, negative, mag)
    });
    fold_to_attr(folded?)
}

fn fold_sitofp(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_to_float(ctx, ir, op, operands, true)
}

fn fold_uitofp(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_to_float(ctx, ir, op, operands, false)
}

// ----- float to integer ---------------------------------------------------------------------

/// `v` rounded towards zero as a `width`-bit integer, if in range.
pub(super) fn float_to_int(v: f64, width: u32, signed: bool) -> Option<IntConst> {
    if !v.is_finite() || width == 0 || width > 128 {
        return None;
    }
    let t = v.trunc();
    let limit = 2f64.powi(width as i32 - signed as i32);
    let low = if signed { -limit } else { 0.0 };
    if t < low || t >= limit {
        return None;
    }
    let bits = if t < 0.0 { (t as i128) as u128 } else { t as u128 };
    Some(IntConst::new(width, bits))
}

fn fold_to_int(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>], signed: bool) -> Option<Vec<FoldResult>> {
    let to = ir.value_type(ir.result(op, 0));
    let folded = fold_cast_constant(ctx, operands.first().copied().flatten(), to, |a, elem| {
        let (v, _) = any_float_value(ctx, a)?;
        Some(int_attr(ctx, elem, float_to_int(v, width_of(ctx, elem)?, signed)?))
    });
    fold_to_attr(folded?)
}

fn fold_fptosi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_to_int(ctx, ir, op, operands, true)
}

fn fold_fptoui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_to_int(ctx, ir, op, operands, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_round_to_nearest_even() {
        assert_eq!(round_to_precision(2049, 11), 2048.0);
        assert_eq!(round_to_precision(2051, 11), 2052.0);
        assert_eq!(round_to_precision(16_777_217, 24), 16_777_216.0);
        assert_eq!(round_to_precision(u128::MAX, 24), 2f64.powi(128));
        assert_eq!(round_to_precision(5, 53), 5.0);
    }

    #[test]
    fn floats_truncate_within_range() {
        assert_eq!(float_to_int(-1.9, 8, true).and_then(|c| c.signed()), Some(-1));
        assert_eq!(float_to_int(127.9, 8, true).and_then(|c| c.signed()), Some(127));
        assert_eq!(float_to_int(128.0, 8, true), None);
        assert_eq!(float_to_int(-0.5, 8, false).and_then(|c| c.unsigned()), Some(0));
        assert_eq!(float_to_int(-1.0, 8, false), None);
        assert_eq!(float_to_int(255.5, 8, false).and_then(|c| c.unsigned()), Some(255));
        assert_eq!(float_to_int(f64::NAN, 32, true), None);
    }
}
