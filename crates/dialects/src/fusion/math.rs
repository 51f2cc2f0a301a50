//! Elementwise math of the fusion dialect (issue 23): the unary float functions (`exp`, `log`,
//! `tanh`, `erf`, `sqrt`, `rsqrt`, `sigmoid`, `reciprocal`, `silu`, `gelu`), `abs` (floats and
//! integers), the binary `maximum`, `minimum` and `pow`, `compare` (an `i1` result), `where`
//! (select by an `i1` condition) and `full` (a scalar broadcast into a tensor, no operands).
//!
//! The families share one verifier each through a [`HookSet`]; every op has the shared tensor
//! syntax (`syntax.rs`), `compare` with its predicate keyword before the operands. Each op's
//! description states its numeric rules (torch's); [`elementwise_kind`] says which
//! `host.elementwise` kind implements an op, so the lowering, the reference and the backends
//! agree on one mapping.

use super::elementwise::{infer_elementwise, infer_unary};
use super::sharding::Sharding;
use super::syntax::{Extra, parse_tensor_op, print_tensor_op};
use super::verify::{TENSOR, expect_tensor, operand_types, plain_tensor, result_type, shapes_compatible, verify_with};
use crate::host::ElementwiseKind;
use crate::support::{Scalar, check_fill_value, inherent_attr, scalar_value, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::context::Context;
use fuser_ir::declare::{AttrConstraint, HookSet};
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{Type, TypeKind};

// ----- hook sets ------------------------------------------------------------------------------

/// Unary ops on float tensors (`exp`, ..., `gelu`).
const FLOAT_UNARY_HOOKS: HookSet = HookSet {
    verify: Some(verify_float_unary),
    parse: Some(parse_plain),
    print: Some(print_plain),
    infer_result_types: Some(|ctx, t, _| one(t, |[a]| infer_float_unary(ctx, a))),
    ..HookSet::NONE
};
/// Binary ops on two tensors of one shape and element type (`maximum`, `minimum`).
const BINARY_HOOKS: HookSet = HookSet {
    verify: Some(verify_binary),
    parse: Some(parse_plain),
    print: Some(print_plain),
    infer_result_types: Some(|ctx, t, _| one(t, |[a, b]| super::elementwise::infer_elementwise(ctx, a, b))),
    ..HookSet::NONE
};

/// The one result type `infer` gives for exactly `N` operand types (the families'
/// `infer_result_types`).
fn one<const N: usize>(
    types: &[Type],
    infer: impl FnOnce([Type; N]) -> Result<Type, String>,
) -> Result<Vec<Type>, String> {
    let operands: [Type; N] = types.try_into().map_err(|_| format!("expects {N} operand(s), got {}", types.len()))?;
    infer(operands).map(|t| vec![t])
}

/// `approximate`: `"none"` or `"tanh"` (checked by the verifier).
const APPROXIMATE: AttrConstraint =
    AttrConstraint::new("string attribute", |ctx, a| ctx.attr_str(a).is_some()).optional();
/// `predicate`: one of [`PREDICATES`] (checked by the verifier).
const PREDICATE: AttrConstraint = AttrConstraint::new("string attribute", |ctx, a| ctx.attr_str(a).is_some());
/// `value`: an integer or float attribute.
const SCALAR: AttrConstraint =
    AttrConstraint::new("integer or float attribute", |ctx, a| scalar_value(ctx, a).is_some());

macro_rules! float_unary_op {
    ($static_name:ident, $name:literal, $summary:literal, $formula:literal, $semantics:literal) => {
        fuser_ir::declare_op! {
            pub static $static_name: $name {
                summary: $summary,
                description: concat!(
                    "`", $formula, "` elementwise on a float tensor; the result has its shape and \
element type. bf16/f16 compute in `f32` and round the result once to the element type (as \
torch); f32 and f64 in their own precision. ", $semantics, "\n\n```mlir\n%r = ",
                    $name,
                    " %a : (tensor<4x8xf32>) -> tensor<4x8xf32>\n```"
                ),
                traits: [PURE],
                operands: { input: TENSOR },
                results: { result: TENSOR },
                hook_set: FLOAT_UNARY_HOOKS,
            }
        }
    };
}

float_unary_op!(
    EXP,
    "fusion.exp",
    "Elementwise exponential",
    "e^x",
    "`exp(-inf) = 0`, `exp(inf) = inf`, overflow gives `inf`, NaN gives NaN."
);
float_unary_op!(
    LOG,
    "fusion.log",
    "Elementwise natural logarithm",
    "ln(x)",
    "`log(0) = -inf`, `log(x < 0) = NaN`, `log(inf) = inf`, NaN gives NaN."
);
float_unary_op!(TANH, "fusion.tanh", "Elementwise hyperbolic tangent", "tanh(x)", "`tanh(±inf) = ±1`, NaN gives NaN.");
float_unary_op!(
    ERF,
    "fusion.erf",
    "Elementwise error function",
    "erf(x)",
    "`erf(±inf) = ±1`, NaN gives NaN; accurate to about 1e-15 relative in `f64` (the cuda backend uses CUDA's `erf`)."
);
float_unary_op!(
    SQRT,
    "fusion.sqrt",
    "Elementwise square root",
    "sqrt(x)",
    "`sqrt(-0) = -0`, `sqrt(x < 0) = NaN`, `sqrt(inf) = inf`, NaN gives NaN."
);
float_unary_op!(
    RSQRT,
    "fusion.rsqrt",
    "Elementwise reciprocal square root",
    "1 / sqrt(x)",
    "`rsqrt(0) = inf`, `rsqrt(-0) = -inf`, `rsqrt(x < 0) = NaN`, `rsqrt(inf) = 0`, NaN gives NaN."
);
float_unary_op!(
    SIGMOID,
    "fusion.sigmoid",
    "Elementwise logistic sigmoid",
    "1 / (1 + e^-x)",
    "`sigmoid(-inf) = 0`, `sigmoid(inf) = 1`, NaN gives NaN (no overflow for large `|x|`)."
);
float_unary_op!(
    RECIPROCAL,
    "fusion.reciprocal",
    "Elementwise reciprocal",
    "1 / x",
    "`1 / 0 = inf`, `1 / -0 = -inf`, `1 / ±inf = ±0`, NaN gives NaN."
);
float_unary_op!(
    SILU,
    "fusion.silu",
    "Elementwise SiLU (swish)",
    "x / (1 + e^-x)",
    "`silu(inf) = inf`; `silu(-inf) = NaN` (`-inf / inf`, as torch), a large negative `x` gives `-0`; NaN gives NaN."
);

fuser_ir::declare_op! {
    pub static GELU: "fusion.gelu" {
        summary: "Elementwise GELU",
        description: "The Gaussian error linear unit of `torch.nn.functional.gelu` on a float \
tensor. `approximate = \"none\"` (the default when absent): `x * (1 + erf(x / sqrt(2))) / 2`; \
`approximate = \"tanh\"`: `x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))) / 2`. bf16/f16 \
compute in `f32` and round once (as torch). `gelu(inf) = inf`; `gelu(-inf) = NaN` (`-inf * 0`, \
as torch); NaN gives NaN.\n\n\
```mlir\n%r = fusion.gelu %a : (tensor<4x8xf32>) -> tensor<4x8xf32>\n\
%t = fusion.gelu %a {approximate = \"tanh\"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { approximate: APPROXIMATE },
        hook_set: FLOAT_UNARY_HOOKS,
        hooks: { verify: verify_gelu },
    }
}

fuser_ir::declare_op! {
    pub static ABS: "fusion.abs" {
        summary: "Elementwise absolute value",
        description: "`|x|` elementwise on an integer or float tensor; same shape and element \
type. Integers wrap: `abs(MIN) = MIN` (`i8` `abs(-128) = -128`, as torch). Floats clear the sign \
bit: `abs(-0) = 0`, `abs(-inf) = inf`, NaN gives NaN.\n\n\
```mlir\n%r = fusion.abs %a : (tensor<4xi32>) -> tensor<4xi32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        hooks: {
            verify: verify_any_unary,
            parse: parse_plain,
            print: print_plain,
            infer_result_types: |ctx, t, _| one(t, |[a]| super::elementwise::infer_unary(ctx, a)),
        },
    }
}

