//! The integer min/max ops `arith.maxsi`, `maxui`, `minsi`, `minui`: commutative, two operands
//! and a result of one signless-integer-like type, custom form `arith.maxsi %a, %b : i32`.
//!
//! Folders follow MLIR: `op(x, x)` is `x`; a constant right operand at the op's extreme
//! absorbs (`maxsi(x, INT_MAX)` is that constant) or vanishes (`maxsi(x, INT_MIN)` is `x`);
//! constants are evaluated elementwise.

use super::binary::{eval, inputs};
use super::binary_syntax::INT_BINARY_HOOKS;
use super::{MOVE_CONSTANT_RIGHT, SIGNLESS_INTEGER_LIKE, fold_to_value};
use crate::support::IntConst;
use fuser_ir::apint::ApInt;
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::registry::FoldResult;

macro_rules! minmax_op {
    ($name:ident, $mnemonic:literal, $summary:literal, $fold:ident) => {
        fuser_ir::declare_op! {
            pub static $name: $mnemonic {
                summary: $summary,
                description: concat!($summary, " of two integers (elementwise for vectors and tensors).\n\n\
```mlir\n%0 = ", $mnemonic, " %a, %b : i32\n```"),
                traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
                operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
                results: { result: SIGNLESS_INTEGER_LIKE },
                hook_set: INT_BINARY_HOOKS,
                hooks: { fold: $fold, canonicalize: &[MOVE_CONSTANT_RIGHT] },
            }
        }
    };
}

minmax_op!(MAXSI, "arith.maxsi", "Signed maximum", fold_maxsi);
minmax_op!(MAXUI, "arith.maxui", "Unsigned maximum", fold_maxui);
minmax_op!(MINSI, "arith.minsi", "Signed minimum", fold_minsi);
minmax_op!(MINUI, "arith.minui", "Unsigned minimum", fold_minui);

/// The shared folder: `absorbs(r)` makes the constant `r` the result, `neutral(r)` makes `x`
/// the result; `pick(l, r)` is true when `l` is the result of two constants.
fn fold_minmax(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    operands: &[Option<Attr>],
    absorbs: impl Fn(&IntConst) -> bool,
    neutral: impl Fn(&IntConst) -> bool,
    pick_left: impl Fn(&ApInt, &ApInt) -> bool,
) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.lhs == x.rhs {
        return fold_to_value(x.rhs);
    }
    if let Some(r) = &x.r {
        if absorbs(r) {
            return fold_to_value(x.rhs);
        }
        if neutral(r) {
            return fold_to_value(x.lhs);
        }
    }
    eval(ctx, &x, |l, r| Some(if pick_left(l, r) { l.to_apint() } else { r.to_apint() }))
}

fn fold_maxsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_minmax(ctx, ir, op, operands, IntConst::is_signed_max, IntConst::is_signed_min, |l, r| !l.slt(r))
}

fn fold_maxui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_minmax(ctx, ir, op, operands, IntConst::is_all_ones, IntConst::is_zero, |l, r| !l.ult(r))
}

fn fold_minsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_minmax(ctx, ir, op, operands, IntConst::is_signed_min, IntConst::is_signed_max, |l, r| l.sle(r))
}

fn fold_minui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_minmax(ctx, ir, op, operands, IntConst::is_zero, IntConst::is_all_ones, |l, r| l.ule(r))
}
