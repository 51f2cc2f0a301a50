//! The integer width casts `arith.extsi`, `extui` (to a wider type) and `trunci` (to a narrower
//! type) on signless fixed-width integers or containers of them; custom form
//! `arith.extsi %a : i8 to i32`.
//!
//! Folders and patterns follow MLIR: scalar constants are extended or truncated; a cast of a
//! cast of the same kind casts the original value (`extsi(extsi x)`, `trunci(trunci x)`);
//! `extsi(extui x)` is `extui x`; `trunci(ext x)` is `x` when the types meet, `trunci x` when `x`
//! is wider and `ext x` when it is narrower.

use super::cast_common::{cast_state, fold_cast_constant, parse_cast, print_cast, verify_cast, width_of};
use super::{defined_by, fold_to_attr, fold_to_value};
use crate::support::{ap_attr, element_type, inherent_attr, int_const, is_signless_integer_like};
use fuser_ir::apint::ApInt;
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::TypeConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::registry::{FoldResult, PatternDef, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::Type;

/// MLIR's `SignlessFixedWidthIntegerLike`: a signless integer (not `index`), or a
/// vector/tensor of them.
pub(crate) const SIGNLESS_FIXED_WIDTH_INTEGER_LIKE: TypeConstraint =
    TypeConstraint::new("signless-fixed-width-integer-like", is_fixed_width_integer_like);

fn is_fixed_width_integer_like(ctx: &Context, t: Type) -> bool {
    is_signless_integer_like(ctx, t) && !ctx.type_kind(element_type(ctx, t)).is_index()
}

fuser_ir::declare_op! {
    pub static EXTSI: "arith.extsi" {
        summary: "integer sign extension operation",
        description: "Widens an integer to a wider integer type, copying the sign bit into the \
new high bits (elementwise for vectors and tensors).\n\n\
```mlir\n%0 = arith.extsi %a : i8 to i32\n%1 = arith.extsi %v : vector<4xi1> to vector<4xi8>\n```",
        traits: [PURE],
        operands: { in: SIGNLESS_FIXED_WIDTH_INTEGER_LIKE },
        results: { out: SIGNLESS_FIXED_WIDTH_INTEGER_LIKE },
        hooks: {
            verify: verify_widening,
            fold: fold_extsi,
            canonicalize: &[EXT_OF_SAME_EXT, EXTSI_OF_EXTUI],
            parse: parse_cast,
            print: print_cast,
        },
    }
}

fuser_ir::declare_op! {
    pub static EXTUI: "arith.extui" {
        summary: "integer zero extension operation",
        description: "Widens an integer to a wider integer type, filling the new high bits with \
zeros (elementwise for vectors and tensors).\n\n```mlir\n%0 = arith.extui %a : i1 to i64\n```",
        traits: [PURE],
        operands: { in: SIGNLESS_FIXED_WIDTH_INTEGER_LIKE },
        results: { out: SIGNLESS_FIXED_WIDTH_INTEGER_LIKE },
        hooks: {
            verify: verify_widening,
            fold: fold_extui,
            canonicalize: &[EXT_OF_SAME_EXT],
            parse: parse_cast,
            print: print_cast,
        },
    }
}

fuser_ir::declare_op! {
    pub static TRUNCI: "arith.trunci" {
        summary: "integer truncation operation",
        description: "Narrows an integer to a narrower integer type, keeping the low bits \
(elementwise for vectors and tensors).\n\n```mlir\n%0 = arith.trunci %a : i32 to i8\n```",
        traits: [PURE],
        operands: { in: SIGNLESS_FIXED_WIDTH_INTEGER_LIKE },
        results: { out: SIGNLESS_FIXED_WIDTH_INTEGER_LIKE },
        hooks: {
            verify: verify_narrowing,
            fold: fold_trunci,
            canonicalize: &[TRUNCI_OF_CAST, TRUNCI_OF_NARROWER_EXT, TRUNCI_OF_SHRSI, TRUNCI_OF_WIDE_MUL],
            parse: parse_cast,
            print: print_cast,
        },
    }
}

/// The state of the integer cast `name` (`"arith.extsi"`, ...) of `input` to `ty`.
pub fn int_cast_state(ctx: &Context, name: &str, input: Value, ty: Type, loc: Attr) -> fuser_ir::ir::OperationState {
    cast_state(ctx, name, input, ty, loc)
}

/// True when `b` is strictly wider than `a`.
fn wider(ctx: &Context, a: Type, b: Type) -> bool {
    matches!((width_of(ctx, a), width_of(ctx, b)), (Some(x), Some(y)) if y > x)
}

fn verify_widening(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_cast(v, op, wider)
}

fn verify_narrowing(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_cast(v, op, |ctx, a, b| wider(ctx, b, a))
}

// ----- folders ------------------------------------------------------------------------------

/// The input, result type and constant input of a well-formed scalar-or-shaped cast.
fn cast_inputs(ir: &Ir, op: OpId) -> Option<(Value, Type)> {
    (ir.num_operands(op) == 1 && ir.num_results(op) == 1).then(|| (ir.operand(op, 0), ir.value_type(ir.result(op, 0))))
}

/// Re-reads a constant (scalar or splat) in the result's width: `extend(c)` gives the new bits.
fn fold_int_constant(
    ctx: &Context,
    to: Type,
    operand: Option<Attr>,
    extend: impl Fn(&ApInt, u32) -> ApInt,
) -> Option<Vec<FoldResult>> {
    let folded = fold_cast_constant(ctx, operand, to, |scalar, elem| {
        let (c, _) = int_const(ctx, scalar)?;
        let width = width_of(ctx, elem)?;
        Some(ap_attr(ctx, elem, extend(&c, width)))
    });
    fold_to_attr(folded?)
}

fn fold_extsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let (_, to) = cast_inputs(ir, op)?;
    fold_int_constant(ctx, to, operands.first().copied().flatten(), ApInt::sext_or_trunc)
}

