//! Element types of runtime buffers and their conversion to and from `f64`, the common
//! currency of the CPU kernels (bf16 and f16 go through the `half` crate; integers are exact up
//! to 2^53), and `i64`, the currency of integer arithmetic (exact for every integer type).
//! Conversions follow `numerics.rs`: a float stored into an integer type truncates toward zero
//! and saturates (NaN gives 0), an integer stored into a narrower integer type wraps; `i1`
//! (booleans, one byte holding 0 or 1) stores `x != 0` of any value (torch's `bool()`: NaN
//! gives 1).

use crate::error::{RtError, RtResult};
use fuser_ir::context::Context;
use fuser_ir::types::{FloatKind, Signedness, Type, TypeKind};

/// The element type of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    BF16,
    F16,
    F32,
    F64,
    I8,
    I16,
    I32,
    I64,
    /// Booleans: one byte, 0 or 1 (`compare`'s results, `where`'s conditions).
    I1,
}

impl DType {
    /// Every type; the position is the wire code of the process transport (append only).
    pub const ALL: [DType; 9] =
        [DType::BF16, DType::F16, DType::F32, DType::F64, DType::I8, DType::I16, DType::I32, DType::I64, DType::I1];

    /// The runtime type of an IR element type (`index` is 64-bit).
    pub fn of(ctx: &Context, t: Type) -> RtResult<DType> {
        Ok(match ctx.type_kind(t) {
            TypeKind::Float(FloatKind::BF16) => DType::BF16,
            TypeKind::Float(FloatKind::F16) => DType::F16,
            TypeKind::Float(FloatKind::F32) => DType::F32,
            TypeKind::Float(FloatKind::F64) => DType::F64,
            // Unsigned integers would need their own wrapping and division: refused.
            TypeKind::Integer { signedness: Signedness::Unsigned, .. } => {
                return Err(RtError::new(format!(
                    "unsupported element type {} (the runtime supports signless and signed integers i1, i8, i16, \
                     i32, i64 and the floats bf16, f16, f32, f64)",
                    fuser_dialects::type_str(ctx, t)
                )));
            }
            TypeKind::Integer { width: 1, .. } => DType::I1,
            TypeKind::Integer { width: 8, .. } => DType::I8,
            TypeKind::Integer { width: 16, .. } => DType::I16,
            TypeKind::Integer { width: 32, .. } => DType::I32,
            TypeKind::Integer { width: 64, .. } | TypeKind::Index => DType::I64,
            _ => return Err(RtError::new(format!("unsupported element type {}", fuser_dialects::type_str(ctx, t)))),
        })
    }

    pub fn size(self) -> usize {
        match self {
            DType::I8 | DType::I1 => 1,
            DType::BF16 | DType::F16 | DType::I16 => 2,
            DType::F32 | DType::I32 => 4,
            DType::F64 | DType::I64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::BF16 | DType::F16 | DType::F32 | DType::F64)
    }

    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    /// The name used in reports and CSV rows (`bf16`, `f32`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DType::BF16 => "bf16",
            DType::F16 => "f16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::I1 => "i1",
        }
    }

    /// The relative-error tolerance `--check` accepts for outputs of this type.
    pub fn tolerance(self) -> f64 {
        match self {
            DType::BF16 => 2e-2,
            DType::F16 => 2e-3,
            DType::F32 => 1e-5,
            DType::F64 => 1e-12,
            _ => 0.0,
        }
    }

    /// Reads the element stored at the start of `bytes` (little endian).
    #[inline]
    pub fn read(self, bytes: &[u8]) -> f64 {
        match self {
            DType::BF16 => half::bf16::from_le_bytes([bytes[0], bytes[1]]).to_f64(),
            DType::F16 => half::f16::from_le_bytes([bytes[0], bytes[1]]).to_f64(),
            DType::F32 => f32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as f64,
            DType::F64 => f64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")),
            DType::I8 => bytes[0] as i8 as f64,
            DType::I16 => i16::from_le_bytes([bytes[0], bytes[1]]) as f64,
            DType::I32 => i32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as f64,
            DType::I64 => i64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")) as f64,
            DType::I1 => (bytes[0] != 0) as u8 as f64,
        }
    }

    /// Stores `v` converted to this type: floats round to nearest even (overflow to
    /// infinity), integers truncate toward zero and saturate, NaN gives 0 (`fusion.cast`'s
    /// float -> integer rule; exact integer values are stored unchanged).
    #[inline]
    pub fn write(self, bytes: &mut [u8], v: f64) {
        match self {
            // Through f32 rounded to odd: one rounding of `v` (the half crate's from_f64 rounds
            // twice, through f32 to nearest).
            DType::BF16 => bytes[..2].copy_from_slice(&half::bf16::from_f32(f32_round_odd(v)).to_le_bytes()),
            DType::F16 => bytes[..2].copy_from_slice(&half::f16::from_f32(f32_round_odd(v)).to_le_bytes()),
            DType::F32 => bytes[..4].copy_from_slice(&(v as f32).to_le_bytes()),
            DType::F64 => bytes[..8].copy_from_slice(&v.to_le_bytes()),
            DType::I8 => bytes[0] = (v as i8) as u8,
            DType::I16 => bytes[..2].copy_from_slice(&(v as i16).to_le_bytes()),
            DType::I32 => bytes[..4].copy_from_slice(&(v as i32).to_le_bytes()),
            DType::I64 => bytes[..8].copy_from_slice(&(v as i64).to_le_bytes()),
            // NaN != 0: true, as torch's bool().
            DType::I1 => bytes[0] = (v != 0.0) as u8,
        }
    }

    /// Reads the element at the start of `bytes` as an integer: exact for integer types; a
    /// float converts as `fusion.cast` to i64 does (truncated, saturated, NaN 0).
    #[inline]
    pub fn read_int(self, bytes: &[u8]) -> i64 {
        match self {
            DType::I8 => bytes[0] as i8 as i64,
            DType::I16 => i16::from_le_bytes([bytes[0], bytes[1]]) as i64,
            DType::I32 => i32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as i64,
            DType::I64 => i64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")),
            DType::I1 => (bytes[0] != 0) as i64,
            _ => self.read(bytes) as i64,
        }
    }

    /// Stores the integer `v`: integer types keep its low bits (two's complement wrapping),
    /// floats its nearest value (ties to even, one rounding).
    #[inline]
    pub fn write_int(self, bytes: &mut [u8], v: i64) {
        match self {
            DType::I8 => bytes[0] = v as u8,
            DType::I16 => bytes[..2].copy_from_slice(&(v as i16).to_le_bytes()),
            DType::I32 => bytes[..4].copy_from_slice(&(v as i32).to_le_bytes()),
            DType::I64 => bytes[..8].copy_from_slice(&v.to_le_bytes()),
            DType::I1 => bytes[0] = (v != 0) as u8,
            DType::F64 => bytes[..8].copy_from_slice(&(v as f64).to_le_bytes()),
            DType::F32 => bytes[..4].copy_from_slice(&(v as f32).to_le_bytes()),
            DType::BF16 => bytes[..2].copy_from_slice(&half::bf16::from_f32(f32_round_odd_int(v)).to_le_bytes()),
            DType::F16 => bytes[..2].copy_from_slice(&half::f16::from_f32(f32_round_odd_int(v)).to_le_bytes()),
        }
    }
}