fuser_ir::declare_op! {
    pub static MAXIMUM: "fusion.maximum" {
        summary: "Elementwise maximum",
        description: "The larger of `lhs` and `rhs` elementwise (one shape and element type, \
integers or floats), as `torch.maximum` and `arith.maximumf`: a NaN in either operand gives NaN; \
`maximum(-0, 0) = 0`.\n\n\
```mlir\n%r = fusion.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n```",
        traits: [PURE | COMMUTATIVE],
        operands: { lhs: TENSOR, rhs: TENSOR },
        results: { result: TENSOR },
        hook_set: BINARY_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static MINIMUM: "fusion.minimum" {
        summary: "Elementwise minimum",
        description: "The smaller of `lhs` and `rhs` elementwise (one shape and element type, \
integers or floats), as `torch.minimum` and `arith.minimumf`: a NaN in either operand gives NaN; \
`minimum(-0, 0) = -0`.\n\n\
```mlir\n%r = fusion.minimum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n```",
        traits: [PURE | COMMUTATIVE],
        operands: { lhs: TENSOR, rhs: TENSOR },
        results: { result: TENSOR },
        hook_set: BINARY_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static POW: "fusion.pow" {
        summary: "Elementwise power",
        description: "`lhs ^ rhs` elementwise on two float tensors of one shape and element type, \
as `torch.pow` (C's `pow`): `pow(x, 0) = 1` even for NaN, `pow(1, y) = 1` even for NaN, a \
negative base with a non-integer exponent gives NaN, `pow(0, y < 0) = inf`. bf16/f16 compute in \
`f32` and round once.\n\n\
```mlir\n%r = fusion.pow %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n```",
        traits: [PURE],
        operands: { lhs: TENSOR, rhs: TENSOR },
        results: { result: TENSOR },
        hook_set: BINARY_HOOKS,
        hooks: { verify: verify_pow, infer_result_types: |ctx, t, _| one(t, |[a, b]| infer_pow(ctx, a, b)) },
    }
}

/// The predicates of `fusion.compare`.
pub const PREDICATES: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

fuser_ir::declare_op! {
    pub static COMPARE: "fusion.compare" {
        summary: "Elementwise comparison",
        description: "Compares `lhs` and `rhs` (one shape and element type) elementwise with \
`predicate` (`eq`, `ne`, `lt`, `le`, `gt`, `ge`); the result has their shape and element type \
`i1` (1 where true). Integers compare as signed values. Floats compare ordered, as torch: a \
NaN operand makes every predicate false except `ne`, which is true; `-0 == 0`.\n\n\
```mlir\n%m = fusion.compare lt %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n```\n\n\
Generic form: `predicate` is a string property (`<{predicate = \"lt\"}>`).",
        traits: [PURE],
        operands: { lhs: TENSOR, rhs: TENSOR },
        results: { result: TENSOR },
        properties: { predicate: PREDICATE },
        hooks: {
            verify: verify_compare,
            parse: parse_compare,
            print: print_compare,
            infer_result_types: |ctx, t, _| one(t, |[a, b]| infer_compare(ctx, a, b)),
        },
    }
}

fuser_ir::declare_op! {
    pub static WHERE: "fusion.where" {
        summary: "Elementwise selection",
        description: "`condition ? lhs : rhs` elementwise, as `torch.where`: `condition` is an \
`i1` tensor of the shape of `lhs` and `rhs`, which share an element type (the result's). The \
value chosen is copied exactly (NaN included).\n\n\
```mlir\n%r = fusion.where %m, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n```",
        traits: [PURE],
        operands: { condition: TENSOR, lhs: TENSOR, rhs: TENSOR },
        results: { result: TENSOR },
        hooks: {
            verify: verify_where,
            parse: parse_plain,
            print: print_plain,
            infer_result_types: |ctx, t, _| one(t, |[c, a, b]| infer_where(ctx, c, a, b)),
        },
    }
}

fuser_ir::declare_op! {
    pub static FULL: "fusion.full" {
        summary: "A tensor filled with one value",
        description: "A tensor of the result type whose every element is `value`, an integer \
or float attribute of the result's element type (`true`/`false` for `i1`), as `torch.full`. \
The result may be sharded (each rank fills its piece) but never `partial` (a filled value is \
no pending reduction).\n\n\
```mlir\n%z = fusion.full {value = 0.0 : f32} : () -> tensor<4x8xf32>\n\
%o = fusion.full {value = 1 : i32} : () -> tensor<8xi32, #fusion.shard<@tp, [[DIDx]]>>\n```",
        traits: [PURE],
        results: { result: TENSOR },
        properties: { value: SCALAR },
        hooks: { verify: verify_full, parse: parse_plain, print: print_plain },
    }
}

// ----- syntax ---------------------------------------------------------------------------------

fn parse_plain(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::None)
}

fn print_plain(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::None)
}

