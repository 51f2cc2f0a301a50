//! Float literals exactly as mlir-opt-19 prints them.
//!
//! MLIR's rule: print the value in exponent form with 6 significant digits
//! (`1.000000e+00`, `9.997550e-02`) when that text parses back to the very same bits;
//! otherwise print the shortest "default" decimal form with enough digits to round-trip
//! (`0.30000000000000004`, `1.2345678901E+20`), provided it contains a `.`; otherwise (and for
//! infinities and NaNs) print the raw bits in hex (`0x7FC00000`, `0x4132D68700000000`).
//!
//! The decimal conversion reproduces LLVM's `APFloat::toString` digit by digit, including its
//! quirks: before rounding to the requested number of digits, the exact decimal expansion is
//! first *truncated* to a few digits more than requested, then the kept digits are rounded half
//! up. That is why the f16 value nearest 0.1 (0.0999755859375) prints as `9.997550e-02`, not
//! `9.997560e-02`. Exact arithmetic uses the small unsigned big integer below.
//!
//! Invariants: `bits` hold the format's raw encoding in the low `FloatKind::width` bits; every
//! function here is total (no panics) for any bit pattern.

use crate::types::FloatKind;
use std::cmp::Ordering;
use std::fmt::Write;

// ----- a minimal unsigned big integer --------------------------------------------------------

/// Little-endian base-2^32 unsigned integer without trailing zero limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct BigUint {
    limbs: Vec<u32>,
}

impl BigUint {
    fn from_u128(mut v: u128) -> Self {
        let mut limbs = Vec::with_capacity(4);
        while v != 0 {
            limbs.push(v as u32);
            v >>= 32;
        }
        BigUint { limbs }
    }

    fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// Number of significant bits.
    fn bits(&self) -> u32 {
        match self.limbs.last() {
            None => 0,
            Some(&top) => (self.limbs.len() as u32 - 1) * 32 + (32 - top.leading_zeros()),
        }
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in self.limbs.iter_mut() {
            let t = *limb as u64 * m as u64 + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
        self.trim();
    }

    /// Divides in place, returning the remainder.
    fn div_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.limbs.iter_mut().rev() {
            let cur = (rem << 32) | *limb as u64;
            *limb = (cur / d as u64) as u32;
            rem = cur % d as u64;
        }
        self.trim();
        rem as u32
    }

    fn shl(&mut self, n: u32) {
        if self.is_zero() || n == 0 {
            return;
        }
        let words = (n / 32) as usize;
        let bits = n % 32;
        if bits != 0 {
            let mut carry = 0u32;
            for limb in self.limbs.iter_mut() {
                let next = *limb >> (32 - bits);
                *limb = (*limb << bits) | carry;
                carry = next;
            }
            if carry != 0 {
                self.limbs.push(carry);
            }
        }
        if words != 0 {
            self.limbs.splice(0..0, std::iter::repeat_n(0, words));
        }
    }

    fn mul_pow5(&mut self, mut n: u32) {
        const FIVE_13: u32 = 1_220_703_125; // 5^13, the largest power of 5 in a u32
        while n >= 13 {
            self.mul_small(FIVE_13);
            n -= 13;
        }
        if n > 0 {
            self.mul_small(5u32.pow(n));
        }
    }

    fn mul_pow10(&mut self, n: u32) {
        self.mul_pow5(n);
        self.shl(n);
    }

    /// Truncating division by 10^n.
    fn div_pow10(&mut self, mut n: u32) {
        while n >= 9 {
            self.div_small(1_000_000_000);
            n -= 9;
        }
        if n > 0 {
            self.div_small(10u32.pow(n));
        }
    }

