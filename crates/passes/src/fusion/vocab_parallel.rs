//! The vocab-parallel cross-entropy (Megatron's): a `fusion.cross_entropy` whose logits are
//! split over a device axis `D` on the vocabulary is rewritten, by
//! `fusion-decompose-resharding`, into three phases that never gather the logits:
//!
//! 1. `%m = fusion.max %logits dims = [1]`, a pending max over `D`, and its resolution
//!    `%M = fusion.sum %m dims = []` (an allreduce max): the global row maxima;
//! 2. `%p = fusion.cross_entropy_parts %logits, %labels, %M`: per rank, the sum of
//!    `exp(x - M)` over its columns and the label's logit when its columns hold the label
//!    (the kernel knows its columns from the logits' global origin): a pending sum over `D`,
//!    resolved by `%P = fusion.sum %p dims = []` (an allreduce sum of `[N, 2]`);
//! 3. `fusion.cross_entropy_finish %P, %labels, %M {vocab = V}`: `ln(P0) - (P1 - M)`, with
//!    `ignore_index` rows 0 and out-of-range labels NaN.
//!
//! The rows keep the logits' row splits; the labels are resharded to them first (a
//! `fusion.set`, visited by the decomposition like any other). A vocabulary with more than one device split, or a
//! stream split, is diagnosed.

use super::resharding::{device_splits, stream_splits};
use fuser_dialects::fusion::{Sharding, Split, tensor_op_state};
use fuser_dialects::reduction::ReductionKind;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::types::{FloatKind, TypeKind};
use fuser_ir::{Diagnostic, Type};

/// Rewrites `op` when it is a vocab-parallel `fusion.cross_entropy`; returns whether it did.
pub fn expand_vocab_parallel_cross_entropy(ctx: &Context, ir: &mut Ir, op: OpId) -> Result<bool, Diagnostic> {
    if ctx.op_name_str(ir.op_name(op)) != "fusion.cross_entropy" || ir.num_operands(op) != 2 {
        return Ok(false);
    }
    let (logits, labels) = (ir.operand(op, 0), ir.operand(op, 1));
    let Some(ls) = Sharding::of_type(ctx, ir.value_type(logits)) else { return Ok(false) };
    let Some(vocab_splits) = ls.axes.get(1) else { return Ok(false) };
    let devices = device_splits(vocab_splits);
    if devices.is_empty() {
        return Ok(false);
    }
    let err = |msg: String| fuser_ir::pass::op_error(ctx, ir, op, msg);
    let d = match (devices.as_slice(), stream_splits(vocab_splits).is_empty(), ls.partial.is_empty()) {
        ([Split::Device(d)], true, true) => *d,
        _ => {
            return Err(err(format!(
                "a vocab-parallel cross_entropy needs exactly one device split of the vocabulary (axis 1) and \
no stream split or partial logits; got {}",
                super::propagate::splits_text(vocab_splits)
            )));
        }
    };
    let TypeKind::RankedTensor { shape, elem, .. } = ctx.type_kind(ir.value_type(logits)).clone() else {
        return Ok(false);
    };
    let (n, v) = (shape[0], shape[1]);
    let rows = ls.axes[0].clone();
    let typed = |shape: Vec<i64>, axes: Vec<Vec<Split>>, partial: bool, reduce: ReductionKind| -> Type {
        let s = Sharding { mesh: ls.mesh.clone(), axes, partial: if partial { vec![d] } else { Vec::new() }, reduce };
        s.apply_to(ctx, ctx.tensor_type(shape, elem, None))
    };
    let loc = ir.loc(op);
    let result = ir.result(op, 0);
    let result_ty = ir.value_type(result);
    let ignore = fuser_dialects::fusion::loss::op_ignore_index(ctx, ir, op);
    let before = |ir: &mut Ir, state| -> Value {
        let new = ir.create_op(state);
        ir.insert_op_before(op, new);
        ir.result(new, 0)
    };
    // The labels take the rows' layout first (a split of the labels elsewhere would otherwise
    // pull the logits' rows to it and gather the vocabulary).
    let labels = match Sharding::of_type(ctx, ir.value_type(labels)) {
        Some(s) if s.axes.first() != Some(&rows) || !s.partial.is_empty() => {
            let TypeKind::RankedTensor { elem: label_elem, .. } = ctx.type_kind(ir.value_type(labels)).clone() else {
                return Ok(false);
            };
            let want =
                Sharding { mesh: ls.mesh.clone(), axes: vec![rows.clone()], partial: Vec::new(), reduce: s.reduce };
            let ty = want.apply_to(ctx, ctx.tensor_type(vec![n], label_elem, None));
            let set = if s.partial.is_empty() { "fusion.set" } else { "fusion.sum" };
            let dims: Option<&[i64]> = if s.partial.is_empty() { None } else { Some(&[]) };
            before(ir, tensor_op_state(ctx, set, vec![labels], ty, dims, false, loc))
        }
        _ => labels,
    };
    let max_ty = typed(vec![n], vec![rows.clone()], true, ReductionKind::Max);
    let m = before(ir, tensor_op_state(ctx, "fusion.max", vec![logits], max_ty, Some(&[1]), false, loc));
    let global_max_ty = typed(vec![n], vec![rows.clone()], false, ReductionKind::Sum);
    let gm = before(ir, tensor_op_state(ctx, "fusion.sum", vec![m], global_max_ty, Some(&[]), false, loc));
    // The parts in at least f32: a bf16 sum of exponentials would cost the loss its precision.
    let wide = match ctx.type_kind(elem) {
        TypeKind::Float(k) if matches!(k, FloatKind::BF16 | FloatKind::F16) => ctx.float_type(FloatKind::F32),
        _ => elem,
    };
    let typed_wide = |shape: Vec<i64>, axes: Vec<Vec<Split>>, partial: bool| -> Type {
        let s = Sharding {
            mesh: ls.mesh.clone(),
            axes,
            partial: if partial { vec![d] } else { Vec::new() },
            reduce: ReductionKind::Sum,
        };
        s.apply_to(ctx, ctx.tensor_type(shape, wide, None))
    };
    let parts_ty = typed_wide(vec![n, 2], vec![rows.clone(), Vec::new()], true);
    let state =
        tensor_op_state(ctx, "fusion.cross_entropy_parts", vec![logits, labels, gm], parts_ty, None, false, loc);
    let p = before(ir, state);
    let sum_ty = typed_wide(vec![n, 2], vec![rows, Vec::new()], false);
    let sum = before(ir, tensor_op_state(ctx, "fusion.sum", vec![p], sum_ty, Some(&[]), false, loc));
    let mut state =
        tensor_op_state(ctx, "fusion.cross_entropy_finish", vec![sum, labels, gm], result_ty, None, false, loc);
    let i64t = ctx.i64_type();
    state.props = Some(ctx.dictionary(vec![
        (ctx.ident("ignore_index"), ctx.int_attr(i64t, ignore)),
        (ctx.ident("vocab"), ctx.int_attr(i64t, v)),
    ]));
    let loss = before(ir, state);
    ir.replace_all_uses(result, loss);
    ir.erase_op(op);
    Ok(true)
}
