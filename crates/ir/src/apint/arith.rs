//! Wrapping arithmetic, bitwise logic, shifts, comparisons and predicates on [`ApInt`], as
//! MLIR's integer folders use them (LLVM `APInt` semantics): every operation works on
//! 64-bit words, both operands must have the same width, and results keep that width
//! (wrapping modulo 2^width) unless the name says otherwise (`widening_mul_*`).
//!
//! Invariant kept by every constructor here: bits above the width are zero (see the parent
//! module). Mismatched widths are a caller bug; the operations then behave as if the shorter
//! operand were zero-extended (no panic).

use super::{ApInt, nwords};
use std::cmp::Ordering;

impl ApInt {
    /// A value from words (little-endian), truncated or zero-padded to `width`.
    pub(super) fn from_words(width: u32, mut words: Vec<u64>) -> ApInt {
        words.resize(nwords(width), 0);
        let mut r = ApInt { width, words: words.into_boxed_slice() };
        r.clear_unused_bits();
        r
    }

    /// The words, little-endian (exactly `ceil(width / 64)` of them, at least one).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The low 64 bits.
    pub fn low_u64(&self) -> u64 {
        self.words[0]
    }

    /// The low 128 bits, zero-extended.
    pub fn low_u128(&self) -> u128 {
        self.words[0] as u128 | (self.words.get(1).copied().unwrap_or(0) as u128) << 64
    }

    /// One of the given width.
    pub fn one(width: u32) -> ApInt {
        ApInt::from_u128(width, 1)
    }

    /// All bits set (`-1`).
    pub fn all_ones(width: u32) -> ApInt {
        ApInt::zero(width).not()
    }

    /// The smallest signed value, `INT_MIN` (only the sign bit set).
    pub fn signed_min(width: u32) -> ApInt {
        if width == 0 {
            return ApInt::zero(0);
        }
        ApInt::one(width).shl(width - 1)
    }

    /// The largest signed value, `INT_MAX`.
    pub fn signed_max(width: u32) -> ApInt {
        ApInt::signed_min(width).not()
    }

    /// Bit `i` (false past the width).
    pub fn bit(&self, i: u32) -> bool {
        i < self.width && (self.words[(i / 64) as usize] >> (i % 64)) & 1 == 1
    }

    pub fn is_one(&self) -> bool {
        self.width > 0 && self.words[0] == 1 && self.words[1..].iter().all(|&w| w == 0)
    }

    /// All `width` bits set (`-1`); false for width 0.
    pub fn is_all_ones(&self) -> bool {
        self.width > 0 && self.count_leading_ones() == self.width
    }

    /// `INT_MIN`: only the sign bit set.
    pub fn is_signed_min(&self) -> bool {
        self.is_negative() && self.count_trailing_zeros() == self.width - 1
    }

    /// `INT_MAX`: every bit but the sign bit set.
    pub fn is_signed_max(&self) -> bool {
        self.width > 0 && !self.is_negative() && self.count_trailing_ones() == self.width - 1
    }

    /// Leading zero bits within the width (`width` for zero).
    pub fn count_leading_zeros(&self) -> u32 {
        self.width - self.active_bits()
    }

    /// Leading one bits within the width.
    pub fn count_leading_ones(&self) -> u32 {
        self.not().count_leading_zeros()
    }

    /// Trailing zero bits (`width` for zero).
    pub fn count_trailing_zeros(&self) -> u32 {
        for (i, &w) in self.words.iter().enumerate() {
            if w != 0 {
                return (i as u32 * 64 + w.trailing_zeros()).min(self.width);
            }
        }
        self.width
    }

    /// Trailing one bits.
    pub fn count_trailing_ones(&self) -> u32 {
        for (i, &w) in self.words.iter().enumerate() {
            if w != u64::MAX {
                return (i as u32 * 64 + w.trailing_ones()).min(self.width);
            }
        }
        self.width
    }

    fn zip_words(&self, o: &ApInt, f: impl Fn(u64, u64) -> u64) -> ApInt {
        let words = (0..self.words.len()).map(|i| f(self.words[i], o.words.get(i).copied().unwrap_or(0))).collect();
        ApInt::from_words(self.width, words)
    }

    pub fn and(&self, o: &ApInt) -> ApInt {
        self.zip_words(o, |a, b| a & b)
    }

    pub fn or(&self, o: &ApInt) -> ApInt {
        self.zip_words(o, |a, b| a | b)
    }

    pub fn xor(&self, o: &ApInt) -> ApInt {
        self.zip_words(o, |a, b| a ^ b)
    }

    /// Bitwise complement within the width.
    pub fn not(&self) -> ApInt {
        ApInt::from_words(self.width, self.words.iter().map(|w| !w).collect())
    }

    /// Wrapping sum and whether the unsigned addition carried out of the width.
    pub fn overflowing_add(&self, o: &ApInt) -> (ApInt, bool) {
        let mut carry = false;
        let words = (0..self.words.len())
            .map(|i| {
                let (s1, c1) = self.words[i].overflowing_add(o.words.get(i).copied().unwrap_or(0));
                let (s2, c2) = s1.overflowing_add(carry as u64);
                carry = c1 || c2;
                s2
            })
            .collect();
        let sum = ApInt::from_words(self.width, words);
        // The carry out of the width: the sum wrapped iff it is below an operand.
        let carried = sum.ult(self);
        (sum, carried)
    }

