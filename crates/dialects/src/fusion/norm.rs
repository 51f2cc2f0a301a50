//! `fusion.layer_norm` and `fusion.rms_norm` (torch's `layer_norm` and `rms_norm`), with their
//! result-type inference and their custom syntax.
//!
//! Shape rules: `dims` are the normalized axes and must be the trailing axes of the input in
//! order (torch's `normalized_shape`: `[r-k, ..., r-1]` for `k >= 1`); the optional weight and
//! bias have exactly those axes' extents. Result 0 has the input's type; the statistics
//! results (layer_norm: `mean`, `rstd`; rms_norm: `rstd`) have the input's leading axes
//! (`x.shape[..r-k]`) and element type `f32` (`f64` for an `f64` input). Element types are
//! `bf16`, `f16`, `f32` or `f64`, equal for input, weight and bias.
//!
//! Syntax (both ops):
//!
//! `%y[, %s...] = fusion.layer_norm %x [weight %w] [bias %b] dims = [...] attr-dict
//!     : (types of the operands) -> type or (types)`
//!
//! `layer_norm` has two optional operand groups, so its properties carry
//! `operandSegmentSizes = array<i32: 1, w, b>` (set by the custom parser and the builder;
//! elided in the custom form). `epsilon` is an optional `f64` property in the attribute
//! dictionary; absent, it is [`LAYER_NORM_DEFAULT_EPSILON`] for layer_norm and
//! [`rms_norm_default_epsilon`] for rms_norm.

