//! The binary integer ops `arith.addi`, `subi`, `muli` (with overflow flags), `divsi`, `divui`,
//! `remsi`, `remui`: two operands and a result of one signless-integer-like type. Custom form
//! `arith.addi %a, %b (overflow<nsw, nuw>)? {attrs}? : i32`.
//!
//! Folders follow MLIR: identities (`x+0`, `x-0`, `x*1`, `x/1`), absorbing values (`x*0`,
//! `x%1`), `x-x`, `(a-b)+b`, `(a+b)-b`, and constant evaluation with wrap-around in the type's
//! width, at any width (`ApInt` arithmetic). Division and remainder by zero, and
//! `divsi INT_MIN, -1`, are left alone.

use super::binary_syntax::{INT_BINARY_FLAGS_HOOKS, INT_BINARY_HOOKS, OVERFLOW_FLAGS};
use super::{MOVE_CONSTANT_RIGHT, SIGNLESS_INTEGER_LIKE, defined_by, fold_to_attr, fold_to_value, splat_int};
use crate::support::{IntConst, int_attr, int_const};
use fuser_ir::apint::ApInt;
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::registry::FoldResult;
use fuser_ir::types::Type;

// ----- the ops ------------------------------------------------------------------------------

fuser_ir::declare_op! {
    pub static ADDI: "arith.addi" {
        summary: "Adds two integers (wrapping)",
        description: "Adds two integers modulo 2^n, where n is the bit width (64 for `index`). \
`nsw`/`nuw` promise that the addition does not overflow as a signed/unsigned operation (the \
result is poison otherwise).\n\n\
```mlir\n%0 = arith.addi %a, %b : i32\n%1 = arith.addi %a, %b overflow<nsw> : index\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        properties: { overflowFlags: OVERFLOW_FLAGS },
        hook_set: INT_BINARY_FLAGS_HOOKS,
        hooks: { fold: fold_addi, canonicalize: &[MOVE_CONSTANT_RIGHT, super::int_patterns::ADDI_PATTERNS] },
    }
}

fuser_ir::declare_op! {
    pub static SUBI: "arith.subi" {
        summary: "Subtracts two integers (wrapping)",
        description: "Subtracts the second operand from the first modulo 2^n. Overflow flags as for \
`arith.addi`.\n\n```mlir\n%0 = arith.subi %a, %b : i64\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        properties: { overflowFlags: OVERFLOW_FLAGS },
        hook_set: INT_BINARY_FLAGS_HOOKS,
        hooks: { fold: fold_subi, canonicalize: &[super::int_patterns::SUBI_PATTERNS] },
    }
}

fuser_ir::declare_op! {
    pub static MULI: "arith.muli" {
        summary: "Multiplies two integers (wrapping)",
        description: "Multiplies two integers modulo 2^n (the low n bits of the product). Overflow \
flags as for `arith.addi`.\n\n```mlir\n%0 = arith.muli %a, %b overflow<nsw, nuw> : i32\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        properties: { overflowFlags: OVERFLOW_FLAGS },
        hook_set: INT_BINARY_FLAGS_HOOKS,
        hooks: { fold: fold_muli, canonicalize: &[MOVE_CONSTANT_RIGHT, super::int_patterns::MULI_MULI_CONSTANT] },
    }
}

fuser_ir::declare_op! {
    pub static DIVSI: "arith.divsi" {
        summary: "Signed division rounding towards zero",
        description: "Divides two integers read as two's complement, rounding towards zero. \
Division by zero and `INT_MIN / -1` are undefined behaviour.\n\n\
```mlir\n%0 = arith.divsi %a, %b : i32\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        hook_set: INT_BINARY_HOOKS,
        hooks: { fold: fold_divsi },
    }
}

fuser_ir::declare_op! {
    pub static DIVUI: "arith.divui" {
        summary: "Unsigned division",
        description: "Divides two integers read as unsigned numbers, rounding towards zero. \
Division by zero is undefined behaviour.\n\n```mlir\n%0 = arith.divui %a, %b : index\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        hook_set: INT_BINARY_HOOKS,
        hooks: { fold: fold_divui },
    }
}