    /// Wrapping sum.
    pub fn add(&self, o: &ApInt) -> ApInt {
        self.overflowing_add(o).0
    }

    /// Wrapping difference.
    pub fn sub(&self, o: &ApInt) -> ApInt {
        let mut borrow = false;
        let words = (0..self.words.len())
            .map(|i| {
                let (d1, b1) = self.words[i].overflowing_sub(o.words.get(i).copied().unwrap_or(0));
                let (d2, b2) = d1.overflowing_sub(borrow as u64);
                borrow = b1 || b2;
                d2
            })
            .collect();
        ApInt::from_words(self.width, words)
    }

    /// Wrapping product (the low `width` bits), schoolbook over the words in use.
    pub fn mul(&self, o: &ApInt) -> ApInt {
        let n = self.words.len();
        if n == 1 {
            return ApInt::from_words(self.width, vec![self.words[0].wrapping_mul(o.words[0])]);
        }
        let used = |w: &[u64]| w.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
        let (a, b) = (&self.words[..used(&self.words)], &o.words[..used(&o.words).min(n)]);
        let mut r = vec![0u64; n];
        for (i, &x) in a.iter().enumerate() {
            if x == 0 {
                continue;
            }
            let mut carry = 0u128;
            for (j, &y) in b.iter().enumerate().take(n - i) {
                let t = r[i + j] as u128 + x as u128 * y as u128 + carry;
                r[i + j] = t as u64;
                carry = t >> 64;
            }
            if let Some(w) = r.get_mut(i + b.len()) {
                *w = w.wrapping_add(carry as u64);
            }
        }
        ApInt::from_words(self.width, r)
    }

    /// The exact unsigned product, `2 * width` bits wide.
    pub fn widening_mul_unsigned(&self, o: &ApInt) -> ApInt {
        let w = self.width * 2;
        self.zext_or_trunc(w).mul(&o.zext_or_trunc(w))
    }

    /// The exact signed (two's complement) product, `2 * width` bits wide.
    pub fn widening_mul_signed(&self, o: &ApInt) -> ApInt {
        let w = self.width * 2;
        self.sext_or_trunc(w).mul(&o.sext_or_trunc(w))
    }

    /// Shift left by `n` (zero when `n >= width`).
    pub fn shl(&self, n: u32) -> ApInt {
        if n >= self.width {
            return ApInt::zero(self.width);
        }
        let (ws, bs) = ((n / 64) as usize, n % 64);
        let len = self.words.len();
        let words = (0..len)
            .map(|i| {
                if i < ws {
                    return 0;
                }
                let lo = self.words[i - ws];
                let below = if i > ws && bs != 0 { self.words[i - ws - 1] >> (64 - bs) } else { 0 };
                (lo << bs) | below
            })
            .collect();
        ApInt::from_words(self.width, words)
    }

    /// Logical shift right by `n` (zero when `n >= width`).
    pub fn lshr(&self, n: u32) -> ApInt {
        if n >= self.width {
            return ApInt::zero(self.width);
        }
        let (ws, bs) = ((n / 64) as usize, n % 64);
        let len = self.words.len();
        let get = |i: usize| self.words.get(i).copied().unwrap_or(0);
        let words = (0..len)
            .map(|i| {
                let hi = if bs != 0 { get(i + ws + 1) << (64 - bs) } else { 0 };
                (get(i + ws) >> bs) | hi
            })
            .collect();
        ApInt::from_words(self.width, words)
    }

    /// Arithmetic shift right by `n` (all sign bits when `n >= width`).
    pub fn ashr(&self, n: u32) -> ApInt {
        if !self.is_negative() {
            return self.lshr(n);
        }
        // ~((~x) >> n) copies the sign into the vacated bits.
        self.not().lshr(n).not()
    }

    /// Unsigned comparison.
    pub fn ucmp(&self, o: &ApInt) -> Ordering {
        for i in (0..self.words.len().max(o.words.len())).rev() {
            let (a, b) = (self.words.get(i).copied().unwrap_or(0), o.words.get(i).copied().unwrap_or(0));
            if a != b {
                return a.cmp(&b);
            }
        }
        Ordering::Equal
    }

    /// Signed (two's complement) comparison.
    pub fn scmp(&self, o: &ApInt) -> Ordering {
        match (self.is_negative(), o.is_negative()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.ucmp(o),
        }
    }

    pub fn ult(&self, o: &ApInt) -> bool {
        self.ucmp(o) == Ordering::Less
    }

    pub fn ule(&self, o: &ApInt) -> bool {
        self.ucmp(o) != Ordering::Greater
    }

    pub fn slt(&self, o: &ApInt) -> bool {
        self.scmp(o) == Ordering::Less
    }

    pub fn sle(&self, o: &ApInt) -> bool {
        self.scmp(o) != Ordering::Greater
    }

    /// The shift amount this value denotes, clamped to `u32::MAX` (any amount of at least the
    /// width shifts everything out).
    pub fn shift_amount(&self) -> u32 {
        match self.to_u64() {
            Some(v) => v.min(u32::MAX as u64) as u32,
            None => u32::MAX,
        }
    }
}
