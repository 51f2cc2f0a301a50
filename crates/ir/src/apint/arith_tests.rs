//! Unit tests of the [`ApInt`] arithmetic: random cross-checks against `u128`/`i128` for
//! widths up to 128, and algebraic identities for wider values.

use super::ApInt;

use crate::test_rng::Rng;

impl Rng {
    /// A value of `width` bits: random words, sometimes with long runs of zeros or ones and
    /// sometimes an edge value.
    fn value(&mut self, width: u32) -> ApInt {
        let n = (width as usize).div_ceil(64);
        let kind = self.next() % 8;
        let r = match kind {
            0 => ApInt::zero(width),
            1 => ApInt::one(width),
            2 => ApInt::all_ones(width),
            3 => ApInt::signed_min(width),
            4 => ApInt::signed_max(width),
            _ => {
                let words = (0..n).map(|_| self.next()).collect();
                let v = ApInt::from_words(width, words);
                // Shorten it sometimes so divisors with few words occur.
                v.lshr((self.next() % width as u64) as u32)
            }
        };
        if self.next().is_multiple_of(4) { r.negate() } else { r }
    }
}

const SMALL: [u32; 12] = [1, 7, 8, 31, 33, 63, 64, 65, 100, 127, 128, 2];
const WIDE: [u32; 8] = [129, 192, 256, 300, 512, 1000, 1024, 4097];

fn u(v: &ApInt) -> u128 {
    v.low_u128()
}

fn s(v: &ApInt) -> i128 {
    v.to_i128().unwrap()
}

fn mask(w: u32) -> u128 {
    if w == 128 { u128::MAX } else { (1u128 << w) - 1 }
}

fn ap(w: u32, bits: u128) -> ApInt {
    ApInt::from_u128(w, bits)
}

#[test]
fn arithmetic_matches_u128_and_i128() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let w = SMALL[(rng.next() % SMALL.len() as u64) as usize];
        let (a, b) = (rng.value(w), rng.value(w));
        let (x, y, m) = (u(&a), u(&b), mask(w));
        assert_eq!(u(&a.add(&b)), x.wrapping_add(y) & m, "{a:?} + {b:?}");
        assert_eq!(a.overflowing_add(&b).1, x.checked_add(y).is_none_or(|t| t > m), "carry {a:?} {b:?}");
        assert_eq!(u(&a.sub(&b)), x.wrapping_sub(y) & m);
        assert_eq!(u(&a.mul(&b)), x.wrapping_mul(y) & m, "{a:?} * {b:?}");
        assert_eq!(u(&a.and(&b)), x & y);
        assert_eq!(u(&a.or(&b)), x | y);
        assert_eq!(u(&a.xor(&b)), x ^ y);
        assert_eq!(u(&a.not()), !x & m);
        assert_eq!(a.ult(&b), x < y);
        assert_eq!(a.ule(&b), x <= y);
        let (sx, sy) = (s(&a), s(&b));
        assert_eq!(a.slt(&b), sx < sy);
        assert_eq!(a.sle(&b), sx <= sy);
        assert_eq!(a.udiv(&b).map(|q| u(&q)), x.checked_div(y));
        assert_eq!(a.urem(&b).map(|q| u(&q)), x.checked_rem(y));
        if y != 0 {
            assert_eq!(u(&a.sdiv(&b).unwrap()), (sx.wrapping_div(sy) as u128) & m, "{a:?} sdiv {b:?}");
            assert_eq!(u(&a.srem(&b).unwrap()), (sx.wrapping_rem(sy) as u128) & m, "{a:?} srem {b:?}");
        } else {
            assert!(a.sdiv(&b).is_none() && a.srem(&b).is_none());
        }
        let n = (rng.next() % (w as u64 + 2)) as u32;
        let (shl, lshr) = if n >= w { (0, 0) } else { ((x << n) & m, x >> n) };
        assert_eq!(u(&a.shl(n)), shl);
        assert_eq!(u(&a.lshr(n)), lshr);
        assert_eq!(s(&a.ashr(n)), sx >> n.min(w - 1).min(127), "{a:?} ashr {n}");
        assert_eq!(a.count_leading_zeros(), (x.leading_zeros() - (128 - w)));
        let wide_u = a.widening_mul_unsigned(&b);
        let wide_s = a.widening_mul_signed(&b);
        if w <= 64 {
            assert_eq!(u(&wide_u), x * y);
            assert_eq!(s(&wide_s), sx * sy);
        }
        assert_eq!(wide_u.zext_or_trunc(w), a.mul(&b));
        assert_eq!(wide_s.zext_or_trunc(w), a.mul(&b));
    }
}