    fn cmp_big(&self, other: &BigUint) -> Ordering {
        self.limbs.len().cmp(&other.limbs.len()).then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

// ----- decoding the formats ------------------------------------------------------------------

/// How a format encodes its special values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Specials {
    /// IEEE 754: all-ones exponent is infinity (zero fraction) or NaN.
    Ieee,
    /// No infinity; the all-ones exponent with all-ones fraction is NaN (`f8E4M3FN`).
    NanOnlyAllOnes,
    /// No infinity and no negative zero; the negative-zero pattern is the NaN (`*FNUZ`).
    NanIsNegZero,
    /// Every pattern is finite (`f6*`, `f4E2M1FN`).
    FiniteOnly,
}

/// The parameters of a binary format (`F80` and `F8E8M0FNU` are handled separately).
#[derive(Clone, Copy, Debug)]
struct Format {
    exp_bits: u32,
    frac_bits: u32,
    bias: i32,
    specials: Specials,
}

fn format_of(kind: FloatKind) -> Format {
    use FloatKind::*;
    let (exp_bits, frac_bits, bias, specials) = match kind {
        F16 => (5, 10, 15, Specials::Ieee),
        BF16 => (8, 7, 127, Specials::Ieee),
        F32 => (8, 23, 127, Specials::Ieee),
        F64 => (11, 52, 1023, Specials::Ieee),
        F128 => (15, 112, 16383, Specials::Ieee),
        TF32 => (8, 10, 127, Specials::Ieee),
        F8E5M2 => (5, 2, 15, Specials::Ieee),
        F8E4M3 => (4, 3, 7, Specials::Ieee),
        F8E3M4 => (3, 4, 3, Specials::Ieee),
        F8E4M3FN => (4, 3, 7, Specials::NanOnlyAllOnes),
        F8E5M2FNUZ => (5, 2, 16, Specials::NanIsNegZero),
        F8E4M3FNUZ => (4, 3, 8, Specials::NanIsNegZero),
        F8E4M3B11FNUZ => (4, 3, 11, Specials::NanIsNegZero),
        F6E2M3FN => (2, 3, 1, Specials::FiniteOnly),
        F6E3M2FN => (3, 2, 3, Specials::FiniteOnly),
        F4E2M1FN => (2, 1, 1, Specials::FiniteOnly),
        // Not used (special-cased), but keep the match total.
        F80 => (15, 63, 16383, Specials::Ieee),
        F8E8M0FNU => (8, 0, 127, Specials::Ieee),
    };
    Format { exp_bits, frac_bits, bias, specials }
}

/// Bits of precision (significand bits including the implicit one), as LLVM's semantics.
fn precision(kind: FloatKind) -> u32 {
    match kind {
        FloatKind::F80 => 64,
        FloatKind::F8E8M0FNU => 1,
        k => format_of(k).frac_bits + 1,
    }
}

/// A decoded value: `(-1)^negative * significand * 2^exp`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Decoded {
    Finite { negative: bool, significand: u128, exp: i32, min_exp_binade: bool },
    InfOrNan,
}

fn mask(width: u32) -> u128 {
    if width >= 128 { u128::MAX } else { (1u128 << width) - 1 }
}

fn decode(kind: FloatKind, bits: u128) -> Decoded {
    let bits = bits & mask(kind.width());
    match kind {
        FloatKind::F80 => decode_x87(bits),
        FloatKind::F8E8M0FNU => {
            if bits == 0xFF {
                Decoded::InfOrNan
            } else {
                Decoded::Finite { negative: false, significand: 1, exp: bits as i32 - 127, min_exp_binade: bits == 0 }
            }
        }
        _ => decode_binary(format_of(kind), bits),
    }
}

fn decode_binary(f: Format, bits: u128) -> Decoded {
    let width = 1 + f.exp_bits + f.frac_bits;
    let negative = (bits >> (width - 1)) & 1 == 1;
    let exp_field = ((bits >> f.frac_bits) & mask(f.exp_bits)) as i32;
    let frac = bits & mask(f.frac_bits);
    let exp_all_ones = exp_field == mask(f.exp_bits) as i32;
    match f.specials {
        Specials::Ieee if exp_all_ones => return Decoded::InfOrNan,
        Specials::NanOnlyAllOnes if exp_all_ones && frac == mask(f.frac_bits) => {
            return Decoded::InfOrNan;
        }
        Specials::NanIsNegZero if negative && exp_field == 0 && frac == 0 => {
            return Decoded::InfOrNan;
        }
        _ => {}
    }
    let min_exp = 1 - f.bias - f.frac_bits as i32;
    if exp_field == 0 {
        Decoded::Finite { negative, significand: frac, exp: min_exp, min_exp_binade: true }
    } else {
        Decoded::Finite {
            negative,
            significand: frac | (1u128 << f.frac_bits),
            exp: exp_field - f.bias - f.frac_bits as i32,
            min_exp_binade: exp_field == 1,
        }
    }
}

