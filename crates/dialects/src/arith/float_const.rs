//! Scalar float constants for the folders of the float ops: `f16`, `bf16`, `f32` and `f64`
//! attributes read as `f64` (exactly) and written back rounded to the type. Rounding the exact
//! `f64` result of one operation gives the correctly rounded narrow sum, difference, product and
//! quotient (53 >= 2 * 24 + 2), so folding matches MLIR's `APFloat` arithmetic in
//! round-to-nearest-even; `remf`, `negf` and the min/max family are exact. Other float types
//! (`f80`, `f128`, the 8-bit and smaller formats) are not folded. The casts read and write
//! `f16`, `bf16`, `f32` and `f64` constants exactly (`any_float_value`, `exact_float_attr`).

use crate::support::element_type;
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::types::{FloatKind, Type, TypeKind};

/// The kind of a float type that the folders evaluate (`f16`, `bf16`, `f32`, `f64`).
fn foldable_kind(ctx: &Context, ty: Type) -> Option<FloatKind> {
    match ctx.type_kind(ty) {
        TypeKind::Float(k @ (FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64)) => Some(*k),
        _ => None,
    }
}

/// The value of a float constant of type `ty`: a scalar, or the element of a splat when `ty`
/// is a vector or tensor.
pub(crate) fn float_value(ctx: &Context, a: Option<Attr>, ty: Type) -> Option<f64> {
    let scalar = super::splat_scalar(ctx, a?, ty)?;
    let AttrKind::Float { bits, ty: at } = ctx.attr_kind(scalar) else { return None };
    widen(foldable_kind(ctx, *at)?, *bits)
}

/// A float attribute of type `ty` holding `v` rounded to the type (to nearest, ties to even);
/// a splat for a static vector or tensor type.
/// `f16` and `bf16` round through `f32`: for the result of one operation on operands of the
/// narrow type this double rounding is innocuous (24 >= 2 * 11 + 2).
pub(crate) fn float_attr(ctx: &Context, ty: Type, v: f64) -> Option<Attr> {
    let elem = element_type(ctx, ty);
    if elem != ty {
        return super::splat_of(ctx, ty, float_attr(ctx, elem, v)?);
    }
    let bits = match foldable_kind(ctx, ty)? {
        FloatKind::F64 => v.to_bits() as u128,
        FloatKind::F32 => (v as f32).to_bits() as u128,
        FloatKind::BF16 => f32_to_bf16(v as f32) as u128,
        _ => f32_to_half(v as f32) as u128,
    };
    Some(ctx.intern_attr(AttrKind::Float { bits, ty }))
}

/// `x` rounded to `bf16` bits (NaN stays a quiet NaN with its top payload bits).
fn f32_to_bf16(x: f32) -> u16 {
    let b = x.to_bits();
    if x.is_nan() {
        return ((b >> 16) | 0x40) as u16;
    }
    let rest = b & 0xffff;
    let mut h = b >> 16;
    if rest > 0x8000 || (rest == 0x8000 && h & 1 == 1) {
        h += 1;
    }
    h as u16
}

