//! Data movement and compute in destination-passing style: `host.copy`, `host.matmul`,
//! `host.linear`, `host.elementwise`, `host.fill` and `host.sum` write into a given buffer or view and have
//! no results. Each posts its work to the current stream.
//!
//! Syntax:
//! - `host.copy %src, %dst : !host.view<...>, !host.buf<...>`
//! - `host.matmul %a, %b into %c accumulate? : Ta, Tb, Tc`
//! - `host.linear %x, %w (, %bias)? into %y (residual %r)? accumulate? (epilogue = gelu_tanh)? :
//!   Tx, Tw, (Tbias,)? Ty (, Tr)?` (operands stored as x, w, bias, residual, y with
//!   `operandSegmentSizes`)
//! - `host.elementwise add %a, %b into %c : Ta, Tb, Tc` (kind keyword, then the inputs)
//! - `host.sum %a into %c dims = [1] : Ta, Tc`
//! - `host.fill %c {value = 1.0 : f32} : Tc`
//!
//! Shapes are checked like the tensor ops they implement; `?` extents are compatible with any
//! extent (the runtime checks them).

use super::common::{
    BUFFER_LIKE, I64_ARRAY_ATTR, STRING_ATTR, UNIT_ATTR, buffer_of, finish_attrs, fmt_dims, has_flag, i32_array_attr,
    i64_array_attr, int_list_text, operand_types, parse_attr_dict, parse_int_list, parse_n_types, print_attr_dict,
    print_types, prop, prop_i64_array, shapes_compatible,
};
use super::types::BufferType;
use crate::support::{dict_of, empty_state, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct, UnresolvedOperand};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::OPERAND_SEGMENT_SIZES;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;

fuser_ir::declare_op! {
    pub static COPY: "host.copy" {
        summary: "Copies a buffer or view into another",
        description: "Copies every element of `source` into `target` on the current stream. Both \
have the same shape (`?` extents must agree at run time) and element type; either may be a \
strided view.\n\n\
```mlir\nhost.copy %chunk, %b : !host.view<2x8xf32, strides = [16, 1]>, !host.buf<2x8xf32>\n```",
        operands: { source: BUFFER_LIKE, target: BUFFER_LIKE },
        hooks: { verify: verify_copy, parse: parse_copy, print: print_copy },
    }
}

fuser_ir::declare_op! {
    pub static MATMUL: "host.matmul" {
        summary: "Matrix product into a given buffer: c = a·b (or c += a·b)",
        description: "Computes the matrix product of `a` `[..., M, K]` and `b` `[..., K, N]` into \
`c` `[..., M, N]`. Leading batch dimensions are either present on both operands (and equal) or \
on one of them only (the other is broadcast). `a` and `b` share an element type; `c` may have \
another (for example bf16 inputs accumulated in f32). With `accumulate`, the product is added \
to what `c` holds (`c += a·b`).\n\n\
```mlir\nhost.matmul %a, %b into %c : !host.buf<4x8xf32>, !host.buf<8x16xf32>, !host.buf<4x16xf32>\nhost.matmul %a, %b into %c accumulate : !host.view<2x8xbf16, strides = [8, 1]>, !host.buf<8x16xbf16>, !host.buf<2x16xf32>\n```",
        operands: { a: BUFFER_LIKE, b: BUFFER_LIKE, c: BUFFER_LIKE },
        properties: { accumulate: UNIT_ATTR },
        hooks: { verify: verify_matmul, parse: parse_matmul, print: print_gemm },
    }
}

fuser_ir::declare_op! {
    pub static LINEAR: "host.linear" {
        summary: "Linear layer into a given buffer: y = act(x·wᵀ + bias + residual)",
        description: "Computes `y = x·wᵀ (+ bias) (+ residual)` with `x` `[..., K]`, `w` `[N, K]`, \
the optional `bias` `[N]` and `y` `[..., N]` (the leading dimensions of `x` and `y` agree). `x`, \
`w` and `bias` share an element type; `y` may have another. With `accumulate`, the result is \
added to what `y` holds (`y += x·wᵀ + bias`: a GEMM epilogue with beta = 1).\n\n\
GEMM epilogues (fused by `host-fuse-epilogue`; cuBLASLt applies them in the GEMM, the cpu \
backend computes them in f64 from the GEMM's accumulator and rounds once to `y`'s type):\n\n\
- `residual %r`: `y = x·wᵀ + bias + r`, with `r` of `y`'s shape and element type and distinct \
from `y` (cuBLASLt's C matrix with beta = 1). Not with `accumulate` (that is `r = y`) nor with \
`epilogue` (cuBLASLt adds C before the activation, so `gelu(x·wᵀ + bias) + r` has no single \
call).\n\
- `epilogue = gelu_tanh`: `y = gelu_tanh(x·wᵀ + bias)` (the tanh approximation, \
`host.elementwise gelu_tanh`, `fusion.gelu {approximate = \"tanh\"}`; cuBLASLt's GELU epilogue); \
float outputs only, not with `accumulate`. In the generic form `epilogue` is a string property.\n\n\
Two operands are optional, so the generic form carries `operandSegmentSizes` (x, w, bias, \
residual, y); the custom form lists the types in the order the operands are written.\n\n\
```mlir\nhost.linear %x, %w, %bias into %y : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<16xf32>, !host.buf<4x16xf32>\nhost.linear %x, %w into %y : !host.buf<2x4x8xf32>, !host.buf<16x8xf32>, !host.buf<2x4x16xf32>\nhost.linear %x, %w, %bias into %y epilogue = gelu_tanh : !host.buf<4x8xbf16>, !host.buf<16x8xbf16>, !host.buf<16xbf16>, !host.buf<4x16xbf16>\nhost.linear %x, %w, %bias into %y residual %r : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<16xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>\n```",
        operands: {
            x: BUFFER_LIKE,
            w: BUFFER_LIKE,
            bias: BUFFER_LIKE.optional(),
            residual: BUFFER_LIKE.optional(),
            y: BUFFER_LIKE,
        },
        properties: { accumulate: UNIT_ATTR, epilogue: OPTIONAL_STRING_ATTR },
        hooks: { verify: verify_linear, parse: parse_linear, print: print_linear },
    }
}

