//! The reference evaluator: a fusion-level function evaluated UNSHARDED on [`HostTensor`]s,
//! what `fuser-run --check` compares the gathered outputs of a run with.
//!
//! Shardings in tensor types are ignored (the reference sees global shapes). Every op computes
//! in its element type's semantics (`numerics.rs`): integer tensors exactly in `i64`, wrapping
//! at the element width (division truncates toward zero, `x / 0 = -1`); float tensors in `f64`,
//! each op's result rounded to the element type (so an f16 `300 * 300` is infinity, as in the
//! run); matmul, linear and sum accumulate in `f64` and round once (the run's f32 accumulation
//! differs within the tolerance). `fusion.cast` converts as the runtime does (float -> integer
//! truncates and saturates). Ops: matmul (batched, rhs broadcast), linear (+bias),
//! add/sub/mul/div (equal shapes), neg, cast, sum (dims, keep_dims), set, broadcast, reshape,
//! permute, slice, concat (`ops::slicing`), max/min/mean/var (`ops::reduce`), the ops of
//! `KERNEL_OPS` through `crate::ops`, the math ops of `fusion/math.rs` through their `host.elementwise` kind (functions in
//! `f64`, comparisons exact into `i1`, `where` exact), `full`, and `func.return`. Results are [`HostTensor`]s (`f64` values: an i64 beyond 2^53
//! is rounded there, as the run's gathered outputs are).

