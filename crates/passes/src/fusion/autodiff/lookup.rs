//! VJP of dropout: the same mask on the cotangent, `dropout(g)` with the op's `seed`, `offset`
//! and `p` (the mask is a function of the global element index, so nothing is saved but the
//! seed and offset); of embedding: `fusion.embedding_grad ids, g num_rows = V`, the rows of the
//! cotangent added into a zero table at their ids (ids outside `[0, V)` add nothing, as the
//! forward gives them zero rows; a vocab-parallel table's gradient rows stay on their rank).

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_ir::Value;
use fuser_ir::ir::OpId;

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    let x = b.ir.operands(op).to_vec();
    if name == "fusion.embedding" {
        let rows = b.shape(x[0])[0];
        let g = b.cast(g, b.elem(x[0]));
        return Ok(vec![Some(b.embedding_grad(x[1], g, rows)), None]);
    }
    if name != "fusion.dropout" {
        return Err(format!("no gradient rule for '{name}' yet"));
    }
    let p = fuser_ir::verifier::op_attr(b.ctx, b.ir, op, "p").ok_or("'fusion.dropout' has no p")?;
    Ok(vec![Some(b.dropout(g, x[1], x[2], p)), None, None])
}
