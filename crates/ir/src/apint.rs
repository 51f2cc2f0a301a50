//! Arbitrary-width two's-complement integers, as MLIR integer attributes need (`i1` ..
//! `i16777215`, `index` = 64 bits): parsing, printing, range checks, and (in `arith` and `div`)
//! the word-based arithmetic MLIR's integer folders use, with LLVM `APInt` semantics.
//!
//! Invariant: `words` holds exactly `ceil(width / 64)` words (at least one) and the bits above
//! `width` in the top word are zero.

use std::fmt;

mod arith;
#[cfg(test)]
mod arith_tests;
mod div;

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ApInt {
    width: u32,
    words: Box<[u64]>,
}

impl fmt::Debug for ApInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:i{}", self.to_string_signed(), self.width)
    }
}

fn nwords(width: u32) -> usize {
    (width.max(1) as usize).div_ceil(64)
}

impl ApInt {
    /// Zero of the given width (width 0 is allowed and holds only zero).
    pub fn zero(width: u32) -> Self {
        ApInt { width, words: vec![0; nwords(width)].into_boxed_slice() }
    }

    /// `value` sign-extended or truncated to `width` bits.
    pub fn from_i128(width: u32, value: i128) -> Self {
        let mut words = vec![if value < 0 { u64::MAX } else { 0 }; nwords(width)];
        words[0] = value as u64;
        if words.len() > 1 {
            words[1] = (value >> 64) as u64;
        }
        let mut r = ApInt { width, words: words.into_boxed_slice() };
        r.clear_unused_bits();
        r
    }

    pub fn from_u128(width: u32, value: u128) -> Self {
        let mut words = vec![0u64; nwords(width)];
        words[0] = value as u64;
        if words.len() > 1 {
            words[1] = (value >> 64) as u64;
        }
        let mut r = ApInt { width, words: words.into_boxed_slice() };
        r.clear_unused_bits();
        r
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    fn clear_unused_bits(&mut self) {
        let rem = self.width % 64;
        if self.width == 0 {
            self.words.iter_mut().for_each(|w| *w = 0);
        } else if rem != 0 {
            let last = self.words.len() - 1;
            self.words[last] &= (1u64 << rem) - 1;
        }
    }

    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The sign bit (false for width 0).
    pub fn is_negative(&self) -> bool {
        if self.width == 0 {
            return false;
        }
        let bit = self.width - 1;
        (self.words[(bit / 64) as usize] >> (bit % 64)) & 1 == 1
    }

    /// The value as a signed integer, if it fits in an i64 after sign extension.
    pub fn to_i64(&self) -> Option<i64> {
        let v = self.to_i128()?;
        i64::try_from(v).ok()
    }

    /// The value as an unsigned integer, if it fits in a u64.
    pub fn to_u64(&self) -> Option<u64> {
        if self.words[1..].iter().any(|&w| w != 0) {
            return None;
        }
        Some(self.words[0])
    }

    /// Sign-extended value if it fits in i128.
    pub fn to_i128(&self) -> Option<i128> {
        let neg = self.is_negative();
        let fill = if neg { u64::MAX } else { 0 };
        let w0 = self.words[0];
        let w1 = self.words.get(1).copied().unwrap_or(0);
        // Sign-extend within the width.
        let mut lo = w0 as u128 | ((w1 as u128) << 64);
        if self.width < 128 && self.width > 0 && neg {
            lo |= u128::MAX << self.width;
        }
        for (i, &w) in self.words.iter().enumerate().skip(2) {
            let bits_here = (self.width as usize).saturating_sub(i * 64).min(64);
            let mask = if bits_here == 64 { u64::MAX } else { (1u64 << bits_here) - 1 };
            if (w & mask) != (fill & mask) {
                return None;
            }
        }
        let v = lo as i128;
        if self.width > 128 && (v < 0) != neg {
            return None;
        }
        Some(v)
    }

    /// Parses an unsigned decimal or `0x` hex literal into `width` bits; `None` if it does not
    /// fit in `width` bits as an unsigned number.
    pub fn parse_unsigned(text: &str, width: u32) -> Option<ApInt> {
        let (digits, radix) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            Some(h) => (h, 16u64),
            None => (text, 10u64),
        };
        if digits.is_empty() {
            return None;
        }
        // Accumulate into words with enough room for the width plus one spare word. Digits are
        // taken in chunks that fit a word, and only the words in use are multiplied, so a long
        // literal for a wide type costs O(digits^2 / 64) rather than O(digits * width).
        let n = nwords(width) + 1;
        let mut words = vec![0u64; n];
        let mut used = 0usize;
        let chunk_len = if radix == 16 { 15 } else { 19 };
        let bytes = digits.as_bytes();
        for chunk in bytes.chunks(chunk_len) {
            let mut scale = 1u128;
            let mut value = 0u128;
            for &c in chunk {
                value = value * radix as u128 + (c as char).to_digit(radix as u32)? as u128;
                scale *= radix as u128;
            }
            let mut carry = value;
            for w in words[..used].iter_mut() {
                let t = (*w as u128) * scale + carry;
                *w = t as u64;
                carry = t >> 64;
            }
            while carry != 0 {
                if used == n {
                    return None;
                }
                words[used] = carry as u64;
                carry >>= 64;
                used += 1;
            }
            if words[n - 1] != 0 {
                return None; // grew past width + 64 bits
            }
        }
        let mut r = ApInt { width, words: words[..n - 1].to_vec().into_boxed_slice() };
        // Check no bits beyond width.
        let rem = width % 64;
        if width == 0 {
            if !r.is_zero() {
                return None;
            }
        } else if rem != 0 && (r.words[r.words.len() - 1] >> rem) != 0 {
            return None;
        }
        r.clear_unused_bits();
        Some(r)
    }