use crate::cpu::kernels::{Precision, sum_ints, sum_values};
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::numerics;
use crate::ops::reduce;
use crate::ops::slicing;
use crate::tensor::HostTensor;
use fuser_dialects::Scalar;
use fuser_dialects::fusion::clauses::{prop_int, prop_ints};
use fuser_dialects::fusion::reduce::op_correction;
use fuser_dialects::fusion::syntax::{op_dims, op_keep_dims};
use fuser_dialects::fusion::{elementwise_kind, full_value};
use fuser_dialects::host::{ElementwiseKind, ReduceKind};
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
    let mut env: FxHashMap<Value, RefTensor> = args.iter().copied().zip(inputs.iter().map(RefTensor::of)).collect();
    for op in ir.block_ops(entry) {
        let name = ctx.op_name_str(ir.op_name(op));
        let operands: Vec<&RefTensor> = ir
            .operands(op)
            .iter()
            .map(|v| env.get(v).ok_or_else(|| (ir.loc(op), RtError::new("operand has no value"))))
            .collect::<Result<_, _>>()?;
        if name == "func.return" {
            return Ok(operands.into_iter().map(RefTensor::to_host).collect());
        }
        if let Some(k) = fuser_dialects::fusion::kernel_op(name) {
            let values = eval_kernel(ctx, ir, op, k, &operands).map_err(at(op))?;
            for (&r, v) in ir.results(op).iter().zip(values) {
                env.insert(r, v);
            }
            continue;
        }
        let result =
            *ir.results(op).first().ok_or_else(|| (ir.loc(op), RtError::new(format!("'{name}' has no result"))))?;
        let (dtype, shape) = tensor_type(ctx, ir.value_type(result)).map_err(at(op))?;
        let dims = op_dims(ctx, ir, op).unwrap_or_default();
        let attrs = Attrs {
            dims: &dims,
            keep_dims: op_keep_dims(ctx, ir, op),
            correction: op_correction(ctx, ir, op),
            props: OpProps { kind: elementwise_kind(ctx, ir, op), fill: full_value(ctx, ir, op) },
        };
        let value = match name {
            "fusion.slice" | "fusion.concat" => eval_slicing(ctx, ir, op, &operands, dtype, &shape),
            _ => eval_ref(name, &operands, dtype, &shape, &attrs),
        }
        .map_err(at(op))?;
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

/// A fusion op implemented by a named kernel, evaluated on the global tensors through its
/// semantics in `crate::ops` (origin zeros: the global tensor is the piece).
fn eval_kernel(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    k: &fuser_dialects::fusion::KernelOp,
    operands: &[&RefTensor],
) -> RtResult<Vec<RefTensor>> {
    use crate::ops::{Call, Dense, Params};
    use fuser_dialects::fusion::Origin;
    let kernel = crate::ops::lookup(k.kernel)
        .ok_or_else(|| RtError::new(format!("the reference has no kernel '{}' for '{}'", k.kernel, k.op)))?;
    let params = match ir.props(op) {
        Some(d) => Params::from_attr(ctx, d)?,
        None => Params::default(),
    };
    let inputs: Vec<Dense> = operands
        .iter()
        .map(|t| Dense { dtype: t.dtype, shape: t.shape.clone(), vals: t.vals.clone().into() })
        .collect();
    let outputs: Vec<(DType, Vec<usize>)> =
        ir.results(op).iter().map(|&r| tensor_type(ctx, ir.value_type(r))).collect::<RtResult<_>>()?;
    let in_types: Vec<_> = inputs.iter().map(|d| (d.dtype, d.shape.clone())).collect();
    (kernel.check)(&params, &in_types, &outputs).map_err(|m| RtError::new(format!("kernel '{}': {m}", kernel.name)))?;
    let global: Vec<usize> = match k.origin {
        Origin::None => Vec::new(),
        Origin::Result(j) => outputs.get(j).map(|(_, s)| s.clone()).unwrap_or_default(),
        Origin::Operand(i) => inputs.get(i).map(|d| d.shape.clone()).unwrap_or_default(),
    };
    let origin = vec![0; global.len()];
    let call = Call { params: &params, inputs: &inputs, outputs: &outputs, origin: &origin, global_shape: &global };
    let results = crate::ops::run(kernel, &call)?;
    Ok(results.into_iter().map(|d| RefTensor { dtype: d.dtype, shape: d.shape, vals: d.vals.into() }).collect())
}

impl From<Vals> for crate::ops::Vals {
    fn from(v: Vals) -> crate::ops::Vals {
        match v {
            Vals::F(x) => crate::ops::Vals::F(x),
            Vals::I(x) => crate::ops::Vals::I(x),
        }
    }
}

impl From<crate::ops::Vals> for Vals {
    fn from(v: crate::ops::Vals) -> Vals {
        match v {
            crate::ops::Vals::F(x) => Vals::F(x),
            crate::ops::Vals::I(x) => Vals::I(x),
        }
    }
}

/// Values of a reference tensor: floats (rounded to the element type) or exact integers.
#[derive(Clone, Debug, PartialEq)]
enum Vals {
    F(Vec<f64>),
    I(Vec<i64>),
}

/// A tensor of the reference evaluator.
#[derive(Clone, Debug, PartialEq)]
struct RefTensor {
    dtype: DType,
    shape: Vec<usize>,
    vals: Vals,
}

impl RefTensor {
    fn of(t: &HostTensor) -> RefTensor {
        let vals = if t.dtype.is_int() {
            Vals::I(t.data.iter().map(|&v| numerics::float_to_int(t.dtype, v)).collect())
        } else {
            Vals::F(t.data.clone())
        };
        RefTensor { dtype: t.dtype, shape: t.shape.clone(), vals }
    }

    fn to_host(&self) -> HostTensor {
        HostTensor { dtype: self.dtype, shape: self.shape.clone(), data: self.floats() }
    }

    /// The values as `f64` (integers exact below 2^53).
    fn floats(&self) -> Vec<f64> {
        match &self.vals {
            Vals::F(v) => v.clone(),
            Vals::I(v) => v.iter().map(|&x| x as f64).collect(),
        }
    }

    /// The values as integers (floats converted as a cast to i64 would).
    fn ints(&self) -> Vec<i64> {
        match &self.vals {
            Vals::I(v) => v.clone(),
            Vals::F(v) => v.iter().map(|&x| numerics::float_to_int(DType::I64, x)).collect(),
        }
    }
}

/// Arithmetic the generic reference helpers need: `f64` plainly, `i64` wrapping.
trait Num: Copy {
    const ZERO: Self;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
}

impl Num for f64 {
    const ZERO: f64 = 0.0;
    fn add(self, o: f64) -> f64 {
        self + o
    }
    fn mul(self, o: f64) -> f64 {
        self * o
    }
}

impl Num for i64 {
    const ZERO: i64 = 0;
    fn add(self, o: i64) -> i64 {
        self.wrapping_add(o)
    }
    fn mul(self, o: i64) -> i64 {
        self.wrapping_mul(o)
    }
}

fn arg<'a>(operands: &[&'a RefTensor], i: usize, name: &str) -> RtResult<&'a RefTensor> {
    operands.get(i).copied().ok_or_else(|| RtError::new(format!("'{name}' is missing operand #{i}")))
}