/// x87 80-bit extended: sign, 15-bit exponent, explicit integer bit, 63-bit fraction.
fn decode_x87(bits: u128) -> Decoded {
    let negative = (bits >> 79) & 1 == 1;
    let exp_field = ((bits >> 64) & 0x7FFF) as i32;
    let significand = bits & mask(64);
    let int_bit = significand >> 63 == 1;
    if exp_field == 0x7FFF || (exp_field != 0 && !int_bit) {
        return Decoded::InfOrNan;
    }
    let exp = if exp_field == 0 { 1 - 16383 - 63 } else { exp_field - 16383 - 63 };
    Decoded::Finite { negative, significand, exp, min_exp_binade: exp_field <= 1 }
}

// ----- APFloat::toString ---------------------------------------------------------------------

/// Decimal digits, least significant first, and a power of ten: `digits * 10^exp`.
struct Decimal {
    digits_lsb_first: Vec<u8>,
    exp: i32,
}

/// The exact decimal expansion of `significand * 2^exp2`, cut to `precision` significant digits
/// the way APFloat does (truncate the big number to roughly the needed bits, then round the
/// remaining digit string half up). `significand` must be non-zero.
fn to_decimal(significand: u128, exp2: i32, precision: u32) -> Decimal {
    let tz = significand.trailing_zeros();
    let mut exp = exp2 + tz as i32;
    let mut big = BigUint::from_u128(significand >> tz);
    if exp > 0 {
        big.shl(exp as u32);
        exp = 0;
    } else if exp < 0 {
        big.mul_pow5((-exp) as u32);
    }

    // First truncation: drop whole powers of ten that exceed the requested precision.
    let bits = big.bits();
    let bits_required = (precision * 196).div_ceil(59);
    if bits > bits_required {
        let tens_removable = (bits - bits_required) * 59 / 196;
        if tens_removable > 0 {
            exp += tens_removable as i32;
            big.div_pow10(tens_removable);
        }
    }

    // Digits, dropping trailing zeros.
    let mut digits = Vec::with_capacity(24);
    let mut in_trail = true;
    while !big.is_zero() {
        let d = big.div_small(10) as u8;
        if in_trail && d == 0 {
            exp += 1;
        } else {
            digits.push(d);
            in_trail = false;
        }
    }
    round_digits(&mut digits, &mut exp, precision as usize);
    Decimal { digits_lsb_first: digits, exp }
}

/// Rounds the digit string (least significant first) to `precision` digits, half up.
fn round_digits(digits: &mut Vec<u8>, exp: &mut i32, precision: usize) {
    let n = digits.len();
    if n <= precision {
        return;
    }
    let mut first = n - precision;
    if digits[first - 1] < 5 {
        while first < n && digits[first] == 0 {
            first += 1;
        }
        *exp += first as i32;
        digits.drain(..first);
        return;
    }
    let carry_start = first;
    for d in digits[carry_start..].iter_mut() {
        if *d == 9 {
            first += 1;
        } else {
            *d += 1;
            break;
        }
    }
    if first == n {
        *exp += first as i32;
        digits.clear();
        digits.push(1);
        return;
    }
    *exp += first as i32;
    digits.drain(..first);
}

/// APFloat's text layout of a decimal (`FormatPrecision`, `FormatMaxPadding`, `TruncateZero`).
fn layout_decimal(
    out: &mut String,
    negative: bool,
    dec: &Decimal,
    precision: u32,
    max_padding: u32,
    truncate_zero: bool,
) {
    if negative {
        out.push('-');
    }
    let digits = &dec.digits_lsb_first;
    let n = digits.len();
    let mut exp = dec.exp;
    let digit = |i: usize| (b'0' + digits[i]) as char;

    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        exp as u32 > max_padding || n as u32 + exp as u32 > precision
    } else {
        let msd = exp + n as i32 - 1;
        msd < 0 && (-msd) as u32 > max_padding
    };

    if scientific {
        exp += n as i32 - 1;
        out.push(digit(n - 1));
        out.push('.');
        if n == 1 && truncate_zero {
            out.push('0');
        } else {
            for i in (0..n - 1).rev() {
                out.push(digit(i));
            }
        }
        if !truncate_zero && precision as usize > n - 1 {
            for _ in 0..(precision as usize + 1 - n) {
                out.push('0');
            }
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if exp >= 0 { '+' } else { '-' });
        let e = exp.unsigned_abs();
        if !truncate_zero && e < 10 {
            out.push('0');
        }
        let _ = write!(out, "{e}");
        return;
    }

    if exp >= 0 {
        for i in (0..n).rev() {
            out.push(digit(i));
        }
        for _ in 0..exp {
            out.push('0');
        }
        return;
    }

    let whole = exp + n as i32;
    let mut i = 0usize;
    if whole > 0 {
        while i < whole as usize {
            out.push(digit(n - 1 - i));
            i += 1;
        }
        out.push('.');
    } else {
        out.push_str("0.");
        for _ in 0..(-whole) {
            out.push('0');
        }
    }
    while i < n {
        out.push(digit(n - 1 - i));
        i += 1;
    }
}

