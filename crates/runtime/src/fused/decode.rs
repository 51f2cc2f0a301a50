//! A `host.fused` body to its [`FusedGraph`] (docs/dev/fusion.md), once, when the program is
//! prepared. The domain is the shape of the body's highest-rank values (all of one shape);
//! the inner axes are those every reduction, broadcast, softmax and norm of the body works on
//! (the same trailing axes for all, or the region is refused). Composite ops become
//! primitives, their inner nodes in the compute type (`f32`, `f64` for `f64`), so each rounds
//! once at its end like the named kernel it replaces:
//!
//! - `mean(x)` = `sum(x) * (1/n)`; `var(x)` = `sum(d*d) * 1/(n - correction)`, `d = x - mean`
//!   (two passes over values kept on chip);
//! - `softmax(x)` = `e / sum(e)`, `e = exp(x - max(x))`; `log_softmax(x)` = `d - log(sum(exp(d)))`,
//!   `d = x - max(x)`;
//! - `layer_norm` = `d * rstd (* w) (+ b)`, `mean = sum(x)/n`, `d = x - mean`,
//!   `rstd = rsqrt(sum(d*d)/n + eps)`; `rms_norm` = `x * rstd (* w)`, `rstd = rsqrt(sum(x*x)/n + eps)`;
//!   the statistics results are the `mean`/`rstd` nodes rounded to their types.
//!
//! Everything the body may hold is listed in docs/dev/fusion.md; anything else is an error
//! naming the op, reported when the program is prepared.

use super::graph::{FusedGraph, Input, Kind, Node, NodeId, NodeOp, ReduceOp};
use crate::dtype::DType;
use fuser_dialects::fusion::math::{elementwise_kind, full_value};
use fuser_dialects::fusion::norm::{LAYER_NORM_DEFAULT_EPSILON, norm_operands, op_epsilon, rms_norm_default_epsilon};
use fuser_dialects::fusion::reduce::op_correction;
use fuser_dialects::fusion::syntax::{op_dims, op_keep_dims};
use fuser_dialects::host::ElementwiseKind as E;
use fuser_dialects::{Scalar, element_type, inherent_attr};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::types::{FloatKind, TypeKind};
use rustc_hash::FxHashMap;

