//! `fusion.matmul` and `fusion.linear` (`y = x·wᵀ + bias`, as torch's linear), with their
//! result-type inference.
//!
//! Shape rules: matmul `a [..., M, K]` with `b [K, N]` or `b [..., K, N]` (same rank, equal
//! batch extents) gives `[..., M, N]`; linear `x [..., K]`, `w [N, K]`, optional `bias [N]`
//! gives `[..., N]`. All element types are equal.

use super::syntax::{Extra, parse_tensor_op, print_tensor_op};
use super::verify::{
    TENSOR, expect_tensor, extent_text, extents_compatible, merge_extent, operand_types, plain_tensor, shape_text,
    verify_with,
};
use crate::support::type_str;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::Type;

fuser_ir::declare_op! {
    pub static MATMUL: "fusion.matmul" {
        summary: "Matrix product, batched over leading axes",
        description: "`a [..., M, K]` times `b [K, N]` (or `b [..., K, N]` with the same batch \
extents) gives `[..., M, N]`. Element types are equal. Integers wrap; bf16/f16/f32 accumulate in \
`f32` and round the result once to the element type.\n\n\
```mlir\n%c = fusion.matmul %a, %b : (tensor<5x7xf32>, tensor<7x6xf32>) -> tensor<5x6xf32>\n```",
        traits: [PURE],
        operands: { a: TENSOR, b: TENSOR },
        results: { result: TENSOR },
        hooks: {
            verify: verify_matmul,
            parse: parse_plain,
            print: print_plain,
            infer_result_types: |ctx, t, _| match t {
                [a, b] => Ok(vec![infer_matmul(ctx, *a, *b)?]),
                _ => Err(format!("expects two operands, got {}", t.len())),
            },
        },
    }
}

fuser_ir::declare_op! {
    pub static LINEAR: "fusion.linear" {
        summary: "Linear layer: input times transposed weight, plus an optional bias",
        description: "`y = x·wᵀ + bias` with `x [..., K]`, `w [N, K]` and optional `bias [N]`, \
giving `[..., N]` (torch's `linear`). With `x` split over `DIDx` on `K` and `w` too, the local \
products are partial sums: a row-parallel linear whose replicated result needs an allreduce, \
which `fusion-decompose-resharding` makes explicit. Integers wrap; bf16/f16/f32 accumulate in \
`f32` and round the result to the element type.\n\n\
```mlir\n%y = fusion.linear %x, %w, %b : (tensor<8x16xbf16>, tensor<32x16xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16>\n```",
        traits: [PURE],
        operands: { input: TENSOR, weight: TENSOR, bias: TENSOR.optional() },
        results: { result: TENSOR },
        hooks: {
            verify: verify_linear,
            parse: parse_plain,
            print: print_plain,
            infer_result_types: |ctx, t, _| match t {
                [x, w] => Ok(vec![infer_linear(ctx, *x, *w, None)?]),
                [x, w, b] => Ok(vec![infer_linear(ctx, *x, *w, Some(*b))?]),
                _ => Err(format!("expects two or three operands, got {}", t.len())),
            },
        },
    }
}

fn parse_plain(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::None)
}

fn print_plain(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::None)
}

fn same_elements(ctx: &Context, what: &str, a: Type, b: Type) -> Result<(), String> {
    if a == b {
        return Ok(());
    }
    Err(format!("{what} element types differ: '{}' vs '{}'", type_str(ctx, a), type_str(ctx, b)))
}

/// The unsharded result type of `matmul(a, b)`, or why the operands do not fit.
pub fn infer_matmul(ctx: &Context, a: Type, b: Type) -> Result<Type, String> {
    let (sa, ea) = expect_tensor(ctx, "lhs", a)?;
    let (sb, eb) = expect_tensor(ctx, "rhs", b)?;
    same_elements(ctx, "operand", ea, eb)?;
    if sa.len() < 2 {
        return Err(format!("lhs must have rank 2 or more, got shape {}", shape_text(&sa)));
    }
    if sb.len() != 2 && sb.len() != sa.len() {
        let msg = format!("rhs must have rank 2 or the rank of lhs ({}), got shape {}", sa.len(), shape_text(&sb));
        return Err(msg);
    }
    let (m, k) = (sa[sa.len() - 2], sa[sa.len() - 1]);
    let (kb, n) = (sb[sb.len() - 2], sb[sb.len() - 1]);
    if !extents_compatible(k, kb) {
        return Err(format!(
            "contraction extents differ: lhs {} has K = {k}, rhs {} has K = {kb}",
            shape_text(&sa),
            shape_text(&sb)
        ));
    }
    let mut batch = sa[..sa.len() - 2].to_vec();
    if sb.len() == sa.len() {
        for (i, (x, &y)) in batch.iter_mut().zip(&sb[..sb.len() - 2]).enumerate() {
            if !extents_compatible(*x, y) {
                return Err(format!("batch axis {i} differs: {} vs {}", extent_text(*x), extent_text(y)));
            }
            *x = merge_extent(*x, y);
        }
    }
    batch.extend([m, n]);
    Ok(plain_tensor(ctx, batch, ea))
}

/// The unsharded result type of `linear(x, w, bias)`, or why the operands do not fit.
pub fn infer_linear(ctx: &Context, x: Type, w: Type, bias: Option<Type>) -> Result<Type, String> {
    let (sx, ex) = expect_tensor(ctx, "input", x)?;
    let (sw, ew) = expect_tensor(ctx, "weight", w)?;
    same_elements(ctx, "input and weight", ex, ew)?;
    let Some(&k) = sx.last() else { return Err("input must have rank 1 or more".into()) };
    let [n, kw] = sw[..] else {
        return Err(format!("weight must have rank 2 ([N, K]), got shape {}", shape_text(&sw)));
    };
    if !extents_compatible(k, kw) {
        return Err(format!("input {} and weight {} differ in K", shape_text(&sx), shape_text(&sw)));
    }
    let mut n = n;
    if let Some(bias) = bias {
        let (sb, eb) = expect_tensor(ctx, "bias", bias)?;
        same_elements(ctx, "input and bias", ex, eb)?;
        match sb[..] {
            [nb] if extents_compatible(n, nb) => n = merge_extent(n, nb),
            _ => {
                return Err(format!("bias must have shape {}, got {}", shape_text(&[n]), shape_text(&sb)));
            }
        }
    }
    let mut shape = sx[..sx.len() - 1].to_vec();
    shape.push(n);
    Ok(plain_tensor(ctx, shape, ex))
}

fn verify_matmul(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [a, b] => infer_matmul(v.ctx, a, b),
        _ => Err("expects two operands".into()),
    })
}

fn verify_linear(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [x, w] => infer_linear(v.ctx, x, w, None),
        [x, w, b] => infer_linear(v.ctx, x, w, Some(b)),
        _ => Err("expects an input, a weight and an optional bias".into()),
    })
}
