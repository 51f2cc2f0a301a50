//! The bitwise ops `arith.andi`, `ori`, `xori`: two operands and a result of one
//! signless-integer-like type, commutative; custom form `arith.andi %a, %b : i32`.
//!
//! Folders follow MLIR: `and(x, 0)`, `and(x, ~0)`, `and(x, xor(x, ~0))`, `and(a, and(a, b))`,
//! `or(x, 0)`, `or(x, ~0)`, `xor(x, 0)`, `xor(x, x)`, `xor(xor(x, a), a)`, constants, and
//! `and(x, x)`/`or(x, x)` (idempotence). Patterns: `op(ext x, ext y)` becomes `ext(op(x, y))`
//! for two extensions of one kind from one type, and `xor(cmpi p, true)` the inverted `cmpi`.

use super::binary::{Inputs, eval, inputs, operands_of, zero};
use super::binary_syntax::INT_BINARY_HOOKS;
use super::{
    CMPI, CmpPredicate, EXTSI, EXTUI, MOVE_CONSTANT_RIGHT, SIGNLESS_INTEGER_LIKE, binary_state, cmpi::predicate,
    defined_by, fold_to_attr, fold_to_value, int_cast_state, splat_int,
};
use crate::support::{IntConst, int_const};
use fuser_ir::attrs::{Attr, AttrKind, DenseData};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::registry::{FoldResult, PatternDef};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::Type;

fuser_ir::declare_op! {
    pub static ANDI: "arith.andi" {
        summary: "integer binary and",
        description: "The bitwise and of two integers (elementwise for vectors and tensors).\n\n\
```mlir\n%0 = arith.andi %a, %b : i32\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        hook_set: INT_BINARY_HOOKS,
        hooks: { fold: fold_andi, canonicalize: &[MOVE_CONSTANT_RIGHT, BITWISE_OF_EXTS] },
    }
}

fuser_ir::declare_op! {
    pub static ORI: "arith.ori" {
        summary: "integer binary or",
        description: "The bitwise or of two integers (elementwise for vectors and tensors).\n\n\
```mlir\n%0 = arith.ori %a, %b : i64\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        hook_set: INT_BINARY_HOOKS,
        hooks: { fold: fold_ori, canonicalize: &[MOVE_CONSTANT_RIGHT, BITWISE_OF_EXTS] },
    }
}

fuser_ir::declare_op! {
    pub static XORI: "arith.xori" {
        summary: "integer binary xor",
        description: "The bitwise exclusive or of two integers (elementwise for vectors and \
tensors); `xori %x, %true` negates an `i1`.\n\n```mlir\n%0 = arith.xori %a, %b : i8\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        hook_set: INT_BINARY_HOOKS,
        hooks: { fold: fold_xori, canonicalize: &[MOVE_CONSTANT_RIGHT, XORI_NOT_CMPI, BITWISE_OF_EXTS] },
    }
}

// ----- folders ------------------------------------------------------------------------------

/// The right operand's constant, scalar or splat, if its type is `ty`.
pub(super) fn rhs_splat(ctx: &Context, operands: &[Option<Attr>], ty: Type) -> Option<IntConst> {
    let a = operands.get(1).copied().flatten()?;
    if ctx.attr_type(a) != Some(ty) {
        return None;
    }
    let scalar = match ctx.attr_kind(a) {
        AttrKind::DenseElements { data: DenseData::Splat(s), .. } => *s,
        _ => a,
    };
    int_const(ctx, scalar).map(|(c, _)| c)
}

/// `x` when `v` is `xor(x, ~0)` (a bitwise not of `x`).
fn not_of(ctx: &Context, ir: &Ir, v: Value) -> Option<Value> {
    let (x, ones) = operands_of(ctx, ir, v, XORI.name)?;
    let c = constant_of(ctx, ir, ones)?;
    c.is_all_ones().then_some(x)
}

/// The scalar or splat integer constant defining `v`.
pub(super) fn constant_of(ctx: &Context, ir: &Ir, v: Value) -> Option<IntConst> {
    let d = ir.defining_op(v)?;
    let def = ctx.op_def(ir.op_name(d))?;
    let a = match def.fold?(ctx, ir, d, &[])?.first()? {
        FoldResult::Attr(a) => *a,
        _ => return None,
    };
    rhs_splat(ctx, &[None, Some(a)], ir.value_type(v))
}