fn fold_extui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let (_, to) = cast_inputs(ir, op)?;
    fold_int_constant(ctx, to, operands.first().copied().flatten(), ApInt::zext_or_trunc)
}

/// The input of `v`'s defining op when that op is `extsi` or `extui`.
fn ext_input(ctx: &Context, ir: &Ir, v: Value) -> Option<Value> {
    let d = defined_by(ctx, ir, v, EXTSI.name).or_else(|| defined_by(ctx, ir, v, EXTUI.name))?;
    (ir.num_operands(d) == 1).then(|| ir.operand(d, 0))
}

fn fold_trunci(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let (input, to) = cast_inputs(ir, op)?;
    if let Some(src) = ext_input(ctx, ir, input)
        && ir.value_type(src) == to
    {
        return fold_to_value(src);
    }
    fold_int_constant(ctx, to, operands.first().copied().flatten(), ApInt::zext_or_trunc)
}

// ----- canonicalization ---------------------------------------------------------------------

/// `ext(ext x)` with the same kind of extension casts `x` directly.
static EXT_OF_SAME_EXT: PatternDef = PatternDef { name: "arith-ext-of-same-ext", apply: ext_of_same_ext };

fn ext_of_same_ext(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let Some((input, _)) = cast_inputs(ir, op) else { return false };
    let name = ctx.op_name_str(ir.op_name(op));
    let Some(inner) = defined_by(ctx, ir, input, name).filter(|&d| ir.num_operands(d) == 1) else { return false };
    let src = ir.operand(inner, 0);
    rw.ir_mut().set_operand(op, 0, src);
    rw.notify_changed(op);
    true
}

/// `extsi(extui x)` is `extui x` (the sign bit after a zero extension is zero).
static EXTSI_OF_EXTUI: PatternDef = PatternDef { name: "arith-extsi-of-extui", apply: extsi_of_extui };

fn extsi_of_extui(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let Some((input, to)) = cast_inputs(ir, op) else { return false };
    let Some(inner) = defined_by(ctx, ir, input, EXTUI.name).filter(|&d| ir.num_operands(d) == 1) else {
        return false;
    };
    let src = ir.operand(inner, 0);
    replace_with_cast(rw, op, EXTUI.name, src, to);
    true
}

/// Replaces `op` by the cast `name` of `src` to `to`, at `op`'s place and location.
fn replace_with_cast(rw: &mut dyn Rewriter, op: OpId, name: &str, src: Value, to: Type) {
    let state = cast_state(rw.ctx(), name, src, to, rw.ir().loc(op));
    rw.set_insertion_point_before(op);
    let new = rw.create_op(state);
    let result = rw.ir().result(new, 0);
    rw.replace_op(op, &[result]);
}

