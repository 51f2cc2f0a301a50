//! The reference evaluator: a fusion-level function evaluated UNSHARDED in `f64` on
//! [`HostTensor`]s, what `fuser-run --check` compares the gathered outputs of a run with.
//!
//! Shardings in tensor types are ignored (the reference sees global shapes); values are kept in
//! `f64` without rounding, except `fusion.cast`, which rounds to its result's element type.
//! Ops: matmul (batched, rhs broadcast), linear (+bias), add/sub/mul/div (equal shapes), neg,
//! cast, sum (dims, keep_dims), set, broadcast, reshape, permute, and `func.return`.

use crate::cpu::kernels::{Precision, sum_values};
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::tensor::{HostTensor, round_to};
use fuser_dialects::fusion::syntax::{op_dims, op_keep_dims};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::types::TypeKind;
use rustc_hash::FxHashMap;

/// The element type and static shape of a ranked tensor type.
pub fn tensor_type(ctx: &Context, t: fuser_ir::types::Type) -> RtResult<(DType, Vec<usize>)> {
    match ctx.type_kind(t) {
        TypeKind::RankedTensor { shape, elem, .. } => {
            let dims = shape
                .iter()
                .map(|&d| usize::try_from(d).map_err(|_| RtError::new("the reference needs static shapes")))
                .collect::<RtResult<Vec<_>>>()?;
            Ok((DType::of(ctx, *elem)?, dims))
        }
        _ => Err(RtError::new(format!("expected a ranked tensor, got {}", fuser_dialects::type_str(ctx, t)))),
    }
}

/// Evaluates `func` on `inputs` (global tensors, one per argument); returns its results. An
/// error names the op's location attribute.
pub fn evaluate(ctx: &Context, ir: &Ir, func: OpId, inputs: &[HostTensor]) -> Result<Vec<HostTensor>, (Attr, RtError)> {
    let at = |op: OpId| move |e: RtError| (ir.loc(op), e);
    let body = ir.regions(func).first().and_then(|&r| ir.region_entry(r));
    let Some(entry) = body else { return Err((ir.loc(func), RtError::new("function has no body"))) };
    let args = ir.block_args(entry);
    if args.len() != inputs.len() {
        return Err((ir.loc(func), RtError::new(format!("{} inputs for {} arguments", inputs.len(), args.len()))));
    }
    let mut env: FxHashMap<Value, HostTensor> = args.iter().copied().zip(inputs.iter().cloned()).collect();
    for op in ir.block_ops(entry) {
        let name = ctx.op_name_str(ir.op_name(op));
        let operands: Vec<&HostTensor> = ir
            .operands(op)
            .iter()
            .map(|v| env.get(v).ok_or_else(|| (ir.loc(op), RtError::new("operand has no value"))))
            .collect::<Result<_, _>>()?;
        if name == "func.return" {
            return Ok(operands.into_iter().cloned().collect());
        }
        let result =
            *ir.results(op).first().ok_or_else(|| (ir.loc(op), RtError::new(format!("'{name}' has no result"))))?;
        let (dtype, shape) = tensor_type(ctx, ir.value_type(result)).map_err(at(op))?;
        let dims = op_dims(ctx, ir, op).unwrap_or_default();
        let value = eval_op(name, &operands, dtype, &shape, &dims, op_keep_dims(ctx, ir, op)).map_err(at(op))?;
        if value.shape != shape {
            return Err((
                ir.loc(op),
                RtError::new(format!("'{name}' computed shape {:?}, its type says {shape:?}", value.shape)),
            ));
        }
        env.insert(result, value);
    }
    Err((ir.loc(func), RtError::new("function ends without func.return")))
}

fn arg<'a>(operands: &[&'a HostTensor], i: usize, name: &str) -> RtResult<&'a HostTensor> {
    operands.get(i).copied().ok_or_else(|| RtError::new(format!("'{name}' is missing operand #{i}")))
}

