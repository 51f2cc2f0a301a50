//! VJPs of the shape ops: set (the cotangent set back to the operand's type), broadcast (a sum over the new axes), reshape (back), permute (the
//! inverse permutation), slice with unit strides (the cotangent placed among zeros with
//! `concat`; strided slices are diagnosed) and concat (a slice of the cotangent per operand).

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_dialects::fusion::clauses::{prop_int, prop_ints};
use fuser_dialects::fusion::syntax::op_dims;
use fuser_ir::Value;
use fuser_ir::ir::OpId;

pub fn vjp(b: &mut Builder<'_>, op: OpId, name: &str, g: &[Option<Value>]) -> Result<Grads, String> {
    let g = first(g, name)?;
    let x = b.ir.operands(op).to_vec();
    Ok(match name {
        "fusion.broadcast" => {
            let dims = op_dims(b.ctx, b.ir, op).ok_or("'fusion.broadcast' has no dims")?;
            vec![Some(b.sum(g, &dims, false))]
        }
        "fusion.set" => {
            // The identity on the global value: the cotangent goes back to the operand's type
            // (the transpose of the resharding: a forward allgather becomes a reduce-scatter
            // or a slice, as in Megatron's sequence parallelism).
            let t = b.ir.value_type(x[0]);
            vec![Some(if b.ir.value_type(g) == t { g } else { b.set(g, t) })]
        }
        "fusion.reshape" => {
            let s = b.shape(x[0]);
            vec![Some(b.reshape(g, s))]
        }
        "fusion.permute" => {
            let dims = op_dims(b.ctx, b.ir, op).ok_or("'fusion.permute' has no dims")?;
            let mut inverse = vec![0i64; dims.len()];
            for (i, &d) in dims.iter().enumerate() {
                inverse[d as usize] = i as i64;
            }
            vec![Some(b.permute(g, &inverse))]
        }
        "fusion.slice" => {
            let offsets = prop_ints(b.ctx, b.ir, op, "offsets").ok_or("'fusion.slice' has no offsets")?;
            let sizes = prop_ints(b.ctx, b.ir, op, "sizes").ok_or("'fusion.slice' has no sizes")?;
            if prop_ints(b.ctx, b.ir, op, "strides").is_some_and(|st| st.iter().any(|&s| s != 1)) {
                return Err("the gradient of a strided 'fusion.slice' is not supported yet (it needs a scatter)".into());
            }
            let full = b.shape(x[0]);
            let elem = b.elem(g);
            let mut cur = g;
            for axis in 0..full.len() {
                let (o, n, e) = (offsets[axis], sizes[axis], full[axis]);
                if o == 0 && n == e {
                    continue;
                }
                let mut parts = Vec::new();
                let mut s = b.shape(cur);
                if o > 0 {
                    s[axis] = o;
                    parts.push(b.full(s.clone(), elem, 0.0));
                }
                parts.push(cur);
                if o + n < e {
                    s[axis] = e - o - n;
                    parts.push(b.full(s, elem, 0.0));
                }
                cur = b.concat(parts, axis);
            }
            vec![Some(cur)]
        }
        "fusion.concat" => {
            let dim = prop_int(b.ctx, b.ir, op, "dim").ok_or("'fusion.concat' has no dim")? as usize;
            let gs = b.shape(g);
            let mut at = 0;
            let mut out = Vec::new();
            for &v in &x {
                let s = b.shape(v);
                let mut offsets = vec![0; gs.len()];
                offsets[dim] = at;
                at += s[dim];
                out.push(Some(b.slice(g, &offsets, &s)));
            }
            out
        }
        _ => return Err(format!("no gradient rule for '{name}' yet")),
    })
}