/// A finite value `(-1)^negative * significand * 2^exp2` of a format.
#[derive(Clone, Copy)]
struct Finite {
    kind: FloatKind,
    negative: bool,
    significand: u128,
    exp2: i32,
}

/// `APFloat::toString(str, precision, max_padding, truncate_zero)` for a finite value.
/// Returns the decimal it printed (None for zero).
fn to_string(out: &mut String, v: Finite, precision: u32, max_padding: u32, truncate_zero: bool) -> Option<Decimal> {
    let Finite { kind, negative, significand, exp2 } = v;
    if significand == 0 {
        if negative {
            out.push('-');
        }
        if max_padding != 0 {
            out.push('0');
        } else if truncate_zero {
            out.push_str("0.0E+0");
        } else {
            out.push_str("0.0");
            for _ in 1..precision {
                out.push('0');
            }
            out.push_str("e+00");
        }
        return None;
    }
    let precision = if precision == 0 { 2 + self::precision(kind) * 59 / 196 } else { precision };
    let dec = to_decimal(significand, exp2, precision);
    layout_decimal(out, negative, &dec, precision, max_padding, truncate_zero);
    Some(dec)
}

// ----- round-trip check ----------------------------------------------------------------------

/// Whether the decimal `dec` (as printed) reads back as exactly the given finite value.
fn round_trips(kind: FloatKind, text: &str, dec: &Decimal, value: Decoded, bits: u128) -> bool {
    match kind {
        FloatKind::F32 => text.parse::<f32>().map(|f| f.to_bits() as u128 == bits).unwrap_or(false),
        FloatKind::F64 => text.parse::<f64>().map(|f| f.to_bits() as u128 == bits).unwrap_or(false),
        FloatKind::F80 | FloatKind::F128 => rounds_to(dec, value, precision(kind)),
        // With at most 11 bits of precision, a 6-digit decimal is always within half an ulp
        // (it is off by less than 1e-5 relative; half an ulp is at least 2^-12 relative).
        _ => true,
    }
}

/// Exact test: does `dec` round (to nearest, ties to even) to the finite `value` whose
/// significand has `p` bits when normal?
fn rounds_to(dec: &Decimal, value: Decoded, p: u32) -> bool {
    let Decoded::Finite { significand: m, exp: x, min_exp_binade, .. } = value else {
        return false;
    };
    if m == 0 {
        return false;
    }
    // d = D * 10^e
    let mut d = BigUint::from_u128(0);
    for &digit in dec.digits_lsb_first.iter().rev() {
        d.mul_small(10);
        let add = BigUint::from_u128(digit as u128);
        d = add_big(&d, &add);
    }
    let even = m & 1 == 0;
    // upper = (2m + 1) * 2^(x - 1)
    let upper = (BigUint::from_u128(2 * m + 1), x - 1);
    // lower = (2m - 1) * 2^(x - 1), or (4m - 1) * 2^(x - 2) at the bottom of a binade.
    let at_binade_bottom = m == 1u128 << (p - 1) && !min_exp_binade;
    let lower =
        if at_binade_bottom { (BigUint::from_u128(4 * m - 1), x - 2) } else { (BigUint::from_u128(2 * m - 1), x - 1) };
    let cmp_upper = compare_scaled(&d, dec.exp, &upper.0, upper.1);
    let cmp_lower = compare_scaled(&d, dec.exp, &lower.0, lower.1);
    let below_upper = cmp_upper == Ordering::Less || (cmp_upper == Ordering::Equal && even);
    let above_lower = cmp_lower == Ordering::Greater || (cmp_lower == Ordering::Equal && even);
    below_upper && above_lower
}