    /// Bits needed to hold the value as an unsigned number.
    pub fn active_bits(&self) -> u32 {
        for (i, &w) in self.words.iter().enumerate().rev() {
            if w != 0 {
                return i as u32 * 64 + (64 - w.leading_zeros());
            }
        }
        0
    }

    /// Two's-complement negation within the width.
    pub fn negate(&self) -> ApInt {
        let mut words: Vec<u64> = self.words.iter().map(|w| !w).collect();
        for w in words.iter_mut() {
            let (v, overflow) = w.overflowing_add(1);
            *w = v;
            if !overflow {
                break;
            }
        }
        let mut r = ApInt { width: self.width, words: words.into_boxed_slice() };
        r.clear_unused_bits();
        r
    }

    /// Zero-extends or truncates to a new width.
    pub fn zext_or_trunc(&self, width: u32) -> ApInt {
        let mut words = vec![0u64; nwords(width)];
        for (i, w) in words.iter_mut().enumerate() {
            *w = self.words.get(i).copied().unwrap_or(0);
        }
        let mut r = ApInt { width, words: words.into_boxed_slice() };
        r.clear_unused_bits();
        r
    }

    /// Sign-extends or truncates to a new width.
    pub fn sext_or_trunc(&self, width: u32) -> ApInt {
        if width <= self.width || !self.is_negative() {
            return self.zext_or_trunc(width);
        }
        let mut words = vec![u64::MAX; nwords(width)];
        for (i, w) in words.iter_mut().enumerate() {
            if i < self.words.len() {
                *w = self.words[i];
            }
        }
        let rem = self.width % 64;
        if rem != 0 {
            let last = self.words.len() - 1;
            words[last] |= u64::MAX << rem;
        }
        let mut r = ApInt { width, words: words.into_boxed_slice() };
        r.clear_unused_bits();
        r
    }

    /// The low `nbytes` bytes of the two's-complement bit pattern, little-endian (bytes past
    /// the width are zero).
    pub fn to_le_bytes(&self, nbytes: usize) -> Vec<u8> {
        (0..nbytes).map(|i| self.words.get(i / 8).map(|w| (w >> ((i % 8) * 8)) as u8).unwrap_or(0)).collect()
    }

    /// The value whose bit pattern is `bytes` (little-endian), truncated to `width` bits.
    pub fn from_le_bytes(width: u32, bytes: &[u8]) -> Self {
        let mut words = vec![0u64; nwords(width)];
        for (i, &b) in bytes.iter().enumerate().take(words.len() * 8) {
            words[i / 8] |= (b as u64) << ((i % 8) * 8);
        }
        let mut r = ApInt { width, words: words.into_boxed_slice() };
        r.clear_unused_bits();
        r
    }