use super::reduce::DIMS;
use super::syntax::{i64_array_attr, op_dims};
use super::verify::{
    TENSOR, expect_tensor, operand_types, plain_tensor, shape_text, shapes_compatible, verify_shardings,
};
use crate::support::{inherent_attr, printed_attr_dict, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::{AttrKind, DenseArrayData};
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{FloatKind, Type, TypeKind};
use fuser_ir::{Attr, declare::TypeConstraint};

/// torch's default `eps` of `layer_norm`.
pub const LAYER_NORM_DEFAULT_EPSILON: f64 = 1e-5;

/// `epsilon`: a 64-bit float attribute (its value is checked by the op verifier).
const EPSILON: AttrConstraint =
    AttrConstraint::new("64-bit float attribute", |ctx, a| f64_of(ctx, a).is_some()).optional();

/// The statistics results: any ranked tensor here; the verifier checks shape and element type.
const STATS: TypeConstraint = TENSOR.variadic();

fuser_ir::declare_op! {
    pub static LAYER_NORM: "fusion.layer_norm" {
        summary: "Layer normalization over the trailing axes (torch's layer_norm)",
        description: concat!("`y = (x - mean) * rstd * weight + bias` with `mean` and the biased \
variance `var` over the normalized axes `dims` (the trailing axes, as torch's \
`normalized_shape`) and `rstd = 1 / sqrt(var + epsilon)`. `weight` and `bias` are each \
optional (as in torch) and have the normalized axes' shape; `epsilon` is an `f64` property, \
default `1e-5`, finite and not negative. The optional results 2 and 3 are `mean` and `rstd` \
(both or neither; torch's `native_layer_norm` outputs), shaped as the input's leading axes.\n\n\
```mlir\n%y = fusion.layer_norm %x weight %w bias %b dims = [1] : (tensor<4x8xf32>, tensor<8xf32>, \
tensor<8xf32>) -> tensor<4x8xf32>\n\
%y, %mean, %rstd = fusion.layer_norm %x dims = [1, 2] {epsilon = 1.000000e-06 : f64} \
: (tensor<2x4x8xbf16>) -> (tensor<2x4x8xbf16>, tensor<2xf32>, tensor<2xf32>)\n```\n\n\
Generic form: `dims` is an `array<i64: ...>` property, `operandSegmentSizes = array<i32: 1, \
W, B>` says which of weight and bias are present.\n\n", "Numerics: the statistics of a row are computed in `f64` by the \
reference and in `f32` (`f64` for `f64` inputs) by the kernels, the variance as the mean of \
squared deviations from the mean (two passes, no cancellation on large-mean rows); \
`bf16`/`f16` inputs are converted to `f32`, and each result element is rounded once to its \
element type (torch's `opmath` rule). A NaN or infinity in a row makes that row's statistics \
and outputs NaN. Sharding: the normalized axes are read whole (a device or stream split on \
them is gathered by `fusion-decompose-resharding`, or diagnosed); the leading axes map to the \
result's, so a sequence-parallel norm (input split on the sequence axis) is local; the weight \
and bias axes map to the result's trailing axes."),
        traits: [PURE],
        operands: { input: TENSOR, weight: TENSOR.optional(), bias: TENSOR.optional() },
        results: { result: TENSOR, stats: STATS },
        properties: { dims: DIMS, epsilon: EPSILON },
        hooks: {
            verify: verify_layer_norm,
            parse: parse_layer_norm,
            print: print_layer_norm,
            infer_result_types: infer_layer_norm_types,
        },
    }
}

fuser_ir::declare_op! {
    pub static RMS_NORM: "fusion.rms_norm" {
        summary: "Root-mean-square normalization over the trailing axes (torch's rms_norm)",
        description: concat!("`y = x * rstd * weight` with `rstd = 1 / sqrt(mean(x²) + epsilon)` \
over the normalized axes `dims` (the trailing axes, as torch's `normalized_shape`). `weight` \
is optional and has the normalized axes' shape. `epsilon` is an `f64` property, finite and \
not negative; absent, it is the machine epsilon of the compute type as torch's ATen kernel \
takes it when `eps=None` (`2^-23` for `bf16`, `f16` and `f32` inputs, which compute in `f32`; \
`2^-52` for `f64`); Llama models pass `1e-5` or `1e-6` explicitly. The optional result 1 is \
`rstd`, shaped as the input's leading axes.\n\n\
```mlir\n%y = fusion.rms_norm %x weight %w dims = [1] {epsilon = 1.000000e-06 : f64} \
: (tensor<4x8xbf16>, tensor<8xbf16>) -> tensor<4x8xbf16>\n\
%y, %rstd = fusion.rms_norm %x dims = [1] : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)\n```\n\n\
Generic form: `dims` is an `array<i64: ...>` property.\n\n", "Numerics: the mean square of a row is \
computed in `f64` by the reference and in `f32` (`f64` for `f64` inputs) by the kernels; \
`bf16`/`f16` inputs are converted to `f32`, and each result element is rounded once to its \
element type (torch's `opmath` rule). A NaN in a row makes that row's outputs NaN; an \
infinity makes its `rstd` 0, so the row's finite elements give 0 and its infinite ones NaN \
(`inf * 0`), as torch. Sharding: the normalized axes are read whole (a device or stream split \
on them is gathered by `fusion-decompose-resharding`, or diagnosed); the leading axes map to \
the result's, so a sequence-parallel norm is local; the weight axes map to the result's \
trailing axes."),
        traits: [PURE],
        operands: { input: TENSOR, weight: TENSOR.optional() },
        results: { result: TENSOR, rstd: TENSOR.optional() },
        properties: { dims: DIMS, epsilon: EPSILON },
        hooks: {
            verify: verify_rms_norm,
            parse: parse_rms_norm,
            print: print_rms_norm,
            infer_result_types: infer_rms_norm_types,
        },
    }
}

/// Which norm an op is, for the shared parser, printer and verifier.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NormKind {
    /// `fusion.layer_norm`: weight and bias, statistics mean and rstd.
    Layer,
    /// `fusion.rms_norm`: weight, statistic rstd.
    Rms,
}

impl NormKind {
    /// The kind of a `fusion.layer_norm` / `fusion.rms_norm` op name.
    pub fn of_name(name: &str) -> Option<NormKind> {
        match name {
            "fusion.layer_norm" => Some(NormKind::Layer),
            "fusion.rms_norm" => Some(NormKind::Rms),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            NormKind::Layer => "fusion.layer_norm",
            NormKind::Rms => "fusion.rms_norm",
        }
    }

    /// How many statistics results the op has when it has them.
    pub fn num_stats(self) -> usize {
        match self {
            NormKind::Layer => 2,
            NormKind::Rms => 1,
        }
    }
}

/// The default `epsilon` of `rms_norm` for an input of element kind `elem`: the machine epsilon
/// of the compute type (`f32` for `bf16`/`f16`/`f32`), as torch's ATen kernel with `eps=None`.
pub fn rms_norm_default_epsilon(elem: FloatKind) -> f64 {
    match elem {
        FloatKind::F64 => f64::EPSILON,
        _ => f32::EPSILON as f64,
    }
}

/// The value of an `f64` float attribute.
pub fn f64_of(ctx: &Context, a: Attr) -> Option<f64> {
    match ctx.attr_kind(a) {
        AttrKind::Float { bits, ty } if matches!(ctx.type_kind(*ty), TypeKind::Float(FloatKind::F64)) => {
            Some(f64::from_bits(*bits as u64))
        }
        _ => None,
    }
}

