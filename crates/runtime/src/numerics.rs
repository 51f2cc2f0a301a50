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
//!   and min, as `arith.maximumf` and `torch.maximum`; `+0 > -0`);
//! - the math functions (`exp` ... `gelu`, `pow`) follow torch and C's libm at NaN, infinities
//!   and outside their domain (`log(-1) = NaN`, `rsqrt(-0) = -inf`, `pow(NaN, 0) = 1`);
//!   comparisons are ordered (a NaN operand: false, but `ne` true) and give 0/1; `where` copies;
//! - `i1` holds 0 or 1: storing any value keeps `x != 0` (casts to i1: NaN gives 1), integer
//!   arithmetic on it wraps to `x != 0`.

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
        DType::I1 => (v != 0) as i64,
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
        DType::I1 => (v != 0.0) as i64,
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

/// NaN-propagating maximum and minimum (`arith.maximumf`, `torch.maximum`); `+0` is larger
/// than `-0`.
#[inline]
pub fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == b {
        if a.is_sign_negative() { b } else { a }
    } else {
        a.max(b)
    }
}

#[inline]
pub fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == b {
        if a.is_sign_negative() { a } else { b }
    } else {
        a.min(b)
    }
}

/// The scalar function of an elementwise kind on integers of `dtype` (operands are values of
/// `dtype`; the result is wrapped to it). `cast` is the identity (the store converts); a
/// comparison gives 0 or 1 (signed order); `where` is `x != 0 ? y : z` (`z` is only read by
/// `where`). The float-only kinds (`exp` ... `pow`) have no integer form: the verifiers refuse
/// them, and here they give `x` unchanged.
#[inline]
pub fn int_elementwise(kind: ElementwiseKind, dtype: DType, x: i64, y: i64, z: i64) -> i64 {
    use ElementwiseKind::*;
    let r = match kind {
        Add => x.wrapping_add(y),
        Sub => x.wrapping_sub(y),
        Mul => x.wrapping_mul(y),
        Div => int_div(x, y),
        Max => x.max(y),
        Min => x.min(y),
        Neg => x.wrapping_neg(),
        Abs => x.wrapping_abs(),
        Eq => (x == y) as i64,
        Ne => (x != y) as i64,
        Lt => (x < y) as i64,
        Le => (x <= y) as i64,
        Gt => (x > y) as i64,
        Ge => (x >= y) as i64,
        Where => return if x != 0 { y } else { z },
        Cast | Exp | Log | Tanh | Erf | Sqrt | Rsqrt | Sigmoid | Reciprocal | Silu | Gelu | GeluTanh | Pow => x,
    };
    if kind.is_compare() { r } else { wrap(dtype, r) }
}

/// `sqrt(2 / pi)`, the constant of gelu's tanh approximation.
pub const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;

/// The error function (libm's, the FreeBSD msun implementation: below 1 ulp in `f64`).
#[inline]
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// `gelu(x)` with `approximate = "none"`: `x * (1 + erf(x / sqrt(2))) / 2` (torch's formula:
/// `gelu(-inf)` is NaN, `-inf * 0`).
#[inline]
pub fn gelu(x: f64) -> f64 {
    x * 0.5 * (1.0 + erf(x * std::f64::consts::FRAC_1_SQRT_2))
}

/// `gelu(x)` with `approximate = "tanh"`: `x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2`.
#[inline]
pub fn gelu_tanh(x: f64) -> f64 {
    0.5 * x * (1.0 + (SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)).tanh())
}

