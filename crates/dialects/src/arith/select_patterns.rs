//! The canonicalization patterns of `arith.select` that produce other arith ops, as mlir-opt-19
//! applies them: `select c, 1, 0` to `extui c` and `select c, 0, 1` to `extui (xori c, true)`
//! (integer results wider than `i1`), `select c, false, true` to `xori c, true`, and
//! `select (xori c, true), a, b` to `select c, b, a`, and `select c, (select c, a, b), x` to
//! `select c, a, x` (likewise on the false side).

use super::bitwise::constant_of;
use super::{XORI, binary_state, constant_state, defined_by, int_cast_state};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::registry::PatternDef;
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::TypeKind;

/// `select c, 1, 0` / `select c, 0, 1` on integers wider than `i1`: an `extui` of `c` or `!c`.
pub(super) static SELECT_TO_EXTUI: PatternDef = PatternDef { name: "arith-select-to-extui", apply: select_to_extui };
/// `select c, false, true` on `i1`: `xori c, true`.
pub(super) static SELECT_I1_TO_NOT: PatternDef = PatternDef { name: "arith-select-i1-to-not", apply: select_i1_to_not };
/// `select (xori c, ~0), a, b`: `select c, b, a`.
pub(super) static SELECT_NOT_COND: PatternDef = PatternDef { name: "arith-select-not-cond", apply: select_not_cond };

/// The condition and the constant alternatives (as 0/1 when they are) of a select.
fn alternatives(rw: &dyn Rewriter, op: OpId) -> Option<(Value, Option<u128>, Option<u128>)> {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 3 || ir.num_results(op) != 1 {
        return None;
    }
    let bits = |v: Value| constant_of(ctx, ir, v).and_then(|c| c.unsigned()).filter(|&b| b <= 1);
    Some((ir.operand(op, 0), bits(ir.operand(op, 1)), bits(ir.operand(op, 2))))
}

/// Creates `xori c, true` before `op` and returns its result.
fn not_of(rw: &mut dyn Rewriter, op: OpId, c: Value) -> Option<Value> {
    let loc = rw.ir().loc(op);
    let state = constant_state(rw.ctx(), rw.ctx().bool_attr(true), loc)?;
    rw.set_insertion_point_before(op);
    let t = rw.create_op(state);
    let t = rw.ir().result(t, 0);
    let i1 = rw.ctx().i1_type();
    let x = rw.create_op(binary_state(rw.ctx(), XORI.name, c, t, i1, loc));
    Some(rw.ir().result(x, 0))
}

fn select_to_extui(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some((c, t, f)) = alternatives(rw, op) else { return false };
    let ty = rw.ir().value_type(rw.ir().result(op, 0));
    let wide_int = matches!(rw.ctx().type_kind(ty), TypeKind::Integer { width, .. } if *width > 1);
    if !wide_int || rw.ir().value_type(c) != rw.ctx().i1_type() {
        return false;
    }
    let src = match (t, f) {
        (Some(1), Some(0)) => c,
        (Some(0), Some(1)) => match not_of(rw, op, c) {
            Some(n) => n,
            None => return false,
        },
        _ => return false,
    };
    let loc = rw.ir().loc(op);
    rw.set_insertion_point_before(op);
    let ext = rw.create_op(int_cast_state(rw.ctx(), super::EXTUI.name, src, ty, loc));
    let ext = rw.ir().result(ext, 0);
    rw.replace_op(op, &[ext]);
    true
}

fn select_i1_to_not(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some((c, Some(0), Some(1))) = alternatives(rw, op) else { return false };
    let i1 = rw.ctx().i1_type();
    if rw.ir().value_type(rw.ir().result(op, 0)) != i1 || rw.ir().value_type(c) != i1 {
        return false;
    }
    let Some(n) = not_of(rw, op, c) else { return false };
    rw.replace_op(op, &[n]);
    true
}

fn select_not_cond(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 3 {
        return false;
    }
    let Some((c, ones)) = operands_of_xori(ctx, ir, ir.operand(op, 0)) else { return false };
    // MLIR matches a scalar `IntegerAttr` of all ones (`APIntAttr`), never a splat: a vector or
    // tensor condition stays as written.
    let scalar = crate::support::element_type(ctx, ir.value_type(ones)) == ir.value_type(ones);
    if !scalar || !constant_of(ctx, ir, ones).is_some_and(|k| k.is_all_ones()) {
        return false;
    }
    let (a, b) = (ir.operand(op, 1), ir.operand(op, 2));
    let ir = rw.ir_mut();
    ir.set_operand(op, 0, c);
    ir.set_operand(op, 1, b);
    ir.set_operand(op, 2, a);
    rw.notify_changed(op);
    true
}

/// `select c, (select c, a, b), x`: `select c, a, x`.
pub(super) static REDUNDANT_SELECT_TRUE: PatternDef =
    PatternDef { name: "arith-redundant-select-true", apply: |rw, op| redundant_select(rw, op, 1) };
/// `select c, x, (select c, a, b)`: `select c, x, b`.
pub(super) static REDUNDANT_SELECT_FALSE: PatternDef =
    PatternDef { name: "arith-redundant-select-false", apply: |rw, op| redundant_select(rw, op, 2) };

/// When alternative `which` (1: true, 2: false) is a select on the same condition, takes the
/// inner select's alternative on the same side.
fn redundant_select(rw: &mut dyn Rewriter, op: OpId, which: usize) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 3 {
        return false;
    }
    let Some(inner) = super::defined_by(ctx, ir, ir.operand(op, which), super::SELECT.name) else { return false };
    if ir.num_operands(inner) != 3 || ir.operand(inner, 0) != ir.operand(op, 0) {
        return false;
    }
    let v = ir.operand(inner, which);
    rw.ir_mut().set_operand(op, which, v);
    rw.notify_changed(op);
    true
}

/// The operands `(x, y)` of `v` when `v` is an `arith.xori`.
fn operands_of_xori(ctx: &Context, ir: &Ir, v: Value) -> Option<(Value, Value)> {
    let d = defined_by(ctx, ir, v, XORI.name)?;
    (ir.num_operands(d) == 2).then(|| (ir.operand(d, 0), ir.operand(d, 1)))
}