/// The attributes of an op the evaluator reads.
#[derive(Clone, Copy, Debug)]
pub struct Attrs<'a> {
    /// `dims` (empty when the op has none).
    pub dims: &'a [i64],
    pub keep_dims: bool,
    /// `fusion.var`'s correction (1 when absent).
    pub correction: i64,
    /// The math ops' elementwise kind and `full`'s value.
    pub props: OpProps,
}

/// What an op's properties say beyond `dims`: the elementwise kind of the math ops
/// (`fusion::elementwise_kind`: the predicate of `compare`, the approximation of `gelu`) and
/// the value of `full`.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpProps {
    pub kind: Option<ElementwiseKind>,
    pub fill: Option<Scalar>,
}

/// One op on global tensors (the public face of the evaluator for tests and tools: integer
/// inputs are taken as exact integers).
pub fn eval_op(
    name: &str,
    props: OpProps,
    operands: &[&HostTensor],
    dtype: DType,
    shape: &[usize],
    dims: &[i64],
    keep_dims: bool,
) -> RtResult<HostTensor> {
    eval_op_with(name, operands, dtype, shape, &Attrs { dims, keep_dims, correction: 1, props })
}

/// [`eval_op`] with every attribute the evaluator reads.
pub fn eval_op_with(
    name: &str,
    operands: &[&HostTensor],
    dtype: DType,
    shape: &[usize],
    attrs: &Attrs<'_>,
) -> RtResult<HostTensor> {
    let owned: Vec<RefTensor> = operands.iter().map(|t| RefTensor::of(t)).collect();
    let refs: Vec<&RefTensor> = owned.iter().collect();
    Ok(eval_ref(name, &refs, dtype, shape, attrs)?.to_host())
}

/// The fusion ops the reference evaluates through their `host.elementwise` kind (`math.rs`).
fn is_math_op(name: &str) -> bool {
    matches!(
        name,
        "fusion.exp"
            | "fusion.log"
            | "fusion.tanh"
            | "fusion.erf"
            | "fusion.sqrt"
            | "fusion.rsqrt"
            | "fusion.sigmoid"
            | "fusion.abs"
            | "fusion.reciprocal"
            | "fusion.silu"
            | "fusion.gelu"
            | "fusion.maximum"
            | "fusion.minimum"
            | "fusion.pow"
            | "fusion.compare"
            | "fusion.where"
    )
}

/// `kind` elementwise on global tensors of one shape, exact in `i64` or in `f64` (a comparison
/// in its operands' type, the others in the result's `dtype`).
fn elementwise_ref(kind: ElementwiseKind, operands: &[&RefTensor], dtype: DType) -> RtResult<Vals> {
    if operands.len() != kind.arity() {
        return Err(RtError::new(format!(
            "'{}' takes {} operands, got {}",
            kind.keyword(),
            kind.arity(),
            operands.len()
        )));
    }
    if let Some(bad) = operands.iter().find(|t| t.shape != operands[0].shape) {
        return Err(RtError::new(format!(
            "'{}' on shapes {:?} and {:?}",
            kind.keyword(),
            operands[0].shape,
            bad.shape
        )));
    }
    let n = operands[0].shape.iter().product::<usize>();
    let compute = if kind.is_compare() { operands[0].dtype } else { dtype };
    Ok(if compute.is_int() {
        let cols: Vec<Vec<i64>> = operands.iter().map(|t| t.ints()).collect();
        let at = |c: usize, i: usize| cols.get(c).map_or(0, |v| v[i]);
        Vals::I((0..n).map(|i| numerics::int_elementwise(kind, compute, at(0, i), at(1, i), at(2, i))).collect())
    } else {
        let cols: Vec<Vec<f64>> = operands.iter().map(|t| t.floats()).collect();
        let at = |c: usize, i: usize| cols.get(c).map_or(0.0, |v| v[i]);
        Vals::F((0..n).map(|i| numerics::float_elementwise(kind, at(0, i), at(1, i), at(2, i))).collect())
    })
}