fn fold_andi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    let r = rhs_splat(ctx, operands, x.ty);
    if r.as_ref().is_some_and(IntConst::is_zero) {
        return fold_to_value(x.rhs);
    }
    if r.as_ref().is_some_and(IntConst::is_all_ones) {
        return fold_to_value(x.lhs);
    }
    if not_of(ctx, ir, x.rhs) == Some(x.lhs) || not_of(ctx, ir, x.lhs) == Some(x.rhs) {
        return zero(ctx, x.ty);
    }
    if let Some(prev) = and_of_and(ctx, ir, &x) {
        return fold_to_value(prev);
    }
    eval(ctx, &x, |l, r| Some(l.and(r))).or_else(|| idempotent(&x))
}

/// `and(a, and(a, b))` in any operand order: the inner `and`.
fn and_of_and(ctx: &Context, ir: &Ir, x: &Inputs) -> Option<Value> {
    for (prev, other) in [(x.lhs, x.rhs), (x.rhs, x.lhs)] {
        if let Some((a, b)) = operands_of(ctx, ir, prev, ANDI.name)
            && (other == a || other == b)
        {
            return Some(prev);
        }
    }
    None
}

/// `op(x, x)` is `x` (MLIR's `Idempotent` trait, tried after the op's folder).
fn idempotent(x: &Inputs) -> Option<Vec<FoldResult>> {
    (x.lhs == x.rhs).then(|| vec![FoldResult::Value(x.lhs)])
}

fn fold_ori(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if rhs_splat(ctx, operands, x.ty).as_ref().is_some_and(IntConst::is_zero) {
        return fold_to_value(x.lhs);
    }
    if x.r.as_ref().is_some_and(IntConst::is_all_ones) {
        return fold_to_attr(operands.get(1).copied().flatten()?);
    }
    // or(x, not x) and or(not x, x): all ones.
    if not_of(ctx, ir, x.rhs) == Some(x.lhs) || not_of(ctx, ir, x.lhs) == Some(x.rhs) {
        return fold_to_attr(splat_int(ctx, x.ty, -1)?);
    }
    eval(ctx, &x, |l, r| Some(l.or(r))).or_else(|| idempotent(&x))
}

fn fold_xori(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if rhs_splat(ctx, operands, x.ty).as_ref().is_some_and(IntConst::is_zero) {
        return fold_to_value(x.lhs);
    }
    if x.lhs == x.rhs {
        return fold_to_attr(splat_int(ctx, x.ty, 0)?);
    }
    // xor(xor(x, a), a), xor(a, xor(x, a)) and their mirrors: x.
    for (prev, other) in [(x.lhs, x.rhs), (x.rhs, x.lhs)] {
        if let Some((a, b)) = operands_of(ctx, ir, prev, XORI.name) {
            if b == other {
                return fold_to_value(a);
            }
            if a == other {
                return fold_to_value(b);
            }
        }
    }
    eval(ctx, &x, |l, r| Some(l.xor(r)))
}

// ----- canonicalization ---------------------------------------------------------------------

/// `op(ext x, ext y)` with one extension kind and `x`, `y` of one type: `ext(op(x, y))`.
static BITWISE_OF_EXTS: PatternDef = PatternDef { name: "arith-bitwise-of-exts", apply: bitwise_of_exts };

fn bitwise_of_exts(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 2 || ir.num_results(op) != 1 {
        return false;
    }
    let ext_of = |v: Value, name: &str| {
        let d = defined_by(ctx, ir, v, name)?;
        (ir.num_operands(d) == 1).then(|| ir.operand(d, 0))
    };
    let Some((kind, x, y)) = [EXTUI.name, EXTSI.name].into_iter().find_map(|kind| {
        let (x, y) = (ext_of(ir.operand(op, 0), kind)?, ext_of(ir.operand(op, 1), kind)?);
        (ir.value_type(x) == ir.value_type(y)).then_some((kind, x, y))
    }) else {
        return false;
    };
    let (name, loc, to, narrow) =
        (ctx.op_name_str(ir.op_name(op)).to_string(), ir.loc(op), ir.value_type(ir.result(op, 0)), ir.value_type(x));
    rw.set_insertion_point_before(op);
    let inner = rw.create_op(binary_state(rw.ctx(), &name, x, y, narrow, loc));
    let inner = rw.ir().result(inner, 0);
    let ext = rw.create_op(int_cast_state(rw.ctx(), kind, inner, to, loc));
    let ext = rw.ir().result(ext, 0);
    rw.replace_op(op, &[ext]);
    true
}