fn parse_compare(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::Keyword("predicate"))
}

fn print_compare(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::Keyword("predicate"))
}

// ----- type inference -------------------------------------------------------------------------

fn is_float(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(_))
}

fn require_float(ctx: &Context, elem: Type) -> Result<(), String> {
    if is_float(ctx, elem) {
        Ok(())
    } else {
        Err(format!("operand element type must be a float, got '{}'", type_str(ctx, elem)))
    }
}

/// The unsharded result type of a unary float op (`exp`, ..., `gelu`) on `a`.
pub fn infer_float_unary(ctx: &Context, a: Type) -> Result<Type, String> {
    let t = infer_unary(ctx, a)?;
    require_float(ctx, expect_tensor(ctx, "operand", a)?.1)?;
    Ok(t)
}

/// The unsharded result type of `pow(a, b)`.
pub fn infer_pow(ctx: &Context, a: Type, b: Type) -> Result<Type, String> {
    let t = infer_elementwise(ctx, a, b)?;
    require_float(ctx, expect_tensor(ctx, "lhs", a)?.1)?;
    Ok(t)
}

/// The unsharded result type of `compare(a, b)`: their shape, element type `i1`.
pub fn infer_compare(ctx: &Context, a: Type, b: Type) -> Result<Type, String> {
    let t = infer_elementwise(ctx, a, b)?;
    let (shape, _) = expect_tensor(ctx, "lhs", t)?;
    Ok(plain_tensor(ctx, shape, ctx.i1_type()))
}

