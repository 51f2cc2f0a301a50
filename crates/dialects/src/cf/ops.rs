//! The four `cf` ops: declarations, custom syntax (mlir-opt-19's assembly formats) and
//! verifiers.
//!
//! - `cf.assert %c, "message"`;
//! - `cf.br ^bb1(%a, %b : i32, i32)` (the parenthesized list only when operands are passed);
//! - `cf.cond_br %c, ^bb1(%a : i32), ^bb2`;
//! - `cf.switch %flag : i32, [` newline `default: ^bb1(...),` newline `42: ^bb2(...)` newline `]`
//!   (with no cases the `]` follows the default destination on its line). Case values are
//!   printed as unsigned numbers of the flag's width, as MLIR does (`-1 : i32` prints
//!   `4294967295`).

use super::patterns::{ASSERT_PATTERNS, BR_PATTERNS, COND_BR_PATTERNS, SWITCH_PATTERNS};
use super::{
    append_successor_operand, case_values, case_values_attr, erase_successor_operand, i32_array, i32_array_attr,
    successor_operands, verify_successor_operands,
};
use crate::support::{inherent_attr, printed_attr_dict, split_inherent, value_types};
use fuser_ir::apint::ApInt;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::declare::{ANY_SUCCESSOR, ANY_TYPE, AttrConstraint, TypeConstraint};
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{BlockId, OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{Type, TypeKind};

fn is_i1(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { width: 1, signedness: fuser_ir::types::Signedness::Signless })
}
fn is_integer(ctx: &Context, t: Type) -> bool {
    ctx.type_kind(t).is_integer()
}
fn is_string(ctx: &Context, a: Attr) -> bool {
    ctx.attr_str(a).is_some()
}
fn is_i32_array(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::DenseArray { elem, .. } if matches!(ctx.type_kind(*elem), TypeKind::Integer { width: 32, .. }))
}
fn is_int_elements(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::DenseElements { ty, .. }
        if ctx.type_kind(*ty).element_type().is_some_and(|e| ctx.type_kind(e).is_integer()))
}

const I1: TypeConstraint = TypeConstraint::new("1-bit signless integer", is_i1);
const ANY_INTEGER: TypeConstraint = TypeConstraint::new("integer", is_integer);
const STRING: AttrConstraint = AttrConstraint::new("string attribute", is_string);
const I32_ARRAY: AttrConstraint = AttrConstraint::new("i32 dense array attribute", is_i32_array);
const INT_ELEMENTS: AttrConstraint = AttrConstraint::new("integer elements attribute", is_int_elements).optional();

fuser_ir::declare_op! {
    pub static ASSERT: "cf.assert" {
        summary: "Assert operation with message attribute",
        description: "Aborts the program with `msg` when `arg` is false (at run time); erased by \
canonicalization when `arg` is the constant `true`.\n\n```mlir\ncf.assert %b, \"Expected ... to be true\"\n```",
        operands: { arg: I1 },
        properties: { msg: STRING },
        hooks: { canonicalize: ASSERT_PATTERNS, parse: parse_assert, print: print_assert },
    }
}

fuser_ir::declare_op! {
    pub static BR: "cf.br" {
        summary: "Branch operation",
        description: "Transfers control to `dest`, passing `destOperands` as its block \
arguments.\n\n```mlir\ncf.br ^bb2(%a, %b : i32, f32)\n```",
        traits: [PURE | TERMINATOR],
        operands: { destOperands: ANY_TYPE.variadic() },
        successors: { dest: ANY_SUCCESSOR },
        hooks: {
            verify: verify_branch,
            canonicalize: BR_PATTERNS,
            parse: parse_br,
            print: print_br,
            successor_operands: successor_operands,
            erase_successor_operand: erase_successor_operand,
            append_successor_operand: append_successor_operand,
        },
    }
}

