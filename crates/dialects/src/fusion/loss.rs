//! `fusion.cross_entropy`: the per-row cross-entropy loss of logits `[N, V]` against integer
//! labels `[N]`, as `torch.nn.functional.cross_entropy(reduction = "none")`.

use super::reduce::{OPT_I64, op_i64_prop};
use super::syntax::{Extra, parse_tensor_op, print_tensor_op};
use super::verify::{TENSOR, expect_tensor, extents_compatible, operand_types, plain_tensor, shape_text, verify_with};
use crate::support::type_str;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{Type, TypeKind};

/// torch's default `ignore_index`.
pub const DEFAULT_IGNORE_INDEX: i64 = -100;

fuser_ir::declare_op! {
    pub static CROSS_ENTROPY: "fusion.cross_entropy" {
        summary: "Per-row cross-entropy of logits against class labels",
        description: "`loss[n] = logsumexp(logits[n, :]) - logits[n, labels[n]]` for float \
logits `[N, V]` and `i64` labels `[N]`, giving `[N]` in the logits' element type \
(`torch.nn.functional.cross_entropy(logits, labels, reduction=\"none\")`). The log-sum-exp \
subtracts the row maximum first, so large logits do not overflow; bf16/f16 compute in `f32` and \
round once (the reference in `f64`). A row whose label equals the property `ignore_index` (an \
`i64`, -100 when absent, as torch) has loss 0. A label outside `[0, V)` that is not \
`ignore_index` gives a NaN loss (torch raises an error, which a kernel cannot; NaN makes the \
mistake visible in any reduction of the loss). NaN in a row's logits gives NaN.\n\n\
Sharding: rows may be split freely; a device split of the vocabulary axis (vocab-parallel \
logits, as Megatron's) is gathered by `fusion-decompose-resharding` before the loss (the axis \
is read across).\n\n\
```mlir\n%l = fusion.cross_entropy %logits, %labels : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>\n\
%m = fusion.cross_entropy %logits, %labels {ignore_index = 0 : i64} : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>\n```",
        traits: [PURE],
        operands: { logits: TENSOR, labels: TENSOR },
        results: { result: TENSOR },
        properties: { ignore_index: OPT_I64 },
        hooks: { verify: verify_cross_entropy, parse: parse_plain, print: print_plain },
    }
}

fn parse_plain(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::None)
}

fn print_plain(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::None)
}

/// The `ignore_index` of a `fusion.cross_entropy` (-100 when absent).
pub fn op_ignore_index(ctx: &Context, ir: &Ir, op: OpId) -> i64 {
    op_i64_prop(ctx, ir, op, "ignore_index", DEFAULT_IGNORE_INDEX)
}

/// The unsharded result type of `cross_entropy(logits, labels)`: `[N]` of the logits' element type.
pub fn infer_cross_entropy(ctx: &Context, logits: Type, labels: Type) -> Result<Type, String> {
    let (ls, le) = expect_tensor(ctx, "logits", logits)?;
    let (ts, te) = expect_tensor(ctx, "labels", labels)?;
    if ls.len() != 2 {
        return Err(format!("logits must have rank 2 ([N, V]), got shape {}", shape_text(&ls)));
    }
    if !matches!(ctx.type_kind(le), TypeKind::Float(_)) {
        return Err(format!("logits must be floats, got '{}'", type_str(ctx, le)));
    }
    if !matches!(ctx.type_kind(te), TypeKind::Integer { width: 64, .. }) {
        return Err(format!("labels must be i64, got '{}'", type_str(ctx, te)));
    }
    if ts.len() != 1 || !extents_compatible(ts[0], ls[0]) {
        return Err(format!(
            "labels must have shape {} (one per row of the logits), got {}",
            shape_text(&ls[..1]),
            shape_text(&ts)
        ));
    }
    Ok(plain_tensor(ctx, vec![ls[0]], le))
}

fn verify_cross_entropy(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [logits, labels] => infer_cross_entropy(v.ctx, logits, labels),
        _ => Err("expects two operands".into()),
    })
}