/// `x` rounded to IEEE half bits, subnormals and overflow to infinity included.
fn f32_to_half(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 255 {
        return sign | 0x7c00 | if man != 0 { 0x200 | (man >> 13) as u16 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    let (m, shift, base) = if e <= 0 { (man | 0x80_0000, (14 - e) as u32, 0u32) } else { (man, 13, (e as u32) << 10) };
    if shift >= 32 {
        return sign;
    }
    let kept = m >> shift;
    let rest = m & ((1u32 << shift) - 1);
    let half = 1u32 << (shift - 1);
    let mut h = base + kept;
    if rest > half || (rest == half && h & 1 == 1) {
        h += 1;
    }
    sign | h as u16
}

/// True when `a` is a float constant (scalar, or splat of a vector/tensor) of any float type
/// whose every element satisfies `pred`; the value is read as `f64` for `f16`, `bf16`, `f32`
/// and `f64` (enough to test signs, zeros, ones, infinities and NaN).
pub(crate) fn float_splat_is(ctx: &Context, a: Option<Attr>, pred: impl Fn(f64) -> bool) -> bool {
    let Some(a) = a else { return false };
    let scalar = match ctx.attr_kind(a) {
        AttrKind::DenseElements { data: fuser_ir::attrs::DenseData::Splat(s), .. } => *s,
        _ => a,
    };
    let AttrKind::Float { bits, ty } = ctx.attr_kind(scalar) else { return false };
    let TypeKind::Float(k) = ctx.type_kind(element_type(ctx, *ty)) else { return false };
    widen(*k, *bits).is_some_and(pred)
}

/// A scalar float constant of `f16`, `bf16`, `f32` or `f64` as `f64` (exact), with its kind.
pub(crate) fn any_float_value(ctx: &Context, a: Attr) -> Option<(f64, FloatKind)> {
    let AttrKind::Float { bits, ty } = ctx.attr_kind(a) else { return None };
    let TypeKind::Float(k) = ctx.type_kind(*ty) else { return None };
    Some((widen(*k, *bits)?, *k))
}

/// A float attribute of type `ty` (`f16`, `bf16`, `f32`, `f64`) holding exactly `v`; `None`
/// when `v` is not representable in the type without rounding. A NaN keeps its sign and
/// top-aligned payload (`f32`/`f64` only, and only when no payload bit is lost).
pub(crate) fn exact_float_attr(ctx: &Context, ty: Type, v: f64) -> Option<Attr> {
    let TypeKind::Float(k) = ctx.type_kind(ty) else { return None };
    if v.is_nan() {
        let bits = match k {
            FloatKind::F64 => v.to_bits() as u128,
            FloatKind::F32 if ((v as f32) as f64).to_bits() == v.to_bits() => (v as f32).to_bits() as u128,
            _ => return None,
        };
        return Some(ctx.intern_attr(AttrKind::Float { bits, ty }));
    }
    let bits = match k {
        FloatKind::F64 => v.to_bits() as u128,
        FloatKind::F32 => ((v as f32) as f64 == v).then(|| (v as f32).to_bits() as u128)?,
        FloatKind::BF16 => {
            let f = v as f32;
            let b = f.to_bits();
            (f as f64 == v && b & 0xffff == 0).then_some((b >> 16) as u128)?
        }
        FloatKind::F16 => encode_half_exact(v)? as u128,
        _ => return None,
    };
    Some(ctx.intern_attr(AttrKind::Float { bits, ty }))
}

/// The constant `a` (`f16`, `bf16`, `f32`, `f64`) with its sign bit flipped, as
/// `APFloat::changeSign` does (NaNs included, payload and quietness kept).
pub(crate) fn negated(ctx: &Context, a: Attr) -> Option<Attr> {
    let AttrKind::Float { bits, ty } = ctx.attr_kind(a) else { return None };
    let TypeKind::Float(k) = ctx.type_kind(*ty) else { return None };
    let (e, m) = layout(*k)?;
    Some(ctx.intern_attr(AttrKind::Float { bits: bits ^ (1u128 << (e + m)), ty: *ty }))
}

/// True when `a` is a NaN constant of `f16`, `bf16`, `f32` or `f64`.
pub(crate) fn is_nan_attr(ctx: &Context, a: Attr) -> bool {
    nan_parts(ctx, a).is_some()
}

/// The layout and bits of a NaN constant.
fn nan_parts(ctx: &Context, a: Attr) -> Option<((u32, u32), u128, Type)> {
    let AttrKind::Float { bits, ty } = ctx.attr_kind(a) else { return None };
    let TypeKind::Float(k) = ctx.type_kind(*ty) else { return None };
    let (e, m) = layout(*k)?;
    let exp = (bits >> m) & ((1u128 << e) - 1);
    (exp == (1u128 << e) - 1 && bits & ((1u128 << m) - 1) != 0).then_some(((e, m), *bits, *ty))
}

/// The NaN constant `a` with its quiet bit set (sign and payload kept); other constants as given.
pub(crate) fn quiet_nan(ctx: &Context, a: Attr) -> Attr {
    match nan_parts(ctx, a) {
        Some(((_, m), bits, ty)) => ctx.intern_attr(AttrKind::Float { bits: bits | 1u128 << (m - 1), ty }),
        None => a,
    }
}

/// `(exponent bits, stored mantissa bits)` of the common float formats.
fn layout(k: FloatKind) -> Option<(u32, u32)> {
    match k {
        FloatKind::F16 => Some((5, 10)),
        FloatKind::BF16 => Some((8, 7)),
        FloatKind::F32 => Some((8, 23)),
        FloatKind::F64 => Some((11, 52)),
        _ => None,
    }
}

/// The conversion of a NaN constant `a` to the float type `ty` as `APFloat::convert` does it
/// (the significand shifts by the difference in precision): `None` when `a` is not a NaN of a
/// common format; `Some(None)` when MLIR refuses to fold (a signaling NaN, or payload bits
/// lost by narrowing); `Some(Some(attr))` otherwise.
pub(crate) fn convert_nan(ctx: &Context, a: Attr, ty: Type) -> Option<Option<Attr>> {
    let AttrKind::Float { bits, ty: from } = ctx.attr_kind(a) else { return None };
    let (TypeKind::Float(fk), TypeKind::Float(tk)) = (ctx.type_kind(*from), ctx.type_kind(ty)) else { return None };
    let ((fe, fm), (te, tm)) = (layout(*fk)?, layout(*tk)?);
    let exp = (bits >> fm) & ((1u128 << fe) - 1);
    let man = bits & ((1u128 << fm) - 1);
    if exp != (1u128 << fe) - 1 || man == 0 {
        return None;
    }
    let quiet = man >> (fm - 1) & 1 == 1;
    let shifted = if tm >= fm {
        Some(man << (tm - fm))
    } else {
        let lost = man & ((1u128 << (fm - tm)) - 1);
        (lost == 0).then_some(man >> (fm - tm))
    };
    let Some(man) = shifted.filter(|_| quiet) else { return Some(None) };
    let sign = (bits >> (fe + fm)) & 1;
    let out = (sign << (te + tm)) | (((1u128 << te) - 1) << tm) | man;
    Some(Some(ctx.intern_attr(AttrKind::Float { bits: out, ty })))
}

/// The IEEE half bits of `v` if `v` is exactly representable.
fn encode_half_exact(v: f64) -> Option<u16> {
    let sign = if v.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = v.abs();
    if a == 0.0 {
        return Some(sign);
    }
    if a.is_infinite() {
        return Some(sign | 0x7c00);
    }
    // Subnormal halves are multiples of 2^-24 below 2^-14.
    if a < 2f64.powi(-14) {
        let m = a * 2f64.powi(24);
        return (m.fract() == 0.0).then_some(sign | m as u16);
    }
    let e = a.log2().floor() as i32;
    // Guard against log2 rounding at powers of two.
    let e = if 2f64.powi(e) > a {
        e - 1
    } else if 2f64.powi(e + 1) <= a {
        e + 1
    } else {
        e
    };
    if e > 15 {
        return None;
    }
    let m = (a / 2f64.powi(e) - 1.0) * 1024.0;
    (m.fract() == 0.0).then_some(sign | (((e + 15) as u16) << 10) | m as u16)
}

/// The value of the common float formats as `f64` (exact).
fn widen(k: FloatKind, bits: u128) -> Option<f64> {
    match k {
        FloatKind::F64 => Some(f64::from_bits(bits as u64)),
        FloatKind::F32 => Some(f32::from_bits(bits as u32) as f64),
        FloatKind::BF16 => Some(f32::from_bits((bits as u32) << 16) as f64),
        FloatKind::F16 => Some(half_to_f64(bits as u16)),
        _ => None,
    }
}

/// IEEE half precision to `f64`.
fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let frac = (h & 0x3ff) as f64;
    let magnitude = match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        // A NaN keeps its sign and top-aligned payload.
        31 => return f64::from_bits(((h as u64 & 0x8000) << 48) | 0x7ff0_0000_0000_0000 | ((h as u64 & 0x3ff) << 42)),
        _ => (1.0 + frac / 1024.0) * 2f64.powi(exp - 15),
    };
    sign * magnitude
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_and_bfloat_widen_exactly() {
        assert_eq!(half_to_f64(0x3c00), 1.0);
        assert_eq!(half_to_f64(0xc000), -2.0);
        assert!(half_to_f64(0x8000).is_sign_negative());
        assert_eq!(half_to_f64(0x7c00), f64::INFINITY);
        assert_eq!(widen(FloatKind::BF16, 0x3f80), Some(1.0));
    }

    #[test]
    fn f32_values_round_trip() {
        let ctx = Context::empty();
        let f32t = ctx.float_type(FloatKind::F32);
        let a = float_attr(&ctx, f32t, 0.1).unwrap();
        assert_eq!(float_value(&ctx, Some(a), f32t), Some(0.1f32 as f64));
        assert!(float_splat_is(&ctx, Some(a), |v| v > 0.0));
        let f16t = ctx.float_type(FloatKind::F16);
        let f80t = ctx.float_type(FloatKind::F80);
        assert_eq!(float_attr(&ctx, f80t, 1.0), None);
        assert_eq!(f32_to_half(1.0), 0x3c00);
        assert_eq!(f32_to_half(65520.0), 0x7c00);
        assert_eq!(f32_to_half(65519.0), 0x7bff);
        assert_eq!(f32_to_half(2f32.powi(-25)), 0);
        assert_eq!(f32_to_half(2f32.powi(-25) * 1.5), 1);
        assert_eq!(f32_to_half(f32::NAN), 0x7e00);
        assert_eq!(f32_to_bf16(1.0 + 2f32.powi(-8)), 0x3f80);
        assert_eq!(f32_to_bf16(1.0 + 3.0 * 2f32.powi(-8)), 0x3f82);
        let half = |v: f64| exact_float_attr(&ctx, f16t, v).and_then(|a| any_float_value(&ctx, a)).map(|(x, _)| x);
        assert_eq!(half(1.5), Some(1.5));
        assert_eq!(half(65504.0), Some(65504.0));
        assert_eq!(half(2f64.powi(-24)), Some(2f64.powi(-24)));
        assert_eq!(half(0.1), None);
        assert_eq!(half(65536.0), None);
        assert_eq!(encode_half_exact(-2.0), Some(0xc000));
    }

    #[test]
    fn nan_conversions_follow_apfloat() {
        let ctx = Context::empty();
        let (f32t, bf16t, f16t, f64t) = (
            ctx.float_type(FloatKind::F32),
            ctx.float_type(FloatKind::BF16),
            ctx.float_type(FloatKind::F16),
            ctx.float_type(FloatKind::F64),
        );
        let nan = |bits: u128, ty| ctx.intern_attr(AttrKind::Float { bits, ty });
        let bits = |a: Option<Option<Attr>>| match a.flatten().map(|a| ctx.attr_kind(a).clone()) {
            Some(AttrKind::Float { bits, .. }) => Some(bits),
            _ => None,
        };
        assert_eq!(bits(convert_nan(&ctx, nan(0x7FC0_0000, f32t), bf16t)), Some(0x7FC0));
        assert_eq!(bits(convert_nan(&ctx, nan(0xFFC0_0000, f32t), f16t)), Some(0xFE00));
        assert_eq!(bits(convert_nan(&ctx, nan(0x7E00, f16t), f64t)), Some(0x7FF8_0000_0000_0000));
        // A payload bit lost by narrowing, or a signaling NaN, refuses.
        assert_eq!(convert_nan(&ctx, nan(0x7FC0_0001, f32t), f16t), Some(None));
        assert_eq!(convert_nan(&ctx, nan(0x7F80_0001, f32t), f64t), Some(None));
        assert_eq!(convert_nan(&ctx, nan(0x3F80_0000, f32t), f64t), None);
    }
}