#[test]
fn wide_identities() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for _ in 0..3_000 {
        let w = WIDE[(rng.next() % WIDE.len() as u64) as usize];
        let (a, b) = (rng.value(w), rng.value(w));
        // Division: a == q*b + r with r < b (unsigned), and the signed analogue.
        if let Some((q, r)) = a.udivrem(&b) {
            assert_eq!(q.mul(&b).add(&r), a, "{a:?} udiv {b:?}");
            assert!(r.ult(&b));
            let (sq, sr) = a.sdivrem(&b).unwrap();
            assert_eq!(sq.mul(&b).add(&sr), a);
            assert!(sr.is_zero() || sr.is_negative() == a.is_negative());
        } else {
            assert!(b.is_zero());
        }
        // Product of halves does not overflow, so it divides back exactly.
        let (h1, h2) = (a.lshr(w / 2 + 1), b.lshr(w / 2 + 1));
        if !h2.is_zero() {
            assert_eq!(h1.mul(&h2).udiv(&h2).unwrap(), h1);
        }
        assert_eq!(a.add(&b).sub(&b), a);
        assert_eq!(a.add(&a.negate()), ApInt::zero(w));
        assert_eq!(a.xor(&b).xor(&b), a);
        assert_eq!(a.not().not(), a);
        assert_eq!(a.mul(&b), b.mul(&a));
        assert_eq!(a.mul(&ApInt::all_ones(w)), a.negate());
        let n = (rng.next() % (w as u64 + 1)) as u32;
        assert_eq!(a.shl(n).lshr(n).shl(n), a.shl(n));
        if n < w {
            // a << n == a * 2^n
            assert_eq!(a.shl(n), a.mul(&ApInt::one(w).shl(n)));
            assert_eq!(a.ashr(n).bit(w - 1), a.is_negative());
        }
        assert_eq!(a.ult(&b), b.ucmp(&a) == std::cmp::Ordering::Greater && a != b);
        assert_eq!(a.slt(&b), a.sub(&b).is_negative() != a.ssub_overflows(&b));
        let full = a.widening_mul_unsigned(&b);
        assert_eq!(full.lshr(w).zext_or_trunc(w), full.udiv(&ApInt::one(2 * w).shl(w)).unwrap().zext_or_trunc(w));
        assert_eq!(a.overflowing_add(&b).1, a.add(&b).ult(&a));
    }
}

#[test]
fn predicates_and_edges() {
    for w in [1, 2, 64, 65, 128, 129, 1000] {
        assert!(ApInt::one(w).is_one() || w == 0);
        assert!(ApInt::all_ones(w).is_all_ones());
        assert!(ApInt::signed_min(w).is_signed_min());
        assert!(ApInt::signed_max(w).is_signed_max());
        assert!(!ApInt::zero(w).is_all_ones() && !ApInt::zero(w).is_signed_min());
        assert_eq!(ApInt::signed_min(w).add(&ApInt::all_ones(w)), ApInt::signed_max(w));
        assert_eq!(ApInt::signed_min(w).sdiv(&ApInt::all_ones(w)), Some(ApInt::signed_min(w)));
        assert_eq!(ApInt::signed_min(w).sdiv_overflow(&ApInt::all_ones(w)).map(|x| x.1), Some(true));
        assert_eq!(ApInt::all_ones(w).ashr(w + 5), ApInt::all_ones(w));
        assert_eq!(ApInt::zero(w).count_leading_zeros(), w);
    }
    // i1: -1 is INT_MIN and 1 at once; INT_MAX is 0.
    assert!(ApInt::one(1).is_signed_min() && ApInt::zero(1).is_signed_max());
    let big = ApInt::parse_unsigned(&"7".repeat(300), 1024).unwrap();
    let d = ApInt::parse_unsigned(&"3".repeat(120), 1024).unwrap();
    let (q, r) = big.udivrem(&d).unwrap();
    assert_eq!(q.mul(&d).add(&r), big);
    assert_eq!(ap(8, 200).to_string_unsigned(), "200");
}

impl ApInt {
    /// Whether `self - o` overflows as a signed subtraction (test helper).
    fn ssub_overflows(&self, o: &ApInt) -> bool {
        let d = self.sub(o);
        self.is_negative() != o.is_negative() && d.is_negative() != self.is_negative()
    }
}
