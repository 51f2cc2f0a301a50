//! Tests of `ApFloat`: `f32`/`f64` arithmetic against the hardware on random bit patterns,
//! `f16`/`bf16` against `f64` arithmetic rounded once, and edge cases of the other formats.

use super::*;
use FloatKind::*;

const RNE: RoundingMode = RoundingMode::NearestTiesToEven;

use crate::test_rng::Rng;

impl Rng {
    /// Random bits biased towards the interesting classes (zeros, subnormals, infinities,
    /// NaNs, nearby exponents).
    fn pattern(&mut self, width: u32, frac: u32) -> u128 {
        let r = self.next() as u128 | (self.next() as u128) << 64;
        let sign = r >> 127 << (width - 1);
        let exp_mask = mask(width - 1 - frac) << frac;
        match self.next() % 8 {
            0 => sign,                                         // zero
            1 => sign | (r & mask(frac)),                      // subnormal
            2 => sign | exp_mask,                              // infinity
            3 => sign | exp_mask | (r & mask(frac)).max(1),    // NaN
            4 => (r & mask(width)) & !(mask(4) << (frac + 3)), // exponents near the middle
            _ => r & mask(width),
        }
    }
}

fn same_f64(kind: FloatKind, got: u128, want: f64) -> bool {
    let g = ApFloat::from_bits(kind, got).unwrap();
    if want.is_nan() {
        return g.is_nan();
    }
    let w = ApFloat::from_bits(F64, want.to_bits() as u128).unwrap().convert(kind, RNE).0;
    g.to_bits() == w.to_bits()
}

#[test]
fn f64_matches_hardware() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..200_000 {
        let (a, b) = (rng.pattern(64, 52) as u64, rng.pattern(64, 52) as u64);
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let (p, q) = (ApFloat::from_bits(F64, a as u128).unwrap(), ApFloat::from_bits(F64, b as u128).unwrap());
        let cases = [
            ("add", p.add(&q, RNE).0, x + y),
            ("sub", p.sub(&q, RNE).0, x - y),
            ("mul", p.mul(&q, RNE).0, x * y),
            ("div", p.div(&q, RNE).0, x / y),
            ("rem", p.rem(&q).0, x % y),
        ];
        for (op, got, want) in cases {
            let ok = if want.is_nan() { got.is_nan() } else { got.to_bits() == want.to_bits() as u128 };
            assert!(ok, "{op} {x:e} ({a:#x}) {y:e} ({b:#x}): got {:#x}, want {:#x}", got.to_bits(), want.to_bits());
        }
        assert_eq!(p.compare(&q), x.partial_cmp(&y), "{x} {y}");
        assert_eq!(p.neg().to_bits(), (-x).to_bits() as u128);
    }
}

#[test]
fn f32_matches_hardware() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for _ in 0..200_000 {
        let (a, b) = (rng.pattern(32, 23) as u32, rng.pattern(32, 23) as u32);
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        let (p, q) = (ApFloat::from_bits(F32, a as u128).unwrap(), ApFloat::from_bits(F32, b as u128).unwrap());
        let cases = [
            ("add", p.add(&q, RNE).0, x + y),
            ("sub", p.sub(&q, RNE).0, x - y),
            ("mul", p.mul(&q, RNE).0, x * y),
            ("div", p.div(&q, RNE).0, x / y),
            ("rem", p.rem(&q).0, x % y),
        ];
        for (op, got, want) in cases {
            let ok = if want.is_nan() { got.is_nan() } else { got.to_bits() == want.to_bits() as u128 };
            assert!(ok, "{op} {x:e} ({a:#x}) {y:e} ({b:#x}): got {:#x}, want {:#x}", got.to_bits(), want.to_bits());
        }
        // f32 -> f64 -> f32 round trip and f64 -> f32 rounding against `as`.
        let wide = p.convert(F64, RNE).0;
        if !x.is_nan() {
            assert_eq!(wide.to_bits(), (x as f64).to_bits() as u128);
        }
        let d = f64::from_bits(rng.pattern(64, 52) as u64);
        let n = ApFloat::from_bits(F64, d.to_bits() as u128).unwrap().convert(F32, RNE).0;
        if !d.is_nan() {
            assert_eq!(n.to_bits(), (d as f32).to_bits() as u128, "{d:e}");
        }
        // Integers to floats against `as`.
        let i = rng.next() as i64 >> (rng.next() % 64);
        let v = ApFloat::from_apint(F32, &ApInt::from_i128(64, i as i128), true, RNE).unwrap().0;
        assert_eq!(v.to_bits(), (i as f32).to_bits() as u128, "{i}");
        let u = ApFloat::from_apint(F64, &ApInt::from_i128(64, i as i128), false, RNE).unwrap().0;
        assert_eq!(u.to_bits(), (i as u64 as f64).to_bits() as u128, "{i}");
        // Floats to integers toward zero, in range.
        if x.is_finite() && x.abs() < 9.0e18 {
            let (got, _) = p.to_apint_toward_zero(64, true).unwrap();
            assert_eq!(got.to_i64(), Some(x as i64), "{x}");
        }
    }
}