fuser_ir::declare_op! {
    pub static COND_BR: "cf.cond_br" {
        summary: "Conditional branch operation",
        description: "Transfers control to `trueDest` when `condition` is 1, else to \
`falseDest`, each with its own operands.\n\n```mlir\ncf.cond_br %c, ^bb1(%a : i32), ^bb2\n```",
        traits: [PURE | TERMINATOR],
        operands: { condition: I1, trueDestOperands: ANY_TYPE.variadic(), falseDestOperands: ANY_TYPE.variadic() },
        successors: { trueDest: ANY_SUCCESSOR, falseDest: ANY_SUCCESSOR },
        hooks: {
            verify: verify_branch,
            canonicalize: COND_BR_PATTERNS,
            parse: parse_cond_br,
            print: print_cond_br,
            successor_operands: successor_operands,
            erase_successor_operand: erase_successor_operand,
            append_successor_operand: append_successor_operand,
        },
    }
}

fuser_ir::declare_op! {
    pub static SWITCH: "cf.switch" {
        summary: "Switch operation",
        description: "Transfers control to the destination of the case whose value equals \
`flag`, or to the default destination.\n\n```mlir\ncf.switch %flag : i32, [\n  default: ^bb1(%a : i32),\n  42: ^bb2(%b : i32),\n  43: ^bb3\n]\n```",
        traits: [PURE | TERMINATOR],
        operands: { flag: ANY_INTEGER, defaultOperands: ANY_TYPE.variadic(), caseOperands: ANY_TYPE.variadic() },
        properties: { case_values: INT_ELEMENTS, case_operand_segments: I32_ARRAY },
        successors: { defaultDestination: ANY_SUCCESSOR, caseDestinations: ANY_SUCCESSOR.variadic() },
        hooks: {
            verify: verify_switch,
            canonicalize: SWITCH_PATTERNS,
            parse: parse_switch,
            print: print_switch,
            successor_operands: successor_operands,
            erase_successor_operand: erase_successor_operand,
            append_successor_operand: append_successor_operand,
        },
    }
}

// ----- verifiers ----------------------------------------------------------------------------

fn verify_branch(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_successor_operands(v.ctx, v.ir, op)
}

fn verify_switch(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    // The `VariadicOfVariadic` check of the declaration: case segments cover the case operands.
    let seg = inherent_attr(ctx, ir, op, "operandSegmentSizes").and_then(|a| i32_array(ctx, a));
    let case_count = seg.as_ref().and_then(|s| s.get(2).copied()).unwrap_or(0);
    let cases = inherent_attr(ctx, ir, op, "case_operand_segments").and_then(|a| i32_array(ctx, a)).unwrap_or_default();
    let total: i64 = cases.iter().sum();
    if total != case_count {
        return Err(v.op_error(
            op,
            format!(
                "caseOperands count ({case_count}) does not match with the total size ({total}) specified in attribute 'case_operand_segments'"
            ),
        ));
    }
    verify_successor_operands(ctx, ir, op)?;
    let dests = ir.successors(op).len() - 1;
    let values = inherent_attr(ctx, ir, op, "case_values");
    if values.is_none() && dests == 0 {
        return Ok(());
    }
    let flag = ir.value_type(ir.operand(op, 0));
    let (elem, count) = match values.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::DenseElements { ty, .. }) => {
            let k = ctx.type_kind(*ty);
            (k.element_type(), k.shape().map(|s| s.iter().product::<i64>()).unwrap_or(0))
        }
        _ => (None, 0),
    };
    if let Some(elem) = elem
        && elem != flag
    {
        let (f, e) = (crate::support::type_str(ctx, flag), crate::support::type_str(ctx, elem));
        return Err(v.op_error(op, format!("'flag' type ('{f}') should match case value type ('{e}')")));
    }
    if count != dests as i64 {
        return Err(v.op_error(
            op,
            format!("number of case values ({count}) should match number of case destinations ({dests})"),
        ));
    }
    Ok(())
}

// ----- custom syntax ------------------------------------------------------------------------

