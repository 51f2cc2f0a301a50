//! VJPs of the math ops: exp, log, tanh, erf, sqrt, rsqrt, sigmoid, abs, reciprocal, gelu (both
//! forms), silu, maximum, minimum, pow, where. The formulas and conventions are torch's
//! (`tools/autograd/derivatives.yaml`): `abs'(0) = 0`, ties of maximum/minimum split `g/2` to
//! each operand, `pow`'s exponent gradient is 0 where the base is 0 and the exponent `>= 0`.

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_ir::Value;
use fuser_ir::ir::OpId;
use std::f64::consts::{FRAC_2_SQRT_PI, PI, SQRT_2};

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    let x = b.ir.operands(op).to_vec();
    let y = b.ir.result(op, 0);
    let one = |b: &mut Builder<'_>, like: Value| b.full_like(like, 1.0);
    Ok(match name {
        "fusion.exp" => vec![Some(b.mul(g, y))],
        "fusion.log" => vec![Some(b.div(g, x[0]))],
        "fusion.tanh" => {
            // g * (1 - y²)
            let yy = b.mul(y, y);
            let o = one(b, y);
            let d = b.sub(o, yy);
            vec![Some(b.mul(g, d))]
        }
        "fusion.sigmoid" => {
            // g * y * (1 - y)
            let o = one(b, y);
            let d = b.sub(o, y);
            let gy = b.mul(g, y);
            vec![Some(b.mul(gy, d))]
        }
        "fusion.silu" => {
            // g * s * (1 + x * (1 - s)), s = sigmoid(x)
            let s = b.unary("fusion.sigmoid", x[0]);
            let o = one(b, s);
            let oms = b.sub(o, s);
            let t = b.mul(x[0], oms);
            let o2 = one(b, s);
            let u = b.add(o2, t);
            let d = b.mul(s, u);
            vec![Some(b.mul(g, d))]
        }
        "fusion.erf" => {
            // g * 2/sqrt(pi) * exp(-x²)
            let xx = b.mul(x[0], x[0]);
            let nxx = b.neg(xx);
            let e = b.exp(nxx);
            let d = b.scale(e, FRAC_2_SQRT_PI);
            vec![Some(b.mul(g, d))]
        }
        "fusion.sqrt" => {
            // g * 0.5 / y
            let h = b.scale(g, 0.5);
            vec![Some(b.div(h, y))]
        }
        "fusion.rsqrt" => {
            // g * (-0.5) * y³
            let yy = b.mul(y, y);
            let yyy = b.mul(yy, y);
            let d = b.scale(yyy, -0.5);
            vec![Some(b.mul(g, d))]
        }
        "fusion.reciprocal" => {
            // -g * y²
            let yy = b.mul(y, y);
            let t = b.mul(g, yy);
            vec![Some(b.neg(t))]
        }
        "fusion.abs" => {
            if !b.is_float(x[0]) {
                return Ok(vec![None]);
            }
            // g * sign(x), sign(0) = 0
            let z = b.full_like(x[0], 0.0);
            let pos = b.compare("gt", x[0], z);
            let neg = b.compare("lt", x[0], z);
            let o = b.full_like(x[0], 1.0);
            let m = b.full_like(x[0], -1.0);
            let inner = b.select(neg, m, z);
            let sign = b.select(pos, o, inner);
            vec![Some(b.mul(g, sign))]
        }
        "fusion.gelu" => {
            let tanh_form = fuser_ir::verifier::op_attr(b.ctx, b.ir, op, "approximate")
                .and_then(|a| b.ctx.attr_str(a))
                .is_some_and(|s| s == "tanh");
            let d = if tanh_form { gelu_tanh_derivative(b, x[0]) } else { gelu_erf_derivative(b, x[0]) };
            vec![Some(b.mul(g, d))]
        }
        "fusion.maximum" | "fusion.minimum" => {
            // torch: g to the strictly larger (smaller) operand, g/2 to each on ties.
            let pred = if name == "fusion.maximum" { "gt" } else { "lt" };
            let z = b.full_like(g, 0.0);
            let half = b.scale(g, 0.5);
            let tie = b.compare("eq", x[0], x[1]);
            let tie_part = b.select(tie, half, z);
            let a_wins = b.compare(pred, x[0], x[1]);
            let b_wins = b.compare(pred, x[1], x[0]);
            let ga = b.select(a_wins, g, tie_part);
            let gb = b.select(b_wins, g, tie_part);
            vec![Some(ga), Some(gb)]
        }
        "fusion.pow" => {
            // torch: d/da = where(b == 0, 0, g * b * a^(b-1));
            //        d/db = g * where(a == 0 and b >= 0, 0, y * log(a)).
            let (a, e) = (x[0], x[1]);
            let z = b.full_like(a, 0.0);
            let o = b.full_like(a, 1.0);
            let em1 = b.sub(e, o);
            let p = b.binary("fusion.pow", a, em1);
            let bp = b.mul(e, p);
            let gbp = b.mul(g, bp);
            let e_zero = b.compare("eq", e, z);
            let ga = b.select(e_zero, z, gbp);
            let la = b.unary("fusion.log", a);
            let yl = b.mul(y, la);
            let a_zero = b.compare("eq", a, z);
            let e_nonneg = b.compare("ge", e, z);
            let masked = b.select(e_nonneg, z, yl);
            let d = b.select(a_zero, masked, yl);
            vec![Some(ga), Some(b.mul(g, d))]
        }
        "fusion.where" => {
            let z = b.full_like(g, 0.0);
            let gl = b.select(x[0], g, z);
            let gr = b.select(x[0], z, g);
            vec![None, Some(gl), Some(gr)]
        }
        _ => return Err(format!("no gradient rule for '{name}' yet")),
    })
}

