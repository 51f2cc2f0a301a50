//! Float literals: decimal text to `f64` (as MLIR, which reads literals as doubles), then to
//! the raw bits of the attribute's float type with round-to-nearest-even.
//!
//! Exact for f16, bf16, f32, f64, and for f80/f128 (every double is representable there); the
//! 8/6/4-bit formats and tf32 use one generic encoder parameterised by exponent/mantissa width,
//! bias and special-value style (IEEE with inf/NaN, `FN` without inf, `FNUZ` with a single NaN
//! at negative zero, finite-only). Overflow gives inf (IEEE styles) or NaN (others, the largest
//! finite value for finite-only formats).

use crate::types::FloatKind;

/// The value of a float literal token (overflow gives infinity, as mlir-opt-19 accepts).
pub(super) fn parse_float_literal(spelling: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(spelling).ok()?;
    s.parse().ok()
}

#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// All-ones exponent is inf (mantissa 0) or NaN.
    Ieee,
    /// No infinity; the all-ones pattern (exponent and mantissa) is NaN.
    Fn,
    /// No infinity, no negative zero; `0x80` is NaN.
    Fnuz,
    /// No infinity, no NaN.
    Finite,
}

struct Format {
    exp_bits: u32,
    man_bits: u32,
    bias: i32,
    style: Style,
}

fn format_of(k: FloatKind) -> Format {
    let f = |exp_bits, man_bits, bias, style| Format { exp_bits, man_bits, bias, style };
    match k {
        FloatKind::F16 => f(5, 10, 15, Style::Ieee),
        FloatKind::BF16 => f(8, 7, 127, Style::Ieee),
        FloatKind::F32 => f(8, 23, 127, Style::Ieee),
        FloatKind::F64 => f(11, 52, 1023, Style::Ieee),
        FloatKind::TF32 => f(8, 10, 127, Style::Ieee),
        FloatKind::F8E5M2 => f(5, 2, 15, Style::Ieee),
        FloatKind::F8E4M3 => f(4, 3, 7, Style::Ieee),
        FloatKind::F8E3M4 => f(3, 4, 3, Style::Ieee),
        FloatKind::F8E4M3FN => f(4, 3, 7, Style::Fn),
        FloatKind::F8E5M2FNUZ => f(5, 2, 16, Style::Fnuz),
        FloatKind::F8E4M3FNUZ => f(4, 3, 8, Style::Fnuz),
        FloatKind::F8E4M3B11FNUZ => f(4, 3, 11, Style::Fnuz),
        FloatKind::F6E2M3FN => f(2, 3, 1, Style::Finite),
        FloatKind::F6E3M2FN => f(3, 2, 3, Style::Finite),
        FloatKind::F4E2M1FN => f(2, 1, 1, Style::Finite),
        // Handled separately.
        FloatKind::F80 | FloatKind::F128 | FloatKind::F8E8M0FNU => f(8, 0, 127, Style::Fnuz),
    }
}

/// The bits of `v` in the format of `k` (low bits of the result).
pub(super) fn float_bits_from_f64(v: f64, k: FloatKind) -> u128 {
    match k {
        FloatKind::F64 => v.to_bits() as u128,
        FloatKind::F32 => (v as f32).to_bits() as u128,
        FloatKind::F80 => f80_bits(v),
        FloatKind::F128 => f128_bits(v),
        FloatKind::F8E8M0FNU => e8m0_bits(v),
        _ => encode(v, &format_of(k)) as u128,
    }
}

/// `(sign, integer mantissa, exponent)` with `v = mant * 2^exp`, for finite nonzero `v`.
fn decompose(v: f64) -> (bool, u64, i32) {
    let bits = v.to_bits();
    let sign = bits >> 63 == 1;
    let exp = ((bits >> 52) & 0x7FF) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0 { (sign, frac, -1074) } else { (sign, frac | (1u64 << 52), exp - 1075) }
}