#[test]
fn half_and_bfloat_match_f64_rounded_once() {
    let mut rng = Rng(42);
    for (kind, frac) in [(F16, 10), (BF16, 7)] {
        for _ in 0..50_000 {
            let (a, b) = (rng.pattern(16, frac), rng.pattern(16, frac));
            let (p, q) = (ApFloat::from_bits(kind, a).unwrap(), ApFloat::from_bits(kind, b).unwrap());
            let wide = |v: &ApFloat| f64::from_bits(v.convert(F64, RNE).0.to_bits() as u64);
            let (x, y) = (wide(&p), wide(&q));
            for (op, got, want) in [
                ("add", p.add(&q, RNE).0, x + y),
                ("sub", p.sub(&q, RNE).0, x - y),
                ("mul", p.mul(&q, RNE).0, x * y),
                ("div", p.div(&q, RNE).0, x / y),
                ("rem", p.rem(&q).0, x % y),
            ] {
                assert!(same_f64(kind, got.to_bits(), want), "{kind:?} {op} {a:#x} {b:#x}: got {:#x}", got.to_bits());
            }
        }
    }
}

fn bits(kind: FloatKind, v: u128) -> ApFloat {
    ApFloat::from_bits(kind, v).unwrap()
}

#[test]
fn wide_formats() {
    // 1/3 in f80 and f128.
    let third = |k| {
        let one = ApFloat::from_apint(k, &ApInt::from_i128(8, 1), true, RNE).unwrap().0;
        let three = ApFloat::from_apint(k, &ApInt::from_i128(8, 3), true, RNE).unwrap().0;
        one.div(&three, RNE).0.to_bits()
    };
    assert_eq!(third(F80), 0x3FFD_AAAA_AAAA_AAAA_AAAB);
    assert_eq!(third(F128), 0x3FFD_5555_5555_5555_5555_5555_5555_5555);
    // f128 max + max overflows to infinity; the smallest subnormal halves to zero.
    let max = bits(F128, 0x7FFE_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF);
    assert_eq!(max.add(&max, RNE), (bits(F128, 0x7FFF << 112), Status::OVERFLOW.or(Status::INEXACT)));
    let tiny = bits(F80, 1);
    let two = ApFloat::from_apint(F80, &ApInt::from_i128(8, 2), true, RNE).unwrap().0;
    assert!(tiny.div(&two, RNE).0.is_zero());
    // i256 -> f128 rounds; f128 -> i200 truncates.
    let big = ApInt::parse_unsigned(&"9".repeat(70), 256).unwrap();
    let f = ApFloat::from_apint(F128, &big, false, RNE).unwrap().0;
    let (back, exact) = f.to_apint_toward_zero(256, false).unwrap();
    // 10^70 - 1 is not an f128; its nearest f128 is an integer within 2^-113 of it.
    assert!(exact && back != big);
    assert!(
        back.to_string_unsigned().starts_with("99999999999999999999999999999999")
            || back.to_string_unsigned().starts_with("1000000000000000000000000000000000")
    );
    assert!(f.to_apint_toward_zero(200, true).is_none());
    // The default NaN of f80 has its integer bit.
    assert_eq!(ApFloat::nan(F80, false).unwrap().to_bits(), 0x7FFF_C000_0000_0000_0000);
}