/// The scalar function of an elementwise kind on floats, in `f64` before the caller rounds
/// (`cast` is the identity: the store converts). The math kinds follow torch (and C's libm):
/// `log(0) = -inf`, `log(x < 0) = NaN`, `rsqrt(-0) = -inf`, `sigmoid(±inf) = 1, 0`,
/// `silu(-inf) = NaN` (`-inf / inf`), `pow` as C's `pow` (`pow(NaN, 0) = 1`). A comparison
/// gives 1.0 or 0.0, ordered (NaN: false, but `ne` true); `where` is `x != 0 ? y : z` (`z` is
/// only read by `where`).
#[inline]
pub fn float_elementwise(kind: ElementwiseKind, x: f64, y: f64, z: f64) -> f64 {
    use ElementwiseKind::*;
    let truth = |b: bool| if b { 1.0 } else { 0.0 };
    match kind {
        Add => x + y,
        Sub => x - y,
        Mul => x * y,
        Div => x / y,
        Max => fmax(x, y),
        Min => fmin(x, y),
        Neg => -x,
        Cast => x,
        Exp => x.exp(),
        Log => x.ln(),
        Tanh => x.tanh(),
        Erf => erf(x),
        Sqrt => x.sqrt(),
        Rsqrt => 1.0 / x.sqrt(),
        Sigmoid => 1.0 / (1.0 + (-x).exp()),
        Abs => x.abs(),
        Reciprocal => 1.0 / x,
        Silu => x / (1.0 + (-x).exp()),
        Gelu => gelu(x),
        GeluTanh => gelu_tanh(x),
        Pow => x.powf(y),
        Eq => truth(x == y),
        Ne => truth(x != y),
        Lt => truth(x < y),
        Le => truth(x <= y),
        Gt => truth(x > y),
        Ge => truth(x >= y),
        Where => {
            if x != 0.0 {
                y
            } else {
                z
            }
        }
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
        assert_eq!(int_elementwise(ElementwiseKind::Add, DType::I8, 100, 100, 0), -56);
        assert_eq!(int_elementwise(ElementwiseKind::Mul, DType::I16, 300, 300, 0), 90000i64 as i16 as i64);
        assert_eq!(int_elementwise(ElementwiseKind::Neg, DType::I8, -128, 0, 0), -128);
        assert_eq!(int_elementwise(ElementwiseKind::Sub, DType::I64, i64::MIN, 1, 0), i64::MAX);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, 7, 2, 0), 3);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, -7, 2, 0), -3);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, 7, -2, 0), -3);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, 5, 0, 0), -1);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I32, i32::MIN as i64, -1, 0), i32::MIN as i64);
        assert_eq!(int_elementwise(ElementwiseKind::Div, DType::I64, i64::MIN, -1, 0), i64::MIN);
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

    /// erf against known values (Abramowitz and Stegun, table 7.1; erf(3) from its series).
    #[test]
    fn erf_matches_known_values() {
        for (x, want) in [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
        ] {
            assert!((erf(x) - want).abs() <= 1e-15, "erf({x}) = {}, want {want}", erf(x));
            assert!((erf(-x) + want).abs() <= 1e-15, "erf is odd at {x}");
        }
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert_eq!(erf(f64::NEG_INFINITY), -1.0);
        assert!(erf(f64::NAN).is_nan());
        // gelu(1) = 0.5 (1 + erf(1/sqrt 2)) = 0.8413447460685429 (torch), the tanh form 0.8411919906082768.
        assert!((gelu(1.0) - 0.841_344_746_068_542_9).abs() < 1e-15);
        assert!((gelu_tanh(1.0) - 0.841_191_990_608_276_8).abs() < 1e-15);
    }

    #[test]
    fn math_kinds_follow_torch_at_nan_and_infinities() {
        use ElementwiseKind::*;
        let f = |k, x| float_elementwise(k, x, 0.0, 0.0);
        let (inf, nan) = (f64::INFINITY, f64::NAN);
        for k in ElementwiseKind::ALL.into_iter().filter(|k| k.arity() == 1 && *k != Cast) {
            assert!(f(k, nan).is_nan(), "{} of NaN", k.keyword());
        }
        assert_eq!((f(Exp, -inf), f(Exp, inf), f(Exp, 1000.0)), (0.0, inf, inf));
        assert_eq!((f(Log, 0.0), f(Log, inf)), (-inf, inf));
        assert!(f(Log, -1.0).is_nan() && f(Sqrt, -1.0).is_nan() && f(Rsqrt, -1.0).is_nan());
        assert_eq!((f(Tanh, inf), f(Tanh, -inf)), (1.0, -1.0));
        assert_eq!((f(Rsqrt, 0.0), f(Rsqrt, -0.0), f(Rsqrt, inf), f(Rsqrt, 4.0)), (inf, -inf, 0.0, 0.5));
        assert_eq!((f(Sigmoid, inf), f(Sigmoid, -inf), f(Sigmoid, 0.0)), (1.0, 0.0, 0.5));
        assert_eq!((f(Reciprocal, 0.0), f(Reciprocal, -0.0), f(Reciprocal, 4.0)), (inf, -inf, 0.25));
        assert_eq!((f(Silu, inf), f(Silu, -1000.0)), (inf, -0.0));
        assert!(f(Silu, -inf).is_nan() && f(Gelu, -inf).is_nan() && f(GeluTanh, -inf).is_nan());
        assert_eq!((f(Gelu, inf), f(GeluTanh, inf), f(Gelu, 0.0)), (inf, inf, 0.0));
        assert_eq!((f(Abs, -0.0).to_bits(), f(Abs, -inf)), (0, inf));
        let p = |x, y| float_elementwise(Pow, x, y, 0.0);
        assert_eq!((p(nan, 0.0), p(1.0, nan), p(0.0, -1.0), p(2.0, 10.0)), (1.0, 1.0, inf, 1024.0));
        assert!(p(-8.0, 1.0 / 3.0).is_nan());
        assert_eq!(p(-2.0, 3.0), -8.0);
    }

    #[test]
    fn comparisons_are_ordered_and_where_selects() {
        use ElementwiseKind::*;
        let c = |k, x, y| float_elementwise(k, x, y, 0.0);
        let nan = f64::NAN;
        for k in [Eq, Lt, Le, Gt, Ge] {
            assert_eq!((c(k, nan, 1.0), c(k, 1.0, nan), c(k, nan, nan)), (0.0, 0.0, 0.0), "{}", k.keyword());
        }
        assert_eq!((c(Ne, nan, 1.0), c(Ne, nan, nan), c(Ne, 1.0, 1.0)), (1.0, 1.0, 0.0));
        assert_eq!((c(Eq, -0.0, 0.0), c(Lt, -1.0, 2.0), c(Ge, 2.0, 2.0), c(Gt, 2.0, 2.0)), (1.0, 1.0, 1.0, 0.0));
        assert_eq!(
            (float_elementwise(Where, 1.0, nan, 2.0).is_nan(), float_elementwise(Where, 0.0, nan, 2.0)),
            (true, 2.0)
        );
        // Integers: signed order, 0/1 results, never wrapped to the operand type.
        assert_eq!(int_elementwise(Lt, DType::I8, -128, 127, 0), 1);
        assert_eq!(int_elementwise(Ge, DType::I64, i64::MIN, i64::MAX, 0), 0);
        assert_eq!(int_elementwise(Where, DType::I32, 1, 7, 9), 7);
        assert_eq!(int_elementwise(Where, DType::I32, 0, 7, 9), 9);
        // abs wraps: abs(MIN) = MIN.
        assert_eq!(int_elementwise(Abs, DType::I8, -128, 0, 0), -128);
        assert_eq!(int_elementwise(Abs, DType::I64, i64::MIN, 0, 0), i64::MIN);
        assert_eq!(int_elementwise(Abs, DType::I32, -5, 0, 0), 5);
        // i1 arithmetic keeps x != 0; casts to i1 are x != 0 (NaN true).
        assert_eq!(wrap(DType::I1, 2), 1);
        assert_eq!(
            (float_to_int(DType::I1, nan), float_to_int(DType::I1, -0.0), float_to_int(DType::I1, 0.25)),
            (1, 0, 1)
        );
        assert_eq!((convert(DType::I32, DType::I1, -3.0), convert(DType::I1, DType::F32, 1.0)), (1.0, 1.0));
    }

    /// bf16 results of the math kinds: computed wide, rounded once to bf16 (to nearest even).
    #[test]
    fn math_results_round_to_the_element_type() {
        let e = round_float(DType::BF16, float_elementwise(ElementwiseKind::Exp, 1.0, 0.0, 0.0));
        // e = 2.71828...; bf16 neighbours 2.703125 and 2.71875: the nearest is 2.71875.
        assert_eq!(e, 2.71875);
        let r = round_float(DType::F16, float_elementwise(ElementwiseKind::Reciprocal, 3.0, 0.0, 0.0));
        assert_eq!(r, 0.333_251_953_125);
        assert_eq!(round_float(DType::F16, float_elementwise(ElementwiseKind::Exp, 12.0, 0.0, 0.0)), f64::INFINITY);
    }

    #[test]
    fn nan_propagates_through_max_and_min() {
        assert!(fmax(f64::NAN, 1.0).is_nan() && fmax(1.0, f64::NAN).is_nan());
        assert!(fmin(f64::NAN, 1.0).is_nan() && fmin(1.0, f64::NAN).is_nan());
        assert_eq!(fmax(-1.0, 2.0), 2.0);
        for (a, b) in [(-0.0, 0.0), (0.0, -0.0)] {
            assert_eq!((fmax(a, b).to_bits(), fmin(a, b).to_bits()), (0, (-0.0f64).to_bits()), "{a} {b}");
        }
    }
}
