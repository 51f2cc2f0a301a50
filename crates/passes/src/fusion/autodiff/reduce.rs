//! VJPs of the reductions: sum, mean, max, min, var. The cotangent is broadcast back over the
//! reduced axes (`keep_dims` results are reshaped first); max/min split it evenly over the
//! elements equal to the extreme (torch's `amax`/`amin`).

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_dialects::fusion::reduce::op_correction;
use fuser_dialects::fusion::syntax::{op_dims, op_keep_dims};
use fuser_ir::Value;
use fuser_ir::ir::OpId;

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    let x = b.ir.operand(op, 0);
    let y = b.ir.result(op, 0);
    let dims = op_dims(b.ctx, b.ir, op).ok_or_else(|| format!("'{name}' has no dims"))?;
    let keep = op_keep_dims(b.ctx, b.ir, op);
    let shape = b.shape(x);
    if dims.is_empty() {
        // An identity on the global value (a resharding point).
        return Ok(vec![Some(g)]);
    }
    let count: i64 = dims.iter().map(|&d| shape[d as usize]).product();
    Ok(vec![Some(match name {
        "fusion.sum" => b.expand(g, &dims, keep, &shape),
        "fusion.mean" => {
            let e = b.expand(g, &dims, keep, &shape);
            b.scale(e, 1.0 / count as f64)
        }
        "fusion.max" | "fusion.min" => {
            let ye = b.expand(y, &dims, keep, &shape);
            let mask = b.compare("eq", x, ye);
            let elem = b.elem(x);
            let m = b.cast(mask, elem);
            let n = b.sum(m, &dims, keep);
            let share = b.div(g, n);
            let se = b.expand(share, &dims, keep, &shape);
            b.mul(se, m)
        }
        "fusion.var" => {
            // g * 2 * (x - mean) / (N - correction)
            let correction = op_correction(b.ctx, b.ir, op);
            let mean = b.reduce("fusion.mean", x, &dims, false);
            let me = b.expand(mean, &dims, false, &shape);
            let dev = b.sub(x, me);
            let ge = b.expand(g, &dims, keep, &shape);
            let t = b.mul(ge, dev);
            b.scale(t, 2.0 / (count - correction) as f64)
        }
        _ => return Err(format!("no gradient rule for '{name}' yet")),
    })])
}
