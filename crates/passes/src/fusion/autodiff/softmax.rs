//! VJPs of softmax (`y * (g - sum(g * y))`) and log_softmax (`g - exp(y) * sum(g)`), the sums
//! over the softmax axes broadcast back.

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_dialects::fusion::syntax::op_dims;
use fuser_ir::Value;
use fuser_ir::ir::OpId;

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    let y = b.ir.result(op, 0);
    let dims = op_dims(b.ctx, b.ir, op).ok_or_else(|| format!("'{name}' has no dims"))?;
    let shape = b.shape(y);
    Ok(vec![Some(match name {
        "fusion.softmax" => {
            let gy = b.mul(g, y);
            let s = b.sum(gy, &dims, false);
            let se = b.expand(s, &dims, false, &shape);
            let d = b.sub(g, se);
            b.mul(y, d)
        }
        "fusion.log_softmax" => {
            let s = b.sum(g, &dims, false);
            let se = b.expand(s, &dims, false, &shape);
            let p = b.exp(y);
            let t = b.mul(p, se);
            b.sub(g, t)
        }
        _ => return Err(format!("no gradient rule for '{name}' yet")),
    })])
}