/// `v : f64`.
pub fn f64_attr(ctx: &Context, v: f64) -> Attr {
    ctx.intern_attr(AttrKind::Float { bits: v.to_bits() as u128, ty: ctx.float_type(FloatKind::F64) })
}

/// The `epsilon` property of a norm op, if written.
pub fn op_epsilon(ctx: &Context, ir: &Ir, op: OpId) -> Option<f64> {
    f64_of(ctx, inherent_attr(ctx, ir, op, "epsilon")?)
}

/// Which optional operands of a norm op are present: `(weight, bias)`. For layer_norm, read
/// from `operandSegmentSizes`; for rms_norm, a second operand is the weight.
pub fn norm_operands(ctx: &Context, ir: &Ir, op: OpId) -> Option<(bool, bool)> {
    match NormKind::of_name(ctx.op_name_str(ir.op_name(op)))? {
        NormKind::Rms => Some((ir.num_operands(op) == 2, false)),
        NormKind::Layer => {
            let seg = inherent_attr(ctx, ir, op, "operandSegmentSizes")?;
            match ctx.attr_kind(seg) {
                AttrKind::DenseArray { data: DenseArrayData::Int(v), .. } => match v[..] {
                    [1, w, b] if (0..=1).contains(&w) && (0..=1).contains(&b) => Some((w == 1, b == 1)),
                    _ => None,
                },
                _ => None,
            }
        }
    }
}

fn segment_sizes(ctx: &Context, weight: bool, bias: bool) -> Attr {
    let data = DenseArrayData::Int(vec![1, weight as i64, bias as i64]);
    ctx.intern_attr(AttrKind::DenseArray { elem: ctx.integer_type(32), data })
}

/// The state of a norm op: `weight`/`bias` (bias only for layer_norm), `dims`, optional
/// `epsilon`, result types (result 0, then the statistics when wanted).
#[allow(clippy::too_many_arguments)]
pub fn norm_state(
    ctx: &Context,
    kind: NormKind,
    input: Value,
    weight: Option<Value>,
    bias: Option<Value>,
    dims: &[i64],
    epsilon: Option<f64>,
    results: Vec<Type>,
    loc: Attr,
) -> OperationState {
    let mut state = crate::support::empty_state(ctx, kind.name(), loc);
    state.operands = std::iter::once(input).chain(weight).chain(bias).collect();
    state.result_types = results;
    let mut props = vec![(ctx.ident("dims"), i64_array_attr(ctx, dims))];
    if let Some(e) = epsilon {
        props.push((ctx.ident("epsilon"), f64_attr(ctx, e)));
    }
    if kind == NormKind::Layer {
        props.push((ctx.ident("operandSegmentSizes"), segment_sizes(ctx, weight.is_some(), bias.is_some())));
    }
    state.props = Some(ctx.dictionary(props));
    state
}

fn float_elem(ctx: &Context, what: &str, elem: Type) -> Result<FloatKind, String> {
    match ctx.type_kind(elem) {
        TypeKind::Float(k @ (FloatKind::BF16 | FloatKind::F16 | FloatKind::F32 | FloatKind::F64)) => Ok(*k),
        _ => Err(format!("{what} element type must be bf16, f16, f32 or f64, got '{}'", type_str(ctx, elem))),
    }
}

/// The element type of the statistics results for an input of element kind `elem`.
pub fn stats_elem(ctx: &Context, elem: FloatKind) -> Type {
    ctx.float_type(if elem == FloatKind::F64 { FloatKind::F64 } else { FloatKind::F32 })
}