/// `xori(cmpi p, a, b), true` is `cmpi (not p), a, b`.
static XORI_NOT_CMPI: PatternDef = PatternDef { name: "arith-xori-not-cmpi", apply: xori_not_cmpi };

fn xori_not_cmpi(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 2 {
        return false;
    }
    let Some(cmp) = defined_by(ctx, ir, ir.operand(op, 0), CMPI.name).filter(|&c| ir.num_operands(c) == 2) else {
        return false;
    };
    let is_true = ir
        .defining_op(ir.operand(op, 1))
        .and_then(|d| ctx.op_def(ir.op_name(d)).and_then(|def| def.fold?(ctx, ir, d, &[])))
        .is_some_and(|r| matches!(r.as_slice(), [FoldResult::Attr(a)] if *a == ctx.bool_attr(true)));
    let Some(pred) = predicate(ctx, ir, cmp) else { return false };
    if !is_true {
        return false;
    }
    let (a, b, loc) = (ir.operand(cmp, 0), ir.operand(cmp, 1), ir.loc(op));
    let state = super::cmpi_state(ctx, ir, inverted(pred), a, b, loc);
    rw.set_insertion_point_before(op);
    let new = rw.create_op(state);
    let v = rw.ir().result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

/// The predicate that holds exactly when `p` does not.
fn inverted(p: CmpPredicate) -> CmpPredicate {
    use CmpPredicate::*;
    match p {
        Eq => Ne,
        Ne => Eq,
        Slt => Sge,
        Sge => Slt,
        Sle => Sgt,
        Sgt => Sle,
        Ult => Uge,
        Uge => Ult,
        Ule => Ugt,
        Ugt => Ule,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;

    #[test]
    fn identities_and_constants() {
        let mut b = Bench::new();
        let i8t = b.ctx.integer_type(8);
        let x = b.arg(i8t);
        let (zero, ones, c12, c10) = (b.int(i8t, 0), b.int(i8t, -1), b.int(i8t, 12), b.int(i8t, 10));
        let and0 = b.binary("arith.andi", x, zero);
        assert_eq!(b.fold_value(and0), Some(zero));
        let and1 = b.binary("arith.andi", x, ones);
        let or0 = b.binary("arith.ori", x, zero);
        let xor0 = b.binary("arith.xori", x, zero);
        let orxx = b.binary("arith.ori", x, x);
        for op in [and1, or0, xor0, orxx] {
            assert_eq!(b.fold_value(op), Some(x));
        }
        let xorxx = b.binary("arith.xori", x, x);
        assert_eq!(b.fold_int(xorxx), Some(0));
        let or1 = b.binary("arith.ori", x, ones);
        assert_eq!(b.fold_int(or1), Some(-1));
        let (a, o, e) =
            (b.binary("arith.andi", c12, c10), b.binary("arith.ori", c12, c10), b.binary("arith.xori", c12, c10));
        assert_eq!((b.fold_int(a), b.fold_int(o), b.fold_int(e)), (Some(8), Some(14), Some(6)));
    }

    #[test]
    fn not_and_nested_forms() {
        let mut b = Bench::new();
        let i8t = b.ctx.integer_type(8);
        let (x, y) = (b.arg(i8t), b.arg(i8t));
        let ones = b.int(i8t, -1);
        let not = b.binary("arith.xori", x, ones);
        let not = b.ir.result(not, 0);
        let and_not = b.binary("arith.andi", not, x);
        assert_eq!(b.fold_int(and_not), Some(0));
        let inner = b.binary("arith.andi", x, y);
        let inner_v = b.ir.result(inner, 0);
        let outer = b.binary("arith.andi", y, inner_v);
        assert_eq!(b.fold_value(outer), Some(inner_v));
        let xy = b.binary("arith.xori", x, y);
        let xy = b.ir.result(xy, 0);
        let back = b.binary("arith.xori", y, xy);
        assert_eq!(b.fold_value(back), Some(x));
        assert_eq!(inverted(CmpPredicate::Slt), CmpPredicate::Sge);
    }
}