/// The unsharded result type of `where(c, a, b)`.
pub fn infer_where(ctx: &Context, c: Type, a: Type, b: Type) -> Result<Type, String> {
    let t = infer_elementwise(ctx, a, b)?;
    let (cs, ce) = expect_tensor(ctx, "condition", c)?;
    let (shape, _) = expect_tensor(ctx, "lhs", t)?;
    if ce != ctx.i1_type() {
        return Err(format!("condition element type must be 'i1', got '{}'", type_str(ctx, ce)));
    }
    if !shapes_compatible(&cs, &shape) {
        return Err(format!(
            "condition shape {} differs from the operand shape {}",
            super::verify::shape_text(&cs),
            super::verify::shape_text(&shape)
        ));
    }
    Ok(t)
}

// ----- verifiers ------------------------------------------------------------------------------

fn verify_float_unary(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [a] => infer_float_unary(v.ctx, a),
        _ => Err("expects one operand".into()),
    })
}

fn verify_gelu(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    if let Some(a) = inherent_attr(v.ctx, v.ir, op, "approximate") {
        let text = v.ctx.attr_str(a).unwrap_or_default();
        if text != "none" && text != "tanh" {
            return Err(v.op_error(op, format!("'approximate' must be \"none\" or \"tanh\", got \"{text}\"")));
        }
    }
    verify_float_unary(v, op)
}

fn verify_any_unary(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [a] => infer_unary(v.ctx, a),
        _ => Err("expects one operand".into()),
    })
}

fn verify_binary(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [a, b] => infer_elementwise(v.ctx, a, b),
        _ => Err("expects two operands".into()),
    })
}