/// The unsharded result types of a norm: result 0 (the input's shape and element type) and the
/// type of each statistics result (the input's leading axes, `f32` or `f64`). Checks `dims`
/// (the trailing axes in order), the weight and bias shapes and element types, and `epsilon`.
pub fn infer_norm(
    ctx: &Context,
    input: Type,
    weight: Option<Type>,
    bias: Option<Type>,
    dims: &[i64],
    epsilon: Option<f64>,
) -> Result<(Type, Type), String> {
    let (shape, elem) = expect_tensor(ctx, "input", input)?;
    let kind = float_elem(ctx, "input", elem)?;
    let rank = shape.len();
    let k = dims.len();
    let trailing: Vec<i64> = (rank.saturating_sub(k)..rank).map(|a| a as i64).collect();
    if k == 0 || k > rank || dims != trailing {
        return Err(format!(
            "dims {} must be the trailing axes of the rank-{rank} input in order (torch's normalized_shape), \
such as [{}]",
            shape_text(dims),
            rank.saturating_sub(1)
        ));
    }
    let normalized = &shape[rank - k..];
    for (what, t) in [("weight", weight), ("bias", bias)] {
        let Some(t) = t else { continue };
        let (s, e) = expect_tensor(ctx, what, t)?;
        if !shapes_compatible(&s, normalized) {
            return Err(format!(
                "{what} must have the shape of the normalized axes {}, got {}",
                shape_text(normalized),
                shape_text(&s)
            ));
        }
        if e != elem {
            return Err(format!(
                "{what} element type '{}' differs from the input's '{}'",
                type_str(ctx, e),
                type_str(ctx, elem)
            ));
        }
    }
    if let Some(e) = epsilon
        && !(e.is_finite() && e >= 0.0)
    {
        return Err(format!("epsilon must be finite and not negative, got {e}"));
    }
    let result = plain_tensor(ctx, shape.clone(), elem);
    let stats = plain_tensor(ctx, shape[..rank - k].to_vec(), stats_elem(ctx, kind));
    Ok((result, stats))
}

/// The `infer_result_types` hook of both norms: `y` alone (the statistics are results a
/// program asks for by writing them; a generic builder gets the forward result). For
/// layer_norm without `operandSegmentSizes`, a second operand is the weight and a third the
/// bias.
fn infer_norm_types(ctx: &Context, kind: NormKind, types: &[Type], props: Option<Attr>) -> Result<Vec<Type>, String> {
    let prop = |name: &str| props.and_then(|p| ctx.dict_get(p, name));
    let dims = prop("dims").and_then(|a| super::syntax::i64_array(ctx, a)).ok_or("requires a 'dims' array")?;
    let epsilon = match prop("epsilon") {
        Some(a) => Some(f64_of(ctx, a).ok_or("epsilon must be an f64 attribute")?),
        None => None,
    };
    let (has_w, has_b) = match (kind, prop("operandSegmentSizes")) {
        (NormKind::Layer, Some(seg)) => match ctx.attr_kind(seg) {
            AttrKind::DenseArray { data: DenseArrayData::Int(v), .. } if v.len() == 3 => (v[1] == 1, v[2] == 1),
            _ => return Err("malformed operandSegmentSizes".into()),
        },
        _ => (types.len() > 1, types.len() > 2),
    };
    let most = if kind == NormKind::Layer { 3 } else { 2 };
    if types.is_empty() || types.len() > most || types.len() != 1 + has_w as usize + has_b as usize {
        return Err(format!("expects an input and at most {} more operands, got {} operands", most - 1, types.len()));
    }
    let weight = has_w.then(|| types[1]);
    let bias = has_b.then(|| types[1 + has_w as usize]);
    Ok(vec![infer_norm(ctx, types[0], weight, bias, &dims, epsilon)?.0])
}

fn infer_layer_norm_types(ctx: &Context, types: &[Type], props: Option<Attr>) -> Result<Vec<Type>, String> {
    infer_norm_types(ctx, NormKind::Layer, types, props)
}

fn infer_rms_norm_types(ctx: &Context, types: &[Type], props: Option<Attr>) -> Result<Vec<Type>, String> {
    infer_norm_types(ctx, NormKind::Rms, types, props)
}