/// One op on global tensors.
pub fn eval_op(
    name: &str,
    operands: &[&HostTensor],
    dtype: DType,
    shape: &[usize],
    dims: &[i64],
    keep_dims: bool,
) -> RtResult<HostTensor> {
    let x = arg(operands, 0, name)?;
    let dims_u: Vec<usize> = dims.iter().map(|&d| d.max(0) as usize).collect();
    let data = match name {
        "fusion.matmul" => matmul(x, arg(operands, 1, name)?)?,
        "fusion.linear" => linear(x, arg(operands, 1, name)?, operands.get(2).copied())?,
        "fusion.add" | "fusion.sub" | "fusion.mul" | "fusion.div" => {
            let y = arg(operands, 1, name)?;
            if x.shape != y.shape {
                return Err(RtError::new(format!("'{name}' on shapes {:?} and {:?}", x.shape, y.shape)));
            }
            let f: fn(f64, f64) -> f64 = match name {
                "fusion.add" => |a, b| a + b,
                "fusion.sub" => |a, b| a - b,
                "fusion.mul" => |a, b| a * b,
                _ => |a, b| a / b,
            };
            x.data.iter().zip(&y.data).map(|(&a, &b)| f(a, b)).collect()
        }
        "fusion.neg" => x.data.iter().map(|v| -v).collect(),
        "fusion.cast" => x.data.iter().map(|&v| round_to(dtype, v)).collect(),
        "fusion.set" | "fusion.reshape" => x.data.clone(),
        "fusion.sum" => {
            let _ = keep_dims; // keep_dims only changes the shape, which the result type gives.
            sum_values(&x.data, &x.shape, &dims_u, Precision::F64)
        }
        "fusion.broadcast" => broadcast(x, shape, &dims_u)?,
        "fusion.permute" => permute(x, &dims_u)?,
        other => return Err(RtError::new(format!("the reference evaluator cannot evaluate '{other}'"))),
    };
    HostTensor::new(dtype, shape.to_vec(), data)
}

fn matmul(a: &HostTensor, b: &HostTensor) -> RtResult<Vec<f64>> {
    let (ra, rb) = (a.shape.len(), b.shape.len());
    if ra < 2 || rb < 2 || a.shape[ra - 1] != b.shape[rb - 2] {
        return Err(RtError::new(format!("matmul of {:?} and {:?}", a.shape, b.shape)));
    }
    let (m, k, n) = (a.shape[ra - 2], a.shape[ra - 1], b.shape[rb - 1]);
    let batch: usize = a.shape[..ra - 2].iter().product();
    let b_batched = rb > 2;
    let mut out = vec![0.0; batch * m * n];
    for bi in 0..batch {
        let pa = &a.data[bi * m * k..];
        let pb = if b_batched { &b.data[bi * k * n..] } else { &b.data[..] };
        for i in 0..m {
            for j in 0..n {
                out[bi * m * n + i * n + j] = (0..k).map(|p| pa[i * k + p] * pb[p * n + j]).sum();
            }
        }
    }
    Ok(out)
}

fn linear(x: &HostTensor, w: &HostTensor, bias: Option<&HostTensor>) -> RtResult<Vec<f64>> {
    let rx = x.shape.len();
    if rx < 1 || w.shape.len() != 2 || x.shape[rx - 1] != w.shape[1] {
        return Err(RtError::new(format!("linear of {:?} and {:?}", x.shape, w.shape)));
    }
    let (n, k) = (w.shape[0], w.shape[1]);
    let m: usize = x.shape[..rx - 1].iter().product();
    let mut out = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let b = bias.map_or(0.0, |b| b.data[j]);
            out[i * n + j] = (0..k).map(|p| x.data[i * k + p] * w.data[j * k + p]).sum::<f64>() + b;
        }
    }
    Ok(out)
}

