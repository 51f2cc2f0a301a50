//! Elementwise fusion ops: `add`, `sub`, `mul`, `div` (two operands of one shape and element
//! type), `neg`, and `cast` (same shape, any integer/float element types), with result-type
//! inference. Encodings may differ between operands and result (a resharding is the lowering's
//! business); shapes and element types may not.

use super::syntax::{Extra, parse_tensor_op, print_tensor_op};
use super::verify::{
    TENSOR, expect_tensor, merge_extent, operand_types, plain_tensor, shape_text, shapes_compatible, verify_with,
};
use crate::support::type_str;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::Type;

macro_rules! binary_op {
    ($static_name:ident, $name:literal, $summary:literal, $sym:literal, $semantics:literal, $traits:ident $(| $more:ident)*) => {
        fuser_ir::declare_op! {
            pub static $static_name: $name {
                summary: $summary,
                description: concat!(
                    "Elementwise `lhs ", $sym, " rhs` of two tensors of one shape and element type; the \
result has that shape and element type (its sharding may differ). ", $semantics, "\n\n```mlir\n%r = ",
                    $name,
                    " %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>\n```"
                ),
                traits: [$traits $(| $more)*],
                operands: { lhs: TENSOR, rhs: TENSOR },
                results: { result: TENSOR },
                hooks: { verify: verify_binary, parse: parse_plain, print: print_plain, infer_result_types: infer_binary_types },
            }
        }
    };
}

binary_op!(
    ADD,
    "fusion.add",
    "Elementwise sum",
    "+",
    "Integers wrap (`i8` `100 + 100 = -56`, as `arith.addi` and torch); floats round the result to \
the element type (overflow gives infinity).",
    PURE | COMMUTATIVE
);
binary_op!(
    SUB,
    "fusion.sub",
    "Elementwise difference",
    "-",
    "Integers wrap (as `arith.subi` and torch); floats round the result to the element type.",
    PURE
);
binary_op!(
    MUL,
    "fusion.mul",
    "Elementwise product",
    "*",
    "Integers wrap (as `arith.muli` and torch); floats round the result to the element type, so an \
`f16` `300 * 300` is infinity.",
    PURE | COMMUTATIVE
);
binary_op!(
    DIV,
    "fusion.div",
    "Elementwise quotient",
    "/",
    "Integer division truncates toward zero (`arith.divsi`, `torch.div(rounding_mode=\"trunc\")`): \
`7 / 2 = 3`, `-7 / 2 = -3` (Python's `//` floors: `-7 // 2 = -4`); `x / 0 = -1` and `MIN / -1 = \
MIN` (defined here; MLIR leaves them undefined). Floats follow IEEE 754 (`x / 0` is an infinity \
or NaN), the result rounded to the element type.",
    PURE
);

fuser_ir::declare_op! {
    pub static NEG: "fusion.neg" {
        summary: "Elementwise negation",
        description: "`-x` elementwise; same shape and element type. Integers wrap (`-MIN = MIN`).\n\n\
```mlir\n%r = fusion.neg %a : (tensor<4x8xf32>) -> tensor<4x8xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        hooks: { verify: verify_neg, parse: parse_plain, print: print_plain, infer_result_types: infer_unary_types },
    }
}

fuser_ir::declare_op! {
    pub static CAST: "fusion.cast" {
        summary: "Elementwise conversion to another element type",
        description: "Converts every element to the result's element type (integer or float); the \
shape is unchanged. Float -> integer truncates toward zero and saturates at the type's range, \
NaN gives 0 (`2.5 -> 2`, `-2.5 -> -2`, `1e10 -> 2147483647` as `i32`: Rust's `as`, CUDA's \
`cvt.rzi.sat`). Integer -> integer keeps the low bits (`arith.trunci`/`arith.extsi`: `i32` \
`200 -> -56` as `i8`). Integer -> float and float -> float round to nearest, ties to even, \
overflowing to infinity (`f32` `70000 -> inf` as `f16`). To `i1`: `x != 0` (torch's `bool()`; \
NaN gives 1, `-0` gives 0); from `i1`: 0 or 1.\n\n\
```mlir\n%r = fusion.cast %a : (tensor<4x8xbf16>) -> tensor<4x8xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        hooks: { verify: verify_cast, parse: parse_plain, print: print_plain },
    }
}

fn parse_plain(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::None)
}

fn print_plain(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::None)
}

fn infer_binary_types(ctx: &Context, types: &[Type], _: Option<fuser_ir::Attr>) -> Result<Vec<Type>, String> {
    match types {
        [a, b] => Ok(vec![infer_elementwise(ctx, *a, *b)?]),
        _ => Err(format!("expects two operands, got {}", types.len())),
    }
}

fn infer_unary_types(ctx: &Context, types: &[Type], _: Option<fuser_ir::Attr>) -> Result<Vec<Type>, String> {
    match types {
        [a] => Ok(vec![infer_unary(ctx, *a)?]),
        _ => Err(format!("expects one operand, got {}", types.len())),
    }
}

/// The unsharded result type of an elementwise binary op on `a` and `b`.
pub fn infer_elementwise(ctx: &Context, a: Type, b: Type) -> Result<Type, String> {
    let (sa, ea) = expect_tensor(ctx, "lhs", a)?;
    let (sb, eb) = expect_tensor(ctx, "rhs", b)?;
    if !shapes_compatible(&sa, &sb) {
        return Err(format!("operand shapes differ: {} vs {}", shape_text(&sa), shape_text(&sb)));
    }
    if ea != eb {
        return Err(format!("operand element types differ: '{}' vs '{}'", type_str(ctx, ea), type_str(ctx, eb)));
    }
    let shape = sa.iter().zip(&sb).map(|(&x, &y)| merge_extent(x, y)).collect();
    Ok(plain_tensor(ctx, shape, ea))
}

/// The unsharded result type of a unary elementwise op (`neg`) on `a`.
pub fn infer_unary(ctx: &Context, a: Type) -> Result<Type, String> {
    let (shape, elem) = expect_tensor(ctx, "operand", a)?;
    Ok(plain_tensor(ctx, shape, elem))
}

/// The unsharded result type of `cast(a)` to `elem`.
pub fn infer_cast(ctx: &Context, a: Type, elem: Type) -> Result<Type, String> {
    let (shape, _) = expect_tensor(ctx, "operand", a)?;
    Ok(plain_tensor(ctx, shape, elem))
}

fn verify_binary(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [a, b] => infer_elementwise(v.ctx, a, b),
        _ => Err("expects two operands".into()),
    })
}

fn verify_neg(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [a] => infer_unary(v.ctx, a),
        _ => Err("expects one operand".into()),
    })
}

fn verify_cast(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let result = super::verify::result_type(v, op).and_then(|r| super::verify::tensor_parts(v.ctx, r));
        match (&operand_types(v, op)[..], result) {
            ([a], Some((_, elem))) => infer_cast(v.ctx, *a, elem),
            _ => Err("expects one operand and a tensor result".into()),
        }
    })
}