/// Decodes the body of the `host.fused` op `op`.
pub fn decode(ctx: &Context, ir: &Ir, op: OpId) -> Result<FusedGraph, String> {
    let body = ir.region_entry(ir.region(op, 0)).ok_or("the region has no body")?;
    let ops: Vec<OpId> = ir.block_ops(body).collect();
    let (&term, inner_ops) = ops.split_last().ok_or("the body is empty")?;
    let shape = |v: Value| -> Result<(Vec<usize>, DType), String> {
        match ctx.type_kind(ir.value_type(v)) {
            TypeKind::RankedTensor { shape, elem, .. } => {
                let dims = shape.iter().map(|&d| usize::try_from(d).map_err(|_| "a dynamic extent".to_string()));
                Ok((dims.collect::<Result<_, _>>()?, DType::of(ctx, *elem).map_err(|e| e.message)?))
            }
            _ => Err("a value that is not a ranked tensor".into()),
        }
    };
    // The domain: the shape of the highest-rank values.
    let args = ir.block_args(body).to_vec();
    let all: Vec<Value> = args.iter().copied().chain(inner_ops.iter().flat_map(|&o| ir.results(o).to_vec())).collect();
    let mut domain: Vec<usize> = Vec::new();
    for &v in &all {
        let (s, _) = shape(v)?;
        if s.len() > domain.len() {
            domain = s;
        }
    }
    for &v in &all {
        let (s, _) = shape(v)?;
        if s.len() == domain.len() && s != domain {
            return Err(format!("values of shapes {s:?} and {domain:?} in one region"));
        }
    }
    // The inner axes: what every reducing or broadcasting op works on.
    let rank = domain.len();
    let mut inner: Option<usize> = None;
    for &o in inner_ops {
        let name = ctx.op_name_str(ir.op_name(o));
        let dims = match name {
            "fusion.sum" | "fusion.max" | "fusion.min" | "fusion.mean" | "fusion.var" | "fusion.softmax"
            | "fusion.log_softmax" | "fusion.layer_norm" | "fusion.rms_norm" | "fusion.broadcast" => {
                op_dims(ctx, ir, o).ok_or_else(|| format!("'{name}' without dims"))?
            }
            _ => continue,
        };
        let k = dims.len();
        let trailing = dims.iter().enumerate().all(|(i, &d)| d == (rank - k + i) as i64);
        if k == 0 || !trailing {
            return Err(format!("'{name}' works on axes {dims:?}, not the trailing axes of the domain {domain:?}"));
        }
        match inner {
            Some(prev) if prev != k => {
                return Err(format!("'{name}' works on the last {k} axes where another op works on the last {prev}"));
            }
            _ => inner = Some(k),
        }
    }
    let inner = inner.unwrap_or(0);
    let split = rank - inner;
    let mut g = FusedGraph {
        domain: domain.clone(),
        inner,
        inputs: Vec::new(),
        nodes: Vec::new(),
        outputs: Vec::new(),
        global_shape: Vec::new(),
    };
    let kind_of_shape = |s: &[usize], col_use: bool| -> Result<Kind, String> {
        if col_use && inner > 0 && s == &domain[split..] {
            Ok(Kind::Col)
        } else if s == domain.as_slice() {
            Ok(Kind::Full)
        } else if s.is_empty() {
            Ok(Kind::Scalar)
        } else if inner > 0 && s == &domain[split..] && (col_use || s != &domain[..split]) {
            Ok(Kind::Col)
        } else if inner > 0 && s == &domain[..split] {
            Ok(Kind::Row)
        } else {
            Err(format!("a value of shape {s:?} fits neither the domain {domain:?} nor its rows or columns"))
        }
    };
    // Inputs: a norm's weight or bias is a column value even where rows and columns agree.
    let col_uses: Vec<Value> = inner_ops
        .iter()
        .filter(|&&o| matches!(ctx.op_name_str(ir.op_name(o)), "fusion.layer_norm" | "fusion.rms_norm"))
        .flat_map(|&o| ir.operands(o)[1..].to_vec())
        .collect();
    let mut map: FxHashMap<Value, NodeId> = FxHashMap::default();
    for (i, &a) in args.iter().enumerate() {
        let (s, dtype) = shape(a)?;
        let kind = kind_of_shape(&s, col_uses.contains(&a)).map_err(|m| format!("input #{i}: {m}"))?;
        g.inputs.push(Input { dtype, kind });
        map.insert(a, push(&mut g, NodeOp::Input(i), &[], dtype, kind));
    }
    for &o in inner_ops {
        let name = ctx.op_name_str(ir.op_name(o)).to_string();
        let arg = |i: usize| -> Result<NodeId, String> {
            map.get(&ir.operand(o, i)).copied().ok_or_else(|| format!("'{name}': an operand defined outside the body"))
        };
        let (rshape, rtype) = shape(ir.result(o, 0))?;
        let ct = compute_type(&g, &[rtype]);
        let result: Vec<NodeId> = if let Some(kind) = elementwise_kind(ctx, ir, o) {
            let a: Vec<NodeId> = (0..ir.num_operands(o)).map(arg).collect::<Result<_, _>>()?;
            let k = Kind::join(a.iter().map(|&n| g.nodes[n].kind));
            vec![push(&mut g, NodeOp::Elementwise(kind), &a, rtype, k)]
        } else {
            match name.as_str() {
                "fusion.full" => {
                    let v = match full_value(ctx, ir, o).ok_or("'fusion.full' without a value")? {
                        Scalar::Int(i) => i as f64,
                        Scalar::Float(f) => f,
                    };
                    vec![push(&mut g, NodeOp::Const(v), &[], rtype, Kind::Scalar)]
                }
                "fusion.broadcast" => {
                    let x = arg(0)?;
                    if g.nodes[x].kind == Kind::Full {
                        return Err("'fusion.broadcast' of a full-size value".into());
                    }
                    vec![push(&mut g, NodeOp::Broadcast, &[x], rtype, Kind::Full)]
                }
                "fusion.sum" | "fusion.max" | "fusion.min" | "fusion.mean" | "fusion.var" => {
                    if op_keep_dims(ctx, ir, o) {
                        return Err(format!("'{name}' with keep_dims"));
                    }
                    let x = full_arg(&mut g, arg(0)?, &name)?;
                    let ct = compute_type(&g, &[rtype, g.nodes[x].dtype]);
                    let n = g.rows_cols().1 as f64;
                    vec![match name.as_str() {
                        "fusion.sum" => push(&mut g, NodeOp::Reduce(ReduceOp::Sum), &[x], rtype, Kind::Row),
                        "fusion.max" => push(&mut g, NodeOp::Reduce(ReduceOp::Max), &[x], rtype, Kind::Row),
                        "fusion.min" => push(&mut g, NodeOp::Reduce(ReduceOp::Min), &[x], rtype, Kind::Row),
                        "fusion.mean" => {
                            let s = push(&mut g, NodeOp::Reduce(ReduceOp::Sum), &[x], ct, Kind::Row);
                            scale(&mut g, s, 1.0 / n, rtype)
                        }
                        _ => {
                            let correction = op_correction(ctx, ir, o) as f64;
                            let (_, d) = centered(&mut g, x, ct, n);
                            let sq = push(&mut g, NodeOp::Elementwise(E::Mul), &[d, d], ct, Kind::Full);
                            let s = push(&mut g, NodeOp::Reduce(ReduceOp::Sum), &[sq], ct, Kind::Row);
                            scale(&mut g, s, 1.0 / (n - correction).max(0.0), rtype)
                        }
                    }]
                }
                "fusion.softmax" | "fusion.log_softmax" => {
                    let x = full_arg(&mut g, arg(0)?, &name)?;
                    let m = push(&mut g, NodeOp::Reduce(ReduceOp::Max), &[x], ct, Kind::Row);
                    let d = push(&mut g, NodeOp::Elementwise(E::Sub), &[x, m], ct, Kind::Full);
                    let e = push(&mut g, NodeOp::Elementwise(E::Exp), &[d], ct, Kind::Full);
                    let s = push(&mut g, NodeOp::Reduce(ReduceOp::Sum), &[e], ct, Kind::Row);
                    vec![if name == "fusion.softmax" {
                        push(&mut g, NodeOp::Elementwise(E::Div), &[e, s], rtype, Kind::Full)
                    } else {
                        let l = push(&mut g, NodeOp::Elementwise(E::Log), &[s], ct, Kind::Row);
                        push(&mut g, NodeOp::Elementwise(E::Sub), &[d, l], rtype, Kind::Full)
                    }]
                }
                "fusion.layer_norm" | "fusion.rms_norm" => norm(ctx, ir, o, &mut g, &arg, rtype, ct)?,
                "fusion.dropout" => {
                    let (x, seed, offset) = (full_arg(&mut g, arg(0)?, &name)?, arg(1)?, arg(2)?);
                    for s in [seed, offset] {
                        if g.nodes[s].kind != Kind::Scalar || !g.nodes[s].dtype.is_int() {
                            return Err("'fusion.dropout' needs integer scalar seed and offset".into());
                        }
                    }
                    let p = inherent_attr(ctx, ir, o, "p")
                        .and_then(|a| fuser_dialects::fusion::norm::f64_of(ctx, a))
                        .ok_or("'fusion.dropout' without p")?;
                    vec![push(&mut g, NodeOp::Dropout { p }, &[x, seed, offset], rtype, Kind::Full)]
                }
                _ => return Err(format!("'{name}' cannot be part of a fused region")),
            }
        };
        for (j, &n) in result.iter().enumerate() {
            let r = ir.result(o, j);
            let (s, _) = shape(r)?;
            let want = g.shape_of(g.nodes[n].kind);
            if s != want && g.nodes[n].kind != Kind::Scalar {
                return Err(format!("'{name}': result #{j} has shape {s:?}, the region computes {want:?}"));
            }
            map.insert(r, n);
        }
        let _ = rshape;
    }
    for (i, &y) in ir.operands(term).iter().enumerate() {
        let n = *map.get(&y).ok_or("a yielded value defined outside the body")?;
        let (s, _) = shape(y)?;
        let want = if s == domain {
            Kind::Full
        } else if inner > 0 && s == domain[..split] {
            Kind::Row
        } else {
            Kind::Scalar
        };
        if want == Kind::Scalar {
            return Err(format!("output #{i} of shape {s:?} is neither the domain {domain:?} nor its rows"));
        }
        let out = widen(&mut g, n, want);
        g.outputs.push(out);
    }
    if g.nodes.iter().any(|n| matches!(n.op, NodeOp::Dropout { .. })) {
        let gs = fuser_dialects::host::fused_global_shape(ctx, ir, op);
        g.global_shape =
            gs.iter().map(|&d| usize::try_from(d).map_err(|_| "a negative global extent")).collect::<Result<_, _>>()?;
    }
    g.validate()?;
    Ok(g)
}