/// An optional `StrAttr`.
const OPTIONAL_STRING_ATTR: fuser_ir::declare::AttrConstraint = STRING_ATTR.optional();

fuser_ir::declare_op! {
    pub static ELEMENTWISE: "host.elementwise" {
        summary: "Elementwise arithmetic into a given buffer",
        description: "Applies `kind` to the inputs element by element and writes `output`. Binary \
kinds: `add`, `sub`, `mul`, `div`, `max`, `min`, `pow`; unary kinds: `neg`, `abs`, `cast` \
(converts to the output's element type), `exp`, `log`, `tanh`, `erf`, `sqrt`, `rsqrt`, \
`sigmoid`, `reciprocal`, `silu`, `gelu`, `gelu_tanh`; comparisons `eq`, `ne`, `lt`, `le`, `gt`, \
`ge` (inputs of one element type, an `i1` output); `where %cond, %a, %b` (an `i1` condition). \
All shapes are equal; but for `cast`, comparisons and `where`'s condition, so are the element \
types. `exp` ... `gelu_tanh` and `pow` take floats only. The numeric rules are those of the \
fusion ops they implement (`fusion.exp`, ...). In the generic form the kind is the string \
property `kind`.\n\n\
```mlir\nhost.elementwise add %a, %b into %c : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>\nhost.elementwise cast %a into %h : !host.buf<4xf32>, !host.buf<4xbf16>\n```",
        operands: { inputs: BUFFER_LIKE.variadic(), output: BUFFER_LIKE },
        properties: { kind: STRING_ATTR },
        hooks: { verify: verify_elementwise, parse: parse_elementwise, print: print_elementwise },
    }
}

fuser_ir::declare_op! {
    pub static FILL: "host.fill" {
        summary: "Fills a buffer with one value",
        description: "Writes `value` (an integer or float attribute of the target's element type; \
`true`/`false` for `i1`) into every element of `target` on the current stream: the lowering of \
`fusion.full`.\n\n\
```mlir\nhost.fill %b {value = 1.500000e+00 : f32} : !host.buf<4x8xf32>\n```",
        operands: { target: BUFFER_LIKE },
        properties: { value: SCALAR_ATTR },
        hooks: { verify: verify_fill, parse: parse_fill, print: print_fill },
    }
}

/// `value`: an integer or float attribute.
const SCALAR_ATTR: fuser_ir::declare::AttrConstraint =
    fuser_ir::declare::AttrConstraint::new("integer or float attribute", |ctx, a| {
        crate::support::scalar_value(ctx, a).is_some()
    });

fuser_ir::declare_op! {
    pub static SUM: "host.sum" {
        summary: "Sum over dimensions into a given buffer",
        description: "Sums `input` over `dims` (strictly increasing, in range) and writes \
`output`, whose shape is the input's with those dimensions dropped; element types agree.\n\n\
```mlir\nhost.sum %a into %c dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf32>\n```",
        operands: { input: BUFFER_LIKE, output: BUFFER_LIKE },
        properties: { dims: I64_ARRAY_ATTR },
        hooks: { verify: verify_sum, parse: parse_sum, print: print_sum },
    }
}

// ----- elementwise kinds ----------------------------------------------------------------------

/// What `host.elementwise` computes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ElementwiseKind {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    Neg,
    Cast,
    Exp,
    Log,
    Tanh,
    Erf,
    Sqrt,
    Rsqrt,
    Sigmoid,
    Abs,
    Reciprocal,
    Silu,
    /// `gelu` with `approximate = "none"` (the erf form).
    Gelu,
    /// `gelu` with `approximate = "tanh"`.
    GeluTanh,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `where cond, a, b`: `cond ? a : b` (`cond` is `i1`).
    Where,
}

impl ElementwiseKind {
    pub const ALL: [ElementwiseKind; 28] = [
        ElementwiseKind::Add,
        ElementwiseKind::Sub,
        ElementwiseKind::Mul,
        ElementwiseKind::Div,
        ElementwiseKind::Max,
        ElementwiseKind::Min,
        ElementwiseKind::Neg,
        ElementwiseKind::Cast,
        ElementwiseKind::Exp,
        ElementwiseKind::Log,
        ElementwiseKind::Tanh,
        ElementwiseKind::Erf,
        ElementwiseKind::Sqrt,
        ElementwiseKind::Rsqrt,
        ElementwiseKind::Sigmoid,
        ElementwiseKind::Abs,
        ElementwiseKind::Reciprocal,
        ElementwiseKind::Silu,
        ElementwiseKind::Gelu,
        ElementwiseKind::GeluTanh,
        ElementwiseKind::Pow,
        ElementwiseKind::Eq,
        ElementwiseKind::Ne,
        ElementwiseKind::Lt,
        ElementwiseKind::Le,
        ElementwiseKind::Gt,
        ElementwiseKind::Ge,
        ElementwiseKind::Where,
    ];

