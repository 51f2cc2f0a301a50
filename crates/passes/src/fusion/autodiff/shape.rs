//! VJPs of the shape ops: set (the cotangent set back to the operand's type), broadcast (a sum over the new axes), reshape (back), permute (the
//! inverse permutation), slice (the cotangent placed among zeros with `concat`; along a strided
//! axis first spread out, `stride - 1` zeros after each element, by a reshape, a concat with
//! zeros and a slice) and concat (a slice of the cotangent per operand).

use super::builder::Builder;
use super::grads::{Grads, first};
use fuser_dialects::fusion::Sharding;
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
            // A partial operand's cotangent keeps its splits without the pending reduction
            // (every summand's cotangent is the sum's).
            let t = b.ir.value_type(x[0]);
            let t = match Sharding::of_type(b.ctx, t) {
                Some(s) if !s.partial.is_empty() => Sharding { partial: Vec::new(), ..s }.apply_to(b.ctx, t),
                _ => t,
            };
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
            let strides = prop_ints(b.ctx, b.ir, op, "strides").unwrap_or_else(|| vec![1; sizes.len()]);
            let full = b.shape(x[0]);
            let elem = b.elem(g);
            if sizes.contains(&0) {
                // An empty window: nothing flows back.
                return Ok(vec![Some(b.full(full, elem, 0.0))]);
            }
            let mut cur = g;
            for axis in 0..full.len() {
                let (o, n, st, e) = (offsets[axis], sizes[axis], strides[axis], full[axis]);
                if st > 1 && n > 1 {
                    cur = spread(b, cur, axis, st);
                }
                let span = (n - 1) * st.max(1) + 1;
                let mut parts = Vec::new();
                let mut s = b.shape(cur);
                if o > 0 {
                    s[axis] = o;
                    parts.push(b.full(s.clone(), elem, 0.0));
                }
                parts.push(cur);
                if o + span < e {
                    s[axis] = e - o - span;
                    parts.push(b.full(s, elem, 0.0));
                }
                if parts.len() > 1 {
                    cur = b.concat(parts, axis);
                }
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

/// `v` with `stride - 1` zeros after each element along `axis`, the trailing zeros cut:
/// `[..., n, ...]` becomes `[..., (n - 1) * stride + 1, ...]` (a unit axis appended after
/// `axis`, zeros concatenated on it, the two axes merged, the tail sliced off).
fn spread(b: &mut Builder<'_>, v: Value, axis: usize, stride: i64) -> Value {
    let s = b.shape(v);
    let elem = b.elem(v);
    let n = s[axis];
    let mut unit = s.clone();
    unit.insert(axis + 1, 1);
    let r = b.reshape(v, unit.clone());
    let mut z = unit;
    z[axis + 1] = stride - 1;
    let zeros = b.full(z, elem, 0.0);
    let c = b.concat(vec![r, zeros], axis + 1);
    let mut merged = s.clone();
    merged[axis] = n * stride;
    let flat = b.reshape(c, merged.clone());
    let mut sizes = merged;
    sizes[axis] = (n - 1) * stride + 1;
    b.slice(flat, &vec![0; s.len()], &sizes)
}