fn encode(v: f64, f: &Format) -> u64 {
    let total = f.exp_bits + f.man_bits;
    let sign_bit = 1u64 << total;
    let exp_all = (1u64 << f.exp_bits) - 1;
    let man_all = (1u64 << f.man_bits) - 1;
    let nan = |neg: bool| -> u64 {
        match f.style {
            Style::Ieee => {
                (exp_all << f.man_bits) | (1u64 << f.man_bits.saturating_sub(1)) | if neg { sign_bit } else { 0 }
            }
            Style::Fn => (exp_all << f.man_bits) | man_all | if neg { sign_bit } else { 0 },
            Style::Fnuz => sign_bit,
            Style::Finite => 0,
        }
    };
    let max_finite = |neg: bool| -> u64 {
        let s = if neg { sign_bit } else { 0 };
        match f.style {
            Style::Ieee => s | ((exp_all - 1) << f.man_bits) | man_all,
            Style::Fn => s | (exp_all << f.man_bits) | (man_all - 1),
            _ => s | (exp_all << f.man_bits) | man_all,
        }
    };
    let overflow = |neg: bool| -> u64 {
        match f.style {
            Style::Ieee => (exp_all << f.man_bits) | if neg { sign_bit } else { 0 },
            Style::Finite => max_finite(neg),
            _ => nan(neg),
        }
    };
    if v.is_nan() {
        return nan(v.is_sign_negative());
    }
    if v.is_infinite() {
        return overflow(v < 0.0);
    }
    if v == 0.0 {
        return if v.is_sign_negative() && f.style != Style::Fnuz { sign_bit } else { 0 };
    }
    let (neg, m, e) = decompose(v);
    let p = 63 - m.leading_zeros() as i32;
    let min_q = 1 - f.bias - f.man_bits as i32;
    let q = (e + p - f.man_bits as i32).max(min_q);
    let shift = q - e;
    let mut mant: u64 = if shift <= 0 {
        m << (-shift) as u32
    } else if shift >= 64 {
        0
    } else {
        let kept = m >> shift;
        let rem = m & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rem > half || (rem == half && kept & 1 == 1) { kept + 1 } else { kept }
    };
    let mut q = q;
    if mant >> (f.man_bits + 1) != 0 {
        mant >>= 1;
        q += 1;
    }
    let s = if neg { sign_bit } else { 0 };
    if mant == 0 {
        return if f.style == Style::Fnuz { 0 } else { s };
    }
    if mant < (1u64 << f.man_bits) {
        return s | mant;
    }
    let exp_field = (q + f.man_bits as i32 + f.bias) as i64;
    let max_field = match f.style {
        Style::Ieee => exp_all as i64 - 1,
        _ => exp_all as i64,
    };
    if exp_field > max_field {
        return overflow(neg);
    }
    let bits = s | ((exp_field as u64) << f.man_bits) | (mant & man_all);
    if f.style == Style::Fn && bits & !sign_bit == (exp_all << f.man_bits) | man_all {
        return overflow(neg);
    }
    bits
}

fn f80_bits(v: f64) -> u128 {
    let sign = if v.is_sign_negative() { 1u128 << 79 } else { 0 };
    if v.is_nan() {
        return sign | (0x7FFFu128 << 64) | 0xC000_0000_0000_0000;
    }
    if v.is_infinite() {
        return sign | (0x7FFFu128 << 64) | 0x8000_0000_0000_0000;
    }
    if v == 0.0 {
        return sign;
    }
    let (_, m, e) = decompose(v);
    let p = 63 - m.leading_zeros() as i32;
    let exp = (e + p + 16383) as u128;
    sign | (exp << 64) | ((m << (63 - p)) as u128)
}

fn f128_bits(v: f64) -> u128 {
    let sign = if v.is_sign_negative() { 1u128 << 127 } else { 0 };
    if v.is_nan() {
        return sign | (0x7FFFu128 << 112) | (1u128 << 111);
    }
    if v.is_infinite() {
        return sign | (0x7FFFu128 << 112);
    }
    if v == 0.0 {
        return sign;
    }
    let (_, m, e) = decompose(v);
    let p = 63 - m.leading_zeros() as i32;
    let exp = (e + p + 16383) as u128;
    let frac = ((m as u128) << (112 - p)) & ((1u128 << 112) - 1);
    sign | (exp << 112) | frac
}

/// `f8E8M0FNU`: an unsigned power of two; NaN is `0xFF`.
fn e8m0_bits(v: f64) -> u128 {
    if !(v.is_finite() && v > 0.0) {
        return 0xFF;
    }
    let (_, m, e) = decompose(v);
    let p = 63 - m.leading_zeros() as i32;
    let mut exp = e + p;
    // Round to the nearest power of two (ties away from the smaller exponent: mantissa >= 1.5).
    if p > 0 && (m >> (p - 1)) & 1 == 1 {
        exp += 1;
    }
    (exp + 127).clamp(0, 254) as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_formats_are_exact() {
        assert_eq!(float_bits_from_f64(1.5, FloatKind::F16), 0x3E00);
        assert_eq!(float_bits_from_f64(-2.0, FloatKind::F16), 0xC000);
        assert_eq!(float_bits_from_f64(65520.0, FloatKind::F16), 0x7C00);
        assert_eq!(float_bits_from_f64(5.960464477539063e-8, FloatKind::F16), 0x0001);
        assert_eq!(float_bits_from_f64(1.0, FloatKind::BF16), 0x3F80);
        assert_eq!(float_bits_from_f64(3.140625, FloatKind::BF16), 0x4049);
        assert_eq!(float_bits_from_f64(0.1, FloatKind::F32), 0.1f32.to_bits() as u128);
        assert_eq!(float_bits_from_f64(1.0, FloatKind::F128), 0x3FFF_u128 << 112);
        assert_eq!(float_bits_from_f64(1.0, FloatKind::F80), (0x3FFF_u128 << 64) | 0x8000_0000_0000_0000);
        assert_eq!(float_bits_from_f64(448.0, FloatKind::F8E4M3FN), 0x7E);
        assert_eq!(float_bits_from_f64(1000.0, FloatKind::F8E4M3FN), 0x7F);
        assert_eq!(float_bits_from_f64(1.0, FloatKind::F8E5M2), 0x3C);
        assert_eq!(float_bits_from_f64(-0.0, FloatKind::F8E4M3FNUZ), 0);
        assert_eq!(float_bits_from_f64(6.0, FloatKind::F4E2M1FN), 0x7);
        assert_eq!(float_bits_from_f64(1.0, FloatKind::F8E8M0FNU), 127);
        assert_eq!(parse_float_literal(b"1.0e400"), Some(f64::INFINITY));
        assert_eq!(parse_float_literal(b"1."), Some(1.0));
    }
}