    /// Unsigned decimal digits.
    pub fn to_string_unsigned(&self) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let mut words: Vec<u64> = self.words.to_vec();
        let mut digits = Vec::new();
        // Only the words below the highest non-zero one take part in each division.
        let trim = |words: &mut Vec<u64>| {
            while words.last() == Some(&0) {
                words.pop();
            }
        };
        trim(&mut words);
        while !words.is_empty() {
            // Divide by 10^19 for speed.
            const CHUNK: u64 = 10_000_000_000_000_000_000;
            let mut rem: u128 = 0;
            for w in words.iter_mut().rev() {
                let cur = (rem << 64) | *w as u128;
                *w = (cur / CHUNK as u128) as u64;
                rem = cur % CHUNK as u128;
            }
            let mut rem = rem as u64;
            trim(&mut words);
            let last = words.is_empty();
            for _ in 0..19 {
                digits.push(b'0' + (rem % 10) as u8);
                rem /= 10;
                if last && rem == 0 {
                    break;
                }
            }
        }
        while digits.len() > 1 && *digits.last().unwrap() == b'0' {
            digits.pop();
        }
        digits.reverse();
        String::from_utf8(digits).unwrap_or_default()
    }

    /// Signed decimal digits (two's complement interpretation).
    pub fn to_string_signed(&self) -> String {
        if self.is_negative() { format!("-{}", self.negate().to_string_unsigned()) } else { self.to_string_unsigned() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_wide_values() {
        let big = "340282366920938463463374607431768211455"; // 2^128 - 1
        let v = ApInt::parse_unsigned(big, 128).unwrap();
        assert_eq!(v.to_string_unsigned(), big);
        assert_eq!(v.to_string_signed(), "-1");
        assert!(ApInt::parse_unsigned(big, 127).is_none());
        let h = ApInt::parse_unsigned("0xFF", 8).unwrap();
        assert_eq!(h.to_string_signed(), "-1");
        assert_eq!(ApInt::from_i128(64, -5).to_i64(), Some(-5));
        assert_eq!(ApInt::from_i128(1, 1).to_string_unsigned(), "1");
        let huge = "1".repeat(400);
        assert!(ApInt::parse_unsigned(&huge, 64).is_none());
        let w = ApInt::parse_unsigned(&"9".repeat(300), 1024).unwrap();
        assert_eq!(w.to_string_unsigned(), "9".repeat(300));
        assert_eq!(
            ApInt::parse_unsigned("0x123456789abcdef0123", 128).unwrap().to_string_unsigned(),
            "5373003642731685151011"
        );
    }

    #[test]
    fn long_literals_for_wide_types_parse_quickly() {
        // 16777215 bits hold about 5 million decimal digits; 20000 digits must not cost
        // digits * width.
        let v = ApInt::parse_unsigned(&format!("1{}", "0".repeat(20_000)), 16_777_215).unwrap();
        assert!(!v.is_zero());
        assert!(ApInt::parse_unsigned(&"9".repeat(20_000), 64).is_none());
        assert!(ApInt::parse_unsigned(&"f".repeat(5_000), 16_777_215).is_none());
        assert!(ApInt::parse_unsigned(&format!("0x{}", "f".repeat(5_000)), 16_777_215).is_some());
        assert_eq!(v.to_string_unsigned().len(), 20_001);
    }

    #[test]
    fn byte_round_trip() {
        let v = ApInt::from_i128(17, -2);
        assert_eq!(v.to_le_bytes(3), vec![0xFE, 0xFF, 0x01]);
        assert_eq!(ApInt::from_le_bytes(17, &[0xFE, 0xFF, 0x01]), v);
        let w = ApInt::parse_unsigned(&"9".repeat(60), 256).unwrap();
        assert_eq!(ApInt::from_le_bytes(256, &w.to_le_bytes(32)), w);
    }

    #[test]
    fn negate_and_extend() {
        let v = ApInt::from_i128(8, -128);
        assert_eq!(v.negate().to_string_signed(), "-128");
        assert_eq!(ApInt::from_i128(8, -1).sext_or_trunc(70).to_string_signed(), "-1");
        assert_eq!(ApInt::from_i128(8, -1).zext_or_trunc(16).to_string_signed(), "255");
    }
}
