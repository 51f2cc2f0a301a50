//! The extended integer ops with two results: `arith.addui_extended` (sum and unsigned carry,
//! `%sum, %overflow = arith.addui_extended %a, %b : i32, i1`) and `arith.mulsi_extended` /
//! `arith.mului_extended` (low and high halves of the double-width product,
//! `%low, %high = arith.mulsi_extended %a, %b : i32`).
//!
//! Verification follows MLIR's order: the declared constraints, the `AllTypesMatch` of the
//! operands with the same-typed results, then the `ElementwiseMappable` shape rules. Folders
//! and canonicalization patterns follow MLIR: `x + 0`, `x * 0`, `mului_extended(x, 1)`,
//! constants elementwise at any width, and an unused carry or high half turns the
//! op into `addi`/`muli`; `mulsi_extended(x, 1)` becomes `x` and the sign of `x`.

use super::{ADDI, BOOL_LIKE, EXTSI, MULI, SIGNLESS_INTEGER_LIKE, bool_like_of};
use crate::support::{IntConst, ap_attr, element_type, empty_state, int_const, printed_attr_dict};
use fuser_ir::apint::ApInt;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, PatternDef, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::Type;

fuser_ir::declare_op! {
    pub static ADDUI_EXTENDED: "arith.addui_extended" {
        summary: "Adds two integers with an unsigned carry",
        description: "Adds two integers modulo 2^n and also returns the carry: `true` when the \
unsigned sum overflows.\n\n```mlir\n%sum, %overflow = arith.addui_extended %a, %b : i64, i1\n```",
        traits: [PURE | COMMUTATIVE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { sum: SIGNLESS_INTEGER_LIKE, overflow: BOOL_LIKE },
        hooks: {
            verify: verify_addui_extended,
            fold: fold_addui_extended,
            canonicalize: &[super::MOVE_CONSTANT_RIGHT, ADDUI_EXTENDED_TO_ADDI],
            parse: parse_addui_extended,
            print: print_addui_extended,
            result_names: |_, ir, op, set| name_results(ir, op, set, ["sum", "overflow"]),
        },
    }
}

fuser_ir::declare_op! {
    pub static MULSI_EXTENDED: "arith.mulsi_extended" {
        summary: "Signed multiplication with the high half",
        description: "Multiplies two integers read as two's complement and returns the low and \
the high n bits of the 2n-bit product.\n\n```mlir\n%low, %high = arith.mulsi_extended %a, %b : i32\n```",
        traits: [PURE | COMMUTATIVE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { low: SIGNLESS_INTEGER_LIKE, high: SIGNLESS_INTEGER_LIKE },
        hooks: {
            verify: verify_mul_extended,
            fold: fold_mulsi_extended,
            canonicalize: &[super::MOVE_CONSTANT_RIGHT, MULSI_EXTENDED_TO_MULI, MULSI_EXTENDED_RHS_ONE],
            parse: parse_mul_extended,
            print: print_mul_extended,
            result_names: |_, ir, op, set| name_results(ir, op, set, ["low", "high"]),
        },
    }
}

fuser_ir::declare_op! {
    pub static MULUI_EXTENDED: "arith.mului_extended" {
        summary: "Unsigned multiplication with the high half",
        description: "Multiplies two integers read as unsigned numbers and returns the low and \
the high n bits of the 2n-bit product.\n\n```mlir\n%low, %high = arith.mului_extended %a, %b : i32\n```",
        traits: [PURE | COMMUTATIVE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { low: SIGNLESS_INTEGER_LIKE, high: SIGNLESS_INTEGER_LIKE },
        hooks: {
            verify: verify_mul_extended,
            fold: fold_mului_extended,
            canonicalize: &[super::MOVE_CONSTANT_RIGHT, MULUI_EXTENDED_TO_MULI],
            parse: parse_mul_extended,
            print: print_mul_extended,
            result_names: |_, ir, op, set| name_results(ir, op, set, ["low", "high"]),
        },
    }
}

fn name_results(ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String), names: [&str; 2]) {
    for (&r, name) in ir.results(op).iter().zip(names) {
        set(r, name.to_string());
    }
}

/// The state of an extended op `name` on `lhs`, `rhs` (results typed as MLIR infers them).
pub fn extended_state(ctx: &Context, name: &str, lhs: Value, rhs: Value, ty: Type, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = vec![lhs, rhs];
    let second = if name == ADDUI_EXTENDED.name { bool_like_of(ctx, ty) } else { ty };
    state.result_types = vec![ty, second];
    state
}

// ----- verifiers ----------------------------------------------------------------------------

fn verify_addui_extended(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_all_match(v, op, &[0, 1], &[0], "{lhs, rhs, sum}")?;
    super::verify_elementwise(v, op)
}

fn verify_mul_extended(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_all_match(v, op, &[0, 1], &[0, 1], "{lhs, rhs, low, high}")?;
    super::verify_elementwise(v, op)
}

/// `AllTypesMatch` over the given operands and results.
fn verify_all_match(
    v: &VerifyCtx<'_>,
    op: OpId,
    operands: &[usize],
    results: &[usize],
    names: &str,
) -> Result<(), Diagnostic> {
    let ir = v.ir;
    let types: Vec<Type> = operands
        .iter()
        .map(|&i| ir.value_type(ir.operand(op, i)))
        .chain(results.iter().map(|&i| ir.value_type(ir.result(op, i))))
        .collect();
    if types.iter().any(|&t| t != types[0]) {
        return Err(v.op_error(op, format!("failed to verify that all of {names} have same type")));
    }
    Ok(())
}

// ----- syntax -------------------------------------------------------------------------------

/// `%a, %b {attrs}? : T, U`.
fn parse_addui_extended(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let (lhs, rhs, entries) = parse_operands_and_attrs(p)?;
    let sum = p.parse_type()?;
    p.parse_punct(Punct::Comma)?;
    let overflow = p.parse_type()?;
    state.operands = vec![p.resolve_operand(&lhs, sum)?, p.resolve_operand(&rhs, sum)?];
    state.result_types = vec![sum, overflow];
    state.attrs = p.ctx().dictionary(entries);
    Ok(())
}

/// `%a, %b {attrs}? : T`.
fn parse_mul_extended(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let (lhs, rhs, entries) = parse_operands_and_attrs(p)?;
    let ty = p.parse_type()?;
    state.operands = vec![p.resolve_operand(&lhs, ty)?, p.resolve_operand(&rhs, ty)?];
    state.result_types = vec![ty, ty];
    state.attrs = p.ctx().dictionary(entries);
    Ok(())
}

type Operands = (fuser_ir::asm::UnresolvedOperand, fuser_ir::asm::UnresolvedOperand, Vec<(fuser_ir::Ident, Attr)>);

/// `%a, %b {attrs}? :`.
fn parse_operands_and_attrs(p: &mut dyn OpAsmParser) -> ParseResult<Operands> {
    let lhs = p.parse_operand()?;
    p.parse_punct(Punct::Comma)?;
    let rhs = p.parse_operand()?;
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    p.parse_punct(Punct::Colon)?;
    Ok((lhs, rhs, entries))
}

fn print_addui_extended(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_extended(p, op, true);
}

fn print_mul_extended(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_extended(p, op, false);
}

fn print_extended(p: &mut dyn OpAsmPrinter, op: OpId, both_types: bool) {
    let (operands, types, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let types: Vec<Type> = ir.results(op).iter().map(|&r| ir.value_type(r)).collect();
        (ir.operands(op).to_vec(), types, printed_attr_dict(ctx, ir, op))
    };
    if operands.len() != 2 || types.len() != 2 {
        return;
    }
    p.write(" ");
    p.print_operands(&operands);
    p.print_optional_attr_dict(dict, &[]);
    p.write(" : ");
    p.print_type(types[0]);
    if both_types {
        p.write(", ");
        p.print_type(types[1]);
    }
}

// ----- folders ------------------------------------------------------------------------------

/// The operands, operand type and constant operands of a well-formed extended op.
struct Inputs {
    lhs: Value,
    ty: Type,
    la: Option<Attr>,
    ra: Option<Attr>,
    /// The right operand's value when it is a scalar or splat constant.
    r: Option<IntConst>,
}

fn inputs(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Inputs> {
    if ir.num_operands(op) != 2 || ir.num_results(op) != 2 {
        return None;
    }
    let ty = ir.value_type(ir.operand(op, 0));
    let attr = |i: usize| operands.get(i).copied().flatten();
    let r = attr(1).and_then(|a| super::splat_scalar(ctx, a, ty)).and_then(|s| int_const(ctx, s)).map(|c| c.0);
    Some(Inputs { lhs: ir.operand(op, 0), ty, la: attr(0), ra: attr(1), r })
}

/// Evaluates `f` elementwise on the constant operands into a constant of `result_ty` whose
/// elements have `width` bits.
fn eval(ctx: &Context, x: &Inputs, result_ty: Type, f: impl Fn(&ApInt, &ApInt) -> ApInt) -> Option<Attr> {
    let elem = element_type(ctx, result_ty);
    super::elementwise::map2(ctx, x.la, x.ra, x.ty, result_ty, |a, b| {
        let value = f(&int_const(ctx, a)?.0, &int_const(ctx, b)?.0);
        Some(ap_attr(ctx, elem, value))
    })
}

fn fold_addui_extended(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    let carry_ty = ir.value_type(ir.result(op, 1));
    if x.r.as_ref().is_some_and(IntConst::is_zero) {
        let no_carry = super::splat_int(ctx, carry_ty, 0)?;
        return Some(vec![FoldResult::Value(x.lhs), FoldResult::Attr(no_carry)]);
    }
    let sum = eval(ctx, &x, x.ty, |l, r| l.add(r))?;
    // The carry compares the sum with the left operand, elementwise.
    let carry = super::elementwise::map2(ctx, Some(sum), x.la, x.ty, carry_ty, |s, l| {
        Some(ctx.bool_attr(int_const(ctx, s)?.0.ult(&int_const(ctx, l)?.0)))
    })?;
    Some(vec![FoldResult::Attr(sum), FoldResult::Attr(carry)])
}

/// The `2 * width`-bit product's high half, for widths up to 64.
/// The high half of the double-width product (`APIntOps::mulhs` / `mulhu`).
fn mul_high(l: &ApInt, r: &ApInt, signed: bool) -> ApInt {
    let product = if signed { l.widening_mul_signed(r) } else { l.widening_mul_unsigned(r) };
    product.lshr(l.width()).zext_or_trunc(l.width())
}

fn fold_mul_extended(ctx: &Context, x: &Inputs, signed: bool) -> Option<Vec<FoldResult>> {
    let low = eval(ctx, x, x.ty, |l, r| l.mul(r))?;
    let high = eval(ctx, x, x.ty, |l, r| mul_high(l, r, signed))?;
    Some(vec![FoldResult::Attr(low), FoldResult::Attr(high)])
}

fn fold_mulsi_extended(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_zero) {
        let zero = x.ra?;
        return Some(vec![FoldResult::Attr(zero), FoldResult::Attr(zero)]);
    }
    fold_mul_extended(ctx, &x, true)
}

fn fold_mului_extended(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ctx, ir, op, operands)?;
    if x.r.as_ref().is_some_and(IntConst::is_zero) {
        let zero = super::splat_int(ctx, x.ty, 0)?;
        return Some(vec![FoldResult::Attr(zero), FoldResult::Attr(zero)]);
    }
    if x.r.as_ref().is_some_and(IntConst::is_one) {
        let zero = super::splat_int(ctx, x.ty, 0)?;
        return Some(vec![FoldResult::Value(x.lhs), FoldResult::Attr(zero)]);
    }
    fold_mul_extended(ctx, &x, false)
}

// ----- canonicalization patterns ------------------------------------------------------------

/// `addui_extended` whose carry is unused: `addi`.
static ADDUI_EXTENDED_TO_ADDI: PatternDef =
    PatternDef { name: "arith-addui-extended-to-addi", apply: |rw, op| to_plain(rw, op, ADDI.name) };
/// `mulsi_extended` whose high half is unused: `muli`.
static MULSI_EXTENDED_TO_MULI: PatternDef =
    PatternDef { name: "arith-mulsi-extended-to-muli", apply: |rw, op| to_plain(rw, op, MULI.name) };
/// `mului_extended` whose high half is unused: `muli`.
static MULUI_EXTENDED_TO_MULI: PatternDef =
    PatternDef { name: "arith-mului-extended-to-muli", apply: |rw, op| to_plain(rw, op, MULI.name) };
/// `mulsi_extended x, 1`: `x`, and `extsi (cmpi slt, x, 0)` as the high half.
static MULSI_EXTENDED_RHS_ONE: PatternDef =
    PatternDef { name: "arith-mulsi-extended-rhs-one", apply: mulsi_extended_rhs_one };

fn to_plain(rw: &mut dyn Rewriter, op: OpId, name: &str) -> bool {
    let ir = rw.ir();
    if ir.num_operands(op) != 2 || ir.num_results(op) != 2 || ir.has_uses(ir.result(op, 1)) {
        return false;
    }
    let (lhs, rhs, ty, loc) = (ir.operand(op, 0), ir.operand(op, 1), ir.value_type(ir.result(op, 0)), ir.loc(op));
    rw.set_insertion_point_before(op);
    let state = super::binary_state(rw.ctx(), name, lhs, rhs, ty, loc);
    let plain = rw.create_op(state);
    let sum = rw.ir().result(plain, 0);
    let unused = rw.ir().result(op, 1);
    rw.replace_op(op, &[sum, unused]);
    true
}

fn mulsi_extended_rhs_one(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 2 || ir.num_results(op) != 2 {
        return false;
    }
    let (x, one) = (ir.operand(op, 0), ir.operand(op, 1));
    let ty = ir.value_type(x);
    // MLIR's `IsScalarOrSplatOne` wants a strictly positive 1: not `true` of `i1`.
    if super::bitwise::constant_of(ctx, ir, one).is_none_or(|c| !c.is_one() || c.width() == 1) {
        return false;
    }
    let loc = ir.loc(op);
    let Some(zero) = super::splat_int(ctx, ty, 0) else { return false };
    let Some(zero_state) = super::constant_state(ctx, zero, loc) else { return false };
    rw.set_insertion_point_before(op);
    let zero = rw.create_op(zero_state);
    let zero = rw.ir().result(zero, 0);
    let cmp_state = super::cmpi_state(rw.ctx(), rw.ir(), super::CmpPredicate::Slt, x, zero, loc);
    let cmp = rw.create_op(cmp_state);
    let cmp = rw.ir().result(cmp, 0);
    let ext = rw.create_op(super::int_cast_state(rw.ctx(), EXTSI.name, cmp, ty, loc));
    let ext = rw.ir().result(ext, 0);
    rw.replace_op(op, &[x, ext]);
    true
}