/// `^bb` followed by `(%a, ... : t, ...)` when present.
fn parse_successor_and_operands(p: &mut dyn OpAsmParser) -> ParseResult<(BlockId, Vec<Value>)> {
    let dest = p.parse_successor()?;
    let mut values = Vec::new();
    if p.parse_optional_punct(Punct::LParen) {
        let operands = p.parse_operand_list()?;
        p.parse_punct(Punct::Colon)?;
        let types = p.parse_type_list()?;
        p.parse_punct(Punct::RParen)?;
        if operands.len() != types.len() {
            let msg = format!("{} operands present, but expected {}", operands.len(), types.len());
            return Err(p.emit_error(&msg));
        }
        for (u, t) in operands.iter().zip(types) {
            values.push(p.resolve_operand(u, t)?);
        }
    }
    Ok((dest, values))
}

fn print_successor_and_operands(p: &mut dyn OpAsmPrinter, dest: BlockId, values: &[Value]) {
    p.print_successor(dest);
    if values.is_empty() {
        return;
    }
    p.write("(");
    p.print_operands(values);
    p.write(" : ");
    let types = value_types(p.ir(), values);
    for (i, &t) in types.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
    }
    p.write(")");
}

/// Parses the trailing `attr-dict`, putting declared properties into the properties.
fn finish_attrs(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    mut props: Vec<(fuser_ir::attrs::Ident, Attr)>,
) -> ParseResult<()> {
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let ctx = p.ctx();
    let def = ctx.op_def(state.name).expect("cf ops are registered");
    let (inherent, attrs) = split_inherent(ctx, def, entries);
    props.extend(inherent);
    state.props = (!props.is_empty()).then(|| ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    Ok(())
}

/// The operands and successors of `op` in the ranges the op forwards to each successor.
fn successor_lists(p: &dyn OpAsmPrinter, op: OpId) -> Vec<(BlockId, Vec<Value>)> {
    let (ctx, ir) = (p.ctx(), p.ir());
    let operands = ir.operands(op);
    let ranges = successor_operands(ctx, ir, op).unwrap_or_else(|| vec![0..0; ir.successors(op).len()]);
    ir.successors(op).iter().zip(ranges).map(|(&b, r)| (b, operands[r].to_vec())).collect()
}

fn parse_assert(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let arg = p.parse_operand()?;
    p.parse_punct(Punct::Comma)?;
    let at = p.current_offset();
    let msg = p.parse_attribute(None)?;
    if p.ctx().attr_str(msg).is_none() {
        return Err(p.emit_error_at(at, "invalid kind of attribute specified"));
    }
    let i1 = p.ctx().i1_type();
    state.operands.push(p.resolve_operand(&arg, i1)?);
    let props = vec![(p.ctx().ident("msg"), msg)];
    finish_attrs(p, state, props)
}

fn print_assert(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (arg, msg, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operand(op, 0), inherent_attr(ctx, ir, op, "msg"), printed_attr_dict(ctx, ir, op))
    };
    p.write(" ");
    p.print_operand(arg);
    p.write(", ");
    if let Some(m) = msg {
        p.print_attribute(m);
    }
    p.print_optional_attr_dict(dict, &["msg"]);
}

fn parse_br(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let (dest, values) = parse_successor_and_operands(p)?;
    state.successors.push(dest);
    state.operands = values;
    finish_attrs(p, state, Vec::new())
}

fn print_br(p: &mut dyn OpAsmPrinter, op: OpId) {
    let dict = printed_attr_dict(p.ctx(), p.ir(), op);
    let lists = successor_lists(p, op);
    p.write(" ");
    if let Some((b, vs)) = lists.first() {
        print_successor_and_operands(p, *b, vs);
    }
    p.print_optional_attr_dict(dict, &[]);
}

fn parse_cond_br(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let cond = p.parse_operand()?;
    p.parse_punct(Punct::Comma)?;
    let (t, tv) = parse_successor_and_operands(p)?;
    p.parse_punct(Punct::Comma)?;
    let (f, fv) = parse_successor_and_operands(p)?;
    let i1 = p.ctx().i1_type();
    state.operands.push(p.resolve_operand(&cond, i1)?);
    state.operands.extend(tv.iter().copied());
    state.operands.extend(fv.iter().copied());
    state.successors = vec![t, f];
    let seg = i32_array_attr(p.ctx(), &[1, tv.len(), fv.len()]);
    let props = vec![(p.ctx().ident("operandSegmentSizes"), seg)];
    finish_attrs(p, state, props)
}