    /// The spelling in both forms (`add`, `"add"`).
    pub fn keyword(self) -> &'static str {
        match self {
            ElementwiseKind::Add => "add",
            ElementwiseKind::Sub => "sub",
            ElementwiseKind::Mul => "mul",
            ElementwiseKind::Div => "div",
            ElementwiseKind::Max => "max",
            ElementwiseKind::Min => "min",
            ElementwiseKind::Neg => "neg",
            ElementwiseKind::Cast => "cast",
            ElementwiseKind::Exp => "exp",
            ElementwiseKind::Log => "log",
            ElementwiseKind::Tanh => "tanh",
            ElementwiseKind::Erf => "erf",
            ElementwiseKind::Sqrt => "sqrt",
            ElementwiseKind::Rsqrt => "rsqrt",
            ElementwiseKind::Sigmoid => "sigmoid",
            ElementwiseKind::Abs => "abs",
            ElementwiseKind::Reciprocal => "reciprocal",
            ElementwiseKind::Silu => "silu",
            ElementwiseKind::Gelu => "gelu",
            ElementwiseKind::GeluTanh => "gelu_tanh",
            ElementwiseKind::Pow => "pow",
            ElementwiseKind::Eq => "eq",
            ElementwiseKind::Ne => "ne",
            ElementwiseKind::Lt => "lt",
            ElementwiseKind::Le => "le",
            ElementwiseKind::Gt => "gt",
            ElementwiseKind::Ge => "ge",
            ElementwiseKind::Where => "where",
        }
    }

    pub fn from_keyword(s: &str) -> Option<ElementwiseKind> {
        ElementwiseKind::ALL.into_iter().find(|k| k.keyword() == s)
    }

    /// `add, sub, ..., where`: every keyword, for messages.
    pub fn keyword_list() -> String {
        ElementwiseKind::ALL.map(ElementwiseKind::keyword).join(", ")
    }

    /// The number of inputs.
    pub fn arity(self) -> usize {
        use ElementwiseKind::*;
        match self {
            Neg | Cast | Exp | Log | Tanh | Erf | Sqrt | Rsqrt | Sigmoid | Abs | Reciprocal | Silu | Gelu
            | GeluTanh => 1,
            Where => 3,
            Add | Sub | Mul | Div | Max | Min | Pow | Eq | Ne | Lt | Le | Gt | Ge => 2,
        }
    }

    /// The comparisons (`eq` ... `ge`): an `i1` output.
    pub fn is_compare(self) -> bool {
        use ElementwiseKind::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }

    /// The kinds defined on floats only (the transcendental functions and `pow`).
    pub fn float_only(self) -> bool {
        use ElementwiseKind::*;
        matches!(self, Exp | Log | Tanh | Erf | Sqrt | Rsqrt | Sigmoid | Reciprocal | Silu | Gelu | GeluTanh | Pow)
    }

    /// Reads the `kind` property of a `host.elementwise`.
    pub fn of_op(ctx: &Context, ir: &fuser_ir::ir::Ir, op: OpId) -> Option<ElementwiseKind> {
        prop(ctx, ir, op, "kind").and_then(|a| ctx.attr_str(a)).and_then(ElementwiseKind::from_keyword)
    }
}

// ----- verifiers ------------------------------------------------------------------------------

/// The decoded types of every operand (the declaration guarantees they are buffers or views).
fn operand_buffers(v: &VerifyCtx<'_>, op: OpId) -> Option<Vec<BufferType>> {
    v.ir.operands(op).iter().map(|&x| buffer_of(v.ctx, v.ir, x)).collect()
}

fn elem_mismatch(v: &VerifyCtx<'_>, op: OpId, what: &str, a: &BufferType, b: &BufferType) -> Diagnostic {
    v.op_error(
        op,
        format!("{what} element types differ: '{}' vs '{}'", type_str(v.ctx, a.elem), type_str(v.ctx, b.elem)),
    )
}

fn verify_copy(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some(t) = operand_buffers(v, op) else { return Ok(()) };
    let (src, dst) = (&t[0], &t[1]);
    if !shapes_compatible(&src.shape, &dst.shape) {
        return Err(v.op_error(
            op,
            format!("source shape {} and target shape {} differ", fmt_dims(&src.shape), fmt_dims(&dst.shape)),
        ));
    }
    if src.elem != dst.elem {
        return Err(elem_mismatch(v, op, "source and target", src, dst));
    }
    Ok(())
}

/// Fails unless `t` has at least `min` dimensions.
fn require_rank(v: &VerifyCtx<'_>, op: OpId, name: &str, t: &BufferType, min: usize) -> Result<(), Diagnostic> {
    if t.shape.len() < min {
        return Err(v.op_error(op, format!("operand '{name}' must have rank >= {min}, got rank {}", t.shape.len())));
    }
    Ok(())
}

fn require_exact_rank(v: &VerifyCtx<'_>, op: OpId, name: &str, t: &BufferType, rank: usize) -> Result<(), Diagnostic> {
    if t.shape.len() != rank {
        return Err(v.op_error(op, format!("operand '{name}' must have rank {rank}, got rank {}", t.shape.len())));
    }
    Ok(())
}