fn add_big(a: &BigUint, b: &BigUint) -> BigUint {
    let mut limbs = Vec::with_capacity(a.limbs.len().max(b.limbs.len()) + 1);
    let mut carry = 0u64;
    for i in 0..a.limbs.len().max(b.limbs.len()) {
        let t = *a.limbs.get(i).unwrap_or(&0) as u64 + *b.limbs.get(i).unwrap_or(&0) as u64 + carry;
        limbs.push(t as u32);
        carry = t >> 32;
    }
    if carry != 0 {
        limbs.push(carry as u32);
    }
    let mut r = BigUint { limbs };
    r.trim();
    r
}

/// Compares `a * 10^e10` with `b * 2^e2`.
fn compare_scaled(a: &BigUint, e10: i32, b: &BigUint, e2: i32) -> Ordering {
    let (mut l, mut r) = (a.clone(), b.clone());
    if e10 >= 0 {
        l.mul_pow10(e10 as u32);
    } else {
        r.mul_pow10((-e10) as u32);
    }
    if e2 >= 0 {
        r.shl(e2 as u32);
    } else {
        l.shl((-e2) as u32);
    }
    l.cmp_big(&r)
}

// ----- entry point ---------------------------------------------------------------------------

/// Appends the literal MLIR prints for the float `bits` of format `kind`. Returns true when it
/// printed the hexadecimal bit pattern (MLIR then never elides the `: f64` type suffix).
pub(crate) fn write_float(out: &mut String, kind: FloatKind, bits: u128) -> bool {
    let bits = bits & mask(kind.width());
    let value = decode(kind, bits);
    if let Decoded::Finite { negative, significand, exp, .. } = value {
        let start = out.len();
        let finite = Finite { kind, negative, significand, exp2: exp };
        let dec = to_string(out, finite, 6, 0, false);
        let exact = match &dec {
            None => true,
            Some(d) => round_trips(kind, &out[start..], d, value, bits),
        };
        if exact {
            return false;
        }
        out.truncate(start);
        to_string(out, finite, 0, 3, true);
        if out[start..].contains('.') {
            return false;
        }
        out.truncate(start);
    }
    let bits = if kind == FloatKind::F80 { canonical_x87_bits(bits) } else { bits };
    let _ = write!(out, "0x{bits:X}");
    true
}

/// The bits LLVM's APFloat gives back for an x87 pattern it does not keep verbatim: an
/// "unnormal" (non-zero exponent, integer bit clear) is a NaN and reads back with the exponent
/// all ones; a pseudo-denormal (zero exponent, integer bit set) reads back with exponent 1.
/// Sign and significand are kept.
fn canonical_x87_bits(bits: u128) -> u128 {
    let exp_field = (bits >> 64) & 0x7FFF;
    let int_bit = (bits >> 63) & 1 == 1;
    let with_exp = |e: u128| (bits & !(0x7FFF << 64)) | (e << 64);
    match (exp_field, int_bit) {
        (0, true) => with_exp(1),
        (0x7FFF, _) | (0, false) | (_, true) => bits,
        (_, false) => with_exp(0x7FFF),
    }
}