/// One op on global tensors, in the semantics of its result's element type `dtype`.
fn eval_ref(
    name: &str,
    operands: &[&RefTensor],
    dtype: DType,
    shape: &[usize],
    attrs: &Attrs<'_>,
) -> RtResult<RefTensor> {
    let n: usize = shape.iter().product();
    let early = match (name, attrs.props) {
        ("fusion.full", OpProps { fill: Some(Scalar::Int(v)), .. }) => Some(Vals::I(vec![v; n])),
        ("fusion.full", OpProps { fill: Some(Scalar::Float(v)), .. }) => Some(Vals::F(vec![v; n])),
        ("fusion.full", _) => return Err(RtError::new("'fusion.full' without a value")),
        (_, OpProps { kind: Some(kind), .. }) if is_math_op(name) => Some(elementwise_ref(kind, operands, dtype)?),
        _ if is_math_op(name) => {
            return Err(RtError::new(format!("'{name}' has an invalid predicate or approximation")));
        }
        _ => None,
    };
    if let Some(vals) = early {
        return finish(vals, dtype, shape);
    }
    let x = arg(operands, 0, name)?;
    let (dims, keep_dims) = (attrs.dims, attrs.keep_dims);
    let dims_u: Vec<usize> = dims.iter().map(|&d| d.max(0) as usize).collect();
    let int = dtype.is_int();
    let vals = match name {
        "fusion.matmul" => {
            let y = arg(operands, 1, name)?;
            if int {
                Vals::I(matmul(&x.shape, &x.ints(), &y.shape, &y.ints())?)
            } else {
                Vals::F(matmul(&x.shape, &x.floats(), &y.shape, &y.floats())?)
            }
        }
        "fusion.linear" => {
            let w = arg(operands, 1, name)?;
            let bias = operands.get(2).copied();
            if int {
                Vals::I(linear(&x.shape, &x.ints(), &w.shape, &w.ints(), bias.map(RefTensor::ints).as_deref())?)
            } else {
                Vals::F(linear(&x.shape, &x.floats(), &w.shape, &w.floats(), bias.map(RefTensor::floats).as_deref())?)
            }
        }
        "fusion.add" | "fusion.sub" | "fusion.mul" | "fusion.div" => {
            let y = arg(operands, 1, name)?;
            if x.shape != y.shape {
                return Err(RtError::new(format!("'{name}' on shapes {:?} and {:?}", x.shape, y.shape)));
            }
            let kind = match name {
                "fusion.add" => ElementwiseKind::Add,
                "fusion.sub" => ElementwiseKind::Sub,
                "fusion.mul" => ElementwiseKind::Mul,
                _ => ElementwiseKind::Div,
            };
            if int {
                let (a, b) = (x.ints(), y.ints());
                Vals::I(a.iter().zip(&b).map(|(&a, &b)| numerics::int_elementwise(kind, dtype, a, b, 0)).collect())
            } else {
                let (a, b) = (x.floats(), y.floats());
                Vals::F(a.iter().zip(&b).map(|(&a, &b)| numerics::float_elementwise(kind, a, b, 0.0)).collect())
            }
        }
        "fusion.neg" => {
            if int {
                Vals::I(x.ints().iter().map(|&v| numerics::wrap(dtype, v.wrapping_neg())).collect())
            } else {
                Vals::F(x.floats().iter().map(|v| -v).collect())
            }
        }
        "fusion.cast" => match (&x.vals, int) {
            (Vals::I(v), true) => Vals::I(v.iter().map(|&v| numerics::wrap(dtype, v)).collect()),
            (Vals::I(v), false) => Vals::F(v.iter().map(|&v| numerics::int_to_float(dtype, v)).collect()),
            (Vals::F(v), true) => Vals::I(v.iter().map(|&v| numerics::float_to_int(dtype, v)).collect()),
            (Vals::F(v), false) => Vals::F(v.clone()),
        },
        "fusion.set" | "fusion.reshape" => x.vals.clone(),
        "fusion.sum" => {
            let _ = keep_dims; // keep_dims only changes the shape, which the result type gives.
            if int {
                Vals::I(sum_ints(&x.ints(), &x.shape, &dims_u))
            } else {
                Vals::F(sum_values(&x.floats(), &x.shape, &dims_u, Precision::F64))
            }
        }
        "fusion.max" | "fusion.min" | "fusion.mean" | "fusion.var" => {
            let kind = match name {
                "fusion.max" => ReduceKind::Max,
                "fusion.min" => ReduceKind::Min,
                "fusion.mean" => ReduceKind::Mean {
                    count: dims_u.iter().map(|&d| x.shape.get(d).copied().unwrap_or(0) as i64).product(),
                },
                _ => ReduceKind::Var { correction: attrs.correction },
            };
            if int {
                Vals::I(reduce::reduce_ints(kind, &x.ints(), &x.shape, &dims_u)?)
            } else {
                Vals::F(reduce::reduce_floats(kind, &x.floats(), &x.shape, &dims_u)?)
            }
        }
        "fusion.broadcast" => match &x.vals {
            Vals::F(v) => Vals::F(broadcast(&x.shape, v, shape, &dims_u)?),
            Vals::I(v) => Vals::I(broadcast(&x.shape, v, shape, &dims_u)?),
        },
        "fusion.permute" => match &x.vals {
            Vals::F(v) => Vals::F(permute(&x.shape, v, &dims_u)?),
            Vals::I(v) => Vals::I(permute(&x.shape, v, &dims_u)?),
        },
        other => return Err(RtError::new(format!("the reference evaluator cannot evaluate '{other}'"))),
    };
    finish(vals, dtype, shape)
}

