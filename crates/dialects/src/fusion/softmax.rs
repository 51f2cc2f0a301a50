//! `fusion.softmax` and `fusion.log_softmax` over `dims`: floats, same shape and element type as
//! the operand. The syntax is the tensor ops' with `dims = [...]` (sorted); the softmax axes are
//! read across (the lowering never splits them over devices).

use super::reduce::check_axes;
use super::syntax::{Extra, op_dims, parse_tensor_op, print_tensor_op};
use super::verify::{TENSOR, expect_tensor, operand_types, plain_tensor, verify_with};
use crate::support::type_str;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::context::Context;
use fuser_ir::declare::HookSet;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{Type, TypeKind};

/// The hooks both softmax ops share.
const SOFTMAX_HOOKS: HookSet = HookSet {
    verify: Some(verify_softmax),
    parse: Some(parse_softmax),
    print: Some(print_softmax),
    infer_result_types: Some(infer_softmax_types),
    ..HookSet::NONE
};

fuser_ir::declare_op! {
    pub static SOFTMAX: "fusion.softmax" {
        summary: "Softmax over axes",
        description: "`exp(x - m) / sum(exp(x - m))` over the axes in `dims` (distinct, in range, \
at least one; `m` the maximum of the slice, so large logits do not overflow), as `torch.softmax` \
(which takes one axis; several axes act as one flattened axis). Floats only; the result has the \
operand's shape and element type. bf16/f16 compute in `f32` and round once; f32/f64 in their own \
type (the reference in `f64`). NaN in a slice gives NaN for the whole slice; a slice of `-inf` \
only gives NaN (`0 / 0`), as torch. The softmax axes may not be split over devices \
(`fusion-decompose-resharding` gathers them); other axes may.\n\n\
```mlir\n%p = fusion.softmax %x dims = [1] : (tensor<4x8xf32>) -> tensor<4x8xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: super::reduce::DIMS },
        hook_set: SOFTMAX_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static LOG_SOFTMAX: "fusion.log_softmax" {
        summary: "Log-softmax over axes",
        description: "`x - m - log(sum(exp(x - m)))` over the axes in `dims` (`m` the slice \
maximum), as `torch.log_softmax`: stable for large logits, `-inf` where the softmax underflows \
to 0. Same rules as `fusion.softmax` (floats, bf16/f16 in `f32` rounded once, NaN propagates to \
the slice, axes never split).\n\n\
```mlir\n%l = fusion.log_softmax %x dims = [1] : (tensor<4x8xbf16>) -> tensor<4x8xbf16>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: super::reduce::DIMS },
        hook_set: SOFTMAX_HOOKS,
    }
}

fn parse_softmax(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::Dims)
}

fn print_softmax(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::Dims)
}

/// The unsharded result type of `softmax(x, dims)` (and `log_softmax`): `x`'s shape and element
/// type, which must be a float.
pub fn infer_softmax(ctx: &Context, x: Type, dims: &[i64]) -> Result<Type, String> {
    let (shape, elem) = expect_tensor(ctx, "operand", x)?;
    check_axes(dims, shape.len())?;
    if dims.is_empty() {
        return Err("needs at least one dimension".into());
    }
    if !matches!(ctx.type_kind(elem), TypeKind::Float(_)) {
        return Err(format!("needs a float operand, got '{}'", type_str(ctx, elem)));
    }
    Ok(plain_tensor(ctx, shape, elem))
}

fn infer_softmax_types(ctx: &Context, types: &[Type], props: Option<fuser_ir::Attr>) -> Result<Vec<Type>, String> {
    let dims = props.and_then(|p| ctx.dict_get(p, "dims")).and_then(|a| super::syntax::i64_array(ctx, a));
    match (types, dims) {
        ([x], Some(dims)) => Ok(vec![infer_softmax(ctx, *x, &dims)?]),
        (_, None) => Err("requires a 'dims' array".into()),
        _ => Err(format!("expects one operand, got {}", types.len())),
    }
}

fn verify_softmax(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let dims = op_dims(v.ctx, v.ir, op).ok_or("requires a 'dims' array")?;
        match operand_types(v, op)[..] {
            [x] => infer_softmax(v.ctx, x, &dims),
            _ => Err("expects one operand".into()),
        }
    })
}