fn check_output_shape(v: &VerifyCtx<'_>, op: OpId, out: &BufferType, expected: &[i64]) -> Result<(), Diagnostic> {
    if !shapes_compatible(&out.shape, expected) {
        return Err(v.op_error(
            op,
            format!("output shape {} does not match the expected {}", fmt_dims(&out.shape), fmt_dims(expected)),
        ));
    }
    Ok(())
}

fn check_contracting(v: &VerifyCtx<'_>, op: OpId, lhs: (&str, i64), rhs: (&str, i64)) -> Result<(), Diagnostic> {
    if !super::common::extents_compatible(lhs.1, rhs.1) {
        return Err(
            v.op_error(op, format!("contracting extents differ: {} in '{}', {} in '{}'", lhs.1, lhs.0, rhs.1, rhs.0))
        );
    }
    Ok(())
}

/// The expected shape of `c` for `a·b`, or an error.
pub fn matmul_result_shape(a: &[i64], b: &[i64]) -> Result<Vec<i64>, String> {
    if a.len() < 2 || b.len() < 2 {
        return Err("matmul operands need rank >= 2".into());
    }
    let (a_batch, b_batch) = (&a[..a.len() - 2], &b[..b.len() - 2]);
    let batch = match (a_batch.is_empty(), b_batch.is_empty()) {
        (_, true) => a_batch,
        (true, false) => b_batch,
        (false, false) if shapes_compatible(a_batch, b_batch) => a_batch,
        _ => {
            return Err(format!(
                "batch dimensions {} of 'a' and {} of 'b' differ",
                fmt_dims(a_batch),
                fmt_dims(b_batch)
            ));
        }
    };
    let mut out = batch.to_vec();
    out.extend([a[a.len() - 2], b[b.len() - 1]]);
    Ok(out)
}

fn verify_matmul(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some(t) = operand_buffers(v, op) else { return Ok(()) };
    let (a, b, c) = (&t[0], &t[1], &t[2]);
    require_rank(v, op, "a", a, 2)?;
    require_rank(v, op, "b", b, 2)?;
    if a.elem != b.elem {
        return Err(elem_mismatch(v, op, "'a' and 'b'", a, b));
    }
    check_contracting(v, op, ("a", a.shape[a.shape.len() - 1]), ("b", b.shape[b.shape.len() - 2]))?;
    let expected = matmul_result_shape(&a.shape, &b.shape).map_err(|m| v.op_error(op, m))?;
    check_output_shape(v, op, c, &expected)
}

/// What `host.linear` applies after `x·wᵀ + bias (+ residual)`: its `epilogue` property.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum LinearEpilogue {
    /// `gelu` with `approximate = "tanh"` (cuBLASLt's GELU epilogue).
    GeluTanh,
}

impl LinearEpilogue {
    pub const ALL: [LinearEpilogue; 1] = [LinearEpilogue::GeluTanh];

    /// The spelling in both forms (`gelu_tanh`, `"gelu_tanh"`).
    pub fn keyword(self) -> &'static str {
        match self {
            LinearEpilogue::GeluTanh => "gelu_tanh",
        }
    }

    pub fn from_keyword(s: &str) -> Option<LinearEpilogue> {
        LinearEpilogue::ALL.into_iter().find(|e| e.keyword() == s)
    }

    /// The elementwise kind the epilogue computes.
    pub fn elementwise_kind(self) -> ElementwiseKind {
        match self {
            LinearEpilogue::GeluTanh => ElementwiseKind::GeluTanh,
        }
    }

    /// The epilogue computing `kind`, if any.
    pub fn of_elementwise(kind: ElementwiseKind) -> Option<LinearEpilogue> {
        LinearEpilogue::ALL.into_iter().find(|e| e.elementwise_kind() == kind)
    }
}

/// The operands and options of a `host.linear`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LinearParts {
    pub x: Value,
    pub w: Value,
    pub bias: Option<Value>,
    pub residual: Option<Value>,
    pub y: Value,
    pub accumulate: bool,
    /// `Err(text)`: an `epilogue` property that names no epilogue (the verifier rejects it).
    pub epilogue: Result<Option<LinearEpilogue>, String>,
}

/// Reads a `host.linear` (segment aware); `None` when its operands do not match the
/// declaration.
pub fn linear_parts(ctx: &Context, ir: &fuser_ir::ir::Ir, op: OpId) -> Option<LinearParts> {
    let group = |i| LINEAR.operand_group(ctx, ir, op, i);
    let one = |v: Vec<Value>| if v.len() <= 1 { Some(v.first().copied()) } else { None };
    let (x, w, y) = (one(group(0)?)??, one(group(1)?)??, one(group(4)?)??);
    let (bias, residual) = (one(group(2)?)?, one(group(3)?)?);
    let epilogue = match prop(ctx, ir, op, "epilogue") {
        None => Ok(None),
        Some(a) => {
            let text = ctx.attr_str(a).unwrap_or_default();
            LinearEpilogue::from_keyword(text).map(Some).ok_or_else(|| text.to_string())
        }
    };
    Some(LinearParts { x, w, bias, residual, y, accumulate: has_flag(ctx, ir, op, "accumulate"), epilogue })
}

