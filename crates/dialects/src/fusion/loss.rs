//! `fusion.cross_entropy`: the per-row cross-entropy loss of logits `[N, V]` against integer
//! labels `[N]`, as `torch.nn.functional.cross_entropy(reduction = "none")`.

use super::reduce::{OPT_I64, op_i64_prop};
use super::syntax::{Extra, parse_tensor_op, print_tensor_op};
use super::verify::{
    TENSOR, expect_tensor, extents_compatible, operand_types, plain_tensor, result_type, shape_text, tensor_parts,
    verify_with,
};
use crate::support::type_str;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::AttrKind;
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
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
(`torch.nn.functional.cross_entropy(logits, labels, reduction=\"none\")`) or in another float \
type the result names (an `f32` loss of `bf16` logits, as mixed-precision training keeps it). The log-sum-exp \
subtracts the row maximum first, so large logits do not overflow; bf16/f16 compute in `f32` and \
round once to the result type (the reference in `f64`). A row whose label equals the property `ignore_index` (an \
`i64`, -100 when absent, as torch) has loss 0. A label outside `[0, V)` that is not \
`ignore_index` gives a NaN loss (torch raises an error, which a kernel cannot; NaN makes the \
mistake visible in any reduction of the loss). NaN in a row's logits gives NaN.\n\n\
Sharding: rows may be split freely. A device split of the vocabulary axis (vocab-parallel \
logits, as Megatron's) is never gathered: `fusion-decompose-resharding` rewrites the op into \
`fusion.max` over the vocabulary (a partial max, allreduced), `fusion.cross_entropy_parts` (per \
rank the sum of `exp(x - max)` over its columns and the label's logit when its columns hold \
it: a partial sum, allreduced) and `fusion.cross_entropy_finish`. Without that rewrite the \
vocabulary is read whole.\n\n\
```mlir\n%l = fusion.cross_entropy %logits, %labels : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>\n\
%m = fusion.cross_entropy %logits, %labels {ignore_index = 0 : i64} : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>\n```",
        traits: [PURE],
        operands: { logits: TENSOR, labels: TENSOR },
        results: { result: TENSOR },
        properties: { ignore_index: OPT_I64 },
        hooks: { verify: verify_cross_entropy, parse: parse_plain, print: print_plain, infer_result_types: infer_ce_types },
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

fn infer_ce_types(ctx: &Context, types: &[Type], _: Option<fuser_ir::Attr>) -> Result<Vec<Type>, String> {
    match types {
        [logits, labels] => Ok(vec![infer_cross_entropy(ctx, *logits, *labels)?]),
        _ => Err(format!("expects two operands, got {}", types.len())),
    }
}

fn infer_parts_types(ctx: &Context, types: &[Type], _: Option<fuser_ir::Attr>) -> Result<Vec<Type>, String> {
    match types {
        [logits, labels, max] => Ok(vec![infer_cross_entropy_parts(ctx, *logits, *labels, *max)?]),
        _ => Err(format!("expects three operands, got {}", types.len())),
    }
}

fn infer_finish_types(ctx: &Context, types: &[Type], _: Option<fuser_ir::Attr>) -> Result<Vec<Type>, String> {
    match types {
        [parts, labels, max] => Ok(vec![infer_cross_entropy_finish(ctx, *parts, *labels, *max)?]),
        _ => Err(format!("expects three operands, got {}", types.len())),
    }
}

/// `inferred` with the element type of the op's result when that is a float: the loss may be
/// written in any float type (computed wide, rounded once to it).
fn with_float_result(v: &VerifyCtx<'_>, op: OpId, inferred: Type) -> Type {
    let result_elem = result_type(v, op).and_then(|t| tensor_parts(v.ctx, t)).map(|(_, e)| e);
    match (result_elem, tensor_parts(v.ctx, inferred)) {
        (Some(e), Some((shape, _))) if matches!(v.ctx.type_kind(e), TypeKind::Float(_)) => {
            plain_tensor(v.ctx, shape, e)
        }
        _ => inferred,
    }
}

fn verify_cross_entropy(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [logits, labels] => Ok(with_float_result(v, op, infer_cross_entropy(v.ctx, logits, labels)?)),
        _ => Err("expects two operands".into()),
    })
}

/// `vocab`: the global vocabulary size, an `i64`.
const VOCAB: AttrConstraint = AttrConstraint::new(
    "64-bit signless integer attribute",
    |ctx, a| matches!(ctx.attr_kind(a), AttrKind::Integer { ty, .. } if matches!(ctx.type_kind(*ty), TypeKind::Integer { width: 64, .. })),
);

