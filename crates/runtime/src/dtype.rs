//! Element types of runtime buffers and their conversion to and from `f64`, the common
//! currency of the CPU kernels (bf16 and f16 go through the `half` crate; integers are exact up
//! to 2^53).

use crate::error::{RtError, RtResult};
use fuser_ir::context::Context;
use fuser_ir::types::{FloatKind, Type, TypeKind};

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
}

impl DType {
    pub const ALL: [DType; 8] =
        [DType::BF16, DType::F16, DType::F32, DType::F64, DType::I8, DType::I16, DType::I32, DType::I64];

    /// The runtime type of an IR element type (`index` is 64-bit).
    pub fn of(ctx: &Context, t: Type) -> RtResult<DType> {
        Ok(match ctx.type_kind(t) {
            TypeKind::Float(FloatKind::BF16) => DType::BF16,
            TypeKind::Float(FloatKind::F16) => DType::F16,
            TypeKind::Float(FloatKind::F32) => DType::F32,
            TypeKind::Float(FloatKind::F64) => DType::F64,
            TypeKind::Integer { width: 8, .. } => DType::I8,
            TypeKind::Integer { width: 16, .. } => DType::I16,
            TypeKind::Integer { width: 32, .. } => DType::I32,
            TypeKind::Integer { width: 64, .. } | TypeKind::Index => DType::I64,
            _ => return Err(RtError::new(format!("unsupported element type {}", fuser_dialects::type_str(ctx, t)))),
        })
    }

    pub fn size(self) -> usize {
        match self {
            DType::I8 => 1,
            DType::BF16 | DType::F16 | DType::I16 => 2,
            DType::F32 | DType::I32 => 4,
            DType::F64 | DType::I64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::BF16 | DType::F16 | DType::F32 | DType::F64)
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
        }
    }

    /// Stores `v` (rounded to this type; integers round to nearest and saturate).
    #[inline]
    pub fn write(self, bytes: &mut [u8], v: f64) {
        match self {
            DType::BF16 => bytes[..2].copy_from_slice(&half::bf16::from_f64(v).to_le_bytes()),
            DType::F16 => bytes[..2].copy_from_slice(&half::f16::from_f64(v).to_le_bytes()),
            DType::F32 => bytes[..4].copy_from_slice(&(v as f32).to_le_bytes()),
            DType::F64 => bytes[..8].copy_from_slice(&v.to_le_bytes()),
            DType::I8 => bytes[0] = (v.round() as i8) as u8,
            DType::I16 => bytes[..2].copy_from_slice(&(v.round() as i16).to_le_bytes()),
            DType::I32 => bytes[..4].copy_from_slice(&(v.round() as i32).to_le_bytes()),
            DType::I64 => bytes[..8].copy_from_slice(&(v.round() as i64).to_le_bytes()),
        }
    }
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
            (DType::I8, 300.0, 127.0),
        ] {
            let mut b = [0u8; 8];
            d.write(&mut b, v);
            assert_eq!(d.read(&b), back, "{d:?}");
        }
    }
}