fn verify_linear(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some(parts) = linear_parts(v.ctx, v.ir, op) else { return Ok(()) };
    let ty = |val: Value| buffer_of(v.ctx, v.ir, val);
    let (Some(x), Some(w), Some(y)) = (ty(parts.x), ty(parts.w), ty(parts.y)) else { return Ok(()) };
    let (x, w, y) = (&x, &w, &y);
    require_rank(v, op, "x", x, 1)?;
    require_exact_rank(v, op, "w", w, 2)?;
    if x.elem != w.elem {
        return Err(elem_mismatch(v, op, "'x' and 'w'", x, w));
    }
    check_contracting(v, op, ("x", x.shape[x.shape.len() - 1]), ("w", w.shape[1]))?;
    let n = w.shape[0];
    if let Some(bias) = parts.bias.and_then(ty) {
        let bias = &bias;
        require_exact_rank(v, op, "bias", bias, 1)?;
        if bias.elem != x.elem {
            return Err(elem_mismatch(v, op, "'x' and 'bias'", x, bias));
        }
        if !super::common::extents_compatible(bias.shape[0], n) {
            return Err(v.op_error(
                op,
                format!("bias extent {} does not match the {} output features of 'w'", bias.shape[0], n),
            ));
        }
    }
    let mut expected = x.shape[..x.shape.len() - 1].to_vec();
    expected.push(n);
    check_output_shape(v, op, y, &expected)?;
    let epilogue = parts.epilogue.map_err(|text| {
        let known = LinearEpilogue::ALL.map(LinearEpilogue::keyword).join(", ");
        v.op_error(op, format!("unknown epilogue '{text}' (expected one of {known})"))
    })?;
    if let Some(e) = epilogue {
        if parts.accumulate {
            return Err(v.op_error(op, format!("'accumulate' and 'epilogue = {}' exclude each other", e.keyword())));
        }
        if !matches!(v.ctx.type_kind(y.elem), fuser_ir::types::TypeKind::Float(_)) {
            return Err(v.op_error(
                op,
                format!("'epilogue = {}' needs a float output, got '{}'", e.keyword(), type_str(v.ctx, y.elem)),
            ));
        }
    }
    if let Some(r) = parts.residual {
        if parts.accumulate {
            return Err(v.op_error(op, "'residual' and 'accumulate' exclude each other"));
        }
        if epilogue.is_some() {
            return Err(v.op_error(
                op,
                "'residual' and 'epilogue' exclude each other (the activation would apply to the residual too)",
            ));
        }
        if r == parts.y {
            return Err(v.op_error(op, "the residual must not be the output (that is 'accumulate')"));
        }
        if let Some(rt) = ty(r) {
            if !shapes_compatible(&rt.shape, &y.shape) {
                return Err(v.op_error(
                    op,
                    format!(
                        "residual shape {} does not match the output shape {}",
                        fmt_dims(&rt.shape),
                        fmt_dims(&y.shape)
                    ),
                ));
            }
            if rt.elem != y.elem {
                return Err(elem_mismatch(v, op, "residual and output", &rt, y));
            }
        }
    }
    Ok(())
}

fn verify_elementwise(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let written = prop(ctx, ir, op, "kind").and_then(|a| ctx.attr_str(a)).unwrap_or_default();
    let Some(kind) = ElementwiseKind::from_keyword(written) else {
        return Err(v.op_error(
            op,
            format!("unknown elementwise kind '{written}' (expected one of {})", ElementwiseKind::keyword_list()),
        ));
    };
    let Some(t) = operand_buffers(v, op) else { return Ok(()) };
    let (inputs, out) = t.split_at(t.len() - 1);
    let out = &out[0];
    if inputs.len() != kind.arity() {
        return Err(
            v.op_error(op, format!("'{}' takes {} input(s), got {}", kind.keyword(), kind.arity(), inputs.len()))
        );
    }
    let i1 = ctx.i1_type();
    for (i, input) in inputs.iter().enumerate() {
        if !shapes_compatible(&input.shape, &out.shape) {
            return Err(v.op_error(
                op,
                format!(
                    "input #{i} shape {} does not match the output shape {}",
                    fmt_dims(&input.shape),
                    fmt_dims(&out.shape)
                ),
            ));
        }
        let same_as_output = match kind {
            ElementwiseKind::Cast => true,
            k if k.is_compare() => input.elem == inputs[0].elem,
            ElementwiseKind::Where if i == 0 => input.elem == i1,
            _ => input.elem == out.elem,
        };
        if !same_as_output {
            let what = match kind {
                ElementwiseKind::Where if i == 0 => {
                    return Err(v.op_error(
                        op,
                        format!(
                            "the condition (input #0) must have element type 'i1', got '{}'",
                            type_str(ctx, input.elem)
                        ),
                    ));
                }
                k if k.is_compare() => format!("input #0 and input #{i}"),
                _ => format!("input #{i} and output"),
            };
            let (first, second) = if kind.is_compare() { (&inputs[0], input) } else { (input, out) };
            return Err(elem_mismatch(v, op, &what, first, second));
        }
    }
    if kind.is_compare() && out.elem != i1 {
        return Err(
            v.op_error(op, format!("'{}' writes an 'i1' output, got '{}'", kind.keyword(), type_str(ctx, out.elem)))
        );
    }
    if kind.float_only() && !matches!(ctx.type_kind(out.elem), fuser_ir::types::TypeKind::Float(_)) {
        return Err(v.op_error(
            op,
            format!("'{}' needs a float element type, got '{}'", kind.keyword(), type_str(ctx, out.elem)),
        ));
    }
    Ok(())
}

