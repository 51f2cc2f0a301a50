//! The precision a float output of a fusion-level function is computed in, for `--check`'s
//! tolerance. An output carries the rounding of every float type its value passes through: an
//! `f32` cast of a `bf16` sum holds a `bf16` value, and the run and the reference may round
//! that sum apart by a `bf16` unit in the last place (the run accumulates in `f32`, the
//! reference in `f64`; over a device-split axis the run also rounds each rank's partial sum to
//! `bf16` before the allreduce adds them: docs/dialects/fusion.md, "Numeric semantics"). The
//! cast then hands that difference, exact, to an `f32` output, which the `f32` tolerance would
//! call wrong. The check therefore holds a float output to the tolerance of the least precise
//! float type among the op results it is computed from (its own type included). Function
//! arguments do not count: the run and the reference read the same input values, so a `bf16`
//! argument cast to `f32` carries no rounding difference.

use crate::dtype::DType;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value, ValueDef};
use rustc_hash::FxHashSet;

/// The float element type of a value's (tensor or scalar) type, `None` for anything else.
fn float_elem(ctx: &Context, ir: &Ir, v: Value) -> Option<DType> {
    let t = ir.value_type(v);
    let elem = match ctx.type_kind(t) {
        fuser_ir::types::TypeKind::RankedTensor { elem, .. } => *elem,
        _ => t,
    };
    DType::of(ctx, elem).ok().filter(|d| d.is_float())
}

/// The least precise (largest tolerance) of two float types.
fn coarser(a: Option<DType>, b: DType) -> DType {
    match a {
        Some(a) if a.tolerance() >= b.tolerance() => a,
        _ => b,
    }
}

/// The least precise float element type among the op results `value` is computed from
/// (`value` itself when an op defines it, and the results of the ops nested in the regions of
/// the ops on the way); `None` when no float op result is on the way (an argument returned
/// unchanged, an integer computation).
pub fn least_precise_float(ctx: &Context, ir: &Ir, value: Value) -> Option<DType> {
    let mut seen_ops: FxHashSet<OpId> = FxHashSet::default();
    let mut pending = vec![value];
    let mut coarsest = None;
    while let Some(v) = pending.pop() {
        let ValueDef::OpResult { op, .. } = ir.value_def(v) else { continue };
        if !seen_ops.insert(op) {
            continue;
        }
        let mut ops = vec![op];
        while let Some(o) = ops.pop() {
            for &r in ir.results(o) {
                if let Some(d) = float_elem(ctx, ir, r) {
                    coarsest = Some(coarser(coarsest, d));
                }
            }
            pending.extend(ir.operands(o));
            for &region in ir.regions(o) {
                for &block in ir.region_blocks(region) {
                    ops.extend(ir.block_ops(block));
                }
            }
        }
    }
    coarsest
}

/// The type whose tolerance `--check` applies to a float output of type `dtype` whose value
/// is `value`: the least precise of `dtype` and [`least_precise_float`]. Integer outputs keep
/// their own type (they must match exactly).
pub fn check_precision(ctx: &Context, ir: &Ir, value: Value, dtype: DType) -> DType {
    if !dtype.is_float() {
        return dtype;
    }
    coarser(least_precise_float(ctx, ir, value), dtype)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::diag::SourceFile;

    /// The precision `check_precision` gives each returned value of the first function of `text`.
    fn precisions(text: &str) -> Vec<&'static str> {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let m = fuser_ir::parser::parse_source_all(&ctx, &mut ir, &SourceFile::new("t.mlir", text.into())).unwrap();
        let f = ir.block_ops(ir.region_entry(ir.regions(m)[0]).unwrap()).next().unwrap();
        let entry = ir.region_entry(ir.regions(f)[0]).unwrap();
        let ret = ir.last_op(entry).unwrap();
        ir.operands(ret)
            .iter()
            .map(|&v| {
                let (dtype, _) = crate::reference::tensor_type(&ctx, ir.value_type(v)).unwrap();
                check_precision(&ctx, &ir, v, dtype).name()
            })
            .collect()
    }

    #[test]
    fn an_output_is_checked_at_the_least_precise_type_it_is_computed_through() {
        let text = "func.func @f(%a: tensor<4x3xbf16>, %b: tensor<4x3xf32>) -> (tensor<1x3xf32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<1x3xf64>, tensor<4x3xbf16>, tensor<4x3xi32>) {
  %s = fusion.sum %a dims = [0] keep_dims : (tensor<4x3xbf16>) -> tensor<1x3xbf16>
  %c = fusion.cast %s : (tensor<1x3xbf16>) -> tensor<1x3xf32>
  %w = fusion.cast %a : (tensor<4x3xbf16>) -> tensor<4x3xf32>
  %t = fusion.sum %w dims = [0] keep_dims : (tensor<4x3xf32>) -> tensor<1x3xf32>
  %h = fusion.cast %b : (tensor<4x3xf32>) -> tensor<4x3xf16>
  %e = fusion.exp %h : (tensor<4x3xf16>) -> tensor<4x3xf16>
  %g = fusion.cast %e : (tensor<4x3xf16>) -> tensor<4x3xf64>
  %u = fusion.sum %g dims = [0] keep_dims : (tensor<4x3xf64>) -> tensor<1x3xf64>
  %i = fusion.cast %b : (tensor<4x3xf32>) -> tensor<4x3xi32>
  return %c, %w, %t, %u, %a, %i : tensor<1x3xf32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<1x3xf64>, tensor<4x3xbf16>, tensor<4x3xi32>
}";
        // The f32 cast of a bf16 sum holds a bf16 value; a bf16 argument cast to f32 (and what
        // is computed from it in f32) is exact in both; f16 on the way to an f64 output counts;
        // an argument returned unchanged keeps its type; integers stay exact.
        assert_eq!(precisions(text), ["bf16", "f32", "f32", "f16", "bf16", "i32"]);
    }
}
