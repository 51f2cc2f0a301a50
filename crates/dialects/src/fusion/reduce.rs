//! `fusion.sum`: a sum over tensor axes, with result-type inference. `dims` are distinct and in
//! range (stored sorted by the custom parser); with `keep_dims` the reduced axes stay with
//! extent 1, otherwise they are dropped.
//!
//! A sum whose operand is `partial` over a device axis and whose result is not is where the
//! lowering places an allreduce (or a reduce-scatter when the result is split instead).

use super::syntax::{Extra, op_dims, op_keep_dims, parse_tensor_op, print_tensor_op};
use super::verify::{TENSOR, expect_tensor, operand_types, plain_tensor, verify_with};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::Type;

/// `dims`: an `array<i64: ...>`.
pub(crate) const DIMS: AttrConstraint =
    AttrConstraint::new("i64 dense array attribute", |ctx, a| super::syntax::i64_array(ctx, a).is_some());
/// `keep_dims`: a unit attribute.
const UNIT: AttrConstraint =
    AttrConstraint::new("unit attribute", |ctx, a| *ctx.attr_kind(a) == fuser_ir::AttrKind::Unit).optional();

fuser_ir::declare_op! {
    pub static SUM: "fusion.sum" {
        summary: "Sum over axes",
        description: "Sums the operand over the axes in `dims` (distinct, in range). With \
`keep_dims` the reduced axes stay with extent 1; otherwise they are dropped. Integers wrap; \
bf16/f16/f32 accumulate in `f32` (at least) and round the result once to the element type.\n\n\
```mlir\n%s = fusion.sum %x dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>\n\
%k = fusion.sum %x dims = [0, 1] keep_dims : (tensor<4x8xf32>) -> tensor<1x1xf32>\n```\n\n\
Generic form: `dims` is an `array<i64: ...>` property and `keep_dims` a unit property.",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: DIMS, keep_dims: UNIT },
        hooks: { verify: verify_sum, parse: parse_sum, print: print_sum, infer_result_types: infer_sum_types },
    }
}

fn parse_sum(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::ReduceDims)
}

fn print_sum(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::ReduceDims)
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

fn verify_sum(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let dims = op_dims(v.ctx, v.ir, op).ok_or("requires a 'dims' array")?;
        match operand_types(v, op)[..] {
            [x] => infer_sum(v.ctx, x, &dims, op_keep_dims(v.ctx, v.ir, op)),
            _ => Err("expects one operand".into()),
        }
    })
}