fn print_cond_br(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (cond, dict) = (p.ir().operand(op, 0), printed_attr_dict(p.ctx(), p.ir(), op));
    let lists = successor_lists(p, op);
    p.write(" ");
    p.print_operand(cond);
    for (b, vs) in &lists {
        p.write(", ");
        print_successor_and_operands(p, *b, vs);
    }
    p.print_optional_attr_dict(dict, &["operandSegmentSizes"]);
}

fn parse_switch(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let flag = p.parse_operand()?;
    p.parse_punct(Punct::Colon)?;
    let ty_at = p.current_offset();
    let ty = p.parse_type()?;
    let Some(width) = p.ctx().type_kind(ty).is_integer().then(|| p.ctx().type_kind(ty).int_or_float_width()).flatten()
    else {
        return Err(p.emit_error_at(ty_at, "invalid kind of type specified"));
    };
    p.parse_punct(Punct::Comma)?;
    p.parse_punct(Punct::LSquare)?;
    p.parse_keyword("default")?;
    p.parse_punct(Punct::Colon)?;
    let default = parse_successor_and_operands(p)?;
    let mut cases: Vec<(ApInt, (BlockId, Vec<Value>))> = Vec::new();
    while p.parse_optional_punct(Punct::Comma) {
        let value = parse_case_value(p)?;
        p.parse_punct(Punct::Colon)?;
        let dest = parse_successor_and_operands(p)?;
        cases.push((ApInt::from_i128(width, value as i128), dest));
    }
    p.parse_punct(Punct::RSquare)?;
    state.operands.push(p.resolve_operand(&flag, ty)?);
    state.operands.extend(default.1.iter().copied());
    state.successors.push(default.0);
    let mut sizes = Vec::new();
    for (_, (b, vs)) in &cases {
        state.operands.extend(vs.iter().copied());
        state.successors.push(*b);
        sizes.push(vs.len());
    }
    let ctx = p.ctx();
    let mut props = vec![
        (ctx.ident("case_operand_segments"), i32_array_attr(ctx, &sizes)),
        (ctx.ident("operandSegmentSizes"), i32_array_attr(ctx, &[1, default.1.len(), sizes.iter().sum()])),
    ];
    if !cases.is_empty() {
        let values: Vec<ApInt> = cases.iter().map(|(v, _)| v.clone()).collect();
        props.push((ctx.ident("case_values"), case_values_attr(ctx, ty, &values)));
    }
    finish_attrs(p, state, props)
}

/// A case value: an integer literal, possibly negative ("expected integer value" otherwise).
fn parse_case_value(p: &mut dyn OpAsmParser) -> ParseResult<i64> {
    p.parse_integer()
}

fn print_switch(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (flag, dict, values) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operand(op, 0), printed_attr_dict(ctx, ir, op), case_values(ctx, ir, op))
    };
    let lists = successor_lists(p, op);
    let flag_ty = p.ir().value_type(flag);
    p.write(" ");
    p.print_operand(flag);
    p.write(" : ");
    p.print_type(flag_ty);
    p.write(", [");
    p.print_newline();
    p.write("  default: ");
    if let Some((b, vs)) = lists.first() {
        print_successor_and_operands(p, *b, vs);
    }
    let has_values = inherent_attr(p.ctx(), p.ir(), op, "case_values").is_some();
    if has_values {
        for (v, (b, vs)) in values.iter().zip(lists.iter().skip(1)) {
            p.write(",");
            p.print_newline();
            p.write("  ");
            p.write(&limited_value(v));
            p.write(": ");
            print_successor_and_operands(p, *b, vs);
        }
        p.print_newline();
    }
    p.write("]");
    p.print_optional_attr_dict(dict, &["case_values", "case_operand_segments", "operandSegmentSizes"]);
}

/// APInt's `getLimitedValue()`: the unsigned value, saturated at `u64::MAX`.
fn limited_value(v: &ApInt) -> String {
    v.to_u64().unwrap_or(u64::MAX).to_string()
}