fuser_ir::declare_op! {
    pub static CROSS_ENTROPY_PARTS: "fusion.cross_entropy_parts" {
        summary: "The summable parts of a vocab-parallel cross-entropy",
        description: "Phase 2 of the vocab-parallel `fusion.cross_entropy` that \
`fusion-decompose-resharding` writes when the vocabulary axis of the logits is split over \
devices (Megatron's scheme; phase 1 is `fusion.max` over the vocabulary and its allreduce max). \
For logits `[N, V]`, `i64` labels `[N]` and the global row maxima `max [N]`, the result `[N, 2]` \
holds per row `sum_j exp(logits[n, j] - max[n])` and `logits[n, labels[n]]` (0 when the label is \
not a column of the logits). On a vocabulary split each rank computes both over its columns \
(the label picked only by the rank whose columns hold it, from its global column origin): a \
partial sum, which an allreduce completes. Floats; the result has the logits' element type or a \
wider float (the rewrite uses `f32` for bf16/f16 logits, so the sums keep `f32` precision).\n\n\
```mlir\n%p = fusion.cross_entropy_parts %logits, %labels, %max : (tensor<4x8xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4x2xf32>\n```",
        traits: [PURE],
        operands: { logits: TENSOR, labels: TENSOR, max: TENSOR },
        results: { result: TENSOR },
        hooks: { verify: verify_parts, parse: parse_plain, print: print_plain, infer_result_types: infer_parts_types },
    }
}

fuser_ir::declare_op! {
    pub static CROSS_ENTROPY_FINISH: "fusion.cross_entropy_finish" {
        summary: "The loss of a vocab-parallel cross-entropy from its reduced parts",
        description: "Phase 3 of the vocab-parallel `fusion.cross_entropy`: from the reduced \
parts `[N, 2]` (sum of `exp(x - max)`, the label's logit), the labels `[N]` and the row maxima \
`[N]` (any float types), `loss[n] = ln(parts[n, 0]) - (parts[n, 1] - max[n])`; 0 for a label equal to \
`ignore_index` (-100 when absent), NaN for another label outside `[0, vocab)` (`vocab`, the \
global vocabulary size, is a required `i64` property). The rules are `fusion.cross_entropy`'s.\n\n\
```mlir\n%l = fusion.cross_entropy_finish %parts, %labels, %max {vocab = 8 : i64} : (tensor<4x2xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4xf32>\n```",
        traits: [PURE],
        operands: { parts: TENSOR, labels: TENSOR, max: TENSOR },
        results: { result: TENSOR },
        properties: { vocab: VOCAB, ignore_index: OPT_I64 },
        hooks: { verify: verify_finish, parse: parse_plain, print: print_plain, infer_result_types: infer_finish_types },
    }
}

/// Checks `labels [N]` (i64) and `max [N]` (of `elem`) against `n`.
/// Checks `labels [N]` (i64) and `max [N]` (of `elem` when given, else of any float type).
fn check_row_operands(ctx: &Context, n: i64, elem: Option<Type>, labels: Type, max: Type) -> Result<(), String> {
    let (ts, te) = expect_tensor(ctx, "labels", labels)?;
    let (ms, me) = expect_tensor(ctx, "max", max)?;
    if !matches!(ctx.type_kind(te), TypeKind::Integer { width: 64, .. }) {
        return Err(format!("labels must be i64, got '{}'", type_str(ctx, te)));
    }
    for (what, s) in [("labels", &ts), ("max", &ms)] {
        if s.len() != 1 || !extents_compatible(s[0], n) {
            return Err(format!("{what} must have shape {} (one per row), got {}", shape_text(&[n]), shape_text(s)));
        }
    }
    match elem {
        Some(e) if me != e => {
            Err(format!("max must have the element type '{}', got '{}'", type_str(ctx, e), type_str(ctx, me)))?
        }
        None if !matches!(ctx.type_kind(me), TypeKind::Float(_)) => {
            Err(format!("max must be floats, got '{}'", type_str(ctx, me)))?
        }
        _ => {}
    }
    Ok(())
}

/// The result type of `cross_entropy_parts(logits, labels, max)`: `[N, 2]`.
pub fn infer_cross_entropy_parts(ctx: &Context, logits: Type, labels: Type, max: Type) -> Result<Type, String> {
    infer_cross_entropy(ctx, logits, labels)?;
    let (ls, le) = expect_tensor(ctx, "logits", logits)?;
    check_row_operands(ctx, ls[0], Some(le), labels, max)?;
    Ok(plain_tensor(ctx, vec![ls[0], 2], le))
}

/// The result type of `cross_entropy_finish(parts, labels, max)`: `[N]`.
pub fn infer_cross_entropy_finish(ctx: &Context, parts: Type, labels: Type, max: Type) -> Result<Type, String> {
    let (ps, pe) = expect_tensor(ctx, "parts", parts)?;
    if ps.len() != 2 || !extents_compatible(ps[1], 2) || !matches!(ctx.type_kind(pe), TypeKind::Float(_)) {
        return Err(format!("parts must be floats of shape [N, 2], got {}", shape_text(&ps)));
    }
    check_row_operands(ctx, ps[0], None, labels, max)?;
    Ok(plain_tensor(ctx, vec![ps[0]], pe))
}

fn verify_parts(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [logits, labels, max] => Ok(with_float_result(v, op, infer_cross_entropy_parts(v.ctx, logits, labels, max)?)),
        _ => Err("expects three operands".into()),
    })
}

fn verify_finish(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [parts, labels, max] => {
            if op_i64_prop(v.ctx, v.ir, op, "vocab", -1) < 0 {
                return Err("vocab must be >= 0".into());
            }
            Ok(with_float_result(v, op, infer_cross_entropy_finish(v.ctx, parts, labels, max)?))
        }
        _ => Err("expects three operands".into()),
    })
}