fuser_ir::declare_op! {
    pub static REMSI: "arith.remsi" {
        summary: "Remainder of signed division",
        description: "The remainder of signed division; its sign is that of the dividend. A zero \
divisor is undefined behaviour.\n\n```mlir\n%0 = arith.remsi %a, %b : i32\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        hook_set: INT_BINARY_HOOKS,
        hooks: { fold: fold_remsi },
    }
}

fuser_ir::declare_op! {
    pub static REMUI: "arith.remui" {
        summary: "Remainder of unsigned division",
        description: "The remainder of unsigned division. A zero divisor is undefined \
behaviour.\n\n```mlir\n%0 = arith.remui %a, %b : i32\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: SIGNLESS_INTEGER_LIKE },
        hook_set: INT_BINARY_HOOKS,
        hooks: { fold: fold_remui },
    }
}

// ----- folders ------------------------------------------------------------------------------

/// The operands, result type and known constant operands of a well-formed binary op.
pub(super) struct Inputs {
    pub lhs: Value,
    pub rhs: Value,
    pub ty: Type,
    pub r: Option<IntConst>,
    /// The constant operands as given (scalars, splats or element lists).
    pub la: Option<Attr>,
    pub ra: Option<Attr>,
}

pub(super) fn inputs(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Inputs> {
    if ir.num_operands(op) != 2 || ir.num_results(op) != 1 {
        return None;
    }
    let ty = ir.value_type(ir.result(op, 0));
    // Scalars, or the elements of splats of the op's vector/tensor type.
    let known = |i: usize| {
        let scalar = super::splat_scalar(ctx, operands.get(i).copied().flatten()?, ty)?;
        crate::support::int_const(ctx, scalar).map(|(c, _)| c)
    };
    let attr = |i: usize| operands.get(i).copied().flatten();
    Some(Inputs { lhs: ir.operand(op, 0), rhs: ir.operand(op, 1), ty, r: known(1), la: attr(0), ra: attr(1) })
}

/// Evaluates `f` on two constants of one width, elementwise for vectors and tensors; `f`
/// returns `None` to refuse (e.g. `x / 0`), which refuses the whole fold.
pub(super) fn eval(
    ctx: &Context,
    x: &Inputs,
    f: impl Fn(&IntConst, &IntConst) -> Option<ApInt>,
) -> Option<Vec<FoldResult>> {
    let elem = crate::support::element_type(ctx, x.ty);
    let folded = super::elementwise::map2(ctx, x.la, x.ra, x.ty, x.ty, |a, b| {
        let (l, r) = (int_const(ctx, a)?.0, int_const(ctx, b)?.0);
        Some(int_attr(ctx, elem, IntConst(f(&l, &r)?)))
    })?;
    fold_to_attr(folded)
}

/// Evaluates like the MLIR folders whose element closure overwrites one shared flag (the
/// shifts' "bounded", `floordivsi`'s "overflow or division by zero"): every element is computed
/// (`f` gives its bits and whether it is valid), and only the validity of the last element
/// evaluated decides whether the op folds.
pub(super) fn eval_last(
    ctx: &Context,
    x: &Inputs,
    f: impl Fn(&IntConst, &IntConst) -> (ApInt, bool),
) -> Option<Vec<FoldResult>> {
    let last_ok = std::cell::Cell::new(false);
    let folded = eval(ctx, x, |l, r| {
        let (bits, ok) = f(l, r);
        last_ok.set(ok);
        Some(bits)
    })?;
    last_ok.get().then_some(folded)
}

/// A zero of the op's type (scalar or splat).
pub(super) fn zero(ctx: &Context, ty: Type) -> Option<Vec<FoldResult>> {
    fold_to_attr(splat_int(ctx, ty, 0)?)
}

/// The operands `(a, b)` of `v` when `v` is produced by op `name`.
pub(super) fn operands_of(ctx: &Context, ir: &Ir, v: Value, name: &str) -> Option<(Value, Value)> {
    let d = defined_by(ctx, ir, v, name)?;
    (ir.num_operands(d) == 2).then(|| (ir.operand(d, 0), ir.operand(d, 1)))
}

fn fold_addi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_zero) {
        return fold_to_value(x.lhs);
    }
    // (a - b) + b  and  b + (a - b)  ->  a
    if let Some((a, _)) = operands_of(ctx, ir, x.lhs, SUBI.name).filter(|&(_, b)| b == x.rhs) {
        return fold_to_value(a);
    }
    if let Some((a, _)) = operands_of(ctx, ir, x.rhs, SUBI.name).filter(|&(_, b)| b == x.lhs) {
        return fold_to_value(a);
    }
    eval(ctx, &x, |l, r| Some(l.add(r)))
}