fn verify_norm(v: &VerifyCtx<'_>, op: OpId, kind: NormKind) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    verify_shardings(v, op)?;
    let dims = op_dims(ctx, ir, op).ok_or_else(|| v.op_error(op, "requires a 'dims' array"))?;
    let (has_w, has_b) = norm_operands(ctx, ir, op).ok_or_else(|| v.op_error(op, "malformed operandSegmentSizes"))?;
    let types = operand_types(v, op);
    let weight = has_w.then(|| types[1]);
    let bias = has_b.then(|| types[1 + has_w as usize]);
    let (result, stats) =
        infer_norm(ctx, types[0], weight, bias, &dims, op_epsilon(ctx, ir, op)).map_err(|m| v.op_error(op, m))?;
    let results = ir.results(op);
    if results.len() != 1 && results.len() != 1 + kind.num_stats() {
        let msg = match kind {
            NormKind::Layer => format!("expects 1 result or 3 (y, mean, rstd), got {}", results.len()),
            NormKind::Rms => format!("expects 1 result or 2 (y, rstd), got {}", results.len()),
        };
        return Err(v.op_error(op, msg));
    }
    for (i, &r) in results.iter().enumerate() {
        let want = if i == 0 { result } else { stats };
        let (shape, elem) = expect_tensor(ctx, "result", ir.value_type(r)).map_err(|m| v.op_error(op, m))?;
        let (want_shape, want_elem) = expect_tensor(ctx, "result", want).map_err(|m| v.op_error(op, m))?;
        if !shapes_compatible(&shape, &want_shape) {
            let msg =
                format!("result #{i} shape {} does not match inferred {}", shape_text(&shape), shape_text(&want_shape));
            return Err(v.op_error(op, msg));
        }
        if elem != want_elem {
            let msg = format!(
                "result #{i} element type '{}' does not match inferred '{}'",
                type_str(ctx, elem),
                type_str(ctx, want_elem)
            );
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

fn verify_layer_norm(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_norm(v, op, NormKind::Layer)
}

fn verify_rms_norm(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_norm(v, op, NormKind::Rms)
}

fn parse_norm(p: &mut dyn OpAsmParser, state: &mut OperationState, kind: NormKind) -> ParseResult<()> {
    let input = p.parse_operand()?;
    let weight = if p.parse_optional_keyword("weight") { Some(p.parse_operand()?) } else { None };
    let bias =
        if kind == NormKind::Layer && p.parse_optional_keyword("bias") { Some(p.parse_operand()?) } else { None };
    p.parse_keyword("dims")?;
    p.parse_punct(Punct::Equal)?;
    let dims = crate::support::parse_int_list(p)?;
    let operands: Vec<_> = std::iter::once(input).chain(weight.clone()).chain(bias.clone()).collect();
    let ctx = p.ctx();
    let mut props = vec![(ctx.ident("dims"), i64_array_attr(ctx, &dims))];
    if kind == NormKind::Layer {
        props.push((ctx.ident("operandSegmentSizes"), segment_sizes(ctx, weight.is_some(), bias.is_some())));
    }
    super::syntax::parse_tail(p, state, &operands, props)
}

fn print_norm(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (input, weight, bias, types, results, dims, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let operands = ir.operands(op).to_vec();
        let (has_w, has_b) = norm_operands(ctx, ir, op).unwrap_or((operands.len() > 1, operands.len() > 2));
        let weight = if has_w { operands.get(1).copied() } else { None };
        let bias = if has_b { operands.get(1 + has_w as usize).copied() } else { None };
        let types: Vec<Type> = operands.iter().map(|&v| ir.value_type(v)).collect();
        let results: Vec<Type> = ir.results(op).iter().map(|&r| ir.value_type(r)).collect();
        let dims = op_dims(ctx, ir, op).unwrap_or_default();
        (operands.first().copied(), weight, bias, types, results, dims, printed_attr_dict(ctx, ir, op))
    };
    p.write(" ");
    if let Some(x) = input {
        p.print_operand(x);
    }
    if let Some(w) = weight {
        p.write(" weight ");
        p.print_operand(w);
    }
    if let Some(b) = bias {
        p.write(" bias ");
        p.print_operand(b);
    }
    let text: Vec<String> = dims.iter().map(i64::to_string).collect();
    p.write(&format!(" dims = [{}]", text.join(", ")));
    p.print_optional_attr_dict(dict, &["dims", "operandSegmentSizes"]);
    p.write(" : (");
    for (i, &t) in types.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
    }
    p.write(") -> ");
    p.print_arrow_type_list(&results);
}

fn parse_layer_norm(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_norm(p, state, NormKind::Layer)
}

fn parse_rms_norm(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_norm(p, state, NormKind::Rms)
}

fn print_layer_norm(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_norm(p, op)
}

fn print_rms_norm(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_norm(p, op)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::diag::SourceFile;
    use fuser_ir::parser::{parse_source, parse_type_str};
    use fuser_ir::printer::print_type;
    use std::sync::Arc;

    #[test]
    fn inference_of_norm_results() {
        let c = Context::new(crate::registry());
        let t = |s: &str| parse_type_str(&c, s).unwrap();
        let show = |r: Result<(Type, Type), String>| r.map(|(y, s)| (print_type(&c, y), print_type(&c, s)));
        let x = t("tensor<2x4x8xbf16, #fusion.shard<@tp, [[], [DIDx], []]>>");
        assert_eq!(
            show(infer_norm(&c, x, Some(t("tensor<8xbf16>")), None, &[2], None)),
            Ok(("tensor<2x4x8xbf16>".into(), "tensor<2x4xf32>".into()))
        );
        assert_eq!(
            show(infer_norm(&c, t("tensor<3x?xf64>"), None, Some(t("tensor<5xf64>")), &[1], Some(0.0))),
            Ok(("tensor<3x?xf64>".into(), "tensor<3xf64>".into()))
        );
        assert!(infer_norm(&c, x, None, None, &[1], None).unwrap_err().contains("trailing axes"));
        assert!(infer_norm(&c, x, None, None, &[2], Some(f64::INFINITY)).unwrap_err().contains("epsilon"));
        assert!(infer_norm(&c, x, Some(t("tensor<4x8xbf16>")), None, &[2], None).unwrap_err().contains("weight"));
        // The generic builders' hook: y only; layer_norm's operand roles from the segments.
        let props = |entries: Vec<(&str, Attr)>| Some(crate::support::dict_of(&c, &entries));
        let dims = i64_array_attr(&c, &[2]);
        let infer = RMS_NORM.infer_result_types.unwrap();
        let got = infer(&c, &[x, t("tensor<8xbf16>")], props(vec![("dims", dims)])).unwrap();
        assert_eq!(got.iter().map(|&y| print_type(&c, y)).collect::<Vec<_>>(), ["tensor<2x4x8xbf16>"]);
        assert!(infer(&c, &[x], None).unwrap_err().contains("'dims'"));
        let infer = LAYER_NORM.infer_result_types.unwrap();
        let bias_only = props(vec![("dims", dims), ("operandSegmentSizes", segment_sizes(&c, false, true))]);
        assert!(infer(&c, &[x, t("tensor<8xbf16>")], bias_only).is_ok());
        assert!(infer(&c, &[x, t("tensor<8xf32>")], bias_only).unwrap_err().contains("bias element type"));
        assert!(infer(&c, &[x, x, x, x], props(vec![("dims", dims)])).unwrap_err().contains("at most 2 more"));
        assert_eq!(rms_norm_default_epsilon(FloatKind::BF16), f32::EPSILON as f64);
        assert_eq!(rms_norm_default_epsilon(FloatKind::F64), f64::EPSILON);
    }

    #[test]
    fn built_norms_verify_and_print() {
        let c = Context::new(crate::registry());
        let mut ir = Ir::new();
        let text = "func.func @f(%x: tensor<4x8xf32>, %b: tensor<8xf32>) {\n  return\n}\n";
        let top = parse_source(&c, &mut ir, &SourceFile::new("t.mlir", Arc::from(text))).unwrap();
        let ret = ir.nested_ops(top).into_iter().find(|&o| c.op_name_str(ir.op_name(o)) == "func.return").unwrap();
        let args = ir.block_args(ir.op_block(ret).unwrap()).to_vec();
        let (y, stats) =
            infer_norm(&c, ir.value_type(args[0]), None, Some(ir.value_type(args[1])), &[1], None).unwrap();
        let state = norm_state(
            &c,
            NormKind::Layer,
            args[0],
            None,
            Some(args[1]),
            &[1],
            Some(1e-6),
            vec![y, stats, stats],
            c.unknown_loc(),
        );
        let op = ir.create_op(state);
        ir.insert_op_before(ret, op);
        assert_eq!(norm_operands(&c, &ir, op), Some((false, true)));
        assert_eq!(op_epsilon(&c, &ir, op), Some(1e-6));
        let state = norm_state(&c, NormKind::Rms, args[0], None, None, &[1], None, vec![y], c.unknown_loc());
        let rms = ir.create_op(state);
        ir.insert_op_before(ret, rms);
        assert_eq!((norm_operands(&c, &ir, rms), op_epsilon(&c, &ir, rms)), (Some((false, false)), None));
        fuser_ir::verifier::verify(&c, &ir, top)
            .unwrap_or_else(|d| panic!("{:?}", d.iter().map(|x| &x.message).collect::<Vec<_>>()));
        let printed = fuser_ir::printer::print_module(&c, &ir, top, &Default::default());
        assert!(
            printed.contains(
                "%0:3 = fusion.layer_norm %arg0 bias %arg1 dims = [1] {epsilon = 9.9999999999999995E-7 : f64} : \
(tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)"
            ),
            "{printed}"
        );
        assert!(
            printed.contains("%1 = fusion.rms_norm %arg0 dims = [1] : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
            "{printed}"
        );
    }
}
