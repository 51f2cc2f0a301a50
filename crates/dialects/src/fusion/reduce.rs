//! Reductions over tensor axes: `fusion.sum`, `fusion.max`, `fusion.min`, `fusion.mean` and
//! `fusion.var`, with result-type inference. They share one syntax, one verifier and one result
//! inference ([`REDUCE_HOOKS`]): `dims` are distinct and in range (stored sorted by the custom
//! parser); with `keep_dims` the reduced axes stay with extent 1, otherwise they are dropped.
//!
//! A sum whose operand is `partial` over a device axis and whose result is not is where the
//! lowering places an allreduce (or a reduce-scatter when the result is split instead): an
//! empty `dims` makes `fusion.sum` the identity on the global value, a resharding point. The
//! other reductions need at least one axis; `mean` and `var` need floats. `var` has the
//! property `correction` (an `i64`, default 1: Bessel's correction, as `torch.var`).

use super::syntax::{Extra, op_dims, op_keep_dims, parse_tensor_op, print_tensor_op};
use super::verify::{TENSOR, expect_tensor, operand_types, plain_tensor, verify_with};
use crate::support::inherent_attr;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::AttrKind;
use fuser_ir::context::Context;
use fuser_ir::declare::{AttrConstraint, HookSet};
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{Type, TypeKind};

/// `dims`: an `array<i64: ...>`.
pub(crate) const DIMS: AttrConstraint =
    AttrConstraint::new("i64 dense array attribute", |ctx, a| super::syntax::i64_array(ctx, a).is_some());
/// `keep_dims`: a unit attribute.
const UNIT: AttrConstraint =
    AttrConstraint::new("unit attribute", |ctx, a| *ctx.attr_kind(a) == fuser_ir::AttrKind::Unit).optional();
/// An optional `i64` integer attribute (`correction`, `ignore_index`).
pub(crate) const OPT_I64: AttrConstraint = AttrConstraint::new("64-bit signless integer attribute", |ctx, a| {
    matches!(ctx.attr_kind(a), AttrKind::Integer { ty, .. } if matches!(ctx.type_kind(*ty), TypeKind::Integer { width: 64, .. }))
})
.optional();

/// The hooks every reduction shares: the tensor-op syntax with `dims = [...]` (sorted) and
/// `keep_dims`, and the verifier inferring the result type.
pub const REDUCE_HOOKS: HookSet = HookSet {
    verify: Some(verify_reduce),
    parse: Some(parse_reduce),
    print: Some(print_reduce),
    infer_result_types: Some(infer_sum_types),
    ..HookSet::NONE
};

fuser_ir::declare_op! {
    pub static SUM: "fusion.sum" {
        summary: "Sum over axes",
        description: "Sums the operand over the axes in `dims` (distinct, in range). With \
`keep_dims` the reduced axes stay with extent 1; otherwise they are dropped. Integers wrap; \
bf16/f16/f32 accumulate in `f32` (at least) and round the result once to the element type. With \
empty `dims` the op is the identity on the global value, a resharding point: a `partial` operand \
(of any `reduce` kind: a pending max from `fusion.max` too) is resolved by an allreduce of its \
kind, or a reduce-scatter.\n\n\
```mlir\n%s = fusion.sum %x dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>\n\
%k = fusion.sum %x dims = [0, 1] keep_dims : (tensor<4x8xf32>) -> tensor<1x1xf32>\n```\n\n\
Generic form: `dims` is an `array<i64: ...>` property and `keep_dims` a unit property.",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: DIMS, keep_dims: UNIT },
        hook_set: REDUCE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static MAX: "fusion.max" {
        summary: "Maximum over axes",
        description: "The largest element over the axes in `dims` (distinct, in range, at least \
one), as `torch.amax`: NaN propagates (a NaN anywhere in a reduced slice gives NaN), `-0.0` and \
`0.0` compare equal; integers compare exactly. Same syntax and `keep_dims` as `fusion.sum`. A \
reduced axis of extent 0 is an error (no identity, as torch). Over a device-split axis each rank \
computes the maximum of its piece: a `partial` result with `reduce = max`, resolved by an \
allreduce max.\n\n\
```mlir\n%m = fusion.max %x dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: DIMS, keep_dims: UNIT },
        hook_set: REDUCE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static MIN: "fusion.min" {
        summary: "Minimum over axes",
        description: "The smallest element over the axes in `dims` (distinct, in range, at \
least one), as `torch.amin`: NaN propagates; integers compare exactly. Same syntax and rules as \
`fusion.max`; over a device-split axis the result is `partial` with `reduce = min`.\n\n\
```mlir\n%m = fusion.min %x dims = [0, 1] keep_dims : (tensor<4x8xf32>) -> tensor<1x1xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: DIMS, keep_dims: UNIT },
        hook_set: REDUCE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static MEAN: "fusion.mean" {
        summary: "Mean over axes",
        description: "The sum over the axes in `dims` (at least one) divided by the number of \
elements summed, as `torch.mean`; floats only. bf16/f16/f32 accumulate in `f32` (at least; the \
reference in `f64`), divide, and round once to the element type. A reduced extent of 0 gives NaN \
(`0 / 0`). Over a device-split axis each rank divides its local sum by the *global* count: a \
`partial` sum (`reduce = sum`), resolved by an allreduce sum.\n\n\
```mlir\n%m = fusion.mean %x dims = [1] keep_dims : (tensor<4x8xf32>) -> tensor<4x1xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: DIMS, keep_dims: UNIT },
        hook_set: REDUCE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static VAR: "fusion.var" {
        summary: "Variance over axes",
        description: "`sum((x - mean)²) / max(0, N - correction)` over the axes in `dims` (at \
least one; `N` elements per slice), as `torch.var`; floats only. `correction` is an optional \
`i64` property, 1 when absent (Bessel's correction; 0 gives the population variance). The \
computation is two-pass (the mean, then the squared deviations from it) in `f64` on every \
backend, rounded once to the element type; `N <= correction` divides by 0 (infinity, or NaN when \
the deviations are 0, as torch); NaN propagates. The variance is not linear: its reduced axes \
may not be split over devices (`fusion-decompose-resharding` gathers them).\n\n\
```mlir\n%v = fusion.var %x dims = [1] {correction = 0 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: DIMS, keep_dims: UNIT, correction: OPT_I64 },
        hook_set: REDUCE_HOOKS,
    }
}

fn parse_reduce(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::ReduceDims)
}

fn print_reduce(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::ReduceDims)
}

/// The value of an optional `i64` property of `op`, or `default`.
pub fn op_i64_prop(ctx: &Context, ir: &Ir, op: OpId, name: &str, default: i64) -> i64 {
    match inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => value.to_i64().unwrap_or(default),
        _ => default,
    }
}