#[test]
fn eight_bit_formats() {
    let one = |k| bits(k, ApFloat::from_apint(k, &ApInt::from_i128(8, 1), true, RNE).unwrap().0.to_bits());
    // f8E4M3FN: 448 is the largest; 448 + 32 rounds to NaN (no infinity).
    let max = bits(F8E4M3FN, 0x7E);
    let r = max.add(&bits(F8E4M3FN, 0x5C), RNE).0; // + 32
    assert_eq!(r.to_bits(), 0x7F);
    assert!(bits(F8E4M3FN, 0xFF).is_nan() && !bits(F8E4M3FN, 0xFF).is_signaling());
    // FNUZ: 0x80 is the NaN, zero has no sign, 1/0 is NaN, x - x is +0.
    assert!(bits(F8E5M2FNUZ, 0x80).is_nan());
    let o = one(F8E5M2FNUZ);
    let z = ApFloat::zero(F8E5M2FNUZ, false).unwrap();
    assert_eq!(o.div(&z, RNE).0.to_bits(), 0x80);
    assert_eq!(o.sub(&o, RNE).0.to_bits(), 0);
    assert_eq!(z.neg().to_bits(), 0);
    assert_eq!(o.neg().neg(), o);
    assert_eq!(ApFloat::nan(F8E4M3B11FNUZ, false).unwrap().to_bits(), 0x80);
    // f8E5M2 is IEEE-like: overflow to infinity, 0/0 the positive quiet NaN.
    let m = bits(F8E5M2, 0x7B);
    assert_eq!(m.mul(&m, RNE).0.to_bits(), 0x7C);
    let z = ApFloat::zero(F8E5M2, false).unwrap();
    assert_eq!(z.div(&z, RNE).0.to_bits(), 0x7E);
    // Infinity to a format without one becomes NaN and loses information.
    let inf = bits(F16, 0x7C00);
    assert_eq!(inf.convert(F8E4M3FNUZ, RNE).0.to_bits(), 0x80);
    // Converting a FNUZ NaN to f16 gives the default NaN; an FN NaN keeps its payload.
    assert_eq!(bits(F8E4M3FNUZ, 0x80).convert(F16, RNE).0.to_bits(), 0x7E00);
    assert_eq!(bits(F8E4M3FN, 0x7F).convert(F16, RNE).0.to_bits(), 0x7F80);
    // tf32 rounds to 10 fraction bits.
    let t = ApFloat::from_apint(TF32, &ApInt::from_i128(16, 2049), true, RNE).unwrap().0;
    assert_eq!(t.to_bits(), (0x4500_0000u128) >> 13);
}

#[test]
fn min_max_and_rounding_modes() {
    let (pz, nz) = (bits(F32, 0), bits(F32, 0x8000_0000));
    assert_eq!(pz.maximum(&nz).to_bits(), 0);
    assert_eq!(pz.minimum(&nz).to_bits(), 0x8000_0000);
    assert_eq!(pz.minnum(&nz).to_bits(), 0x8000_0000);
    assert_eq!(nz.maxnum(&pz).to_bits(), 0);
    let nan = bits(F32, 0x7FC0_0001);
    let two = bits(F32, 2.0f32.to_bits() as u128);
    assert_eq!(nan.maxnum(&two), two);
    assert_eq!(two.minnum(&nan), two);
    assert_eq!(two.maximum(&nan), nan);
    // 1 + 2^-30 in f32 with each mode.
    let one = bits(F32, 1.0f32.to_bits() as u128);
    let eps = bits(F32, 2f32.powi(-30).to_bits() as u128);
    assert_eq!(one.add(&eps, RoundingMode::TowardPositive).0.to_bits(), 0x3F80_0001);
    assert_eq!(one.add(&eps, RoundingMode::TowardZero).0.to_bits(), 0x3F80_0000);
    assert_eq!(one.neg().sub(&eps, RoundingMode::TowardNegative).0.to_bits(), 0xBF80_0001);
    // x - x is -0 rounding downward.
    assert_eq!(one.sub(&one, RoundingMode::TowardNegative).0.to_bits(), 0x8000_0000);
}
