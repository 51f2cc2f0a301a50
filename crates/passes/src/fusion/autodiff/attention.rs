//! VJP of `fusion.sdpa`: one `fusion.sdpa_grad` from the forward's `out` and `lse` (the
//! log-sum-exp of each query row, which the pass asks the forward for when it did not: see
//! `joint::with_statistics`) and the cotangent of `out`, with the forward's `causal` and
//! `scale`: `(dq, dk, dv)` without materializing the scores (the flash backward). The `lse`
//! result is not differentiable (as flash-attention's): a cotangent reaching it is ignored.

use super::builder::Builder;
use super::grads::Grads;
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
    let d = b.sdpa_grad([x[0], x[1], x[2]], out, lse, g, props);
    Ok(d.into_iter().map(Some).collect())
}