fn verify_fill(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some(t) = operand_buffers(v, op) else { return Ok(()) };
    let value = prop(v.ctx, v.ir, op, "value").ok_or_else(|| v.op_error(op, "requires a 'value' attribute"))?;
    crate::support::check_fill_value(v.ctx, value, t[0].elem).map_err(|m| v.op_error(op, m))?;
    Ok(())
}

/// The output shape of a sum of `shape` over `dims`, or an error.
pub fn sum_result_shape(shape: &[i64], dims: &[i64]) -> Result<Vec<i64>, String> {
    if dims.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!("dims {} must be strictly increasing", int_list_text(dims)));
    }
    if let Some(d) = dims.iter().find(|&&d| d < 0 || d as u64 >= shape.len() as u64) {
        return Err(format!("dim {d} is out of range for an input of rank {}", shape.len()));
    }
    Ok(shape.iter().enumerate().filter(|(i, _)| !dims.contains(&(*i as i64))).map(|(_, &d)| d).collect())
}

fn verify_sum(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some(t) = operand_buffers(v, op) else { return Ok(()) };
    let dims = prop_i64_array(v.ctx, v.ir, op, "dims").unwrap_or_default();
    let expected = sum_result_shape(&t[0].shape, &dims).map_err(|m| v.op_error(op, m))?;
    if t[0].elem != t[1].elem {
        return Err(elem_mismatch(v, op, "input and output", &t[0], &t[1]));
    }
    check_output_shape(v, op, &t[1], &expected)
}

// ----- syntax ---------------------------------------------------------------------------------

/// `%a, %b into %c`: the inputs and the destination.
fn parse_into(p: &mut dyn OpAsmParser) -> ParseResult<Vec<UnresolvedOperand>> {
    let mut operands = p.parse_operand_list()?;
    p.parse_keyword("into")?;
    operands.push(p.parse_operand()?);
    Ok(operands)
}

/// `: t1, ..., tn` for the n operands, resolved into `state`.
fn parse_operand_types(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    operands: &[UnresolvedOperand],
) -> ParseResult<()> {
    p.parse_punct(Punct::Colon)?;
    let types = parse_n_types(p, operands.len())?;
    for (u, t) in operands.iter().zip(types) {
        state.operands.push(p.resolve_operand(u, t)?);
    }
    Ok(())
}

/// ` %a, %b into %c`.
fn print_into(p: &mut dyn OpAsmPrinter, op: OpId) {
    let operands = p.ir().operands(op).to_vec();
    let Some((dst, inputs)) = operands.split_last() else { return };
    p.write(" ");
    p.print_operands(inputs);
    p.write(" into ");
    p.print_operand(*dst);
}

fn print_operand_types(p: &mut dyn OpAsmPrinter, op: OpId) {
    let types = operand_types(p.ir(), op);
    p.write(" : ");
    print_types(p, &types);
}

