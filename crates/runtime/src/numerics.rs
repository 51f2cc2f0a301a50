//! The numeric semantics of the element types, one scalar function per rule, shared by the cpu
//! kernels, the cpu collectives, the gathering of partial outputs and the reference evaluator
//! (`fuser-run --check`); the cuda kernels (`cuda/kernels.rs`) implement the same rules in CUDA
//! C. docs/dev/runtime.md ("Numeric semantics") states them for users; the rules are MLIR's
//! `arith` and torch's:
//!
//! - integers (i8, i16, i32, i64) wrap (two's complement) on add, sub, mul, neg and in sums,
//!   matmuls and sum/prod reductions (`arith.addi`, torch's integer ops); conversions between
//!   integer types keep the low bits (`arith.trunci`/`arith.extsi`, torch's `.to()`);
//! - integer division truncates toward zero (`arith.divsi`, `torch.div(rounding_mode="trunc")`,
//!   not Python's floor division `//`); `x / 0` is `-1` (all bits set) and `MIN / -1` is `MIN`
//!   (MLIR calls both undefined behaviour and torch raises for `/ 0` on the cpu: fuser defines
//!   them, as RISC-V does, so that every backend and the reference agree);
//! - float -> integer truncates toward zero and saturates at the type's range, NaN gives 0
//!   (Rust's `as`; CUDA's `cvt.rzi.sat` but for NaN, which the cuda kernels handle explicitly);
//! - integer -> float and float -> narrower float round to nearest, ties to even, with overflow
//!   to infinity;
//! - float arithmetic is IEEE: each op's result is rounded to the element type (bf16/f16
//!   compute in f32 and round every result, as torch does); NaN propagates (also through max
//!   and min, as `arith.maximumf` and `torch.maximum`).

use crate::dtype::DType;
use fuser_dialects::host::ElementwiseKind;
use fuser_dialects::reduction::ReductionKind;

/// `v` wrapped to the width of `dtype`: its low bits, sign-extended (floats: `v` unchanged).
#[inline]
pub fn wrap(dtype: DType, v: i64) -> i64 {
    match dtype {
        DType::I8 => v as i8 as i64,
        DType::I16 => v as i16 as i64,
        DType::I32 => v as i32 as i64,
        _ => v,
    }
}

/// Float -> integer type `dtype`: truncated toward zero, saturated at the type's range, NaN
/// gives 0.
#[inline]
pub fn float_to_int(dtype: DType, v: f64) -> i64 {
    match dtype {
        DType::I8 => v as i8 as i64,
        DType::I16 => v as i16 as i64,
        DType::I32 => v as i32 as i64,
        _ => v as i64,
    }
}

/// Integer -> float type `dtype`: the nearest value (ties to even, one rounding of the
/// integer), infinity beyond the range ([`DType::write_int`]). For an integer `dtype`, the
/// value wrapped to it.
#[inline]
pub fn int_to_float(dtype: DType, v: i64) -> f64 {
    let mut bytes = [0u8; 8];
    dtype.write_int(&mut bytes, v);
    dtype.read(&bytes)
}

/// A float `v` rounded to the float type `dtype` (nearest, ties to even, overflow to
/// infinity, NaN stays NaN; one rounding from `v`, [`DType::write`]). For an integer `dtype`,
/// the cast's truncation.
#[inline]
pub fn round_float(dtype: DType, v: f64) -> f64 {
    match dtype {
        DType::F64 => v,
        DType::F32 => v as f32 as f64,
        _ => crate::dtype::round_to(dtype, v),
    }
}

/// Integer quotient truncated toward zero; `x / 0 = -1`, `MIN / -1 = MIN` (wrapped to `dtype`
/// by the caller for narrower types: `wrap(I32, i32::MIN / -1) = i32::MIN`).
#[inline]
pub fn int_div(a: i64, b: i64) -> i64 {
    if b == 0 { -1 } else { a.wrapping_div(b) }
}

/// NaN-propagating maximum and minimum (`arith.maximumf`, `torch.maximum`).
#[inline]
pub fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() { f64::NAN } else { a.max(b) }
}

#[inline]
pub fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() { f64::NAN } else { a.min(b) }
}

/// The scalar function of an elementwise kind on integers of `dtype` (operands are values of
/// `dtype`; the result is wrapped to it). `cast` is the identity (the store converts).
#[inline]
pub fn int_elementwise(kind: ElementwiseKind, dtype: DType, x: i64, y: i64) -> i64 {
    let r = match kind {
        ElementwiseKind::Add => x.wrapping_add(y),
        ElementwiseKind::Sub => x.wrapping_sub(y),
        ElementwiseKind::Mul => x.wrapping_mul(y),
        ElementwiseKind::Div => int_div(x, y),
        ElementwiseKind::Max => x.max(y),
        ElementwiseKind::Min => x.min(y),
        ElementwiseKind::Neg => x.wrapping_neg(),
        ElementwiseKind::Cast => x,
    };
    wrap(dtype, r)
}

/// The scalar function of an elementwise kind on floats, exact in `f64` before the caller
/// rounds (`cast` is the identity: the store converts).
#[inline]
pub fn float_elementwise(kind: ElementwiseKind, x: f64, y: f64) -> f64 {
    match kind {
        ElementwiseKind::Add => x + y,
        ElementwiseKind::Sub => x - y,
        ElementwiseKind::Mul => x * y,
        ElementwiseKind::Div => x / y,
        ElementwiseKind::Max => fmax(x, y),
        ElementwiseKind::Min => fmin(x, y),
        ElementwiseKind::Neg => -x,
        ElementwiseKind::Cast => x,
    }
}

