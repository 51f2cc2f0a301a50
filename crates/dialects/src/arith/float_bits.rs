//! Conversion of float constants between float types for the cast folders (`extf`,
//! `truncf`), through [`ApFloat::convert`] as MLIR's `convertFloatValue` does it.
//!
//! Invariant: a conversion folds only when `APFloat::convert` reports neither an exception nor
//! lost information (so an inexact `truncf`, an overflow, a signaling NaN and a NaN payload
//! that does not fit stay unfolded).

use super::float_const::{ap_attr, ap_of};
use fuser_ir::apfloat::{RoundingMode, Status};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::types::{Type, TypeKind};

/// The scalar float constant `a` converted to the scalar float type `to` with rounding mode
/// `rm`, when exact (`None` otherwise).
pub(crate) fn convert_exact(ctx: &Context, a: Attr, to: Type, rm: RoundingMode) -> Option<Attr> {
    let TypeKind::Float(k) = ctx.type_kind(to) else { return None };
    let (r, status, loses) = ap_of(ctx, a)?.convert(*k, rm);
    (status == Status::OK && !loses).then(|| ap_attr(ctx, to, &r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::attrs::AttrKind;
    use fuser_ir::types::FloatKind;

    #[test]
    fn exact_conversions_fold_and_inexact_ones_refuse() {
        let ctx = Context::empty();
        let t = |k| ctx.float_type(k);
        let c = |bits, k| ctx.intern_attr(AttrKind::Float { bits, ty: t(k) });
        let bits = |a: Option<Attr>| {
            a.map(|a| match ctx.attr_kind(a) {
                AttrKind::Float { bits, .. } => *bits,
                _ => 0,
            })
        };
        let rne = RoundingMode::NearestTiesToEven;
        // 1.0 f32 -> f80 -> f128.
        assert_eq!(
            bits(convert_exact(&ctx, c(0x3F80_0000, FloatKind::F32), t(FloatKind::F80), rne)),
            Some(0x3FFF_8000_0000_0000_0000)
        );
        assert_eq!(
            bits(convert_exact(&ctx, c(0x3FFF_8000_0000_0000_0000, FloatKind::F80), t(FloatKind::F128), rne)),
            Some(0x3FFF << 112)
        );
        // 0.1 (f64) has no exact f32; a signaling NaN and a lost payload refuse.
        assert_eq!(convert_exact(&ctx, c(0x3FB9_9999_9999_999A, FloatKind::F64), t(FloatKind::F32), rne), None);
        assert_eq!(convert_exact(&ctx, c(0x7F80_0001, FloatKind::F32), t(FloatKind::F64), rne), None);
        assert_eq!(convert_exact(&ctx, c(0x7FC0_0001, FloatKind::F32), t(FloatKind::F16), rne), None);
        assert_eq!(bits(convert_exact(&ctx, c(0xFFC0_0000, FloatKind::F32), t(FloatKind::F16), rne)), Some(0xFE00));
        // Infinity to a format without one loses information.
        assert_eq!(convert_exact(&ctx, c(0x7C00, FloatKind::F16), t(FloatKind::F8E5M2FNUZ), rne), None);
    }
}