/// `dims` are the new axes of the result (of any extent); the others come from `x` in order.
fn broadcast(x: &HostTensor, shape: &[usize], dims: &[usize]) -> RtResult<Vec<f64>> {
    if shape.len() != x.shape.len() + dims.len() {
        return Err(RtError::new(format!("broadcast of {:?} to {shape:?} with new dims {dims:?}", x.shape)));
    }
    // A new axis reads the same element all along (stride 0); the others keep x's strides.
    let x_strides = crate::buffer::contiguous_strides(&x.shape);
    let mut kept = x_strides.iter();
    let view_strides: Vec<usize> =
        (0..shape.len()).map(|d| if dims.contains(&d) { 0 } else { *kept.next().unwrap_or(&0) }).collect();
    Ok(gather_strided(&x.data, shape, &view_strides))
}

/// The elements of `data` seen through `strides`, in row-major order of `shape`.
fn gather_strided(data: &[f64], shape: &[usize], strides: &[usize]) -> Vec<f64> {
    let n: usize = shape.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut index = vec![0usize; shape.len()];
    for _ in 0..n {
        out.push(data[index.iter().zip(strides).map(|(i, s)| i * s).sum::<usize>()]);
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
    out
}

/// `result[i] = input[dims[i]]` over axes.
fn permute(x: &HostTensor, dims: &[usize]) -> RtResult<Vec<f64>> {
    if dims.len() != x.shape.len() || dims.iter().any(|&d| d >= x.shape.len()) {
        return Err(RtError::new(format!("permutation {dims:?} of a rank-{} tensor", x.shape.len())));
    }
    let strides = crate::buffer::contiguous_strides(&x.shape);
    let shape: Vec<usize> = dims.iter().map(|&d| x.shape[d]).collect();
    let view_strides: Vec<usize> = dims.iter().map(|&d| strides[d]).collect();
    Ok(gather_strided(&x.data, &shape, &view_strides))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(shape: &[usize], data: &[f64]) -> HostTensor {
        HostTensor::new(DType::F64, shape.to_vec(), data.to_vec()).unwrap()
    }

    #[test]
    fn matmul_linear_and_batched() {
        let a = t(&[2, 2], &[1.0, 2.0, 3.0, 4.0]);
        let b = t(&[2, 1], &[1.0, 1.0]);
        assert_eq!(eval_op("fusion.matmul", &[&a, &b], DType::F64, &[2, 1], &[], false).unwrap().data, vec![3.0, 7.0]);
        let w = t(&[1, 2], &[1.0, -1.0]);
        let bias = t(&[1], &[10.0]);
        let y = eval_op("fusion.linear", &[&a, &w, &bias], DType::F64, &[2, 1], &[], false).unwrap();
        assert_eq!(y.data, vec![9.0, 9.0]);
        let ab = t(&[2, 1, 2], &[1.0, 2.0, 3.0, 4.0]);
        let bb = t(&[2, 2, 1], &[1.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            eval_op("fusion.matmul", &[&ab, &bb], DType::F64, &[2, 1, 1], &[], false).unwrap().data,
            vec![1.0, 4.0]
        );
    }

    #[test]
    fn layout_and_reduction_ops() {
        let a = t(&[2, 3], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        let p = eval_op("fusion.permute", &[&a], DType::F64, &[3, 2], &[1, 0], false).unwrap();
        assert_eq!(p.data, vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
        let s = eval_op("fusion.sum", &[&a], DType::F64, &[2, 1], &[1], true).unwrap();
        assert_eq!(s.data, vec![3.0, 12.0]);
        let v = t(&[2], &[1.0, 2.0]);
        let b = eval_op("fusion.broadcast", &[&v], DType::F64, &[3, 2], &[0], false).unwrap();
        assert_eq!(b.data, vec![1.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
        let c = eval_op("fusion.cast", &[&t(&[1], &[1.0 + 1.0 / 512.0])], DType::BF16, &[1], &[], false).unwrap();
        assert_eq!(c.data, vec![1.0]);
        let d = eval_op("fusion.sub", &[&a, &a], DType::F64, &[2, 3], &[], false).unwrap();
        assert!(d.data.iter().all(|&x| x == 0.0));
        assert!(eval_op("fusion.mystery", &[&a], DType::F64, &[2, 3], &[], false).is_err());
    }
}