/// `d/dx [x * Φ(x)] = Φ(x) + x * φ(x)` (torch's `gelu_backward`, approximate = "none").
fn gelu_erf_derivative(b: &mut Builder<'_>, x: Value) -> Value {
    let xs = b.scale(x, 1.0 / SQRT_2);
    let erf = b.unary("fusion.erf", xs);
    let o = b.full_like(x, 1.0);
    let t = b.add(o, erf);
    let cdf = b.scale(t, 0.5);
    let xx = b.mul(x, x);
    let e = b.scale(xx, -0.5);
    let ex = b.exp(e);
    let pdf = b.scale(ex, 1.0 / (2.0 * PI).sqrt());
    let xpdf = b.mul(x, pdf);
    b.add(cdf, xpdf)
}

/// torch's `gelu_backward` for approximate = "tanh".
fn gelu_tanh_derivative(b: &mut Builder<'_>, x: Value) -> Value {
    let k_beta = SQRT_2 * FRAC_2_SQRT_PI * 0.5;
    let k_kappa = 0.044715;
    let x_sq = b.mul(x, x);
    let x_cube = b.mul(x_sq, x);
    let kc = b.scale(x_cube, k_kappa);
    let s = b.add(x, kc);
    let inner = b.scale(s, k_beta);
    let t = b.unary("fusion.tanh", inner);
    let left = b.scale(x, 0.5);
    let o = b.full_like(x, 1.0);
    let right = b.add(o, t);
    let left_derivative = b.scale(right, 0.5);
    let tt = b.mul(t, t);
    let o2 = b.full_like(x, 1.0);
    let tanh_derivative = b.sub(o2, tt);
    let right_derivative = b.mul(left, tanh_derivative);
    let k3 = b.scale(x_sq, 3.0 * k_kappa);
    let o3 = b.full_like(x, 1.0);
    let k3p = b.add(o3, k3);
    let inner_derivative = b.scale(k3p, k_beta);
    let ri = b.mul(right_derivative, inner_derivative);
    b.add(left_derivative, ri)
}
