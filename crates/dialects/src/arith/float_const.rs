//! Scalar float constants for the folders of the float ops, read and written through
//! [`ApFloat`] for every float type (`f16`, `bf16`, `f32`, `f64`, `f80`, `f128`, `tf32`, the
//! 8-bit formats): arithmetic happens in the type's own precision with round-to-nearest-even,
//! NaN, infinity and signed zero as MLIR's `APFloat` treats them (one path for all types; no
//! `f64` shortcut). Types without `ApFloat` semantics (`f6E2M3FN`, `f6E3M2FN`, `f4E2M1FN`,
//! `f8E8M0FNU`, which mlir-opt-19 does not parse) are never folded.

use crate::support::element_type;
use fuser_ir::apfloat::ApFloat;
use fuser_ir::attrs::{Attr, AttrKind, DenseData};
use fuser_ir::context::Context;
use fuser_ir::types::{Type, TypeKind};

/// The value of a scalar float attribute of any float type with semantics.
pub(crate) fn ap_of(ctx: &Context, a: Attr) -> Option<ApFloat> {
    let AttrKind::Float { bits, ty } = ctx.attr_kind(a) else { return None };
    let TypeKind::Float(k) = ctx.type_kind(*ty) else { return None };
    ApFloat::from_bits(*k, *bits)
}

/// The value of a float constant of type `ty`: a scalar, or the element of a splat when `ty`
/// is a vector or tensor.
pub(crate) fn float_value(ctx: &Context, a: Option<Attr>, ty: Type) -> Option<ApFloat> {
    ap_of(ctx, super::splat_scalar(ctx, a?, ty)?)
}

/// The scalar float attribute of the scalar float type `ty` holding `v` (of `ty`'s kind).
pub(crate) fn ap_attr(ctx: &Context, ty: Type, v: &ApFloat) -> Attr {
    ctx.intern_attr(AttrKind::Float { bits: v.to_bits(), ty })
}

/// True when `a` is a float constant (scalar, or splat of a vector/tensor) of any float type
/// whose element satisfies `pred` (MLIR's `m_OneFloat`, `m_NegZeroFloat`, ... matchers).
pub(crate) fn float_splat_is(ctx: &Context, a: Option<Attr>, pred: impl Fn(&ApFloat) -> bool) -> bool {
    let Some(a) = a else { return false };
    let scalar = match ctx.attr_kind(a) {
        AttrKind::DenseElements { data: DenseData::Splat(s), .. } => *s,
        _ => a,
    };
    let AttrKind::Float { ty, .. } = ctx.attr_kind(scalar) else { return false };
    if element_type(ctx, *ty) != *ty {
        return false;
    }
    ap_of(ctx, scalar).is_some_and(|v| pred(&v))
}

/// The constant `a` negated as `APFloat::changeSign` does (NaNs included, payload and
/// quietness kept; zero and NaN of the `...FNUZ` formats unchanged).
pub(crate) fn negated(ctx: &Context, a: Attr) -> Option<Attr> {
    let ty = ctx.attr_type(a)?;
    Some(ap_attr(ctx, ty, &ap_of(ctx, a)?.neg()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::types::FloatKind;

    #[test]
    fn every_format_with_semantics_reads_and_negates() {
        let ctx = Context::empty();
        let f32t = ctx.float_type(FloatKind::F32);
        let one = ctx.intern_attr(AttrKind::Float { bits: 0x3F80_0000, ty: f32t });
        assert!(float_splat_is(&ctx, Some(one), |v| v.is_exactly(1.0)));
        let f80t = ctx.float_type(FloatKind::F80);
        let m = ctx.intern_attr(AttrKind::Float { bits: 0x3FFF_8000_0000_0000_0000, ty: f80t });
        let n = negated(&ctx, m).unwrap();
        assert_eq!(ctx.attr_kind(n), &AttrKind::Float { bits: 0xBFFF_8000_0000_0000_0000, ty: f80t });
        // FNUZ: zero does not change sign.
        let fnuz = ctx.float_type(FloatKind::F8E4M3FNUZ);
        let z = ctx.intern_attr(AttrKind::Float { bits: 0, ty: fnuz });
        assert_eq!(negated(&ctx, z), Some(z));
        let f4 = ctx.float_type(FloatKind::F4E2M1FN);
        let x = ctx.intern_attr(AttrKind::Float { bits: 2, ty: f4 });
        assert_eq!(negated(&ctx, x), None);
    }
}