/// `trunci(ext x)` with `x` wider than the result, and `trunci(trunci x)`: truncate `x`.
static TRUNCI_OF_CAST: PatternDef = PatternDef { name: "arith-trunci-of-cast", apply: trunci_of_cast };

fn trunci_of_cast(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let Some((input, to)) = cast_inputs(ir, op) else { return false };
    let from_ext = ext_input(ctx, ir, input)
        .filter(|&src| wider(ctx, element_type(ctx, to), element_type(ctx, ir.value_type(src))));
    let from_trunc =
        || defined_by(ctx, ir, input, TRUNCI.name).filter(|&d| ir.num_operands(d) == 1).map(|d| ir.operand(d, 0));
    let Some(src) = from_ext.or_else(from_trunc) else { return false };
    rw.ir_mut().set_operand(op, 0, src);
    rw.notify_changed(op);
    true
}

/// `trunci(ext x)` with `x` narrower than the result: the same extension of `x` to the result.
static TRUNCI_OF_NARROWER_EXT: PatternDef =
    PatternDef { name: "arith-trunci-of-narrower-ext", apply: trunci_of_narrower_ext };

fn trunci_of_narrower_ext(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let Some((input, to)) = cast_inputs(ir, op) else { return false };
    let Some(ext) = defined_by(ctx, ir, input, EXTSI.name).or_else(|| defined_by(ctx, ir, input, EXTUI.name)) else {
        return false;
    };
    if ir.num_operands(ext) != 1 {
        return false;
    }
    let src = ir.operand(ext, 0);
    if !wider(ctx, element_type(ctx, ir.value_type(src)), element_type(ctx, to)) {
        return false;
    }
    let name = ctx.op_name_str(ir.op_name(ext)).to_string();
    replace_with_cast(rw, op, &name, src, to);
    true
}

/// `trunci(shrsi(x, c))` where `c` is the number of truncated bits: `trunci(shrui(x, c))` (the
/// bits shifted in are dropped either way).
static TRUNCI_OF_SHRSI: PatternDef = PatternDef { name: "arith-trunci-of-shrsi", apply: trunci_of_shrsi };

fn trunci_of_shrsi(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let Some((input, to)) = cast_inputs(ir, op) else { return false };
    let Some(sh) = defined_by(ctx, ir, input, super::SHRSI.name).filter(|&d| ir.num_operands(d) == 2) else {
        return false;
    };
    let (x, amount) = (ir.operand(sh, 0), ir.operand(sh, 1));
    let (Some(from_w), Some(to_w)) =
        (width_of(ctx, element_type(ctx, ir.value_type(x))), width_of(ctx, element_type(ctx, to)))
    else {
        return false;
    };
    let Some(d) = ir.defining_op(amount) else { return false };
    let Some(c) = super::bitwise::constant_of(ctx, ir, amount) else { return false };
    if c.unsigned() != Some((from_w - to_w) as u128) {
        return false;
    }
    // A fresh constant and `shrui`, then the truncation of it.
    let Some(value) = inherent_attr(ctx, ir, d, "value") else { return false };
    let (ty, loc) = (ir.value_type(input), ir.loc(op));
    let Some(cstate) = super::constant_state(ctx, value, loc) else { return false };
    rw.set_insertion_point_before(op);
    let c = rw.create_op(cstate);
    let c = rw.ir().result(c, 0);
    let shr = rw.create_op(super::binary_state(rw.ctx(), super::SHRUI.name, x, c, ty, loc));
    let shr = rw.ir().result(shr, 0);
    replace_with_cast(rw, op, TRUNCI.name, shr, to);
    true
}

/// `trunci(shrui(muli(ext x, ext y), c))` with one extension kind, `x`, `y` of the result type
/// and the product exactly twice as wide, shifted by the result's width: the high half of
/// `mulsi_extended x, y` (`extsi`) or `mului_extended x, y` (`extui`). mlir-opt-19 also
/// rewrites wider products (where the high half is not those bits); fuser keeps those as
/// written, so that the rewrite never changes a result.
static TRUNCI_OF_WIDE_MUL: PatternDef = PatternDef { name: "arith-trunci-of-wide-mul", apply: trunci_of_wide_mul };

