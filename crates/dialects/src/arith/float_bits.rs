//! Exact conversion of float constants between the IEEE-style binary formats (`f16`, `bf16`,
//! `tf32`, `f32`, `f64`, `f80` with its explicit integer bit, `f128`) on their bit patterns,
//! for the cast folders of types that `f64` cannot hold (`f80`, `f128`).
//!
//! Invariant: a conversion succeeds only when the value is represented exactly in the target
//! format (MLIR folds `extf`/`truncf` only when `APFloat::convert` loses no information);
//! NaNs are not converted here (see `float_const::convert_nan`).

use fuser_ir::types::FloatKind;

/// A binary format: exponent bits, stored fraction bits, and whether the integer bit is stored.
#[derive(Clone, Copy)]
struct Format {
    exp_bits: u32,
    frac_bits: u32,
    explicit_int: bool,
}

impl Format {
    fn of(k: FloatKind) -> Option<Format> {
        let (exp_bits, frac_bits, explicit_int) = match k {
            FloatKind::F16 => (5, 10, false),
            FloatKind::BF16 => (8, 7, false),
            FloatKind::TF32 => (8, 10, false),
            FloatKind::F32 => (8, 23, false),
            FloatKind::F64 => (11, 52, false),
            FloatKind::F80 => (15, 63, true),
            FloatKind::F128 => (15, 112, false),
            _ => return None,
        };
        Some(Format { exp_bits, frac_bits, explicit_int })
    }
    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }
    fn max_exp(self) -> u128 {
        (1u128 << self.exp_bits) - 1
    }
    /// The bit of the stored field after the fraction (the integer bit of `f80`, else the sign).
    fn sign_shift(self) -> u32 {
        self.exp_bits + self.frac_bits + self.explicit_int as u32
    }
}

/// A finite value `(-1)^sign * m * 2^e`, or an infinity.
enum Value {
    Finite { sign: bool, m: u128, e: i32 },
    Inf { sign: bool },
}

fn decode(f: Format, bits: u128) -> Option<Value> {
    let sign = (bits >> f.sign_shift()) & 1 == 1;
    let field_bits = f.frac_bits + f.explicit_int as u32;
    let exp = (bits >> field_bits) & f.max_exp();
    let frac = bits & ((1u128 << f.frac_bits) - 1);
    if exp == f.max_exp() {
        return (frac == 0).then_some(Value::Inf { sign });
    }
    let min_e = 1 - f.bias() - f.frac_bits as i32;
    if exp == 0 {
        return Some(Value::Finite { sign, m: frac, e: min_e });
    }
    // `f80` stores its integer bit; a cleared one (an "unnormal") is not a value MLIR makes.
    if f.explicit_int && (bits >> f.frac_bits) & 1 == 0 {
        return None;
    }
    Some(Value::Finite { sign, m: frac | 1u128 << f.frac_bits, e: exp as i32 - f.bias() - f.frac_bits as i32 })
}

fn encode(f: Format, v: Value) -> Option<u128> {
    let field_bits = f.frac_bits + f.explicit_int as u32;
    let (sign, m, e) = match v {
        Value::Inf { sign } => {
            let int_bit = if f.explicit_int { 1u128 << f.frac_bits } else { 0 };
            return Some((sign as u128) << f.sign_shift() | f.max_exp() << field_bits | int_bit);
        }
        Value::Finite { sign, m, e } => (sign, m, e),
    };
    let sign_bits = (sign as u128) << f.sign_shift();
    if m == 0 {
        return Some(sign_bits);
    }
    let len = 128 - m.leading_zeros() as i32;
    let lead = e + len - 1;
    if lead > f.bias() {
        return None;
    }
    let min_normal = 1 - f.bias();
    // The unit of the last fraction bit at the value's scale.
    let unit = if lead >= min_normal { lead - f.frac_bits as i32 } else { min_normal - f.frac_bits as i32 };
    let shift = e - unit;
    let scaled = if shift >= 0 {
        m.checked_shl(shift as u32).filter(|s| s >> shift == m)?
    } else {
        let drop = (-shift) as u32;
        if drop >= 128 || m & ((1u128 << drop) - 1) != 0 {
            return None;
        }
        m >> drop
    };
    if lead < min_normal {
        return Some(sign_bits | scaled);
    }
    let exp = (lead + f.bias()) as u128;
    let frac = if f.explicit_int { scaled } else { scaled & ((1u128 << f.frac_bits) - 1) };
    Some(sign_bits | exp << field_bits | frac)
}

/// The bits of the value `bits` (format `from`) in format `to`, when exact; `None` for NaNs,
/// unsupported formats and values `to` cannot hold exactly.
pub(crate) fn convert_exact(bits: u128, from: FloatKind, to: FloatKind) -> Option<u128> {
    encode(Format::of(to)?, decode(Format::of(from)?, bits)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_is_exact_and_narrowing_checks() {
        // 1.0 and -2.5 between f32, f80 and f128.
        assert_eq!(convert_exact(0x3F80_0000, FloatKind::F32, FloatKind::F80), Some(0x3FFF_8000_0000_0000_0000));
        assert_eq!(convert_exact(0x3FFF_8000_0000_0000_0000, FloatKind::F80, FloatKind::F128), Some(0x3FFF << 112));
        assert_eq!(convert_exact(0xC020_0000, FloatKind::F32, FloatKind::F64), Some(0xC004_0000_0000_0000));
        // 0.1 (f64) has no exact f32; 2^-149 (smallest f32 subnormal) widens exactly.
        assert_eq!(convert_exact(0x3FB9_9999_9999_999A, FloatKind::F64, FloatKind::F32), None);
        assert_eq!(convert_exact(1, FloatKind::F32, FloatKind::F64), Some(0x36A0_0000_0000_0000));
        assert_eq!(convert_exact(0x36A0_0000_0000_0000, FloatKind::F64, FloatKind::F32), Some(1));
        // Infinities and signed zeros keep their sign; overflow refuses.
        assert_eq!(convert_exact(0xFF80_0000, FloatKind::F32, FloatKind::F80), Some(0xFFFF_8000_0000_0000_0000));
        assert_eq!(convert_exact(0x8000_0000, FloatKind::F32, FloatKind::F128), Some(1 << 127));
        assert_eq!(convert_exact(0x7F7F_FFFF, FloatKind::F32, FloatKind::F16), None);
        assert_eq!(convert_exact(0x7FC0_0000, FloatKind::F32, FloatKind::F64), None);
    }
}
