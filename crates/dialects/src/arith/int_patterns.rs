//! The canonicalization patterns of `arith.addi`, `subi` and `muli` that reassociate scalar
//! constants, as MLIR 19's `ArithCanonicalization.td` declares them:
//!
//! - `addi(addi(x, c0), c1)` to `addi(x, c0 + c1)`; `addi(subi(x, c0), c1)` to
//!   `addi(x, c1 - c0)`; `addi(subi(c0, x), c1)` to `subi(c0 + c1, x)`;
//! - `addi(x, muli(y, -1))` to `subi(x, y)` and `addi(muli(x, -1), y)` to `subi(y, x)` (any
//!   splat of -1 too; the new `subi` has no overflow flags);
//! - `subi(addi(x, c0), c1)` to `addi(x, c0 - c1)` (no flags); `subi(c1, addi(x, c0))` to
//!   `subi(c1 - c0, x)`; `subi(subi(x, c0), c1)` to `subi(x, c0 + c1)`; `subi(subi(c0, x), c1)`
//!   to `subi(c0 - c1, x)`; `subi(c1, subi(x, c0))` to `subi(c0 + c1, x)`;
//!   `subi(c1, subi(c0, x))` to `addi(x, c1 - c0)`; `subi(subi(a, b), a)` to `subi(0, b)`;
//! - `muli(muli(x, c0), c1)` to `muli(x, c0 * c1)`.
//!
//! Invariants: `c0`, `c1` are scalar integer constants (MLIR's `APIntAttr`: not splats); the
//! new op carries the intersection of the two ops' overflow flags unless stated otherwise; the
//! constants are computed wrapping in the type's width; the new constant is created right before
//! the rewritten op (the driver hoists it when it folds).

use super::{ADDI, MULI, OverflowFlags, SUBI, binary_state, constant_state, defined_by};
use crate::support::{IntConst, ap_attr, dict_of, element_type, inherent_attr, int_const};
use fuser_ir::apint::ApInt;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::registry::PatternDef;
use fuser_ir::rewrite_api::Rewriter;

pub(super) static ADDI_PATTERNS: PatternDef = PatternDef { name: "arith-addi-reassociate", apply: addi_patterns };
pub(super) static SUBI_PATTERNS: PatternDef = PatternDef { name: "arith-subi-reassociate", apply: subi_patterns };
pub(super) static MULI_MULI_CONSTANT: PatternDef =
    PatternDef { name: "arith-muli-muli-constant", apply: muli_muli_constant };

/// The scalar integer constant defining `v`, if any.
fn scalar_const(ctx: &Context, ir: &Ir, v: Value) -> Option<IntConst> {
    let ty = ir.value_type(v);
    if element_type(ctx, ty) != ty {
        return None;
    }
    let d = ir.defining_op(v)?;
    let def = ctx.op_def(ir.op_name(d))?;
    if !def.has(fuser_ir::registry::Traits::CONSTANT_LIKE) {
        return None;
    }
    match def.fold?(ctx, ir, d, &[])?.first()? {
        fuser_ir::registry::FoldResult::Attr(a) => int_const(ctx, *a).map(|c| c.0),
        _ => None,
    }
}

/// A constant (scalar or splat) of all ones defining `v`.
fn is_minus_one(ctx: &Context, ir: &Ir, v: Value) -> bool {
    super::bitwise::constant_of(ctx, ir, v).as_ref().is_some_and(IntConst::is_all_ones)
}

fn flags(ctx: &Context, ir: &Ir, op: OpId) -> OverflowFlags {
    inherent_attr(ctx, ir, op, "overflowFlags").and_then(|a| OverflowFlags::from_attr(ctx, a)).unwrap_or_default()
}

fn merge(a: OverflowFlags, b: OverflowFlags) -> OverflowFlags {
    OverflowFlags { nsw: a.nsw && b.nsw, nuw: a.nuw && b.nuw }
}

/// The two operands of `v`'s defining op when it is `name` with two operands, with the op.
fn operands_of(ctx: &Context, ir: &Ir, v: Value, name: &str) -> Option<(OpId, Value, Value)> {
    let d = defined_by(ctx, ir, v, name)?;
    (ir.num_operands(d) == 2).then(|| (d, ir.operand(d, 0), ir.operand(d, 1)))
}

/// One side of a rewrite: an existing value or a new constant.
enum Operand {
    Value(Value),
    Const(ApInt),
}

/// Replaces `op` by `name(lhs, rhs)` with `flags`, creating the constant operand if any.
fn rewrite(rw: &mut dyn Rewriter, op: OpId, name: &str, lhs: Operand, rhs: Operand, flags: OverflowFlags) -> bool {
    let (ty, loc) = (rw.ir().value_type(rw.ir().result(op, 0)), rw.ir().loc(op));
    rw.set_insertion_point_before(op);
    let value = |rw: &mut dyn Rewriter, o: Operand| -> Option<Value> {
        match o {
            Operand::Value(v) => Some(v),
            Operand::Const(value) => {
                let ctx = rw.ctx();
                let state = constant_state(ctx, ap_attr(ctx, ty, value), loc)?;
                let c = rw.create_op(state);
                Some(rw.ir().result(c, 0))
            }
        }
    };
    let (Some(l), Some(r)) = (value(rw, lhs), value(rw, rhs)) else { return false };
    let mut state = binary_state(rw.ctx(), name, l, r, ty, loc);
    state.props = Some(dict_of(rw.ctx(), &[("overflowFlags", flags.to_attr(rw.ctx()))]));
    let new = rw.create_op(state);
    let result = rw.ir().result(new, 0);
    rw.replace_op(op, &[result]);
    true
}

