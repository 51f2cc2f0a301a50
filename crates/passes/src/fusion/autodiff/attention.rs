//! VJP of `fusion.sdpa`: one `fusion.sdpa_grad` from the forward's `out` and `lse` (the
//! log-sum-exp of each query row, which the pass asks the forward for when it did not: see
//! `joint::with_statistics`) and the cotangent of `out`, with the forward's `causal` and
//! `scale`: `(dq, dk, dv)` without materializing the scores (the flash backward). The `lse`
//! result is not differentiable (as flash-attention's): a cotangent reaching it is ignored.

use super::builder::Builder;
use super::grads::Grads;
use fuser_dialects::fusion::{Sharding, Split};
use fuser_ir::Value;
use fuser_ir::ir::OpId;

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let Some(g) = g.first().copied().flatten() else { return Ok(vec![None; 3]) };
    if b.ir.num_results(op) != 2 {
        return Err(format!("'{name}' has no lse result to differentiate with"));
    }
    let x = b.ir.operands(op).to_vec();
    let (out, lse) = (b.ir.result(op, 0), b.ir.result(op, 1));
    // The cotangent in the output's type (an accumulated cotangent already is).
    let g = b.cast(g, b.elem(out));
    let props = b.ir.props(op);
    // sdpa_grad sums dk/dv over the query sequence, which therefore cannot be streamed: a
    // stream-chunked forward's operands are read whole (their Stream splits dropped; device
    // splits stay).
    let [q, k, v, out, lse, g] = [x[0], x[1], x[2], out, lse, g].map(|v| unstreamed(b, v));
    let d = b.sdpa_grad([q, k, v], out, lse, g, props);
    if Sharding::of_type(b.ctx, b.ir.value_type(q)).is_some() {
        // The gradients take the (unstreamed) layouts of q, k and v, so that propagation does
        // not pull a Stream split of their consumers (the chunked dgrads of the projection
        // before the attention) back onto them; a context-parallel dk/dv (partial by nature)
        // is reduced to that layout by fusion-decompose-resharding.
        for (&r, src) in d.iter().zip([q, k, v]) {
            let t = b.ir.value_type(src);
            b.ir.set_value_type(r, t);
        }
    }
    Ok(d.into_iter().map(Some).collect())
}

/// `v` set to its layout without Stream splits when its (annotated) type has any; else `v`.
fn unstreamed(b: &mut Builder<'_>, v: Value) -> Value {
    let ty = b.ir.value_type(v);
    let Some(mut s) = Sharding::of_type(b.ctx, ty) else { return v };
    if !s.axes.iter().flatten().any(|x| matches!(x, Split::Stream(_))) {
        return v;
    }
    for axis in &mut s.axes {
        axis.retain(|x| !matches!(x, Split::Stream(_)));
    }
    let plain = b.ty(b.shape(v), b.elem(v));
    let want = s.apply_to(b.ctx, plain);
    b.set(v, want)
}
