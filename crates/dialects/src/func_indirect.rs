//! Functions as values: `func.constant` (a function symbol as an SSA value of function type)
//! and `func.call_indirect` (a call through such a value), with mlir-opt-19's syntax,
//! verifiers, folding and canonicalization.
//!
//! - `%f = func.constant @fn : (i32) -> i32`: `value` (a flat symbol reference) is a property;
//!   results are named `%f`; constant-like, so it folds to its `value` and the `func` dialect
//!   materializes a symbol constant of function type as a `func.constant`. The symbol must
//!   name a `func.func` of exactly the result type.
//! - `%r = func.call_indirect %f(%a) : (i32) -> i32`: operands and results must match the
//!   callee's function type; canonicalization turns a call of a `func.constant` into a
//!   `func.call`.

use crate::func::{CALL, CallTail, FUNC, call_state, parse_call_tail, resolve_call_operands, signature};
use crate::support::{empty_state, flat_symbol, inherent_attr, printed_attr_dict, split_inherent, value_types};
use crate::symbols::resolve_from;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::declare::{ANY_TYPE, AttrConstraint, TypeConstraint};
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, PatternDef, VerifyCtx};
use fuser_ir::rewrite::fold::constant_value;
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::{Type, TypeKind};

const FLAT_SYMBOL: AttrConstraint =
    AttrConstraint::new("flat symbol reference attribute", |ctx, a| flat_symbol(ctx, a).is_some());
const FUNCTION: TypeConstraint =
    TypeConstraint::new("function type", |ctx, t| matches!(ctx.type_kind(t), TypeKind::Function { .. }));

fuser_ir::declare_op! {
    pub static CONSTANT: "func.constant" {
        summary: "Constant",
        description: "Produces an SSA value of function type naming the function `value`, whose \
type must be exactly the result type.\n\n```mlir\n%f = func.constant @add : (i32, i32) -> i32\n```",
        traits: [PURE | CONSTANT_LIKE],
        results: { result: ANY_TYPE },
        properties: { value: FLAT_SYMBOL },
        hooks: {
            verify: verify_constant,
            fold: fold_constant,
            parse: parse_constant,
            print: print_constant,
            result_names: constant_result_names,
        },
    }
}

fuser_ir::declare_op! {
    pub static CALL_INDIRECT: "func.call_indirect" {
        summary: "Indirect call operation",
        description: "Calls the function value `callee` with `callee_operands`; operand and \
result types must match the callee's function type. A call of a `func.constant` becomes a \
`func.call` under canonicalization.\n\n```mlir\n%r = func.call_indirect %f(%a, %b) : (i32, i32) -> i32\n```",
        operands: { callee: FUNCTION, callee_operands: ANY_TYPE.variadic() },
        results: { results: ANY_TYPE.variadic() },
        hooks: {
            verify: verify_call_indirect,
            canonicalize: &[PatternDef { name: "CallIndirectOp::canonicalize", apply: call_constant_to_call }],
            parse: parse_call_indirect,
            print: print_call_indirect,
        },
    }
}

// ----- func.constant ------------------------------------------------------------------------

fn verify_constant(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let Some(name) = inherent_attr(ctx, ir, op, "value").and_then(|a| flat_symbol(ctx, a)) else { return Ok(()) };
    let found = resolve_from(ctx, ir, op, name).flatten().filter(|&f| ctx.op_name_str(ir.op_name(f)) == FUNC.name);
    let Some(func) = found else {
        return Err(v.op_error(op, format!("reference to undefined function '{name}'")));
    };
    let Some((inputs, results)) = signature(ctx, ir, func) else { return Ok(()) };
    if ctx.function_type(inputs.to_vec(), results.to_vec()) != ir.value_type(ir.result(op, 0)) {
        return Err(v.op_error(op, "reference to function with mismatched type"));
    }
    Ok(())
}

fn fold_constant(ctx: &Context, ir: &Ir, op: OpId, _: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    inherent_attr(ctx, ir, op, "value").map(|a| vec![FoldResult::Attr(a)])
}

fn constant_result_names(_: &Context, ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    if let Some(&r) = ir.results(op).first() {
        set(r, "f".to_string());
    }
}

