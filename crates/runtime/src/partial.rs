//! Partial values: a tensor that is `partial` over device axes with reduction `kind` is held
//! as one shard per coordinate along those axes, and its value is the reduction of the shards.
//! [`split`] cuts one element into such shards (the inputs `fuser-run` hands to the ranks),
//! [`combine`] puts shards back together (partial outputs).
//!
//! The shards are random, so that a program that ignores the pending reduction, or applies
//! another one, gets a wrong value, and they combine to the value *exactly*, in any order:
//! - `sum`: same-signed integer multiples of one quantum, which add up without rounding: 1
//!   for integers, for floats the spacing of the element type at the value (every piece and
//!   every partial sum then has fewer significant bits than the type holds);
//! - `prod`: ±1 everywhere except one random coordinate, which holds ±value, with an even
//!   number of minus signs;
//! - `max` (`min`): the value at one random coordinate, values at most (at least) it
//!   elsewhere.
//!
//! Whatever the input (huge integers, infinities, NaN), a split that would not be exact is
//! never returned: such a value is held whole by one coordinate and the others hold the
//! reduction's neutral element (sum: 0, prod: 1, min/max: the value itself).

use crate::dtype::{DType, round_to};
use crate::rng::XorShift;
use fuser_dialects::reduction::ReductionKind;

/// `n` shards of `value` (a value of `dtype`) whose reduction under `kind` is `value`, drawn
/// from `rng`.
pub fn split(kind: ReductionKind, dtype: DType, value: f64, n: usize, rng: &mut XorShift) -> Vec<f64> {
    if n <= 1 {
        return vec![value; n];
    }
    let shards = match kind {
        ReductionKind::Sum => split_sum(dtype, value, n, rng),
        ReductionKind::Prod => split_prod(dtype, value, n, rng),
        ReductionKind::Max => split_extremum(dtype, value, n, rng, 1.0),
        ReductionKind::Min => split_extremum(dtype, value, n, rng, -1.0),
    };
    match shards {
        Some(s) if is_exact_split(kind, dtype, value, &s) => s,
        _ => whole_at_first(kind, value, n),
    }
}

/// The reduction of `shards` under `kind`, in order (`None` for no shards).
pub fn combine(kind: ReductionKind, shards: impl IntoIterator<Item = f64>) -> Option<f64> {
    shards.into_iter().reduce(|a, b| kind.combine(a, b))
}

/// Whether every shard is a value of `dtype` and they combine to `value` (bit for bit, NaN
/// aside).
fn is_exact_split(kind: ReductionKind, dtype: DType, value: f64, shards: &[f64]) -> bool {
    let representable = shards.iter().all(|&s| round_to(dtype, s) == s);
    let combined = combine(kind, shards.iter().copied());
    representable && combined.is_some_and(|c| c == value || (c.is_nan() && value.is_nan()))
}

/// `value` at coordinate 0, the reduction's neutral element elsewhere.
fn whole_at_first(kind: ReductionKind, value: f64, n: usize) -> Vec<f64> {
    let other = match kind {
        ReductionKind::Sum => 0.0,
        ReductionKind::Prod => 1.0,
        ReductionKind::Max | ReductionKind::Min => value,
    };
    (0..n).map(|i| if i == 0 { value } else { other }).collect()
}

