//! VJPs of layer_norm and rms_norm. The statistics are the forward op's own results: the pass
//! rebuilds a norm that did not ask for them with its `mean`/`rstd` results (see
//! `joint::with_statistics`), so the backward reads them instead of recomputing them. With
//! `x̂ = (x - mean) * rstd` (rms: `x * rstd`) and `gw = g * weight` (or `g`):
//!
//! - layer_norm: `dx = rstd * (gw - mean(gw) - x̂ * mean(gw * x̂))`, `dweight = sum(g * x̂)`,
//!   `dbias = sum(g)` (means over the normalized axes, sums over the leading ones);
//! - rms_norm: `dx = rstd * (gw - x̂ * mean(gw * x̂))`, `dweight = sum(g * x̂)`.
//!
//! The statistics results are differentiable too (a program may compute with them; torch
//! marks `native_layer_norm`'s non-differentiable, which would make such a program's gradient
//! silently wrong here): a cotangent `gm` of `mean` adds `gm / n` to `dx`, a cotangent `gr` of
//! `rstd` adds `-gr * rstd² * x̂ / n` (`d rstd / d x = -rstd³ (x - mean) / n`; rms: `x`).
//!
//! The backward computes in the statistics' element type (`f32` for `bf16`/`f16` inputs, as
//! torch's `opmath`) and casts each gradient once to its operand's type.

use super::builder::Builder;
use super::grads::Grads;
use fuser_dialects::fusion::norm::norm_operands;
use fuser_dialects::fusion::syntax::op_dims;
use fuser_ir::Value;
use fuser_ir::ir::OpId;

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let layer = name == "fusion.layer_norm";
    let g_out = g.first().copied().flatten();
    // The statistics' cotangents: layer_norm's results 1 (mean) and 2 (rstd), rms_norm's 1.
    let (g_mean, g_rstd) = if layer {
        (g.get(1).copied().flatten(), g.get(2).copied().flatten())
    } else {
        (None, g.get(1).copied().flatten())
    };
    let (has_w, has_b) = norm_operands(b.ctx, b.ir, op).ok_or_else(|| format!("'{name}' has malformed operands"))?;
    let x = b.ir.operand(op, 0);
    let weight = has_w.then(|| b.ir.operand(op, 1));
    let dims = op_dims(b.ctx, b.ir, op).ok_or_else(|| format!("'{name}' has no dims"))?;
    let want = if layer { 3 } else { 2 };
    if b.ir.num_results(op) != want {
        return Err(format!("'{name}' has no statistics results to differentiate with"));
    }
    let shape = b.shape(x);
    // The backward computes in the statistics' type (f32 for bf16/f16 inputs, as torch's
    // opmath) and rounds each gradient once to its operand's type.
    let out_elem = b.elem(x);
    let elem = b.elem(b.ir.result(op, want - 1));
    let x = b.cast(x, elem);
    let g_out = g_out.map(|g| b.cast(g, elem));
    let weight = weight.map(|w| b.cast(w, elem));
    let rank = shape.len() as i64;
    let lead: Vec<i64> = (0..rank - dims.len() as i64).collect();
    let n: i64 = dims.iter().map(|&d| shape[d as usize]).product();
    // The statistics broadcast over the normalized axes, in the input's element type.
    let stat = |b: &mut Builder<'_>, i: usize| {
        let s = b.ir.result(op, i);
        let s = b.cast(s, elem);
        b.broadcast(s, &dims, shape.clone())
    };
    let rstd = stat(b, want - 1);
    let xhat = if layer {
        let mean = stat(b, 1);
        let c = b.sub(x, mean);
        b.mul(c, rstd)
    } else {
        b.mul(x, rstd)
    };
    let n_inv = 1.0 / n as f64;
    // The statistics' contributions to dx.
    let mut stat_terms: Vec<Value> = Vec::new();
    if let Some(gm) = g_mean {
        let gm = b.cast(gm, elem);
        let gm = b.broadcast(gm, &dims, shape.clone());
        stat_terms.push(b.scale(gm, n_inv));
    }
    if let Some(gr) = g_rstd {
        let gr = b.cast(gr, elem);
        let gr = b.broadcast(gr, &dims, shape.clone());
        let r2 = b.mul(rstd, rstd);
        let t = b.mul(r2, xhat);
        let t = b.mul(t, gr);
        stat_terms.push(b.scale(t, -n_inv));
    }
    let Some(g) = g_out else {
        // Only statistics reach the gradient: dx from them alone; weight and bias get none.
        let mut terms = stat_terms.into_iter();
        let Some(first) = terms.next() else { return Ok(vec![None; b.ir.num_operands(op)]) };
        let gx = terms.fold(first, |acc, t| b.add(acc, t));
        let mut out = vec![Some(b.cast(gx, out_elem))];
        out.extend(std::iter::repeat_n(None, b.ir.num_operands(op) - 1));
        return Ok(out);
    };
    let gw = match weight {
        Some(w) => {
            let wb = b.broadcast(w, &lead, shape.clone());
            b.mul(g, wb)
        }
        None => g,
    };
    let mean_n = |b: &mut Builder<'_>, v: Value| {
        let s = b.sum(v, &dims, false);
        let m = b.scale(s, n_inv);
        b.broadcast(m, &dims, shape.clone())
    };
    let gwx = b.mul(gw, xhat);
    let m2 = mean_n(b, gwx);
    let t = b.mul(xhat, m2);
    let mut inner = b.sub(gw, t);
    if layer {
        let m1 = mean_n(b, gw);
        inner = b.sub(inner, m1);
    }
    let mut gx = b.mul(rstd, inner);
    for t in stat_terms {
        gx = b.add(gx, t);
    }
    let mut out = vec![Some(b.cast(gx, out_elem))];
    if has_w {
        let gx_hat = b.mul(g, xhat);
        let gw = b.sum(gx_hat, &lead, false);
        out.push(Some(b.cast(gw, out_elem)));
    }
    if has_b {
        let gb = b.sum(g, &lead, false);
        out.push(Some(b.cast(gb, out_elem)));
    }
    Ok(out)
}
