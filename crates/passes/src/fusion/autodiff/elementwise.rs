//! VJPs of the arithmetic ops: add, sub, mul, div, neg, cast.

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_ir::ir::OpId;

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<fuser_ir::Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    let x = b.ir.operands(op).to_vec();
    Ok(match name {
        "fusion.add" => vec![Some(g), Some(g)],
        "fusion.sub" => vec![Some(g), Some(b.neg(g))],
        "fusion.mul" => vec![Some(b.mul(g, x[1])), Some(b.mul(g, x[0]))],
        "fusion.div" => {
            // d/da = g / b; d/db = -g * a / b² = -(g / b) * y.
            let ga = b.div(g, x[1]);
            let y = b.ir.result(op, 0);
            let t = b.mul(ga, y);
            vec![Some(ga), Some(b.neg(t))]
        }
        "fusion.neg" => vec![Some(b.neg(g))],
        "fusion.cast" => {
            let elem = b.elem(x[0]);
            vec![b.is_float(x[0]).then(|| b.cast(g, elem))]
        }
        _ => return Err(format!("no gradient rule for '{name}' yet")),
    })
}
