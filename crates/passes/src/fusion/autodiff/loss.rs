//! VJP of `fusion.cross_entropy` (`loss[n] = lse(x[n]) - x[n, label[n]]`, 0 on `ignore_index`
//! rows): `dx = (exp(x - lse) - one_hot(label)) * g` per row, zero on `ignore_index` rows, in
//! `f32` for `bf16`/`f16` logits (torch's opmath) and rounded once to the logits' type. The
//! row's log-sum-exp is recomputed from the logits (`max`, `exp`, `sum`, `log`): with the
//! vocabulary split over devices every op is local but the row max and the row sum, a partial
//! max and a partial sum (two allreduces of `[N]`), as the vocab-parallel forward does;
//! `fusion.one_hot` writes each rank's columns from its origin. A label outside `[0, V)`
//! (whose loss is NaN) gets `exp(x - lse) * g`: no one-hot term. The labels get no gradient.

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_ir::Value;
use fuser_ir::ir::OpId;
use fuser_ir::types::{FloatKind, TypeKind};

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    let (x, labels) = (b.ir.operand(op, 0), b.ir.operand(op, 1));
    let shape = b.shape(x);
    let [_, v] = shape[..] else { return Err(format!("'{name}' expects [N, V] logits")) };
    let out_elem = b.elem(x);
    let elem = match b.ctx.type_kind(out_elem) {
        TypeKind::Float(FloatKind::BF16 | FloatKind::F16) => b.ctx.float_type(FloatKind::F32),
        _ => out_elem,
    };
    let ignore = fuser_dialects::fusion::loss::op_ignore_index(b.ctx, b.ir, op);
    let x = b.cast(x, elem);
    // lse = log(sum(exp(x - max))) + max over the vocabulary.
    let m = b.reduce("fusion.max", x, &[1], false);
    let mb = b.broadcast(m, &[1], shape.clone());
    let c = b.sub(x, mb);
    let e = b.exp(c);
    let s = b.sum(e, &[1], false);
    let ls = b.unary("fusion.log", s);
    let lse = b.add(ls, m);
    let lb = b.broadcast(lse, &[1], shape.clone());
    let t = b.sub(x, lb);
    let p = b.exp(t);
    let oh = b.one_hot(labels, v, elem);
    let d = b.sub(p, oh);
    // The row's cotangent, zero where the label is ignore_index.
    let g = b.cast(g, elem);
    let ig = b.full(b.shape(labels), b.elem(labels), ignore as f64);
    let skip = b.compare("eq", labels, ig);
    let zero = b.full_like(g, 0.0);
    let g = b.select(skip, zero, g);
    let gb = b.broadcast(g, &[1], shape);
    let dx = b.mul(d, gb);
    Ok(vec![Some(b.cast(dx, out_elem)), None])
}