fn binary_parts(ir: &Ir, op: OpId) -> Option<(Value, Value)> {
    (ir.num_operands(op) == 2 && ir.num_results(op) == 1).then(|| (ir.operand(op, 0), ir.operand(op, 1)))
}

fn addi_patterns(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let Some((lhs, rhs)) = binary_parts(ir, op) else { return false };
    let f2 = flags(ctx, ir, op);
    if let Some(c1) = scalar_const(ctx, ir, rhs) {
        // addi(addi(x, c0), c1)
        if let Some((inner, x, c0)) = operands_of(ctx, ir, lhs, ADDI.name)
            && let Some(c0) = scalar_const(ctx, ir, c0)
        {
            let f = merge(flags(ctx, ir, inner), f2);
            return rewrite(rw, op, ADDI.name, Operand::Value(x), Operand::Const(c0.add(&c1)), f);
        }
        if let Some((inner, a, b)) = operands_of(ctx, ir, lhs, SUBI.name) {
            let f = merge(flags(ctx, ir, inner), f2);
            // addi(subi(x, c0), c1)
            if let Some(c0) = scalar_const(ctx, ir, b) {
                return rewrite(rw, op, ADDI.name, Operand::Value(a), Operand::Const(c1.sub(&c0)), f);
            }
            // addi(subi(c0, x), c1)
            if let Some(c0) = scalar_const(ctx, ir, a) {
                return rewrite(rw, op, SUBI.name, Operand::Const(c0.add(&c1)), Operand::Value(b), f);
            }
        }
    }
    // addi(x, muli(y, -1))
    if let Some((_, y, m)) = operands_of(ctx, ir, rhs, MULI.name)
        && is_minus_one(ctx, ir, m)
    {
        return rewrite(rw, op, SUBI.name, Operand::Value(lhs), Operand::Value(y), OverflowFlags::default());
    }
    // addi(muli(x, -1), y)
    if let Some((_, x, m)) = operands_of(ctx, ir, lhs, MULI.name)
        && is_minus_one(ctx, ir, m)
    {
        return rewrite(rw, op, SUBI.name, Operand::Value(rhs), Operand::Value(x), OverflowFlags::default());
    }
    false
}

fn subi_patterns(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let Some((lhs, rhs)) = binary_parts(ir, op) else { return false };
    let f2 = flags(ctx, ir, op);
    if let Some(c1) = scalar_const(ctx, ir, rhs) {
        // subi(addi(x, c0), c1)
        if let Some((_, x, c0)) = operands_of(ctx, ir, lhs, ADDI.name)
            && let Some(c0) = scalar_const(ctx, ir, c0)
        {
            let c = Operand::Const(c0.sub(&c1));
            return rewrite(rw, op, ADDI.name, Operand::Value(x), c, OverflowFlags::default());
        }
        if let Some((inner, a, b)) = operands_of(ctx, ir, lhs, SUBI.name) {
            let f = merge(flags(ctx, ir, inner), f2);
            // subi(subi(x, c0), c1)
            if let Some(c0) = scalar_const(ctx, ir, b) {
                return rewrite(rw, op, SUBI.name, Operand::Value(a), Operand::Const(c0.add(&c1)), f);
            }
            // subi(subi(c0, x), c1)
            if let Some(c0) = scalar_const(ctx, ir, a) {
                return rewrite(rw, op, SUBI.name, Operand::Const(c0.sub(&c1)), Operand::Value(b), f);
            }
        }
    }
    if let Some(c1) = scalar_const(ctx, ir, lhs) {
        // subi(c1, addi(x, c0))
        if let Some((inner, x, c0)) = operands_of(ctx, ir, rhs, ADDI.name)
            && let Some(c0) = scalar_const(ctx, ir, c0)
        {
            let f = merge(flags(ctx, ir, inner), f2);
            return rewrite(rw, op, SUBI.name, Operand::Const(c1.sub(&c0)), Operand::Value(x), f);
        }
        if let Some((inner, a, b)) = operands_of(ctx, ir, rhs, SUBI.name) {
            let f = merge(flags(ctx, ir, inner), f2);
            // subi(c1, subi(x, c0))
            if let Some(c0) = scalar_const(ctx, ir, b) {
                return rewrite(rw, op, SUBI.name, Operand::Const(c0.add(&c1)), Operand::Value(a), f);
            }
            // subi(c1, subi(c0, x))
            if let Some(c0) = scalar_const(ctx, ir, a) {
                return rewrite(rw, op, ADDI.name, Operand::Value(b), Operand::Const(c1.sub(&c0)), f);
            }
        }
    }
    // subi(subi(a, b), a)
    if let Some((inner, a, b)) = operands_of(ctx, ir, lhs, SUBI.name)
        && a == rhs
    {
        let f = merge(flags(ctx, ir, inner), f2);
        let ty = ir.value_type(b);
        let (ty, loc) = (ty, ir.loc(op));
        let Some(zero) = super::splat_int(ctx, ty, 0) else { return false };
        let Some(state) = constant_state(ctx, zero, loc) else { return false };
        rw.set_insertion_point_before(op);
        let z = rw.create_op(state);
        let z = rw.ir().result(z, 0);
        return rewrite(rw, op, SUBI.name, Operand::Value(z), Operand::Value(b), f);
    }
    false
}

fn muli_muli_constant(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let Some((lhs, rhs)) = binary_parts(ir, op) else { return false };
    let Some(c1) = scalar_const(ctx, ir, rhs) else { return false };
    let Some((inner, x, c0)) = operands_of(ctx, ir, lhs, MULI.name) else { return false };
    let Some(c0) = scalar_const(ctx, ir, c0) else { return false };
    let f = merge(flags(ctx, ir, inner), flags(ctx, ir, op));
    rewrite(rw, op, MULI.name, Operand::Value(x), Operand::Const(c0.mul(&c1)), f)
}