/// `rne` (the f32 nearest an exact value) turned into the exact value rounded to odd: the f32
/// toward zero from it, with its last bit set when inexact. `cmp`: `|rne|` against `|exact|`.
/// Rounding that to nearest at 11 or 8 bits (f16, bf16) equals rounding the exact value once
/// (f32 has more than 2 extra bits), which rounding through f32 to nearest does not.
fn round_odd(rne: f32, cmp: std::cmp::Ordering) -> f32 {
    let toward_zero = match cmp {
        std::cmp::Ordering::Equal => return rne,
        std::cmp::Ordering::Less => rne,
        // |rne| > |exact| >= 0, so rne is not zero: one step toward zero.
        std::cmp::Ordering::Greater => f32::from_bits(rne.to_bits() - 1),
    };
    f32::from_bits(toward_zero.to_bits() | 1)
}

/// `v` rounded to f32 by rounding to odd (see [`round_odd`]); NaN and infinities unchanged.
pub fn f32_round_odd(v: f64) -> f32 {
    let rne = v as f32;
    match (rne as f64).abs().partial_cmp(&v.abs()) {
        Some(cmp) => round_odd(rne, cmp),
        None => rne,
    }
}

/// The integer `v` rounded to f32 by rounding to odd.
pub fn f32_round_odd_int(v: i64) -> f32 {
    let rne = v as f32;
    round_odd(rne, (rne as f64 as i128).abs().cmp(&(v as i128).abs()))
}

/// `v` rounded to a value `dtype` can hold.
pub fn round_to(dtype: DType, v: f64) -> f64 {
    let mut bytes = [0u8; 8];
    dtype.write(&mut bytes, v);
    dtype.read(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rounds() {
        for (d, v, back) in [
            (DType::F32, 1.5, 1.5),
            (DType::F64, 0.1, 0.1),
            (DType::BF16, 1.0 + 1.0 / 256.0, 1.0),
            (DType::F16, 2.0, 2.0),
            (DType::I32, -3.4, -3.0),
            (DType::I32, 2.5, 2.0),
            (DType::I32, -2.5, -2.0),
            (DType::I32, 3.99, 3.0),
            (DType::I8, 300.0, 127.0),
            (DType::I8, f64::NAN, 0.0),
        ] {
            let mut b = [0u8; 8];
            d.write(&mut b, v);
            assert_eq!(d.read(&b), back, "{d:?} {v}");
        }
    }

    #[test]
    fn integers_store_wrapped_and_read_exactly() {
        let mut b = [0u8; 8];
        DType::I8.write_int(&mut b, 200);
        assert_eq!(DType::I8.read_int(&b), -56);
        DType::I64.write_int(&mut b, i64::MAX - 1);
        assert_eq!(DType::I64.read_int(&b), i64::MAX - 1);
        DType::F16.write_int(&mut b, 70000);
        assert_eq!(DType::F16.read(&b), f64::INFINITY);
    }

    #[test]
    fn booleans_store_nonzero_as_one() {
        let mut b = [0u8; 8];
        for (v, want) in [(0.0, 0), (-0.0, 0), (2.5, 1), (-1e-300, 1), (f64::NAN, 1), (f64::NEG_INFINITY, 1)] {
            DType::I1.write(&mut b, v);
            assert_eq!((b[0], DType::I1.read(&b), DType::I1.read_int(&b)), (want, want as f64, want as i64), "{v}");
        }
        for (v, want) in [(0i64, 0u8), (1, 1), (-1, 1), (256, 1), (i64::MIN, 1)] {
            DType::I1.write_int(&mut b, v);
            assert_eq!(b[0], want, "{v}");
        }
        assert_eq!(DType::I1.size(), 1);
        assert_eq!(DType::I1.tolerance(), 0.0);
        assert!(DType::I1.is_int());
    }
}