/// A reduction of two integers of `dtype` (wrapping sum and product).
#[inline]
pub fn int_combine(kind: ReductionKind, dtype: DType, a: i64, b: i64) -> i64 {
    wrap(
        dtype,
        match kind {
            ReductionKind::Sum => a.wrapping_add(b),
            ReductionKind::Prod => a.wrapping_mul(b),
            ReductionKind::Min => a.min(b),
            ReductionKind::Max => a.max(b),
        },
    )
}

/// A value of `dtype` converted to `to` (the semantics of `fusion.cast` and of a copy between
/// element types), on the `f64` currency (integers exact up to 2^53; kernels that need all 64
/// bits use the integer paths of [`DType`]).
pub fn convert(from: DType, to: DType, v: f64) -> f64 {
    match (from.is_float(), to.is_float()) {
        (true, true) => round_float(to, v),
        (true, false) => float_to_int(to, v) as f64,
        (false, true) => int_to_float(to, v as i64),
        (false, false) => wrap(to, v as i64) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wrap_and_divide_toward_zero() {
        assert_eq!(int_elementwise(ElementwiseKind::Add, DType::I8, 100, 100), -56);
        assert_eq!(int_elementwise(ElementwiseKind::Mul, DType::I16, 300, 300), 90000i64 as i16 as i64);
        assert_eq!(int_elementwise(ElementwiseKind::Neg, DType::I8, -128, 0), -128);
        assert_eq!(int_elementwise(ElementwiseKind::Sub, DType::I64, i64::MIN, 1), i64::MAX);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, 7, 2), 3);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, -7, 2), -3);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, 7, -2), -3);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, 5, 0), -1);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, i32::MIN as i64, -1), i32::MIN as i64);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I64, i64::MIN, -1), i64::MIN);
        assert_eq!(int_combine(ReductionKind::Sum, DType::I8, 127, 1), -128);
    }

    #[test]
    fn conversions_truncate_saturate_and_round_to_even() {
        for (v, want) in [(2.5, 2), (-2.5, -2), (2.9, 2), (-2.9, -2), (1e10, i32::MAX as i64), (-1e10, i32::MIN as i64)]
        {
            assert_eq!(float_to_int(DType::I32, v), want, "{v}");
        }
        assert_eq!(float_to_int(DType::I8, f64::NAN), 0);
        assert_eq!(float_to_int(DType::I8, f64::INFINITY), 127);
        assert_eq!(float_to_int(DType::I64, f64::NEG_INFINITY), i64::MIN);
        assert_eq!(convert(DType::I32, DType::I8, 200.0), -56.0);
        assert_eq!(convert(DType::I8, DType::I32, -5.0), -5.0);
        // 2^24 + 1 is a tie in f32: to even.
        assert_eq!(int_to_float(DType::F32, (1 << 24) + 1), (1 << 24) as f64);
        assert_eq!(int_to_float(DType::F32, (1 << 24) + 3), ((1 << 24) + 4) as f64);
        assert_eq!(int_to_float(DType::F16, 65520), f64::INFINITY);
        assert_eq!(int_to_float(DType::F16, 65519), 65504.0);
        // Just above a bf16 tie that f32 rounds onto the tie: up, not to even.
        let v = (1i64 << 24) + (1 << 16) + 1;
        assert_eq!(int_to_float(DType::BF16, v), ((1i64 << 24) + (1 << 17)) as f64);
        assert_eq!(int_to_float(DType::BF16, -v), -(((1i64 << 24) + (1 << 17)) as f64));
        // i64 -> f32 rounds once (through f64 it would round twice).
        let v = (1i64 << 62) + (1 << 38) + 1;
        assert_eq!(int_to_float(DType::F32, v), ((1i64 << 62) + (1 << 39)) as f64);
        // f64 -> f16 rounds once: just above a tie of f16 goes up (through f32 it would be the tie).
        let above_tie = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(round_float(DType::F16, above_tie), 1.0 + 2f64.powi(-10));
        assert_eq!(round_float(DType::F16, -above_tie), -1.0 - 2f64.powi(-10));
        assert_eq!(round_float(DType::F16, 1.0 + 2f64.powi(-11)), 1.0);
        assert_eq!(round_float(DType::F16, 2f64.powi(-30)), 0.0);
        assert_eq!(round_float(DType::F16, 65519.99), 65504.0);
        assert_eq!(round_float(DType::F16, 65520.0), f64::INFINITY);
        assert_eq!(round_float(DType::BF16, 1e300), f64::INFINITY);
        assert_eq!(round_float(DType::F16, f64::NEG_INFINITY), f64::NEG_INFINITY);
        assert_eq!(round_float(DType::BF16, 1.0 + 2f64.powi(-8) + 2f64.powi(-40)), 1.0 + 2f64.powi(-7));
        assert_eq!(round_float(DType::F16, 90000.0), f64::INFINITY);
        assert_eq!(round_float(DType::F16, -90000.0), f64::NEG_INFINITY);
        assert!(round_float(DType::BF16, f64::NAN).is_nan());
    }

    #[test]
    fn nan_propagates_through_max_and_min() {
        assert!(fmax(f64::NAN, 1.0).is_nan() && fmax(1.0, f64::NAN).is_nan());
        assert!(fmin(f64::NAN, 1.0).is_nan() && fmin(1.0, f64::NAN).is_nan());
        assert_eq!(fmax(-1.0, 2.0), 2.0);
    }
}