fn push(g: &mut FusedGraph, op: NodeOp, args: &[NodeId], dtype: DType, kind: Kind) -> NodeId {
    g.nodes.push(Node { op, args: args.to_vec(), dtype, kind });
    g.nodes.len() - 1
}

/// `f64` when any of the types (or of the graph's inputs) is `f64`, else `f32`.
fn compute_type(g: &FusedGraph, types: &[DType]) -> DType {
    if types.contains(&DType::F64) || g.inputs.iter().any(|i| i.dtype == DType::F64) { DType::F64 } else { DType::F32 }
}

/// `n` as a full value: itself, or its broadcast (a constant or a row value that a reduction,
/// a norm or a dropout reads as full-size).
fn full_arg(g: &mut FusedGraph, n: NodeId, _name: &str) -> Result<NodeId, String> {
    Ok(widen(g, n, Kind::Full))
}

/// `n` broadcast to `kind` when it is smaller (a `Full` value stays as it is).
fn widen(g: &mut FusedGraph, n: NodeId, kind: Kind) -> NodeId {
    let have = g.nodes[n].kind;
    if have == kind || have == Kind::Full || (kind == Kind::Row && have != Kind::Scalar) {
        return n;
    }
    let dtype = g.nodes[n].dtype;
    push(g, NodeOp::Broadcast, &[n], dtype, kind)
}