/// The `correction` of a `fusion.var` (1 when absent).
pub fn op_correction(ctx: &Context, ir: &Ir, op: OpId) -> i64 {
    op_i64_prop(ctx, ir, op, "correction", 1)
}

/// Checks that `dims` are distinct axes of a rank-`rank` tensor.
pub(crate) fn check_axes(dims: &[i64], rank: usize) -> Result<(), String> {
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 || d >= rank as i64 {
            return Err(format!("dimension {d} is out of range for rank {rank}"));
        }
        if dims[..i].contains(&d) {
            return Err(format!("dimension {d} is listed twice"));
        }
    }
    Ok(())
}

fn infer_sum_types(ctx: &Context, types: &[Type], props: Option<fuser_ir::Attr>) -> Result<Vec<Type>, String> {
    let dims = props.and_then(|p| ctx.dict_get(p, "dims")).and_then(|a| super::syntax::i64_array(ctx, a));
    let keep = props.is_some_and(|p| ctx.dict_get(p, "keep_dims").is_some());
    match (types, dims) {
        ([x], Some(dims)) => Ok(vec![infer_sum(ctx, *x, &dims, keep)?]),
        (_, None) => Err("requires a 'dims' array".into()),
        _ => Err(format!("expects one operand, got {}", types.len())),
    }
}

/// The unsharded result type of `sum(x, dims, keep_dims)`.
pub fn infer_sum(ctx: &Context, x: Type, dims: &[i64], keep_dims: bool) -> Result<Type, String> {
    let (shape, elem) = expect_tensor(ctx, "operand", x)?;
    check_axes(dims, shape.len())?;
    let reduced = |i: usize| dims.contains(&(i as i64));
    let out = shape
        .iter()
        .enumerate()
        .filter_map(|(i, &e)| match (reduced(i), keep_dims) {
            (false, _) => Some(e),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    Ok(plain_tensor(ctx, out, elem))
}

/// The unsharded result type of the reduction `op_name` (`"fusion.max"`, ...) of `x`: the rules
/// of `sum`, plus those of the op (at least one axis; floats for mean and var; no empty axis for
/// max and min).
pub fn infer_reduce(ctx: &Context, op_name: &str, x: Type, dims: &[i64], keep_dims: bool) -> Result<Type, String> {
    let result = infer_sum(ctx, x, dims, keep_dims)?;
    if op_name == SUM.name {
        return Ok(result);
    }
    let short = op_name.strip_prefix("fusion.").unwrap_or(op_name);
    if dims.is_empty() {
        return Err("needs at least one dimension to reduce".into());
    }
    let (shape, elem) = expect_tensor(ctx, "operand", x)?;
    if matches!(short, "mean" | "var") && !matches!(ctx.type_kind(elem), TypeKind::Float(_)) {
        return Err(format!("needs a float operand, got '{}'", crate::support::type_str(ctx, elem)));
    }
    if matches!(short, "max" | "min")
        && let Some(&d) = dims.iter().find(|&&d| shape[d as usize] == 0)
    {
        return Err(format!("reduces dimension {d} of extent 0, which has no {short} (no identity)"));
    }
    Ok(result)
}

fn verify_reduce(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let name = v.ctx.op_name_str(v.ir.op_name(op)).to_string();
    verify_with(v, op, |v, op| {
        let dims = op_dims(v.ctx, v.ir, op).ok_or("requires a 'dims' array")?;
        match operand_types(v, op)[..] {
            [x] => infer_reduce(v.ctx, &name, x, &dims, op_keep_dims(v.ctx, v.ir, op)),
            _ => Err("expects one operand".into()),
        }
    })
}