fn trunci_of_wide_mul(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let Some((input, to)) = cast_inputs(ir, op) else { return false };
    let Some(shr) = defined_by(ctx, ir, input, super::SHRUI.name).filter(|&d| ir.num_operands(d) == 2) else {
        return false;
    };
    let Some(mul) = defined_by(ctx, ir, ir.operand(shr, 0), super::MULI.name).filter(|&d| ir.num_operands(d) == 2)
    else {
        return false;
    };
    let ext_of = |v: Value| {
        [EXTSI.name, EXTUI.name].into_iter().find_map(|name| {
            let d = defined_by(ctx, ir, v, name).filter(|&d| ir.num_operands(d) == 1)?;
            Some((name, ir.operand(d, 0)))
        })
    };
    let (Some((kx, x)), Some((ky, y))) = (ext_of(ir.operand(mul, 0)), ext_of(ir.operand(mul, 1))) else {
        return false;
    };
    if kx != ky || ir.value_type(x) != to || ir.value_type(y) != to {
        return false;
    }
    let wide = ir.value_type(ir.operand(shr, 0));
    let (Some(n), Some(w)) = (width_of(ctx, element_type(ctx, to)), width_of(ctx, element_type(ctx, wide))) else {
        return false;
    };
    let shift = super::bitwise::constant_of(ctx, ir, ir.operand(shr, 1));
    if w != 2 * n || shift.is_none_or(|c| c.unsigned() != Some(n as u128)) {
        return false;
    }
    let name = if kx == EXTSI.name { super::MULSI_EXTENDED.name } else { super::MULUI_EXTENDED.name };
    let state = super::extended_state(ctx, name, x, y, to, ir.loc(op));
    rw.set_insertion_point_before(op);
    let new = rw.create_op(state);
    let high = rw.ir().result(new, 1);
    rw.replace_op(op, &[high]);
    true
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;

    fn cast(b: &mut Bench, name: &str, input: Value, ty: Type) -> OpId {
        let state = int_cast_state(&b.ctx, name, input, ty, b.ctx.unknown_loc());
        b.op(state)
    }

    #[test]
    fn constants_extend_and_truncate() {
        let mut b = Bench::new();
        let (i8t, i32t) = (b.ctx.integer_type(8), b.ctx.integer_type(32));
        let m1 = b.int(i8t, -1);
        let s = cast(&mut b, "arith.extsi", m1, i32t);
        let u = cast(&mut b, "arith.extui", m1, i32t);
        assert_eq!(b.fold_int(s), Some(-1));
        assert_eq!(b.fold_int(u), Some(255));
        let c300 = b.int(i32t, 300);
        let t = cast(&mut b, "arith.trunci", c300, i8t);
        assert_eq!(b.fold_int(t), Some(44));
    }

    #[test]
    fn trunc_of_ext_back_to_source_folds() {
        let mut b = Bench::new();
        let (i8t, i32t) = (b.ctx.integer_type(8), b.ctx.integer_type(32));
        let x = b.arg(i8t);
        let e = cast(&mut b, "arith.extui", x, i32t);
        let ev = b.ir.result(e, 0);
        let t = cast(&mut b, "arith.trunci", ev, i8t);
        assert_eq!(b.fold_value(t), Some(x));
    }

    #[test]
    fn verifier_requires_width_change_and_no_index() {
        let mut b = Bench::new();
        let (i8t, i32t, idx) = (b.ctx.integer_type(8), b.ctx.integer_type(32), b.ctx.index_type());
        let x = b.arg(i32t);
        let ok = cast(&mut b, "arith.trunci", x, i8t);
        assert_eq!(b.verify(ok), Ok(()));
        let same = cast(&mut b, "arith.extsi", x, i32t);
        assert_eq!(
            b.verify(same),
            Err("'arith.extsi' op operand type 'i32' and result type 'i32' are cast incompatible".into())
        );
        let to_index = cast(&mut b, "arith.extui", x, idx);
        assert_eq!(
            b.verify(to_index),
            Err("'arith.extui' op result #0 must be signless-fixed-width-integer-like, but got 'index'".into())
        );
    }
}