/// The literal as a new string (convenience for tests and callers outside the printer).
pub fn format_float(kind: FloatKind, bits: u128) -> String {
    let mut s = String::new();
    write_float(&mut s, kind, bits);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use FloatKind::*;

    fn f64s(v: f64) -> String {
        format_float(F64, v.to_bits() as u128)
    }
    fn f32s(v: f32) -> String {
        format_float(F32, v.to_bits() as u128)
    }

    #[test]
    fn f64_values_match_mlir_opt() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1.000000e+00"),
            (0.1, "1.000000e-01"),
            (1.1, "1.100000e+00"),
            (0.30000000000000004, "0.30000000000000004"),
            (1.0e10, "1.000000e+10"),
            (1234567.0, "0x4132D68700000000"),
            (1234567.5, "1234567.5"),
            (12345678.9, "12345678.9"),
            (1.0e-7, "9.9999999999999995E-8"),
            (1.2345678901e20, "1.2345678901E+20"),
            (1.7976931348623157e308, "1.7976931348623157E+308"),
            (4.9e-324, "4.940660e-324"),
            (2.2250738585072014e-308, "2.2250738585072014E-308"),
            (f64::from_bits(0x400921FB54442D11), "3.14159265358979"),
            (999999.0, "9.999990e+05"),
            (9999999.0, "0x416312CFE0000000"),
            (1000000.0, "1.000000e+06"),
            (0.123456789, "0.123456789"),
            (123456789012345678901234.0, "1.2345678901234569E+23"),
            (0.5, "5.000000e-01"),
            (1.5e3, "1.500000e+03"),
            (-0.001, "-1.000000e-03"),
            (0.0, "0.000000e+00"),
            (-0.0, "-0.000000e+00"),
            (-2.5, "-2.500000e+00"),
        ];
        for &(v, want) in cases {
            assert_eq!(f64s(v), want, "value {v:e}");
        }
    }

    #[test]
    fn f32_values_match_mlir_opt() {
        let cases: &[(f32, &str)] = &[
            (1.0, "1.000000e+00"),
            (0.1, "1.000000e-01"),
            (0.2, "2.000000e-01"),
            (f32::from_bits(0x40490FDB), "3.14159274"),
            (100000.0, "1.000000e+05"),
            (1234567.0, "0x4996B438"),
            (1.0e-7, "1.000000e-07"),
            (1.0e38, "9.99999968E+37"),
            (4096.0, "4.096000e+03"),
            (f32::from_bits(1), "1.401300e-45"),
            (f32::from_bits(0x007F_FFFF), "1.17549421E-38"),
        ];
        for &(v, want) in cases {
            assert_eq!(f32s(v), want, "value {v:e}");
        }
    }

    #[test]
    fn x87_unnormals_print_as_llvm_nans() {
        // Integer bit clear with a normal exponent: LLVM reads a NaN, exponent all ones.
        assert_eq!(format_float(F80, 0xB8E9_182A_8241_1442_45A5), "0xFFFF182A8241144245A5");
        assert_eq!(format_float(F80, 0x7FFF_8000_0000_0000_0001), "0x7FFF8000000000000001");
    }

    #[test]
    fn specials_print_as_hex() {
        assert_eq!(format_float(F32, 0x7FC0_0000), "0x7FC00000");
        assert_eq!(format_float(F32, 0xFF80_0000), "0xFF800000");
        assert_eq!(format_float(F64, 0x7FF8_0000_0000_0000), "0x7FF8000000000000");
        assert_eq!(format_float(F16, 0x7C00), "0x7C00");
        assert_eq!(format_float(BF16, 0x7FC0), "0x7FC0");
        assert_eq!(format_float(F80, 0x7FFF_8000_0000_0000_0000), "0x7FFF8000000000000000");
    }

    #[test]
    fn small_formats() {
        assert_eq!(format_float(F16, 0x3C00), "1.000000e+00");
        assert_eq!(format_float(F16, 0x2E66), "9.997550e-02"); // 0.1
        assert_eq!(format_float(F16, 0x7BFF), "6.550400e+04");
        assert_eq!(format_float(F16, 0x3554), "3.330080e-01"); // 0.333
        assert_eq!(format_float(F16, 0x0001), "5.960460e-08");
        assert_eq!(format_float(F16, 0x4248), "3.140630e+00");
        assert_eq!(format_float(F16, 0x8000), "-0.000000e+00");
        assert_eq!(format_float(BF16, 0x3DCD), "1.000980e-01");
        assert_eq!(format_float(BF16, 0x7E96), "9.969200e+37");
        assert_eq!(format_float(BF16, 0x4641), "1.235200e+04");
        assert_eq!(format_float(TF32, (123 << 10) | 0x266), "9.997550e-02");
        assert_eq!(format_float(F8E4M3FN, 0x38), "1.000000e+00");
        assert_eq!(format_float(F8E4M3FN, 0x7E), "4.480000e+02");
        assert_eq!(format_float(F8E4M3FN, 0x7F), "0x7F");
        assert_eq!(format_float(F8E5M2, 0x7B), "5.734400e+04");
        assert_eq!(format_float(F8E4M3FNUZ, 0x80), "0x80");
    }

    #[test]
    fn extended_formats() {
        // 1.0 and the f64 value nearest 0.1 (MLIR parses decimal literals through a double, so
        // `0.1 : f80` holds this value) in x87 extended precision.
        assert_eq!(format_float(F80, 0x3FFF_8000_0000_0000_0000), "1.000000e+00");
        assert_eq!(format_float(F80, 0x3FFB_CCCC_CCCC_CCCC_D000), "0.100000000000000005551");
        // The same two values in binary128.
        assert_eq!(format_float(F128, 0x3FFF_0000_0000_0000_0000_0000_0000_0000), "1.000000e+00");
        assert_eq!(
            format_float(F128, 0x3FFB_9999_9999_9999_A000_0000_0000_0000),
            "0.100000000000000005551115123125782702"
        );
    }
}
