//! Dispatch of an op to its vector-Jacobian product rule (one file per family).
//!
//! A rule receives the cotangents of the op's results (`None` for a result nothing reads
//! gradients from) and returns one contribution per operand (`None`: no gradient, e.g. an
//! integer operand or a condition); contributions to operands that need none are emitted but
//! erased afterwards when unused.

use super::builder::Builder;
use super::grads::Grads;
use super::{attention, elementwise, gemm, lookup, loss, math, norm, reduce, shape, softmax};
use fuser_ir::ir::{OpId, Value};

/// The VJP of `op` given its results' cotangents `g`; an error message when no rule exists.
pub fn vjp(b: &mut Builder<'_>, op: OpId, g: &[Option<Value>]) -> Result<Grads, String> {
    let name = b.ctx.op_name_str(b.ir.op_name(op)).to_string();
    let rule = match name.as_str() {
        "fusion.add" | "fusion.sub" | "fusion.mul" | "fusion.div" | "fusion.neg" | "fusion.cast" => elementwise::vjp,
        "fusion.exp" | "fusion.log" | "fusion.tanh" | "fusion.erf" | "fusion.sqrt" | "fusion.rsqrt"
        | "fusion.sigmoid" | "fusion.abs" | "fusion.reciprocal" | "fusion.gelu" | "fusion.silu" | "fusion.maximum"
        | "fusion.minimum" | "fusion.pow" | "fusion.where" => math::vjp,
        "fusion.sum" | "fusion.mean" | "fusion.max" | "fusion.min" | "fusion.var" => reduce::vjp,
        "fusion.set" | "fusion.broadcast" | "fusion.reshape" | "fusion.permute" | "fusion.slice" | "fusion.concat" => {
            shape::vjp
        }
        "fusion.matmul" | "fusion.linear" => gemm::vjp,
        "fusion.softmax" | "fusion.log_softmax" => softmax::vjp,
        "fusion.layer_norm" | "fusion.rms_norm" => norm::vjp,
        "fusion.dropout" | "fusion.embedding" => lookup::vjp,
        "fusion.sdpa" => attention::vjp,
        "fusion.cross_entropy" => loss::vjp,
        // No gradient flows through these (boolean, filled or integer results).
        "fusion.compare" | "fusion.full" => return Ok(vec![None; b.ir.num_operands(op)]),
        _ => return Err(format!("no gradient rule for '{name}' yet")),
    };
    rule(b, op, &name, g)
}
