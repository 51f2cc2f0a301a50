//! VJP of dropout: the same mask on the cotangent, `dropout(g)` with the op's `seed`, `offset`
//! and `p` (the mask is a function of the global element index, so nothing is saved but the
//! seed and offset). Embedding's rule needs `fusion.embedding_grad` (not here yet).

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_ir::Value;
use fuser_ir::ir::OpId;

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    if name != "fusion.dropout" {
        return Err(format!("no gradient rule for '{name}' yet"));
    }
    let x = b.ir.operands(op).to_vec();
    let p = fuser_ir::verifier::op_attr(b.ctx, b.ir, op, "p").ok_or("'fusion.dropout' has no p")?;
    Ok(vec![Some(b.dropout(g, x[1], x[2], p)), None, None])
}