/// The result of an op in its element type `dtype` and `shape`.
fn finish(vals: Vals, dtype: DType, shape: &[usize]) -> RtResult<RefTensor> {
    let int = dtype.is_int();
    let n: usize = shape.iter().product();
    let vals = match vals {
        // Every op's result in the element type: wrapped integers, rounded floats.
        Vals::I(v) if int => Vals::I(v.into_iter().map(|x| numerics::wrap(dtype, x)).collect()),
        Vals::F(v) if !int => Vals::F(v.into_iter().map(|x| numerics::round_float(dtype, x)).collect()),
        Vals::I(v) => Vals::F(v.into_iter().map(|x| numerics::int_to_float(dtype, x)).collect()),
        Vals::F(v) => Vals::I(v.into_iter().map(|x| numerics::float_to_int(dtype, x)).collect()),
    };
    let len = match &vals {
        Vals::F(v) => v.len(),
        Vals::I(v) => v.len(),
    };
    if len != n {
        return Err(RtError::new(format!("{len} values for a tensor of shape {shape:?}")));
    }
    Ok(RefTensor { dtype, shape: shape.to_vec(), vals })
}

/// `fusion.slice` and `fusion.concat` (`ops::slicing`): values copied exactly.
fn eval_slicing(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    operands: &[&RefTensor],
    dtype: DType,
    shape: &[usize],
) -> RtResult<RefTensor> {
    let name = ctx.op_name_str(ir.op_name(op));
    let usizes = |key: &str| -> RtResult<Option<Vec<usize>>> {
        prop_ints(ctx, ir, op, key)
            .map(|v| {
                v.iter()
                    .map(|&x| {
                        usize::try_from(x).map_err(|_| RtError::new(format!("'{name}' has a negative {key} entry")))
                    })
                    .collect()
            })
            .transpose()
    };
    let vals = if name == "fusion.slice" {
        let x = arg(operands, 0, name)?;
        let missing = |k: &str| RtError::new(format!("'{name}' has no '{k}'"));
        let offsets = usizes("offsets")?.ok_or_else(|| missing("offsets"))?;
        let sizes = usizes("sizes")?.ok_or_else(|| missing("sizes"))?;
        let strides = usizes("strides")?.unwrap_or_else(|| vec![1; x.shape.len()]);
        match &x.vals {
            Vals::F(v) => Vals::F(slicing::slice(&x.shape, v, &offsets, &sizes, &strides).map_err(RtError::new)?),
            Vals::I(v) => Vals::I(slicing::slice(&x.shape, v, &offsets, &sizes, &strides).map_err(RtError::new)?),
        }
    } else {
        let dim = prop_int(ctx, ir, op, "dim")
            .and_then(|d| usize::try_from(d).ok())
            .ok_or_else(|| RtError::new(format!("'{name}' has no valid 'dim'")))?;
        if operands.iter().any(|t| t.dtype != dtype) {
            return Err(RtError::new(format!("'{name}' joins tensors of different element types")));
        }
        let joined = if dtype.is_int() {
            let ints: Vec<Vec<i64>> = operands.iter().map(|t| t.ints()).collect();
            let parts: Vec<(&[usize], &[i64])> =
                operands.iter().zip(&ints).map(|(t, v)| (&t.shape[..], &v[..])).collect();
            slicing::concat(&parts, dim).map(|(s, v)| (s, Vals::I(v)))
        } else {
            let floats: Vec<Vec<f64>> = operands.iter().map(|t| t.floats()).collect();
            let parts: Vec<(&[usize], &[f64])> =
                operands.iter().zip(&floats).map(|(t, v)| (&t.shape[..], &v[..])).collect();
            slicing::concat(&parts, dim).map(|(s, v)| (s, Vals::F(v)))
        };
        joined.map_err(RtError::new)?.1
    };
    Ok(RefTensor { dtype, shape: shape.to_vec(), vals })
}