fn fold_subi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.lhs == x.rhs {
        return zero(ctx, x.ty);
    }
    if x.r.as_ref().is_some_and(IntConst::is_zero) {
        return fold_to_value(x.lhs);
    }
    // (a + b) - b  and  (b + a) - b  ->  a
    if let Some((a, b)) = operands_of(ctx, ir, x.lhs, ADDI.name) {
        if b == x.rhs {
            return fold_to_value(a);
        }
        if a == x.rhs {
            return fold_to_value(b);
        }
    }
    eval(ctx, &x, |l, r| Some(l.sub(r)))
}

fn fold_muli(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    // `x * 0` is the zero operand itself, as in MLIR (no new constant).
    if x.r.as_ref().is_some_and(IntConst::is_zero) {
        return fold_to_value(x.rhs);
    }
    if x.r.as_ref().is_some_and(IntConst::is_one) {
        return fold_to_value(x.lhs);
    }
    eval(ctx, &x, |l, r| Some(l.mul(r)))
}

fn fold_divui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_one) {
        return fold_to_value(x.lhs);
    }
    eval(ctx, &x, |l, r| l.udiv(r))
}

fn fold_divsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_one) {
        return fold_to_value(x.lhs);
    }
    eval(ctx, &x, |l, r| {
        if r.is_zero() || (l.is_signed_min() && r.is_all_ones()) {
            return None;
        }
        l.sdiv(r)
    })
}

fn fold_remui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_one) {
        return zero(ctx, x.ty);
    }
    eval(ctx, &x, |l, r| l.urem(r))
}