/// `x * c` as a node of `dtype` (the kind of `x`).
fn scale(g: &mut FusedGraph, x: NodeId, c: f64, dtype: DType) -> NodeId {
    let ct = compute_type(g, &[dtype, g.nodes[x].dtype]);
    let k = push(g, NodeOp::Const(c), &[], ct, Kind::Scalar);
    let kind = g.nodes[x].kind;
    push(g, NodeOp::Elementwise(E::Mul), &[x, k], dtype, kind)
}

/// `(mean, x - mean)` in the compute type `ct` over rows of `n`.
fn centered(g: &mut FusedGraph, x: NodeId, ct: DType, n: f64) -> (NodeId, NodeId) {
    let s = push(g, NodeOp::Reduce(ReduceOp::Sum), &[x], ct, Kind::Row);
    let mean = scale(g, s, 1.0 / n, ct);
    let d = push(g, NodeOp::Elementwise(E::Sub), &[x, mean], ct, Kind::Full);
    (mean, d)
}

/// A layer_norm or rms_norm: result 0, then the statistics (mean and rstd, or rstd).
fn norm(
    ctx: &Context,
    ir: &Ir,
    o: OpId,
    g: &mut FusedGraph,
    arg: &dyn Fn(usize) -> Result<NodeId, String>,
    rtype: DType,
    ct: DType,
) -> Result<Vec<NodeId>, String> {
    let name = ctx.op_name_str(ir.op_name(o));
    let rms = name == "fusion.rms_norm";
    let (has_w, has_b) = norm_operands(ctx, ir, o).ok_or("a norm with malformed operand segments")?;
    let x = full_arg(g, arg(0)?, name)?;
    let elem = match ctx.type_kind(element_type(ctx, ir.value_type(ir.operand(o, 0)))) {
        TypeKind::Float(k) => *k,
        _ => return Err(format!("'{name}' of a non-float tensor")),
    };
    let eps =
        op_epsilon(ctx, ir, o).unwrap_or(if rms { rms_norm_default_epsilon(elem) } else { LAYER_NORM_DEFAULT_EPSILON });
    let _: FloatKind = elem;
    let n = g.rows_cols().1 as f64;
    let stat_type = |j: usize| -> Result<DType, String> {
        match ctx.type_kind(element_type(ctx, ir.value_type(ir.result(o, j)))) {
            TypeKind::Float(_) => {
                DType::of(ctx, element_type(ctx, ir.value_type(ir.result(o, j)))).map_err(|e| e.message)
            }
            _ => Err("a statistics result that is not float".into()),
        }
    };
    let nstats = ir.num_results(o) - 1;
    let (mean, centered_x, sumsq) = if rms {
        let sq = push(g, NodeOp::Elementwise(E::Mul), &[x, x], ct, Kind::Full);
        (None, x, push(g, NodeOp::Reduce(ReduceOp::Sum), &[sq], ct, Kind::Row))
    } else {
        let (mean, d) = centered(g, x, ct, n);
        let sq = push(g, NodeOp::Elementwise(E::Mul), &[d, d], ct, Kind::Full);
        (Some(mean), d, push(g, NodeOp::Reduce(ReduceOp::Sum), &[sq], ct, Kind::Row))
    };
    let var = scale(g, sumsq, 1.0 / n, ct);
    let e = push(g, NodeOp::Const(eps), &[], ct, Kind::Scalar);
    let ve = push(g, NodeOp::Elementwise(E::Add), &[var, e], ct, Kind::Row);
    let rstd = push(g, NodeOp::Elementwise(E::Rsqrt), &[ve], ct, Kind::Row);
    let last = !has_w && !has_b;
    let mut y = push(g, NodeOp::Elementwise(E::Mul), &[centered_x, rstd], if last { rtype } else { ct }, Kind::Full);
    let mut next = 1;
    for (present, is_last) in [(has_w, !has_b), (has_b, true)] {
        if !present {
            continue;
        }
        let p = arg(next)?;
        next += 1;
        if g.nodes[p].kind != Kind::Col {
            return Err(format!("'{name}': a weight or bias that is not a row-length vector"));
        }
        let op = if next == 2 && has_w { E::Mul } else { E::Add };
        y = push(g, NodeOp::Elementwise(op), &[y, p], if is_last { rtype } else { ct }, Kind::Full);
    }
    let mut out = vec![y];
    match (rms, nstats) {
        (_, 0) => {}
        (false, 2) => {
            let m = mean.expect("layer_norm has a mean");
            let (t0, t1) = (stat_type(1)?, stat_type(2)?);
            out.push(push(g, NodeOp::Elementwise(E::Cast), &[m], t0, Kind::Row));
            out.push(push(g, NodeOp::Elementwise(E::Cast), &[rstd], t1, Kind::Row));
        }
        (true, 1) => {
            let t = stat_type(1)?;
            out.push(push(g, NodeOp::Elementwise(E::Cast), &[rstd], t, Kind::Row));
        }
        (_, k) => return Err(format!("'{name}' with {k} statistics results")),
    }
    Ok(out)
}