fn matmul<T: Num>(a_shape: &[usize], a: &[T], b_shape: &[usize], b: &[T]) -> RtResult<Vec<T>> {
    let (ra, rb) = (a_shape.len(), b_shape.len());
    if ra < 2 || rb < 2 || a_shape[ra - 1] != b_shape[rb - 2] {
        return Err(RtError::new(format!("matmul of {a_shape:?} and {b_shape:?}")));
    }
    let (m, k, n) = (a_shape[ra - 2], a_shape[ra - 1], b_shape[rb - 1]);
    let batch: usize = a_shape[..ra - 2].iter().product();
    let b_batched = rb > 2;
    let mut out = vec![T::ZERO; batch * m * n];
    for bi in 0..batch {
        let pa = &a[bi * m * k..];
        let pb = if b_batched { &b[bi * k * n..] } else { b };
        for i in 0..m {
            for j in 0..n {
                out[bi * m * n + i * n + j] = (0..k).fold(T::ZERO, |acc, p| acc.add(pa[i * k + p].mul(pb[p * n + j])));
            }
        }
    }
    Ok(out)
}

fn linear<T: Num>(x_shape: &[usize], x: &[T], w_shape: &[usize], w: &[T], bias: Option<&[T]>) -> RtResult<Vec<T>> {
    let rx = x_shape.len();
    if rx < 1 || w_shape.len() != 2 || x_shape[rx - 1] != w_shape[1] {
        return Err(RtError::new(format!("linear of {x_shape:?} and {w_shape:?}")));
    }
    let (n, k) = (w_shape[0], w_shape[1]);
    let m: usize = x_shape[..rx - 1].iter().product();
    let mut out = vec![T::ZERO; m * n];
    for i in 0..m {
        for j in 0..n {
            let b = bias.map_or(T::ZERO, |b| b[j]);
            out[i * n + j] = (0..k).fold(T::ZERO, |acc, p| acc.add(x[i * k + p].mul(w[j * k + p]))).add(b);
        }
    }
    Ok(out)
}

/// `dims` are the new axes of the result (of any extent); the others come from `x` in order.
fn broadcast<T: Copy>(x_shape: &[usize], data: &[T], shape: &[usize], dims: &[usize]) -> RtResult<Vec<T>> {
    if shape.len() != x_shape.len() + dims.len() {
        return Err(RtError::new(format!("broadcast of {x_shape:?} to {shape:?} with new dims {dims:?}")));
    }
    // A new axis reads the same element all along (stride 0); the others keep x's strides.
    let x_strides = crate::buffer::contiguous_strides(x_shape);
    let mut kept = x_strides.iter();
    let view_strides: Vec<usize> =
        (0..shape.len()).map(|d| if dims.contains(&d) { 0 } else { *kept.next().unwrap_or(&0) }).collect();
    Ok(gather_strided(data, shape, &view_strides))
}