fn verify_pow(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [a, b] => infer_pow(v.ctx, a, b),
        _ => Err("expects two operands".into()),
    })
}

fn verify_compare(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let text = inherent_attr(v.ctx, v.ir, op, "predicate").and_then(|a| v.ctx.attr_str(a)).unwrap_or_default();
    if !PREDICATES.contains(&text) {
        return Err(v.op_error(op, format!("unknown predicate '{text}' (expected eq, ne, lt, le, gt or ge)")));
    }
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [a, b] => infer_compare(v.ctx, a, b),
        _ => Err("expects two operands".into()),
    })
}

fn verify_where(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [c, a, b] => infer_where(v.ctx, c, a, b),
        _ => Err("expects three operands".into()),
    })
}

fn verify_full(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let result = result_type(v, op).ok_or("expects a result")?;
        let (shape, elem) = expect_tensor(v.ctx, "result", result)?;
        if let TypeKind::RankedTensor { encoding: Some(enc), .. } = v.ctx.type_kind(result)
            && Sharding::of_attr(v.ctx, *enc).is_some_and(|s| !s.partial.is_empty())
        {
            return Err("result may not be partial (each rank fills its piece of the full value)".into());
        }
        let value = inherent_attr(v.ctx, v.ir, op, "value").ok_or("requires a 'value' attribute")?;
        check_fill_value(v.ctx, value, elem)?;
        Ok(plain_tensor(v.ctx, shape, elem))
    })
}

// ----- the host kind of an op -----------------------------------------------------------------

/// The `host.elementwise` kind that computes the fusion op `op` on local pieces (the ops of
/// this file but `full`, which is a `host.fill`, and `add`/`sub`/`mul`/`div`/`neg`/`cast`);
/// `None` for other ops or a malformed predicate/approximation.
pub fn elementwise_kind(ctx: &Context, ir: &Ir, op: OpId) -> Option<ElementwiseKind> {
    let name = ctx.op_name_str(ir.op_name(op));
    let prop = |n: &str| inherent_attr(ctx, ir, op, n).and_then(|a| ctx.attr_str(a).map(str::to_string));
    Some(match name {
        "fusion.add" => ElementwiseKind::Add,
        "fusion.sub" => ElementwiseKind::Sub,
        "fusion.mul" => ElementwiseKind::Mul,
        "fusion.div" => ElementwiseKind::Div,
        "fusion.neg" => ElementwiseKind::Neg,
        "fusion.cast" => ElementwiseKind::Cast,
        "fusion.maximum" => ElementwiseKind::Max,
        "fusion.minimum" => ElementwiseKind::Min,
        "fusion.exp" => ElementwiseKind::Exp,
        "fusion.log" => ElementwiseKind::Log,
        "fusion.tanh" => ElementwiseKind::Tanh,
        "fusion.erf" => ElementwiseKind::Erf,
        "fusion.sqrt" => ElementwiseKind::Sqrt,
        "fusion.rsqrt" => ElementwiseKind::Rsqrt,
        "fusion.sigmoid" => ElementwiseKind::Sigmoid,
        "fusion.abs" => ElementwiseKind::Abs,
        "fusion.reciprocal" => ElementwiseKind::Reciprocal,
        "fusion.silu" => ElementwiseKind::Silu,
        "fusion.gelu" => match prop("approximate").as_deref() {
            None | Some("none") => ElementwiseKind::Gelu,
            Some("tanh") => ElementwiseKind::GeluTanh,
            Some(_) => return None,
        },
        "fusion.pow" => ElementwiseKind::Pow,
        "fusion.where" => ElementwiseKind::Where,
        "fusion.compare" => ElementwiseKind::from_keyword(prop("predicate")?.as_str()).filter(|k| k.is_compare())?,
        _ => return None,
    })
}

/// The fill value of a `fusion.full` (its `value` property).
pub fn full_value(ctx: &Context, ir: &Ir, op: OpId) -> Option<Scalar> {
    scalar_value(ctx, inherent_attr(ctx, ir, op, "value")?).map(|(s, _)| s)
}
