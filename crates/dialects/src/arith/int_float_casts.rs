//! The conversions between integers and floats: `arith.sitofp`, `uitofp` (a signed/unsigned
//! integer to the nearest float, ties to even) and `fptosi`, `fptoui` (a float rounded towards
//! zero to a signed/unsigned integer); custom form `arith.sitofp %a : i32 to f32`. Any widths
//! combine. Constants (scalars, splats, dense) fold as MLIR folds them, through `ApFloat` for
//! every float type and integers of any width (`i256`, `i1000`): conversions to floats round to
//! the result's precision, ties to even (overflow gives infinity, or NaN for the formats
//! without one); conversions to integers fold unless the value is NaN, infinite or out of the
//! result's range. Integer constants are read and written as attributes directly.

use super::cast_common::{cast_state, fold_cast_constant, parse_cast, print_cast, verify_cast, width_of};
use super::float_const::{ap_attr, ap_of};
use super::int_casts::SIGNLESS_FIXED_WIDTH_INTEGER_LIKE;
use super::{FLOAT_LIKE, fold_to_attr};
use fuser_ir::apfloat::{ApFloat, RoundingMode};
use fuser_ir::apint::ApInt;
use fuser_ir::attrs::{Attr, AttrKind};
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

/// The value of a scalar integer constant (`true`/`false` for `i1`), read directly from the
/// attribute.
pub(super) fn int_value(ctx: &Context, a: Attr) -> Option<ApInt> {
    match ctx.attr_kind(a) {
        AttrKind::Bool(b) => Some(ApInt::from_u128(1, *b as u128)),
        AttrKind::Integer { value, .. } => Some(value.clone()),
        _ => None,
    }
}

/// The integer attribute of the integer type `ty` holding `v` (`true`/`false` for `i1`, as
/// MLIR prints booleans).
pub(super) fn int_value_attr(ctx: &Context, ty: Type, v: ApInt) -> Attr {
    if v.width() == 1 {
        return ctx.bool_attr(!v.is_zero());
    }
    ctx.intern_attr(AttrKind::Integer { value: v, ty })
}

/// The float of kind `k` nearest to the integer `v` (two's complement when `signed`), as
/// `APFloat::convertFromAPInt` rounds it (ties to even; overflow to infinity, or NaN for the
/// formats without one).
pub(super) fn int_to_float(k: FloatKind, v: &ApInt, signed: bool) -> Option<ApFloat> {
    Some(ApFloat::from_apint(k, v, signed, RoundingMode::NearestTiesToEven)?.0)
}

fn fold_to_float(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>], signed: bool) -> Option<Vec<FoldResult>> {
    let to = ir.value_type(ir.result(op, 0));
    let folded = fold_cast_constant(ctx, operands.first().copied().flatten(), to, |a, elem| {
        let TypeKind::Float(k) = ctx.type_kind(elem) else { return None };
        Some(ap_attr(ctx, elem, &int_to_float(*k, &int_value(ctx, a)?, signed)?))
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

fn fold_to_int(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>], signed: bool) -> Option<Vec<FoldResult>> {
    let to = ir.value_type(ir.result(op, 0));
    let folded = fold_cast_constant(ctx, operands.first().copied().flatten(), to, |a, elem| {
        let (v, _) = ap_of(ctx, a)?.to_apint_toward_zero(width_of(ctx, elem)?, signed)?;
        Some(int_value_attr(ctx, elem, v))
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

    fn f(k: FloatKind, v: i128, signed: bool) -> u128 {
        int_to_float(k, &ApInt::from_i128(128, v), signed).unwrap().to_bits()
    }

    #[test]
    fn integers_round_to_nearest_even() {
        assert_eq!(f(FloatKind::F16, 2049, true), 0x6800); // 2048
        assert_eq!(f(FloatKind::F16, 2051, true), 0x6802); // 2052
        assert_eq!(f(FloatKind::F32, -16_777_217, true), 0xCB80_0000);
        assert_eq!(f(FloatKind::F16, 65520, true), 0x7C00); // overflow: infinity
        assert_eq!(f(FloatKind::F8E4M3FN, 1000, true), 0x7F); // overflow: NaN
        assert_eq!(f(FloatKind::F32, -1, false), 0x7F80_0000); // 2^128 - 1 unsigned
    }

    #[test]
    fn floats_truncate_within_range() {
        let to = |bits: u128, k, w, signed| {
            ApFloat::from_bits(k, bits).unwrap().to_apint_toward_zero(w, signed).map(|(v, _)| v.to_string_signed())
        };
        assert_eq!(to((-1.9f64).to_bits() as u128, FloatKind::F64, 8, true).as_deref(), Some("-1"));
        assert_eq!(to(127.9f64.to_bits() as u128, FloatKind::F64, 8, true).as_deref(), Some("127"));
        assert_eq!(to(128f64.to_bits() as u128, FloatKind::F64, 8, true), None);
        assert_eq!(to((-128f64).to_bits() as u128, FloatKind::F64, 8, true).as_deref(), Some("-128"));
        assert_eq!(to((-0.5f64).to_bits() as u128, FloatKind::F64, 8, false).as_deref(), Some("0"));
        assert_eq!(to((-1f64).to_bits() as u128, FloatKind::F64, 8, false), None);
        assert_eq!(to(f64::NAN.to_bits() as u128, FloatKind::F64, 32, true), None);
        // 2^150 (f128) into i200.
        assert_eq!(to((0x3FFF + 150u128) << 112, FloatKind::F128, 200, true).map(|s| s.len()), Some(46));
    }
}
