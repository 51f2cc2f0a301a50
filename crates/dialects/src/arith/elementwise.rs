//! Elementwise constant folding, as MLIR's `constFoldUnaryOp`, `constFoldBinaryOp` and
//! `constFoldCastOp` do it: a scalar constant folds to a scalar; two splats (or one) fold to a
//! splat; any other pair of dense constants of static shape folds element by element, and the
//! result is stored as a splat when all its elements are equal (as MLIR's dense storage does).
//!
//! Invariants: every element callback sees scalar attributes of the operand's element type and
//! returns a scalar of the result's element type; one refused element (`None`) refuses the
//! whole fold. Hex-encoded dense constants (`dense<"0x...">`) are not read.

use crate::support::{element_type, shape_of};
use fuser_ir::attrs::{Attr, AttrKind, DenseData};
use fuser_ir::context::Context;
use fuser_ir::types::Type;

/// The elements of a constant of a given type.
enum Elems {
    Scalar(Attr),
    Splat(Attr),
    List(Vec<Attr>),
}

/// The elements of the constant `a`, which must have type `ty`.
fn elems_of(ctx: &Context, a: Attr, ty: Type) -> Option<Elems> {
    if ctx.attr_type(a) != Some(ty) {
        return None;
    }
    match ctx.attr_kind(a) {
        AttrKind::DenseElements { data: DenseData::Splat(s), .. } => Some(Elems::Splat(*s)),
        AttrKind::DenseElements { data: DenseData::Elements(v), .. } => Some(Elems::List(v.clone())),
        AttrKind::DenseElements { .. } => None,
        _ => (element_type(ctx, ty) == ty).then_some(Elems::Scalar(a)),
    }
}

/// A dense constant of the static shaped type `ty` with these elements (a splat when all are
/// equal).
pub(crate) fn dense_of(ctx: &Context, ty: Type, elems: Vec<Attr>) -> Option<Attr> {
    let (shape, _) = shape_of(ctx, ty)?;
    if shape.iter().any(|&d| d < 0) || shape.iter().product::<i64>() as usize != elems.len() {
        return None;
    }
    let data = match elems.first() {
        Some(&first) if elems.iter().all(|&e| e == first) => DenseData::Splat(first),
        _ => DenseData::Elements(elems),
    };
    Some(ctx.intern_attr(AttrKind::DenseElements { ty, data }))
}

fn splat(ctx: &Context, ty: Type, scalar: Attr) -> Option<Attr> {
    super::splat_of(ctx, ty, scalar)
}

/// Folds a one-operand op: `a` has type `ty`, the result has type `result_ty`.
pub(crate) fn map1(
    ctx: &Context,
    a: Option<Attr>,
    ty: Type,
    result_ty: Type,
    f: impl Fn(Attr) -> Option<Attr>,
) -> Option<Attr> {
    match elems_of(ctx, a?, ty)? {
        Elems::Scalar(x) => (element_type(ctx, result_ty) == result_ty).then(|| f(x)).flatten(),
        Elems::Splat(x) => splat(ctx, result_ty, f(x)?),
        Elems::List(xs) => dense_of(ctx, result_ty, xs.into_iter().map(f).collect::<Option<Vec<_>>>()?),
    }
}

/// Folds a two-operand op: `a` and `b` have type `ty`, the result has type `result_ty`.
pub(crate) fn map2(
    ctx: &Context,
    a: Option<Attr>,
    b: Option<Attr>,
    ty: Type,
    result_ty: Type,
    f: impl Fn(Attr, Attr) -> Option<Attr>,
) -> Option<Attr> {
    let (x, y) = (elems_of(ctx, a?, ty)?, elems_of(ctx, b?, ty)?);
    match (x, y) {
        (Elems::Scalar(x), Elems::Scalar(y)) => (element_type(ctx, result_ty) == result_ty).then(|| f(x, y)).flatten(),
        (Elems::Splat(x), Elems::Splat(y)) => splat(ctx, result_ty, f(x, y)?),
        (Elems::Scalar(_), _) | (_, Elems::Scalar(_)) => None,
        (x, y) => {
            let n = match (&x, &y) {
                (Elems::List(v), _) | (_, Elems::List(v)) => v.len(),
                _ => return None,
            };
            let (xs, ys) = (expand(x, n), expand(y, n));
            if xs.len() != n || ys.len() != n {
                return None;
            }
            dense_of(ctx, result_ty, xs.into_iter().zip(ys).map(|(x, y)| f(x, y)).collect::<Option<Vec<_>>>()?)
        }
    }
}

/// The elements of `x` as a list of `n` (a splat repeats).
fn expand(x: Elems, n: usize) -> Vec<Attr> {
    match x {
        Elems::List(v) => v,
        Elems::Splat(s) | Elems::Scalar(s) => vec![s; n],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::{IntConst, int_attr, int_const};
    use fuser_ir::types::TypeKind;

    fn setup() -> (Context, Type, Type) {
        let ctx = Context::new(crate::registry());
        let i8t = ctx.integer_type(8);
        let v = ctx.intern_type(TypeKind::Vector { shape: vec![3], scalable: vec![false], elem: i8t });
        (ctx, i8t, v)
    }

    fn list(ctx: &Context, i8t: Type, v: Type, xs: &[i64]) -> Attr {
        let elems = xs.iter().map(|&x| ctx.int_attr(i8t, x)).collect();
        ctx.intern_attr(AttrKind::DenseElements { ty: v, data: DenseData::Elements(elems) })
    }

    #[test]
    fn splat_and_list_operands_mix_and_equal_results_make_a_splat() {
        let (ctx, i8t, v) = setup();
        let add = |a: Attr, b: Attr| {
            let (x, y) = (int_const(&ctx, a)?.0, int_const(&ctx, b)?.0);
            Some(int_attr(&ctx, i8t, IntConst(x.add(&y))))
        };
        let splat2 = super::super::splat_of(&ctx, v, ctx.int_attr(i8t, 2)).unwrap();
        let xs = list(&ctx, i8t, v, &[1, 2, 127]);
        assert_eq!(map2(&ctx, Some(xs), Some(splat2), v, v, add), Some(list(&ctx, i8t, v, &[3, 4, -127])));
        let ys = list(&ctx, i8t, v, &[2, 1, 0]);
        let zs = list(&ctx, i8t, v, &[1, 2, 3]);
        let folded = map2(&ctx, Some(ys), Some(zs), v, v, add).unwrap();
        assert_eq!(folded, super::super::splat_of(&ctx, v, ctx.int_attr(i8t, 3)).unwrap());
        // A scalar never pairs with a vector, and one refused element refuses the fold.
        assert_eq!(map2(&ctx, Some(ctx.int_attr(i8t, 1)), Some(xs), v, v, add), None);
        assert_eq!(map2(&ctx, Some(xs), Some(zs), v, v, |_, _| None), None);
    }

    #[test]
    fn unary_maps_keep_the_shape() {
        let (ctx, i8t, v) = setup();
        let neg = |a: Attr| Some(int_attr(&ctx, i8t, IntConst(int_const(&ctx, a)?.0.negate())));
        let xs = list(&ctx, i8t, v, &[1, -2, 0]);
        assert_eq!(map1(&ctx, Some(xs), v, v, neg), Some(list(&ctx, i8t, v, &[-1, 2, 0])));
        assert_eq!(map1(&ctx, Some(ctx.int_attr(i8t, 5)), i8t, i8t, neg), Some(ctx.int_attr(i8t, -5)));
        assert_eq!(map1(&ctx, Some(xs), i8t, i8t, neg), None, "the attribute must have the operand type");
    }
}