fn parse_copy(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let src = p.parse_operand()?;
    p.parse_punct(Punct::Comma)?;
    let dst = p.parse_operand()?;
    let dict = parse_attr_dict(p, state)?;
    parse_operand_types(p, state, &[src, dst])?;
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

fn print_copy(p: &mut dyn OpAsmPrinter, op: OpId) {
    let operands = p.ir().operands(op).to_vec();
    p.write(" ");
    p.print_operands(&operands);
    print_attr_dict(p, op, &[]);
    print_operand_types(p, op);
}

fn parse_matmul(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_gemm(p, state, 3..=3, "expected two operands before 'into'")
}

/// `ins into out accumulate? attr-dict : types` (matmul).
fn parse_gemm(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    operand_count: std::ops::RangeInclusive<usize>,
    count_error: &str,
) -> ParseResult<()> {
    let at = p.current_offset();
    let operands = parse_into(p)?;
    if !operand_count.contains(&operands.len()) {
        return Err(p.emit_error_at(at, count_error));
    }
    let accumulate = p.parse_optional_keyword("accumulate");
    let dict = parse_attr_dict(p, state)?;
    parse_operand_types(p, state, &operands)?;
    let ctx = p.ctx();
    let own = if accumulate { vec![("accumulate", ctx.unit_attr())] } else { Vec::new() };
    finish_attrs(ctx, state, own, dict);
    Ok(())
}

/// Prints matmul: `ins into out accumulate? attr-dict : types`.
fn print_gemm(p: &mut dyn OpAsmPrinter, op: OpId) {
    let accumulate = has_flag(p.ctx(), p.ir(), op, "accumulate");
    print_into(p, op);
    if accumulate {
        p.write(" accumulate");
    }
    print_attr_dict(p, op, &["accumulate"]);
    print_operand_types(p, op);
}

/// `x, w (, bias)? into y (residual r)? accumulate? (epilogue = kind)? attr-dict : types`, the
/// types in the written order (x, w, bias, y, residual); the operands are stored in the declared
/// order (x, w, bias, residual, y) with `operandSegmentSizes`.
fn parse_linear(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let at = p.current_offset();
    let inputs = p.parse_operand_list()?;
    if !(2..=3).contains(&inputs.len()) {
        return Err(p.emit_error_at(at, "expected 'x, w' or 'x, w, bias' before 'into'"));
    }
    p.parse_keyword("into")?;
    let y = p.parse_operand()?;
    let residual = if p.parse_optional_keyword("residual") { Some(p.parse_operand()?) } else { None };
    let accumulate = p.parse_optional_keyword("accumulate");
    let epilogue = if p.parse_optional_keyword("epilogue") {
        p.parse_punct(Punct::Equal)?;
        let at = p.current_offset();
        let Some(kw) = p.parse_optional_bare_id() else {
            return Err(p.emit_error("expected an epilogue kind"));
        };
        if LinearEpilogue::from_keyword(&kw).is_none() {
            let known = LinearEpilogue::ALL.map(LinearEpilogue::keyword).join(", ");
            return Err(p.emit_error_at(at, &format!("unknown epilogue '{kw}' (expected one of {known})")));
        }
        Some(kw)
    } else {
        None
    };
    let dict = parse_attr_dict(p, state)?;
    let written: Vec<UnresolvedOperand> = inputs.iter().cloned().chain([y.clone()]).chain(residual.clone()).collect();
    p.parse_punct(Punct::Colon)?;
    let types = parse_n_types(p, written.len())?;
    let mut resolved = Vec::with_capacity(written.len());
    for (u, t) in written.iter().zip(types) {
        resolved.push(p.resolve_operand(u, t)?);
    }
    // Written: x, w, bias?, y, residual?; stored: x, w, bias?, residual?, y.
    let has_bias = inputs.len() == 3;
    let y_value = resolved[inputs.len()];
    let residual_value = residual.as_ref().map(|_| resolved[inputs.len() + 1]);
    state.operands.extend(resolved[..inputs.len()].iter().copied());
    state.operands.extend(residual_value);
    state.operands.push(y_value);
    let ctx = p.ctx();
    let segments = [1, 1, usize::from(has_bias), usize::from(residual.is_some()), 1];
    let mut own = vec![(OPERAND_SEGMENT_SIZES, i32_array_attr(ctx, &segments))];
    if accumulate {
        own.push(("accumulate", ctx.unit_attr()));
    }
    if let Some(kw) = &epilogue {
        own.push(("epilogue", ctx.string_attr(kw)));
    }
    finish_attrs(ctx, state, own, dict);
    Ok(())
}

fn print_linear(p: &mut dyn OpAsmPrinter, op: OpId) {
    let Some(parts) = linear_parts(p.ctx(), p.ir(), op) else {
        // Malformed segments: the verifier reports them; print what is there.
        print_gemm(p, op);
        return;
    };
    let inputs: Vec<Value> = [Some(parts.x), Some(parts.w), parts.bias].into_iter().flatten().collect();
    p.write(" ");
    p.print_operands(&inputs);
    p.write(" into ");
    p.print_operand(parts.y);
    if let Some(r) = parts.residual {
        p.write(" residual ");
        p.print_operand(r);
    }
    if parts.accumulate {
        p.write(" accumulate");
    }
    let mut elided = vec!["accumulate", OPERAND_SEGMENT_SIZES];
    if let Ok(Some(e)) = &parts.epilogue {
        p.write(" epilogue = ");
        p.write(e.keyword());
        elided.push("epilogue");
    }
    print_attr_dict(p, op, &elided);
    let written: Vec<Value> = inputs.into_iter().chain([parts.y]).chain(parts.residual).collect();
    let types: Vec<fuser_ir::Type> = written.iter().map(|&v| p.ir().value_type(v)).collect();
    p.write(" : ");
    print_types(p, &types);
}

fn parse_elementwise(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let at = p.current_offset();
    let Some(kw) = p.parse_optional_bare_id() else {
        return Err(p.emit_error("expected an elementwise kind"));
    };
    if ElementwiseKind::from_keyword(&kw).is_none() {
        return Err(p.emit_error_at(
            at,
            &format!("unknown elementwise kind '{kw}' (expected one of {})", ElementwiseKind::keyword_list()),
        ));
    }
    let operands = parse_into(p)?;
    let dict = parse_attr_dict(p, state)?;
    parse_operand_types(p, state, &operands)?;
    let ctx = p.ctx();
    finish_attrs(ctx, state, vec![("kind", ctx.string_attr(&kw))], dict);
    Ok(())
}

fn print_elementwise(p: &mut dyn OpAsmPrinter, op: OpId) {
    let kind = ElementwiseKind::of_op(p.ctx(), p.ir(), op);
    p.write(" ");
    p.write(kind.map_or("<<invalid kind>>", ElementwiseKind::keyword));
    print_into(p, op);
    print_attr_dict(p, op, &["kind"]);
    print_operand_types(p, op);
}

fn parse_fill(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let target = p.parse_operand()?;
    let dict = parse_attr_dict(p, state)?;
    parse_operand_types(p, state, &[target])?;
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

fn print_fill(p: &mut dyn OpAsmPrinter, op: OpId) {
    let operands = p.ir().operands(op).to_vec();
    p.write(" ");
    p.print_operands(&operands);
    print_attr_dict(p, op, &[]);
    print_operand_types(p, op);
}

fn parse_sum(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let input = p.parse_operand()?;
    p.parse_keyword("into")?;
    let output = p.parse_operand()?;
    p.parse_keyword("dims")?;
    p.parse_punct(Punct::Equal)?;
    let dims = parse_int_list(p)?;
    let dict = parse_attr_dict(p, state)?;
    parse_operand_types(p, state, &[input, output])?;
    let ctx = p.ctx();
    finish_attrs(ctx, state, vec![("dims", i64_array_attr(ctx, &dims))], dict);
    Ok(())
}

fn print_sum(p: &mut dyn OpAsmPrinter, op: OpId) {
    let dims = prop_i64_array(p.ctx(), p.ir(), op, "dims").unwrap_or_default();
    print_into(p, op);
    p.write(" dims = ");
    p.write(&int_list_text(&dims));
    print_attr_dict(p, op, &["dims"]);
    print_operand_types(p, op);
}

// ----- builders -------------------------------------------------------------------------------

fn dps_state(ctx: &Context, name: &str, operands: Vec<Value>, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = operands;
    state
}

/// The state of `host.copy source, target`.
pub fn copy_state(ctx: &Context, source: Value, target: Value, loc: Attr) -> OperationState {
    dps_state(ctx, COPY.name, vec![source, target], loc)
}

/// The state of `host.matmul a, b into c` (`c += a·b` with `accumulate`).
pub fn matmul_state(ctx: &Context, a: Value, b: Value, c: Value, accumulate: bool, loc: Attr) -> OperationState {
    let mut state = dps_state(ctx, MATMUL.name, vec![a, b, c], loc);
    if accumulate {
        state.props = Some(dict_of(ctx, &[("accumulate", ctx.unit_attr())]));
    }
    state
}

/// The state of `host.linear x, w (, bias)? into y`.
pub fn linear_state(ctx: &Context, x: Value, w: Value, bias: Option<Value>, y: Value, loc: Attr) -> OperationState {
    linear_epilogue_state(ctx, x, w, bias, None, y, None, loc)
}

/// The state of `host.linear x, w (, bias)? into y (residual r)? (epilogue = e)?`.
#[allow(clippy::too_many_arguments)]
pub fn linear_epilogue_state(
    ctx: &Context,
    x: Value,
    w: Value,
    bias: Option<Value>,
    residual: Option<Value>,
    y: Value,
    epilogue: Option<LinearEpilogue>,
    loc: Attr,
) -> OperationState {
    let operands = [Some(x), Some(w), bias, residual, Some(y)].into_iter().flatten().collect();
    let mut state = dps_state(ctx, LINEAR.name, operands, loc);
    let segments = [1, 1, usize::from(bias.is_some()), usize::from(residual.is_some()), 1];
    let mut props = vec![(OPERAND_SEGMENT_SIZES, i32_array_attr(ctx, &segments))];
    if let Some(e) = epilogue {
        props.push(("epilogue", ctx.string_attr(e.keyword())));
    }
    state.props = Some(dict_of(ctx, &props));
    state
}

/// The state of `host.elementwise kind inputs into output`.
pub fn elementwise_state(
    ctx: &Context,
    kind: ElementwiseKind,
    inputs: &[Value],
    output: Value,
    loc: Attr,
) -> OperationState {
    let operands = inputs.iter().copied().chain([output]).collect();
    let mut state = dps_state(ctx, ELEMENTWISE.name, operands, loc);
    state.props = Some(dict_of(ctx, &[("kind", ctx.string_attr(kind.keyword()))]));
    state
}

/// The state of `host.fill target {value = ...}`.
pub fn fill_state(ctx: &Context, target: Value, value: Attr, loc: Attr) -> OperationState {
    let mut state = dps_state(ctx, FILL.name, vec![target], loc);
    state.props = Some(dict_of(ctx, &[("value", value)]));
    state
}

/// The state of `host.sum input into output dims = [...]`.
pub fn sum_state(ctx: &Context, input: Value, output: Value, dims: &[i64], loc: Attr) -> OperationState {
    let mut state = dps_state(ctx, SUM.name, vec![input, output], loc);
    state.props = Some(dict_of(ctx, &[("dims", i64_array_attr(ctx, dims))]));
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::types::DYNAMIC;

    #[test]
    fn matmul_shapes() {
        assert_eq!(matmul_result_shape(&[4, 8], &[8, 16]), Ok(vec![4, 16]));
        assert_eq!(matmul_result_shape(&[2, 4, 8], &[8, 16]), Ok(vec![2, 4, 16]));
        assert_eq!(matmul_result_shape(&[4, 8], &[3, 8, 16]), Ok(vec![3, 4, 16]));
        assert_eq!(matmul_result_shape(&[DYNAMIC, 4, 8], &[3, 8, 16]), Ok(vec![DYNAMIC, 4, 16]));
        assert!(matmul_result_shape(&[2, 4, 8], &[3, 8, 16]).unwrap_err().contains("batch"));
    }

    #[test]
    fn sum_shapes() {
        assert_eq!(sum_result_shape(&[4, 8, 2], &[1]), Ok(vec![4, 2]));
        assert_eq!(sum_result_shape(&[4, 8], &[0, 1]), Ok(vec![]));
        assert!(sum_result_shape(&[4, 8], &[1, 0]).unwrap_err().contains("increasing"));
        assert!(sum_result_shape(&[4, 8], &[2]).unwrap_err().contains("out of range"));
    }

    #[test]
    fn kinds_round_trip() {
        for k in ElementwiseKind::ALL {
            assert_eq!(ElementwiseKind::from_keyword(k.keyword()), Some(k));
        }
        assert_eq!(ElementwiseKind::Neg.arity(), 1);
        assert_eq!(ElementwiseKind::Div.arity(), 2);
    }
}