/// A random index below `n` (`n > 0`).
fn below(rng: &mut XorShift, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// The significand bits and the smallest normal exponent of a float type.
fn float_format(dtype: DType) -> Option<(i32, i32)> {
    match dtype {
        DType::BF16 => Some((8, -126)),
        DType::F16 => Some((11, -14)),
        DType::F32 => Some((24, -126)),
        DType::F64 => Some((53, -1022)),
        DType::I8 | DType::I16 | DType::I32 | DType::I64 | DType::I1 => None,
    }
}

/// 2^k for `-1074 <= k <= 1023` (exact, subnormals included).
fn pow2(k: i32) -> f64 {
    if k >= -1022 { f64::from_bits(((k + 1023) as u64) << 52) } else { f64::from_bits(1u64 << (k + 1074).max(0)) }
}

/// The spacing of `dtype`'s values at `|value|` (1 for integers): `value` is an integer
/// multiple of it below 2^(significand bits).
fn quantum(dtype: DType, value: f64) -> f64 {
    let Some((bits, min_exp)) = float_format(dtype) else { return 1.0 };
    let exp = ((value.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    pow2(exp.max(min_exp) - bits + 1)
}

/// `value` = Σ kᵢ·q with random same-signed integers kᵢ (q: [`quantum`]).
fn split_sum(dtype: DType, value: f64, n: usize, rng: &mut XorShift) -> Option<Vec<f64>> {
    if !value.is_finite() {
        return None;
    }
    let q = quantum(dtype, value);
    let units = value.abs() / q;
    if units.fract() != 0.0 || units >= 2f64.powi(63) {
        return None;
    }
    let m = units as u64;
    // n - 1 random cuts of [0, m]; the pieces are the gaps between them.
    let mut cuts: Vec<u64> = (1..n).map(|_| rng.next_u64() % (m + 1)).collect();
    cuts.sort_unstable();
    let bounds: Vec<u64> = std::iter::once(0).chain(cuts).chain(std::iter::once(m)).collect();
    let sign = value.signum();
    Some(bounds.windows(2).map(|w| sign * (w[1] - w[0]) as f64 * q).collect())
}

/// ±1 everywhere but at a random coordinate, which holds ±`value`; the signs multiply to 1.
fn split_prod(dtype: DType, value: f64, n: usize, rng: &mut XorShift) -> Option<Vec<f64>> {
    let holder = below(rng, n);
    let mut shards: Vec<f64> = (0..n).map(|_| if rng.next_u64() & 1 == 1 { -1.0 } else { 1.0 }).collect();
    let others: f64 = shards.iter().enumerate().filter(|&(i, _)| i != holder).map(|(_, s)| s).product();
    shards[holder] = value * others;
    if round_to(dtype, shards[holder]) != shards[holder] {
        // -value does not fit (the most negative integer): no sign flips.
        return Some((0..n).map(|i| if i == holder { value } else { 1.0 }).collect());
    }
    Some(shards)
}

/// `value` at a random coordinate; elsewhere values on the side of it that `direction` (1:
/// below, for max; -1: above, for min) says, never crossing it.
fn split_extremum(dtype: DType, value: f64, n: usize, rng: &mut XorShift, direction: f64) -> Option<Vec<f64>> {
    if !value.is_finite() {
        return None;
    }
    let holder = below(rng, n);
    let shards = (0..n)
        .map(|i| {
            if i == holder {
                return value;
            }
            let gap = if dtype.is_float() {
                rng.next_signed_unit().abs() * (1.0 + value.abs())
            } else {
                (rng.next_u64() % 9) as f64
            };
            let other = round_to(dtype, value - direction * gap);
            // Rounding never crosses `value` (a value of the type), but it may overflow to an
            // infinity; integer conversion saturates.
            if other.is_finite() && (value - other) * direction >= 0.0 { other } else { value }
        })
        .collect();
    Some(shards)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of every kind a tensor of `dtype` may hold: seeded random ones, zero, extremes
    /// of the range, and for floats tiny and subnormal ones.
    fn sample_values(dtype: DType) -> Vec<f64> {
        let mut v: Vec<f64> = crate::tensor::HostTensor::random(dtype, &[64], 3).data;
        v.extend([0.0, 1.0, -1.0]);
        match dtype {
            DType::I8 => v.extend([127.0, -128.0]),
            DType::I16 => v.extend([32767.0, -32768.0]),
            DType::I32 => v.extend([2147483647.0, -2147483648.0]),
            DType::I64 => v.extend([9007199254740992.0, -9223372036854775808.0]),
            DType::I1 => v.retain(|&x| x == 0.0 || x == 1.0),
            DType::BF16 | DType::F16 | DType::F32 | DType::F64 => {
                for x in [65504.0, 1.0e-3, 3.0e38, 1.0e-40, 6.0e-8, 1.0e300, 5.0e-324, 0.1, -7.5e-5] {
                    let r = round_to(dtype, x);
                    if r.is_finite() {
                        v.extend([r, -r]);
                    }
                }
            }
        }
        v
    }

    #[test]
    fn every_reduction_and_dtype_splits_into_shards_that_combine_to_the_value() {
        let mut rng = XorShift::new(11);
        for kind in ReductionKind::ALL {
            for dtype in DType::ALL {
                for value in sample_values(dtype) {
                    for n in [2, 3, 4, 8] {
                        let shards = split(kind, dtype, value, n, &mut rng);
                        let what = format!("{} of {value} ({}) into {n}: {shards:?}", kind.keyword(), dtype.name());
                        assert_eq!(shards.len(), n, "{what}");
                        assert!(shards.iter().all(|&s| round_to(dtype, s) == s), "not of the type: {what}");
                        // Any order of combination gives the value.
                        assert_eq!(combine(kind, shards.iter().copied()), Some(value), "{what}");
                        assert_eq!(combine(kind, shards.iter().rev().copied()), Some(value), "{what}");
                    }
                }
            }
        }
    }

    /// Over many random values, the splits really use the reduction: they are not the value
    /// at one coordinate with neutral elements elsewhere, nor copies of the value.
    #[test]
    fn splits_exercise_the_reduction() {
        let mut rng = XorShift::new(5);
        for kind in ReductionKind::ALL {
            // A boolean (0 or 1) has no split but value-and-neutral or copies.
            for dtype in DType::ALL.into_iter().filter(|&d| d != DType::I1) {
                let values: Vec<f64> = crate::tensor::HostTensor::random(dtype, &[256], 9)
                    .data
                    .into_iter()
                    .filter(|&v| v != 0.0)
                    .collect();
                let (mut trivial, mut holders) = (0, [0usize; 4]);
                for &value in &values {
                    let shards = split(kind, dtype, value, 4, &mut rng);
                    if shards == whole_at_first(kind, value, 4) || shards.iter().all(|&s| s == value) {
                        trivial += 1;
                    }
                    if let Some(h) = shards.iter().position(|&s| s == value) {
                        holders[h] += 1;
                    }
                }
                let what = format!("{} over {}", kind.keyword(), dtype.name());
                assert!(trivial * 4 < values.len(), "{what}: {trivial} of {} splits are trivial", values.len());
                if kind != ReductionKind::Sum {
                    assert!(holders.iter().all(|&h| h > 0), "{what}: the value sits at coordinates {holders:?}");
                }
            }
        }
    }

    #[test]
    fn values_without_an_exact_split_are_held_whole() {
        let mut rng = XorShift::new(1);
        assert_eq!(split(ReductionKind::Sum, DType::F32, f64::INFINITY, 3, &mut rng), vec![f64::INFINITY, 0.0, 0.0]);
        let nan = split(ReductionKind::Max, DType::F32, f64::NAN, 2, &mut rng);
        assert!(nan.iter().all(|v| v.is_nan()));
        assert_eq!(split(ReductionKind::Prod, DType::I8, -128.0, 1, &mut rng), vec![-128.0]);
        assert!(split(ReductionKind::Sum, DType::F32, 2.5, 0, &mut rng).is_empty());
    }

    #[test]
    fn quantum_is_the_spacing_of_the_type() {
        assert_eq!(quantum(DType::F32, 1.0), f64::from(f32::EPSILON));
        assert_eq!(quantum(DType::F32, 1.5), f64::from(f32::EPSILON));
        assert_eq!(quantum(DType::BF16, 3.0), 2.0 / 128.0);
        assert_eq!(quantum(DType::F16, 0.0), pow2(-24));
        assert_eq!(quantum(DType::F64, 5.0e-324), 5.0e-324);
        assert_eq!(quantum(DType::I32, 7.0), 1.0);
    }
}
