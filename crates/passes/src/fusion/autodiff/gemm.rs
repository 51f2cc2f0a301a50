//! VJPs of the GEMMs. `matmul a·b`: `g·bᵀ` for `a` and `aᵀ·g` for `b` (summed over the batch
//! axes when `b` was a broadcast `[K, N]`). `linear x·wᵀ + bias`: `g·w` for `x`, `gᵀ·x` for `w`
//! (batched over leading axes and summed), the sum of `g` over every axis but the last for the
//! bias. Every product is an ordinary `fusion.matmul`, so the backward shards and lowers as the
//! forward does; each is named by `fusion.grad_of = "dgrad of ..."` (the gradient of the first
//! operand) or `"wgrad of ..."` (of the second), which the overlap report of `fusion-to-host`
//! quotes. The dgrad comes last (next to its reduce-scatter: GEMM + RS), or first when the
//! cotangent is gathered here (next to the gather: AG + GEMM).

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_dialects::fusion::{Mesh, Sharding, Split};
use fuser_ir::Value;
use fuser_ir::ir::OpId;

/// The cotangent `g` of a linear's (or matmul's) result `y [..., N]`, its leading (row) axes
/// resharded like those of the input `x` when `x` is annotated: both products read `g` by
/// rows like `x`.
/// Under sequence parallelism, or after a norm on sequence-split rows, the row-parallel
/// linear's `g` is split on the rows; it is gathered here once, on the outer axis, for both
/// products (Megatron's backward), instead of after the transpose of `gᵀ·x`, an inner axis
/// whose gather needs a staging copy. The last axis keeps `y`'s split (or `g`'s when `y` has
/// none). Device splits are taken, and on the rows the stream chunk outermost on an annotated
/// `g` (`[Stream(2), DIDx]` gathered to `[Stream(2)]`: one allgather per chunk, in the dgrad's
/// loop); other stream chunks are left to propagation. A partial input or a device axis that
/// would be used twice leaves `g` as it is.
/// The layout must divide `g`'s extents: a kept stream chunk that does not fit with the
/// device splits (`[Stream(4)]` rows of extent 4 under `DIDx` of 2 would be `[Stream(4), DIDx]`,
/// 8 pieces of 4 rows) is dropped (the set gives `[DIDx]`), and a layout whose device splits do
/// not divide `g` leaves `g` as it is (propagation decides).
///
/// Returns the cotangent to read and whether it is a gather of `g` (an annotated `g` split
/// over devices on the rows, unsplit there after the set).
fn rows_like_input(b: &mut Builder<'_>, op: OpId, g: Value, x: Value, y: Value) -> (Value, bool) {
    let Some(xs) = Sharding::of_type(b.ctx, b.ir.value_type(x)) else { return (g, false) };
    let gs = Sharding::of_type(b.ctx, b.ir.value_type(g));
    let ys = Sharding::of_type(b.ctx, b.ir.value_type(y));
    let r = xs.axes.len();
    if r < 2 || !xs.partial.is_empty() || gs.as_ref().is_some_and(|s| s.axes.len() != r || s.mesh != xs.mesh) {
        return (g, false);
    }
    let last = match (&ys, &gs) {
        (Some(ys), _) if ys.mesh == xs.mesh && ys.axes.len() == r => ys.axes[r - 1].clone(),
        (_, Some(gs)) => gs.axes[r - 1].clone(),
        _ => Vec::new(),
    };
    let mut axes = xs.axes[..r - 1].to_vec();
    axes.push(last);
    // Device splits, and on the rows the stream chunk of a chunked cotangent when it is outermost
    // (`[Stream(2), DIDx]` gathered to `[Stream(2)]`: one allgather per chunk, in the stream loop
    // of the dgrad that reads it, AG + GEMM); other stream chunks are the propagation's to choose.
    for (i, a) in axes.iter_mut().enumerate() {
        a.retain(|s| matches!(s, Split::Device(_)));
        let outer = gs.as_ref().and_then(|s| s.axes[i].first().copied()).filter(|s| matches!(s, Split::Stream(_)));
        if let Some(stream) = outer.filter(|_| i + 1 < r) {
            a.insert(0, stream);
        }
    }
    // Only a layout that divides `g`'s extents: without the kept stream chunks if they do not
    // fit, else none.
    let shape = b.shape(g);
    let fits = |axes: &[Vec<Split>]| {
        let s = Sharding { mesh: xs.mesh.clone(), axes: axes.to_vec(), partial: Vec::new(), reduce: xs.reduce };
        Mesh::lookup(b.ctx, b.ir, op, &xs.mesh).is_some_and(|m| s.local_shape(&shape, &m, true).is_ok())
    };
    if !fits(&axes) {
        for a in axes.iter_mut() {
            a.retain(|s| matches!(s, Split::Device(_)));
        }
        if !fits(&axes) {
            return (g, false);
        }
    }
    let splits: Vec<&Split> = axes.iter().flatten().filter(|s| matches!(s, Split::Device(_))).collect();
    let twice = splits.iter().enumerate().any(|(i, s)| splits[..i].contains(s));
    let same = gs.as_ref().is_some_and(|s| {
        s.partial.is_empty()
            && s.axes.iter().zip(&axes).all(|(a, b)| {
                a.iter()
                    .filter(|x| matches!(x, Split::Device(_)))
                    .eq(b.iter().filter(|x| matches!(x, Split::Device(_))))
            })
    });
    if same || twice {
        return (g, false);
    }
    let is_device = |x: &&Split| matches!(x, Split::Device(_));
    let gathered = gs.as_ref().is_some_and(|s| {
        s.axes[..r - 1]
            .iter()
            .zip(&axes)
            .any(|(have, want)| have.iter().filter(is_device).count() > want.iter().filter(is_device).count())
    });
    let want = Sharding { mesh: xs.mesh.clone(), axes, partial: Vec::new(), reduce: xs.reduce };
    let ty = want.apply_to(b.ctx, b.ty(b.shape(g), b.elem(g)));
    (b.set(g, ty), gathered)
}

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    let x = b.ir.operands(op).to_vec();
    let y = b.ir.result(op, 0);
    let (g, dgrad_first) = rows_like_input(b, op, g, x[0], y);
    // The order of the two products decides which one shares a stream loop with the
    // cotangent's gather or with the dgrad's reduction (an op without a stream split, the wgrad
    // contracting the rows, closes the loop): a gathered cotangent (the row-parallel linear
    // under sequence parallelism) is read first by the dgrad (AG + GEMM), otherwise the dgrad
    // comes last, followed by its consumers (its reduce-scatter: GEMM + RS).
    Ok(match name {
        "fusion.matmul" => {
            let (a, w) = (x[0], x[1]);
            let (ra, rw) = (b.shape(a).len(), b.shape(w).len());
            let dgrad = |b: &mut Builder<'_>| {
                let wt = b.transpose(w);
                let ga = b.matmul(g, wt);
                b.name_grad(ga, "dgrad");
                ga
            };
            let wgrad = |b: &mut Builder<'_>| {
                let at = b.transpose(a);
                let gw = b.matmul(at, g);
                b.name_grad(gw, "wgrad");
                let batch: Vec<i64> = if rw == 2 { (0..ra as i64 - 2).collect() } else { Vec::new() };
                b.sum(gw, &batch, false)
            };
            let (ga, gw) = if dgrad_first {
                let ga = dgrad(b);
                (ga, wgrad(b))
            } else {
                let gw = wgrad(b);
                (dgrad(b), gw)
            };
            vec![Some(ga), Some(gw)]
        }
        "fusion.linear" => {
            let (input, w) = (x[0], x[1]);
            let xs = b.shape(input);
            let gs = b.shape(g);
            // A rank-1 input is one row.
            let (x2, g2) = if xs.len() == 1 {
                let xi = b.reshape(input, vec![1, xs[0]]);
                let gi = b.reshape(g, vec![1, gs[0]]);
                (xi, gi)
            } else {
                (input, g)
            };
            let dgrad = |b: &mut Builder<'_>| {
                let gx = b.matmul(g2, w);
                b.name_grad(gx, "dgrad");
                b.reshape(gx, xs.clone())
            };
            // The wgrad, then the bias' sum over the rows.
            let wgrad = |b: &mut Builder<'_>| {
                let gt = b.transpose(g2);
                let gw = b.matmul(gt, x2);
                b.name_grad(gw, "wgrad");
                let batch: Vec<i64> = (0..b.shape(gw).len() as i64 - 2).collect();
                let gw = b.sum(gw, &batch, false);
                let gb = (x.len() == 3).then(|| {
                    let rows: Vec<i64> = (0..gs.len() as i64 - 1).collect();
                    b.sum(g, &rows, false)
                });
                (gw, gb)
            };
            let (gx, (gw, gb)) = if dgrad_first {
                let gx = dgrad(b);
                (gx, wgrad(b))
            } else {
                let w = wgrad(b);
                (dgrad(b), w)
            };
            let mut out = vec![Some(gx), Some(gw)];
            out.extend(gb.map(Some));
            out
        }
        _ => return Err(format!("no gradient rule for '{name}' yet")),
    })
}