fn parse_constant(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let at = p.current_offset();
    let value = p.parse_attribute(None)?;
    if flat_symbol(p.ctx(), value).is_none() {
        return Err(p.emit_error_at(at, "invalid kind of attribute specified"));
    }
    p.parse_punct(Punct::Colon)?;
    let ty = p.parse_type()?;
    let ctx = p.ctx();
    let (mut props, attrs) = split_inherent(ctx, &CONSTANT, entries);
    props.push((ctx.ident("value"), value));
    state.props = Some(ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    state.result_types = vec![ty];
    Ok(())
}

fn print_constant(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (name, dict, ty) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let name = inherent_attr(ctx, ir, op, "value").and_then(|a| flat_symbol(ctx, a)).unwrap_or("").to_string();
        (name, printed_attr_dict(ctx, ir, op), ir.value_type(ir.result(op, 0)))
    };
    p.print_optional_attr_dict(dict, &["value"]);
    p.write(" ");
    p.print_symbol_name(&name);
    p.write(" : ");
    p.print_type(ty);
}

/// Builds a `func.constant` for a flat symbol reference of function type (the `func` dialect's
/// constant materializer; MLIR's `ConstantOp::isBuildableWith`).
pub(crate) fn materialize_constant(rw: &mut dyn Rewriter, value: Attr, ty: Type, loc: Attr) -> Option<OpId> {
    let state = {
        let ctx = rw.ctx();
        if flat_symbol(ctx, value).is_none() || !matches!(ctx.type_kind(ty), TypeKind::Function { .. }) {
            return None;
        }
        let mut state = empty_state(ctx, CONSTANT.name, loc);
        state.result_types = vec![ty];
        state.props = Some(ctx.dictionary(vec![(ctx.ident("value"), value)]));
        state
    };
    Some(rw.create_op(state))
}

// ----- func.call_indirect -------------------------------------------------------------------

fn verify_call_indirect(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let TypeKind::Function { inputs, results } = ctx.type_kind(ir.value_type(ir.operand(op, 0))) else { return Ok(()) };
    let args = value_types(ir, &ir.operands(op)[1..]);
    if &args != inputs {
        return Err(v.op_error(op, "failed to verify that callee input types match argument types"));
    }
    if value_types(ir, ir.results(op)) != *results {
        return Err(v.op_error(op, "failed to verify that callee result types match result types"));
    }
    Ok(())
}

fn parse_call_indirect(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let callee = p.parse_operand()?;
    let CallTail { operands, entries, ty: fty, at } = parse_call_tail(p)?;
    let TypeKind::Function { inputs, results } = p.ctx().type_kind(fty).clone() else {
        return Err(p.emit_error_at(at, "invalid kind of type specified"));
    };
    state.operands.push(p.resolve_operand(&callee, fty)?);
    resolve_call_operands(p, state, &operands, &inputs, at)?;
    state.result_types = results;
    state.attrs = p.ctx().dictionary(entries);
    Ok(())
}

fn print_call_indirect(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operands(op).to_vec(), printed_attr_dict(ctx, ir, op))
    };
    let Some((&callee, args)) = operands.split_first() else { return };
    let fty = p.ir().value_type(callee);
    p.write(" ");
    p.print_operand(callee);
    p.write("(");
    p.print_operands(args);
    p.write(")");
    p.print_optional_attr_dict(dict, &[]);
    p.write(" : ");
    p.print_type(fty);
}

/// `call_indirect` of a `func.constant @f` becomes `call @f`.
fn call_constant_to_call(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let state = {
        let (ctx, ir) = (rw.ctx(), rw.ir());
        if ir.num_operands(op) == 0 {
            return false;
        }
        let Some(def) = ir.defining_op(ir.operand(op, 0)) else { return false };
        let Some(value) = constant_value(ctx, ir, def) else { return false };
        let AttrKind::SymbolRef { .. } = ctx.attr_kind(value) else { return false };
        let Some(name) = flat_symbol(ctx, value) else { return false };
        let args = &ir.operands(op)[1..];
        call_state(ctx, name, args, value_types(ir, ir.results(op)), ir.loc(op))
    };
    debug_assert_eq!(rw.ctx().op_name_str(state.name), CALL.name);
    rw.set_insertion_point_before(op);
    let call = rw.create_op(state);
    let results = rw.ir().results(call).to_vec();
    rw.replace_op(op, &results);
    true
}