/// The elements of `data` seen through `strides`, in row-major order of `shape`.
fn gather_strided<T: Copy>(data: &[T], shape: &[usize], strides: &[usize]) -> Vec<T> {
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
fn permute<T: Copy>(x_shape: &[usize], data: &[T], dims: &[usize]) -> RtResult<Vec<T>> {
    if dims.len() != x_shape.len() || dims.iter().any(|&d| d >= x_shape.len()) {
        return Err(RtError::new(format!("permutation {dims:?} of a rank-{} tensor", x_shape.len())));
    }
    let strides = crate::buffer::contiguous_strides(x_shape);
    let shape: Vec<usize> = dims.iter().map(|&d| x_shape[d]).collect();
    let view_strides: Vec<usize> = dims.iter().map(|&d| strides[d]).collect();
    Ok(gather_strided(data, &shape, &view_strides))
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
        assert_eq!(
            eval_op("fusion.matmul", OpProps::default(), &[&a, &b], DType::F64, &[2, 1], &[], false).unwrap().data,
            vec![3.0, 7.0]
        );
        let w = t(&[1, 2], &[1.0, -1.0]);
        let bias = t(&[1], &[10.0]);
        let y =
            eval_op("fusion.linear", OpProps::default(), &[&a, &w, &bias], DType::F64, &[2, 1], &[], false).unwrap();
        assert_eq!(y.data, vec![9.0, 9.0]);
        let ab = t(&[2, 1, 2], &[1.0, 2.0, 3.0, 4.0]);
        let bb = t(&[2, 2, 1], &[1.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            eval_op("fusion.matmul", OpProps::default(), &[&ab, &bb], DType::F64, &[2, 1, 1], &[], false).unwrap().data,
            vec![1.0, 4.0]
        );
    }

    /// Issue 22, 3a/3b: the reference evaluates in each element type.
    #[test]
    fn the_reference_computes_in_the_element_type() {
        let ti = |d: DType, v: &[f64]| HostTensor::new(d, vec![v.len()], v.to_vec()).unwrap();
        let a = ti(DType::I32, &[7.0, -7.0, 5.0, 1.0]);
        let b = ti(DType::I32, &[2.0, 2.0, 0.0, 3.0]);
        assert_eq!(
            eval_op("fusion.div", OpProps::default(), &[&a, &b], DType::I32, &[4], &[], false).unwrap().data,
            vec![3.0, -3.0, -1.0, 0.0]
        );
        let c = ti(DType::I8, &[100.0, -128.0]);
        assert_eq!(
            eval_op("fusion.add", OpProps::default(), &[&c, &c], DType::I8, &[2], &[], false).unwrap().data,
            vec![-56.0, 0.0]
        );
        assert_eq!(
            eval_op("fusion.neg", OpProps::default(), &[&c], DType::I8, &[2], &[], false).unwrap().data,
            vec![-100.0, -128.0]
        );
        let m = HostTensor::new(DType::I8, vec![1, 2], vec![100.0, 100.0]).unwrap();
        let n = HostTensor::new(DType::I8, vec![2, 1], vec![1.0, 1.0]).unwrap();
        assert_eq!(
            eval_op("fusion.matmul", OpProps::default(), &[&m, &n], DType::I8, &[1, 1], &[], false).unwrap().data,
            vec![-56.0]
        );
        assert_eq!(
            eval_op("fusion.sum", OpProps::default(), &[&m], DType::I8, &[1], &[1], false).unwrap().data,
            vec![-56.0]
        );
        let h = ti(DType::F16, &[300.0, 2.0]);
        assert_eq!(
            eval_op("fusion.mul", OpProps::default(), &[&h, &h], DType::F16, &[2], &[], false).unwrap().data,
            vec![f64::INFINITY, 4.0]
        );
        let f = ti(DType::F32, &[2.5, -2.5, 1e10, f64::NAN]);
        assert_eq!(
            eval_op("fusion.cast", OpProps::default(), &[&f], DType::I32, &[4], &[], false).unwrap().data,
            vec![2.0, -2.0, 2147483647.0, 0.0]
        );
        assert_eq!(
            eval_op("fusion.cast", OpProps::default(), &[&ti(DType::I32, &[200.0])], DType::I8, &[1], &[], false)
                .unwrap()
                .data,
            vec![-56.0]
        );
        // f32 results are rounded to f32 after every op.
        let t = ti(DType::F32, &[1.0 / 3.0]);
        let r = eval_op("fusion.add", OpProps::default(), &[&t, &t], DType::F32, &[1], &[], false).unwrap().data[0];
        assert_eq!(r, (1.0f64 / 3.0) as f32 as f64 * 2.0);
        // i64 intermediates stay exact past 2^53: (2^62 + 1) * 4 wraps to 4, then - 3.
        let big = RefTensor { dtype: DType::I64, shape: vec![1], vals: Vals::I(vec![(1 << 62) + 1]) };
        let four = RefTensor { dtype: DType::I64, shape: vec![1], vals: Vals::I(vec![4]) };
        let p = eval_ref(
            "fusion.mul",
            &[&big, &four],
            DType::I64,
            &[1],
            &Attrs { dims: &[], keep_dims: false, correction: 1, props: OpProps::default() },
        )
        .unwrap();
        assert_eq!(p.vals, Vals::I(vec![4]));
    }

    /// The math ops: kinds from the op's properties, comparisons into i1, where, full.
    #[test]
    fn math_ops_follow_their_kinds() {
        let kind = |k| OpProps { kind: Some(k), fill: None };
        let x = t(&[4], &[1.0, -1.0, 0.0, f64::NAN]);
        let y = t(&[4], &[0.5, -1.0, -0.0, 1.0]);
        let g = eval_op("fusion.gelu", kind(ElementwiseKind::Gelu), &[&x], DType::F64, &[4], &[], false).unwrap();
        assert_eq!(g.data[..3], [numerics::gelu(1.0), numerics::gelu(-1.0), 0.0]);
        assert!(g.data[3].is_nan());
        let c = eval_op("fusion.compare", kind(ElementwiseKind::Le), &[&x, &y], DType::I1, &[4], &[], false).unwrap();
        assert_eq!((c.dtype, c.data.clone()), (DType::I1, vec![0.0, 1.0, 1.0, 0.0]));
        let w =
            eval_op("fusion.where", kind(ElementwiseKind::Where), &[&c, &x, &y], DType::F64, &[4], &[], false).unwrap();
        assert_eq!(w.data, vec![0.5, -1.0, 0.0, 1.0]);
        let e = eval_op("fusion.exp", kind(ElementwiseKind::Exp), &[&x], DType::BF16, &[4], &[], false).unwrap();
        assert_eq!(e.data[0], 2.71875, "rounded once to bf16");
        let i = HostTensor::new(DType::I8, vec![2], vec![-128.0, -3.0]).unwrap();
        let a = eval_op("fusion.abs", kind(ElementwiseKind::Abs), &[&i], DType::I8, &[2], &[], false).unwrap();
        assert_eq!(a.data, vec![-128.0, 3.0]);
        let full = OpProps { kind: None, fill: Some(Scalar::Float(0.1)) };
        let f = eval_op("fusion.full", full, &[], DType::F32, &[2, 2], &[], false).unwrap();
        assert_eq!(f.data, vec![0.1f32 as f64; 4]);
        assert!(eval_op("fusion.full", OpProps::default(), &[], DType::F32, &[2], &[], false).is_err());
        assert!(eval_op("fusion.exp", OpProps::default(), &[&x], DType::F64, &[4], &[], false).is_err());
        assert!(eval_op("fusion.pow", kind(ElementwiseKind::Pow), &[&x], DType::F64, &[4], &[], false).is_err());
    }

    #[test]
    fn layout_and_reduction_ops() {
        let a = t(&[2, 3], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        let p = eval_op("fusion.permute", OpProps::default(), &[&a], DType::F64, &[3, 2], &[1, 0], false).unwrap();
        assert_eq!(p.data, vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
        let s = eval_op("fusion.sum", OpProps::default(), &[&a], DType::F64, &[2, 1], &[1], true).unwrap();
        assert_eq!(s.data, vec![3.0, 12.0]);
        let v = t(&[2], &[1.0, 2.0]);
        let b = eval_op("fusion.broadcast", OpProps::default(), &[&v], DType::F64, &[3, 2], &[0], false).unwrap();
        assert_eq!(b.data, vec![1.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
        let c = eval_op(
            "fusion.cast",
            OpProps::default(),
            &[&t(&[1], &[1.0 + 1.0 / 512.0])],
            DType::BF16,
            &[1],
            &[],
            false,
        )
        .unwrap();
        assert_eq!(c.data, vec![1.0]);
        let d = eval_op("fusion.sub", OpProps::default(), &[&a, &a], DType::F64, &[2, 3], &[], false).unwrap();
        assert!(d.data.iter().all(|&x| x == 0.0));
        assert!(eval_op("fusion.mystery", OpProps::default(), &[&a], DType::F64, &[2, 3], &[], false).is_err());
    }
}