fn fold_remsi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_one) {
        return zero(ctx, x.ty);
    }
    eval(ctx, &x, |l, r| l.srem(r))
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;

    #[test]
    fn identities() {
        let mut b = Bench::new();
        let i32t = b.ctx.integer_type(32);
        let x = b.arg(i32t);
        let (c0, c1) = (b.int(i32t, 0), b.int(i32t, 1));
        let add0 = b.binary("arith.addi", x, c0);
        let sub0 = b.binary("arith.subi", x, c0);
        let mul1 = b.binary("arith.muli", x, c1);
        let divs1 = b.binary("arith.divsi", x, c1);
        let divu1 = b.binary("arith.divui", x, c1);
        for op in [add0, sub0, mul1, divs1, divu1] {
            assert_eq!(b.fold_value(op), Some(x), "{}", b.ctx.op_name_str(b.ir.op_name(op)));
        }
        let mul0 = b.binary("arith.muli", x, c0);
        assert_eq!(b.fold_value(mul0), Some(c0), "x * 0 is the zero operand");
        let subxx = b.binary("arith.subi", x, x);
        let rems1 = b.binary("arith.remsi", x, c1);
        let remu1 = b.binary("arith.remui", x, c1);
        for op in [subxx, rems1, remu1] {
            assert_eq!(b.fold_int(op), Some(0));
        }
    }

    #[test]
    fn add_sub_cancellation() {
        let mut b = Bench::new();
        let i32t = b.ctx.integer_type(32);
        let (a, c) = (b.arg(i32t), b.arg(i32t));
        let s = b.binary("arith.subi", a, c);
        let s = b.ir.result(s, 0);
        let r1 = b.binary("arith.addi", s, c);
        let r2 = b.binary("arith.addi", c, s);
        let p = b.binary("arith.addi", a, c);
        let p = b.ir.result(p, 0);
        let r3 = b.binary("arith.subi", p, c);
        let r4 = b.binary("arith.subi", p, a);
        assert_eq!(b.fold_value(r1), Some(a));
        assert_eq!(b.fold_value(r2), Some(a));
        assert_eq!(b.fold_value(r3), Some(a));
        assert_eq!(b.fold_value(r4), Some(c));
    }

    #[test]
    fn constants_wrap_in_their_width() {
        let mut b = Bench::new();
        let i8t = b.ctx.integer_type(8);
        let (c127, c1) = (b.int(i8t, 127), b.int(i8t, 1));
        let add = b.binary("arith.addi", c127, c1);
        assert_eq!(b.fold_int(add), Some(-128));
        let i32t = b.ctx.integer_type(32);
        let (c3, c5) = (b.int(i32t, 3), b.int(i32t, 5));
        let sub = b.binary("arith.subi", c3, c5);
        let mul = b.binary("arith.muli", c3, c5);
        assert_eq!(b.fold_int(sub), Some(-2));
        assert_eq!(b.fold_int(mul), Some(15));
        let idx = b.ctx.index_type();
        let (big, two) = (b.int(idx, i64::MAX), b.int(idx, 2));
        let mul = b.binary("arith.muli", big, two);
        assert_eq!(b.fold_int(mul), Some(-2));
    }

    #[test]
    fn division_edge_cases() {
        let mut b = Bench::new();
        let i32t = b.ctx.integer_type(32);
        let x = b.arg(i32t);
        let (c0, cm1, c7, cmin) = (b.int(i32t, 0), b.int(i32t, -1), b.int(i32t, 7), b.int(i32t, i32::MIN as i64));
        let by_zero = b.binary("arith.divsi", x, c0);
        let overflow = b.binary("arith.divsi", cmin, cm1);
        let rem_by_zero = b.binary("arith.remui", c7, c0);
        let const_by_zero = b.binary("arith.divui", c7, c0);
        for op in [by_zero, overflow, rem_by_zero, const_by_zero] {
            assert_eq!(b.fold(op), None);
        }
        let s = b.binary("arith.divsi", c7, cm1);
        let u = b.binary("arith.divui", cm1, c7);
        let rs = b.binary("arith.remsi", cmin, cm1);
        let ru = b.binary("arith.remui", cm1, c7);
        let neg = b.int(i32t, -7);
        let rsn = b.binary("arith.remsi", neg, c7);
        assert_eq!(b.fold_int(s), Some(-7));
        assert_eq!(b.fold_int(u), Some(613566756));
        assert_eq!(b.fold_int(rs), Some(0));
        assert_eq!(b.fold_int(ru), Some(3));
        assert_eq!(b.fold_int(rsn), Some(0));
    }

    #[test]
    fn verifier_messages() {
        let mut b = Bench::new();
        let i32t = b.ctx.integer_type(32);
        let f32t = b.ctx.float_type(fuser_ir::types::FloatKind::F32);
        let x = b.arg(i32t);
        let y = b.arg(f32t);
        let ok = b.binary("arith.addi", x, x);
        assert_eq!(b.verify(ok), Ok(()));
        let bad = b.binary("arith.addi", y, y);
        assert_eq!(
            b.verify(bad),
            Err("'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'".into())
        );
        let mut one = b.empty("arith.addi");
        one.operands = vec![x];
        one.result_types = vec![i32t];
        let one = b.op(one);
        assert_eq!(b.verify(one), Err("'arith.addi' op expected 2 operands, but found 1".into()));
    }
}
