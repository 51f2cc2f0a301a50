//! VJPs of the GEMMs. `matmul a·b`: `g·bᵀ` for `a` and `aᵀ·g` for `b` (summed over the batch
//! axes when `b` was a broadcast `[K, N]`). `linear x·wᵀ + bias`: `g·w` for `x`, `gᵀ·x` for `w`
//! (batched over leading axes and summed), the sum of `g` over every axis but the last for the
//! bias. Every product is an ordinary `fusion.matmul`, so the backward shards and lowers as the
//! forward does; each is named by `fusion.grad_of = "dgrad of ..."` (the gradient of the first
//! operand) or `"wgrad of ..."` (of the second), which the overlap report of `fusion-to-host`
//! quotes.

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_dialects::fusion::{Sharding, Split};
use fuser_ir::Value;
use fuser_ir::ir::OpId;

/// The cotangent `g` of a linear's (or matmul's) result `y [..., N]`, its leading (row) axes
/// resharded like those of the input `x` when `x` is annotated: both products read `g` by
/// rows like `x`.
/// Under sequence parallelism, or after a norm on sequence-split rows, the row-parallel
/// linear's `g` is split on the rows; it is gathered here once, on the outer axis, for both
/// products (Megatron's backward), instead of after the transpose of `gᵀ·x`, an inner axis
/// that the lowering cannot gather. The last axis keeps `y`'s split (or `g`'s when `y` has
/// none). Only device splits are taken (stream chunks are left to propagation); a partial input
/// or a device axis that would be used twice leaves `g` as it is.
fn rows_like_input(b: &mut Builder<'_>, g: Value, x: Value, y: Value) -> Value {
    let Some(xs) = Sharding::of_type(b.ctx, b.ir.value_type(x)) else { return g };
    let gs = Sharding::of_type(b.ctx, b.ir.value_type(g));
    let ys = Sharding::of_type(b.ctx, b.ir.value_type(y));
    let r = xs.axes.len();
    if r < 2 || !xs.partial.is_empty() || gs.as_ref().is_some_and(|s| s.axes.len() != r || s.mesh != xs.mesh) {
        return g;
    }
    let last = match (&ys, &gs) {
        (Some(ys), _) if ys.mesh == xs.mesh && ys.axes.len() == r => ys.axes[r - 1].clone(),
        (_, Some(gs)) => gs.axes[r - 1].clone(),
        _ => Vec::new(),
    };
    let mut axes = xs.axes[..r - 1].to_vec();
    axes.push(last);
    // Device splits only: stream chunks are the propagation's to choose.
    for a in &mut axes {
        a.retain(|s| matches!(s, Split::Device(_)));
    }
    let splits: Vec<&Split> = axes.iter().flatten().collect();
    let twice = splits.iter().enumerate().any(|(i, s)| splits[..i].contains(s));
    let same = gs.as_ref().is_some_and(|s| {
        s.partial.is_empty()
            && s.axes.iter().zip(&axes).all(|(a, b)| a.iter().filter(|x| matches!(x, Split::Device(_))).eq(b.iter()))
    });
    if same || twice {
        return g;
    }
    let want = Sharding { mesh: xs.mesh.clone(), axes, partial: Vec::new(), reduce: xs.reduce };
    let ty = want.apply_to(b.ctx, b.ty(b.shape(g), b.elem(g)));
    b.set(g, ty)
}

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    let x = b.ir.operands(op).to_vec();
    Ok(match name {
        "fusion.matmul" => {
            let (a, w) = (x[0], x[1]);
            let y = b.ir.result(op, 0);
            let g = rows_like_input(b, g, a, y);
            let (ra, rw) = (b.shape(a).len(), b.shape(w).len());
            // The wgrad first, the dgrad last: the dgrad's consumers (its reduction, the
            // next rule's set) then follow it directly, in its stream loop (GEMM + RS).
            let at = b.transpose(a);
            let gw = b.matmul(at, g);
            b.name_grad(gw, "wgrad");
            let batch: Vec<i64> = if rw == 2 { (0..ra as i64 - 2).collect() } else { Vec::new() };
            let gw = b.sum(gw, &batch, false);
            let wt = b.transpose(w);
            let ga = b.matmul(g, wt);
            b.name_grad(ga, "dgrad");
            vec![Some(ga), Some(gw)]
        }
        "fusion.linear" => {
            let (input, w) = (x[0], x[1]);
            let y = b.ir.result(op, 0);
            let g = rows_like_input(b, g, input, y);
            let xs = b.shape(input);
            let gs = b.shape(g);
            let r = xs.len();
            // A rank-1 input is one row.
            let (x2, g2) = if r == 1 {
                let xi = b.reshape(input, vec![1, xs[0]]);
                let gi = b.reshape(g, vec![1, gs[0]]);
                (xi, gi)
            } else {
                (input, g)
            };
            // The wgrad and the bias first, the dgrad last: the dgrad's consumers (its
            // reduction, the next rule's set) then follow it directly, in its stream loop
            // (GEMM + RS) instead of after the wgrad, which closes the loop.
            let gt = b.transpose(g2);
            let gw = b.matmul(gt, x2);
            b.name_grad(gw, "wgrad");
            let batch: Vec<i64> = (0..b.shape(gw).len() as i64 - 2).collect();
            let gw = b.sum(gw, &batch, false);
            let gb = (x.len() == 3).then(|| {
                let rows: Vec<i64> = (0..gs.len() as i64 - 1).collect();
                b.sum(g, &rows, false)
            });
            let gx = b.matmul(g2, w);
            b.name_grad(gx, "dgrad");
            let gx = b.reshape(gx, xs.clone());
            let mut out = vec![Some(gx), Some(gw)];
            out.extend(gb.map(Some));
            out
        }
        _ => return Err(format!("no gradient rule for '{name}' yet")),
    })
}
