//! The `func` dialect: `func.func`, `func.return` and `func.call`, with MLIR's custom syntax,
//! properties and verification.
//!
//! Storage (as mlir-opt-19 prints it generically): `func.func` keeps `function_type` (a type
//! attribute of function type), `sym_name`, and optionally `sym_visibility`, `arg_attrs` and
//! `res_attrs` (arrays of dictionaries, one per argument/result) in its properties; `func.call`
//! keeps `callee` (a flat symbol reference). A function without blocks is a declaration.
//!
//! Invariants checked by the verifiers: the entry block's arguments match the signature; a
//! declaration is not public; `return` matches the enclosing function's results; a call whose
//! callee resolves through the nearest symbol table matches the callee's signature.

use crate::builtin::print_type_list;
use crate::support::{
    dict_of, empty_state, flat_symbol, inherent_attr, printed_attr_dict, quoted_types, split_inherent, symbol_display,
    type_str, value_types,
};
use crate::symbols::{VISIBILITIES, resolve_from, verify_visibility};
use fuser_ir::asm::{Argument, OpAsmParser, OpAsmPrinter, ParseResult, Punct, UnresolvedOperand};
use fuser_ir::attrs::{Attr, AttrKind, Ident};
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{BlockId, Ir, OpId, OperationState, Value};
use fuser_ir::registry::{ArgDef, ArgKind, DialectDef, OpDef, Traits, VerifyCtx};
use fuser_ir::types::{Type, TypeKind};

/// The property names of `func.func`.
const FUNC_PROPS: &[&str] = &["arg_attrs", "function_type", "res_attrs", "sym_name", "sym_visibility"];
/// The properties the custom form derives from elsewhere, rejected in its attribute dictionary
/// (`arg_attrs` and `res_attrs` are accepted there and checked by the verifier, as in MLIR).
const INFERRED_PROPS: &[&str] = &["sym_visibility", "sym_name", "function_type"];

/// The inputs and results of a `func.func`'s `function_type`, if it is well formed.
pub fn signature<'c>(ctx: &'c Context, ir: &Ir, func: OpId) -> Option<(&'c [Type], &'c [Type])> {
    let attr = inherent_attr(ctx, ir, func, "function_type")?;
    let AttrKind::Type(t) = ctx.attr_kind(attr) else { return None };
    match ctx.type_kind(*t) {
        TypeKind::Function { inputs, results } => Some((inputs, results)),
        _ => None,
    }
}

/// Replaces the `function_type` of a `func.func` (the entry block's argument types are the
/// caller's business: passes that change a signature update both).
pub fn set_signature(ctx: &Context, ir: &mut Ir, func: OpId, inputs: Vec<Type>, results: Vec<Type>) {
    let ty = ctx.function_type(inputs, results);
    let props = ir.props(func).unwrap_or_else(|| ctx.empty_dict());
    ir.set_props(func, Some(ctx.dict_set(props, "function_type", Some(ctx.type_attr(ty)))));
}

/// Makes the `function_type` of a `func.func` match its entry block's arguments and the values
/// its `func.return` returns (after a pass changed their types); no-op for a declaration.
pub fn sync_signature(ctx: &Context, ir: &mut Ir, func: OpId) {
    let Some(body) = ir.regions(func).first().and_then(|&r| ir.region_entry(r)) else { return };
    let inputs: Vec<Type> = ir.block_args(body).iter().map(|&v| ir.value_type(v)).collect();
    let Some(ret) = ir.last_op(body) else { return };
    if ctx.op_name_str(ir.op_name(ret)) != "func.return" {
        return;
    }
    let results: Vec<Type> = ir.operands(ret).iter().map(|&v| ir.value_type(v)).collect();
    set_signature(ctx, ir, func, inputs, results);
}

/// The `sym_name` of a symbol op.
pub fn symbol_name<'c>(ctx: &'c Context, ir: &Ir, op: OpId) -> Option<&'c str> {
    inherent_attr(ctx, ir, op, "sym_name").and_then(|a| ctx.attr_str(a))
}

/// True for a `func.func` with no body.
pub fn is_declaration(ir: &Ir, func: OpId) -> bool {
    ir.regions(func).first().is_none_or(|&r| ir.region_blocks(r).is_empty())
}

// ----- func.func ----------------------------------------------------------------------------

pub static FUNC: OpDef = OpDef {
    summary: "A named function: a symbol whose body is one SSA region",
    description: "Defines a function: a symbol with a signature (`function_type`) and a body \
region whose entry block arguments are the function's arguments. Without a body it declares \
an external function, which must not be public. Values defined outside the function cannot be \
used inside it. Inside the body, ops of the `func` dialect may omit the `func.` prefix.\n\n\
Syntax: `func.func (public|private|nested)? @name(%arg: type {attrs}, ...) (-> results)? \
(attributes {...})? ({ body })?`; a declaration lists bare argument types.\n\n\
```mlir\nfunc.func @add(%arg0: i32, %arg1: i32) -> i32 {\n  %0 = arith.addi %arg0, %arg1 : i32\n  return %0 : i32\n}\nfunc.func private @ext(i32) -> (i32 {test.res})\n```",
    regions: &[ArgDef { name: "body", constraint: "any region", kind: ArgKind::Single }],
    attributes: &[
        ArgDef { name: "sym_name", constraint: "string attribute", kind: ArgKind::Single },
        ArgDef { name: "function_type", constraint: "type attribute of function type", kind: ArgKind::Single },
        ArgDef { name: "sym_visibility", constraint: "string attribute", kind: ArgKind::Optional },
        ArgDef { name: "arg_attrs", constraint: "Array of dictionary attributes", kind: ArgKind::Optional },
        ArgDef { name: "res_attrs", constraint: "Array of dictionary attributes", kind: ArgKind::Optional },
    ],
    properties: FUNC_PROPS,
    verify: Some(verify_func),
    parse: Some(parse_func),
    print: Some(print_func),
    default_dialect: Some("func"),
    ..OpDef::new("func.func", Traits::ISOLATED_FROM_ABOVE.union(Traits::SYMBOL))
};

fn verify_func(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    if ir.regions(op).len() != 1 {
        return Err(v.op_error(op, "requires one region"));
    }
    if inherent_attr(ctx, ir, op, "function_type").is_none() {
        return Err(v.op_error(op, "requires attribute 'function_type'"));
    }
    match inherent_attr(ctx, ir, op, "sym_name") {
        None => return Err(v.op_error(op, "requires attribute 'sym_name'")),
        Some(a) if ctx.attr_str(a).is_none() => {
            return Err(v.op_error(op, "attribute 'sym_name' failed to satisfy constraint: string attribute"));
        }
        Some(_) => {}
    }
    let Some((inputs, results)) = signature(ctx, ir, op) else {
        return Err(
            v.op_error(op, "attribute 'function_type' failed to satisfy constraint: type attribute of function type")
        );
    };
    verify_attr_array(v, op, "arg_attrs", "argument", "arguments", inputs.len())?;
    verify_attr_array(v, op, "res_attrs", "result", "results", results.len())?;
    verify_visibility(v, op)?;
    let Some(entry) = ir.region_entry(ir.region(op, 0)) else {
        let public =
            inherent_attr(ctx, ir, op, "sym_visibility").and_then(|a| ctx.attr_str(a)).is_none_or(|s| s == "public");
        if public {
            return Err(v.op_error(op, "symbol declaration cannot have public visibility"));
        }
        return Ok(());
    };
    let args = ir.block_args(entry);
    if args.len() != inputs.len() {
        return Err(
            v.op_error(op, format!("entry block must have {} arguments to match function signature", inputs.len()))
        );
    }
    for (i, (&arg, &want)) in args.iter().zip(inputs).enumerate() {
        let got = ir.value_type(arg);
        if got != want {
            return Err(v.op_error(
                op,
                format!(
                    "type of entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')",
                    type_str(ctx, got),
                    type_str(ctx, want)
                ),
            ));
        }
    }
    Ok(())
}

/// Checks `arg_attrs`/`res_attrs`: an array of dictionaries with one entry per argument/result.
fn verify_attr_array(
    v: &VerifyCtx<'_>,
    op: OpId,
    key: &str,
    what: &str,
    whats: &str,
    n: usize,
) -> Result<(), Diagnostic> {
    let Some(a) = inherent_attr(v.ctx, v.ir, op, key) else { return Ok(()) };
    let elems = match v.ctx.attr_kind(a) {
        AttrKind::Array(e) if e.iter().all(|x| matches!(v.ctx.attr_kind(*x), AttrKind::Dictionary(_))) => e,
        _ => {
            return Err(v.op_error(
                op,
                format!("attribute '{key}' failed to satisfy constraint: Array of dictionary attributes"),
            ));
        }
    };
    if elems.len() != n {
        return Err(v.op_error(
            op,
            format!(
                "expects {what} attribute array to have the same number of elements as the number of function {whats}, got {}, but expected {n}",
                elems.len()
            ),
        ));
    }
    // Only dialect attributes (`dialect.name`) may sit on arguments and results.
    for &d in elems {
        if let AttrKind::Dictionary(entries) = v.ctx.attr_kind(d)
            && entries.iter().any(|(k, _)| !v.ctx.ident_str(*k).contains('.'))
        {
            return Err(v.op_error(op, format!("{whats} may only have dialect attributes")));
        }
    }
    Ok(())
}

/// A parsed result type with its attribute dictionary entries.
type ResultWithAttrs = (Type, Vec<(Ident, Attr)>);
/// A declaration's argument: its type and attribute dictionary, if written.
type BareArgument = (Type, Option<Attr>);

fn parse_func(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let visibility = VISIBILITIES.iter().copied().find(|k| p.parse_optional_keyword(k));
    let name = p.parse_symbol_name()?;
    let (named, unnamed) = parse_func_arguments(p)?;
    let results = parse_func_results(p)?;
    let attrs_offset = p.current_offset();
    let mut entries = Vec::new();
    p.parse_optional_attr_dict_with_keyword(&mut entries)?;
    if let Some((k, _)) = entries.iter().find(|(k, _)| INFERRED_PROPS.contains(&p.ctx().ident_str(*k))) {
        let msg = format!(
            "'{}' is an inferred attribute and should not be specified in the explicit attribute dictionary",
            p.ctx().ident_str(*k)
        );
        return Err(p.emit_error_at(attrs_offset, &msg));
    }
    let region = p.ir_mut().create_region();
    let body_offset = p.current_offset();
    if p.parse_optional_region(region, &named)? && p.ir_mut().region_blocks(region).is_empty() {
        return Err(p.emit_error_at(body_offset, "expected non-empty function body"));
    }

    let ctx = p.ctx();
    let arg_list: Vec<BareArgument> =
        if named.is_empty() { unnamed } else { named.iter().map(|a| (a.ty, a.attrs)).collect() };
    let inputs: Vec<Type> = arg_list.iter().map(|a| a.0).collect();
    let result_types: Vec<Type> = results.iter().map(|r| r.0).collect();
    let mut props = vec![
        (ctx.ident("function_type"), ctx.type_attr(ctx.function_type(inputs, result_types))),
        (ctx.ident("sym_name"), ctx.string_attr(&name)),
    ];
    if let Some(vis) = visibility {
        props.push((ctx.ident("sym_visibility"), ctx.string_attr(vis)));
    }
    let arg_dicts: Vec<Attr> = arg_list.iter().map(|a| a.1.unwrap_or_else(|| ctx.empty_dict())).collect();
    let res_dicts: Vec<Attr> = results.into_iter().map(|r| ctx.dictionary(r.1)).collect();
    for (key, dicts) in [("arg_attrs", arg_dicts), ("res_attrs", res_dicts)] {
        let ident = ctx.ident(key);
        if dicts.iter().any(|&d| d != ctx.empty_dict()) {
            props.push((ident, ctx.array_attr(dicts)));
        } else if let Some(i) = entries.iter().position(|(k, _)| *k == ident) {
            // Written in the attribute dictionary: an inherent attribute, left to the verifier.
            props.push(entries.remove(i));
        }
    }
    state.props = Some(ctx.dictionary(props));
    state.attrs = ctx.dictionary(entries);
    state.regions.push(region);
    Ok(())
}

/// `(%a: t {attrs}, ...)` for a definition or `(t {attrs}, ...)` for a declaration: returns the
/// named arguments, or else the bare types with their attribute dictionaries.
fn parse_func_arguments(p: &mut dyn OpAsmParser) -> ParseResult<(Vec<Argument>, Vec<BareArgument>)> {
    let mut named = Vec::new();
    let mut unnamed = Vec::new();
    p.parse_punct(Punct::LParen)?;
    if p.parse_optional_punct(Punct::RParen) {
        return Ok((named, unnamed));
    }
    loop {
        let arg_offset = p.current_offset();
        if let Some(arg) = p.parse_optional_argument(true, true)? {
            if !unnamed.is_empty() {
                return Err(p.emit_error_at(arg_offset, "expected type instead of SSA identifier"));
            }
            named.push(arg);
        } else if !named.is_empty() {
            return Err(p.emit_error("expected SSA identifier"));
        } else {
            let ty = p.parse_type()?;
            let mut entries = Vec::new();
            p.parse_optional_attr_dict(&mut entries)?;
            let attrs = (!entries.is_empty()).then(|| p.ctx().dictionary(entries));
            unnamed.push((ty, attrs));
        }
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::RParen)?;
    Ok((named, unnamed))
}

/// `-> t` or `-> (t {attrs}, ...)`, if present.
fn parse_func_results(p: &mut dyn OpAsmParser) -> ParseResult<Vec<ResultWithAttrs>> {
    let mut results = Vec::new();
    if !p.parse_optional_punct(Punct::Arrow) {
        return Ok(results);
    }
    if !p.parse_optional_punct(Punct::LParen) {
        results.push((p.parse_type()?, Vec::new()));
        return Ok(results);
    }
    if p.parse_optional_punct(Punct::RParen) {
        return Ok(results);
    }
    loop {
        let ty = p.parse_type()?;
        let mut entries = Vec::new();
        p.parse_optional_attr_dict(&mut entries)?;
        results.push((ty, entries));
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::RParen)?;
    Ok(results)
}

/// What `print_func` needs, read before printing (the printer is borrowed mutably then).
struct FuncView {
    name: String,
    visibility: Option<String>,
    inputs: Vec<Type>,
    results: Vec<Type>,
    arg_attrs: Vec<Option<Attr>>,
    res_attrs: Vec<Option<Attr>>,
    entry_args: Option<Vec<Value>>,
    region: Option<fuser_ir::RegionId>,
    dict: Attr,
}

fn func_view(ctx: &Context, ir: &Ir, op: OpId) -> FuncView {
    let (inputs, results) = signature(ctx, ir, op).map(|(i, r)| (i.to_vec(), r.to_vec())).unwrap_or_default();
    let per_item = |key: &str, n: usize| -> Vec<Option<Attr>> {
        let elems = inherent_attr(ctx, ir, op, key).map(|a| match ctx.attr_kind(a) {
            AttrKind::Array(e) => e.clone(),
            _ => Vec::new(),
        });
        (0..n).map(|i| elems.as_ref().and_then(|e| e.get(i).copied()).filter(|&d| d != ctx.empty_dict())).collect()
    };
    let region = ir.regions(op).first().copied();
    FuncView {
        name: symbol_name(ctx, ir, op).unwrap_or("").to_string(),
        visibility: inherent_attr(ctx, ir, op, "sym_visibility").and_then(|a| ctx.attr_str(a).map(str::to_owned)),
        arg_attrs: per_item("arg_attrs", inputs.len()),
        res_attrs: per_item("res_attrs", results.len()),
        inputs,
        results,
        entry_args: region.and_then(|r| ir.region_entry(r)).map(|b| ir.block_args(b).to_vec()),
        region: region.filter(|&r| !ir.region_blocks(r).is_empty()),
        dict: printed_attr_dict(ctx, ir, op),
    }
}

fn print_func(p: &mut dyn OpAsmPrinter, op: OpId) {
    let f = func_view(p.ctx(), p.ir(), op);
    if let Some(vis) = &f.visibility {
        p.write(" ");
        p.write(vis);
    }
    p.write(" ");
    p.print_symbol_name(&f.name);
    p.write("(");
    match &f.entry_args {
        Some(args) if args.len() == f.inputs.len() => {
            for (i, &a) in args.iter().enumerate() {
                if i > 0 {
                    p.write(", ");
                }
                p.print_region_argument(a, f.arg_attrs[i]);
            }
        }
        _ => print_types_with_attrs(p, &f.inputs, &f.arg_attrs),
    }
    p.write(")");
    print_func_results(p, &f.results, &f.res_attrs);
    p.print_optional_attr_dict_with_keyword(f.dict, FUNC_PROPS);
    if let Some(r) = f.region {
        p.write(" ");
        p.print_region(r, false, false);
    }
}

/// `t1 {a}, t2`.
fn print_types_with_attrs(p: &mut dyn OpAsmPrinter, ts: &[Type], attrs: &[Option<Attr>]) {
    for (i, &t) in ts.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
        if let Some(d) = attrs.get(i).copied().flatten() {
            p.print_optional_attr_dict(d, &[]);
        }
    }
}

/// ` -> t` when there is one plain result, else ` -> (t {attrs}, ...)`; nothing for none.
fn print_func_results(p: &mut dyn OpAsmPrinter, results: &[Type], attrs: &[Option<Attr>]) {
    if results.is_empty() {
        return;
    }
    p.write(" -> ");
    let plain_single = results.len() == 1
        && attrs.iter().all(Option::is_none)
        && !matches!(p.ctx().type_kind(results[0]), TypeKind::Function { .. });
    if plain_single {
        p.print_type(results[0]);
    } else {
        p.write("(");
        print_types_with_attrs(p, results, attrs);
        p.write(")");
    }
}

/// The state of a `func.func` named `name` with the given signature. With `with_body`, the
/// region gets an entry block whose arguments match the inputs (returned so callers can fill
/// it); without, the function is a declaration (give it a non-public visibility).
pub fn func_state(
    ctx: &Context,
    ir: &mut Ir,
    name: &str,
    inputs: Vec<Type>,
    results: Vec<Type>,
    with_body: bool,
    loc: Attr,
) -> (OperationState, Option<BlockId>) {
    let mut state = empty_state(ctx, FUNC.name, loc);
    let region = ir.create_region();
    let entry = with_body.then(|| {
        let b = ir.create_block(&inputs);
        ir.append_block(region, b);
        b
    });
    state.props = Some(dict_of(
        ctx,
        &[("function_type", ctx.type_attr(ctx.function_type(inputs, results))), ("sym_name", ctx.string_attr(name))],
    ));
    state.regions.push(region);
    (state, entry)
}

// ----- func.return --------------------------------------------------------------------------

pub static RETURN: OpDef = OpDef {
    summary: "Returns values from the enclosing function",
    description: "Terminates the body of a `func.func` and returns its operands as the \
function's results; their number and types must match the function's result types.\n\n\
Syntax: `return (attributes)? (%v, ... : type, ...)?`.\n\n\
```mlir\nfunc.func @two() -> (i32, index) {\n  %c1_i32 = arith.constant 1 : i32\n  %c0 = arith.constant 0 : index\n  return %c1_i32, %c0 : i32, index\n}\n```",
    operands: &[ArgDef { name: "operands", constraint: "any type", kind: ArgKind::Variadic }],
    verify: Some(verify_return),
    parse: Some(parse_return),
    print: Some(print_return),
    ..OpDef::new("func.return", Traits::PURE.union(Traits::TERMINATOR).union(Traits::RETURN_LIKE))
};

fn verify_return(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let parent = ir.parent_op(op).filter(|&p| ctx.op_name_str(ir.op_name(p)) == FUNC.name);
    let Some(func) = parent else {
        return Err(v.op_error(op, "expects parent op 'func.func'"));
    };
    let Some((_, results)) = signature(ctx, ir, func) else { return Ok(()) };
    let fname = symbol_display(symbol_name(ctx, ir, func).unwrap_or(""));
    let n = ir.num_operands(op);
    if n != results.len() {
        return Err(
            v.op_error(op, format!("has {n} operands, but enclosing function ({fname}) returns {}", results.len()))
        );
    }
    for (i, &want) in results.iter().enumerate() {
        let got = ir.value_type(ir.operand(op, i));
        if got != want {
            return Err(Diagnostic::error(
                ir.loc(op),
                format!(
                    "type of return operand {i} ('{}') doesn't match function result type ('{}') in function {fname}",
                    type_str(ctx, got),
                    type_str(ctx, want)
                ),
            ));
        }
    }
    Ok(())
}

fn parse_return(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let operands = p.parse_operand_list()?;
    if !operands.is_empty() {
        p.parse_punct(Punct::Colon)?;
        let types = p.parse_type_list()?;
        if types.len() != operands.len() {
            let msg = format!("{} operands present, but expected {}", operands.len(), types.len());
            return Err(p.emit_error(&msg));
        }
        for (u, t) in operands.iter().zip(types) {
            state.operands.push(p.resolve_operand(u, t)?);
        }
    }
    state.attrs = p.ctx().dictionary(entries);
    Ok(())
}

fn print_return(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operands(op).to_vec(), printed_attr_dict(ctx, ir, op))
    };
    p.print_optional_attr_dict(dict, &[]);
    if !operands.is_empty() {
        let types = value_types(p.ir(), &operands);
        p.write(" ");
        p.print_operands(&operands);
        p.write(" : ");
        print_type_list(p, &types);
    }
}

/// The state of a `func.return` of `values`.
pub fn return_state(ctx: &Context, values: &[Value], loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, RETURN.name, loc);
    state.operands = values.to_vec();
    state
}

// ----- func.call ----------------------------------------------------------------------------

pub static CALL: OpDef = OpDef {
    summary: "Calls a function by its symbol",
    description: "Calls the function named by the `callee` symbol with the operands and yields \
its results. When the callee can be found in the nearest enclosing symbol table, the operand \
and result types must match its signature.\n\n\
Syntax: `call @callee(%a, ...) (attributes)? : (types) -> results`.\n\n\
```mlir\n%0 = func.call @ext(%arg0) : (i32) -> i32\n```",
    operands: &[ArgDef { name: "operands", constraint: "any type", kind: ArgKind::Variadic }],
    results: &[ArgDef { name: "results", constraint: "any type", kind: ArgKind::Variadic }],
    attributes: &[ArgDef { name: "callee", constraint: "flat symbol reference attribute", kind: ArgKind::Single }],
    properties: &["callee"],
    verify: Some(verify_call),
    parse: Some(parse_call),
    print: Some(print_call),
    ..OpDef::new("func.call", Traits::NONE)
};

fn verify_call(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let Some(callee) = inherent_attr(ctx, ir, op, "callee") else {
        return Err(v.op_error(op, "requires attribute 'callee'"));
    };
    let Some(name) = flat_symbol(ctx, callee) else {
        return Err(v.op_error(op, "attribute 'callee' failed to satisfy constraint: flat symbol reference attribute"));
    };
    let Some(found) = resolve_from(ctx, ir, op, name) else { return Ok(()) };
    let func = found.filter(|&f| ctx.op_name_str(ir.op_name(f)) == FUNC.name);
    let Some((inputs, results)) = func.and_then(|f| signature(ctx, ir, f)) else {
        return Err(v.op_error(op, format!("'{name}' does not reference a valid function")));
    };
    if ir.num_operands(op) != inputs.len() {
        return Err(v.op_error(op, "incorrect number of operands for callee"));
    }
    for (i, &want) in inputs.iter().enumerate() {
        let got = ir.value_type(ir.operand(op, i));
        if got != want {
            return Err(v.op_error(
                op,
                format!(
                    "operand type mismatch: expected operand type '{}', but provided '{}' for operand number {i}",
                    type_str(ctx, want),
                    type_str(ctx, got)
                ),
            ));
        }
    }
    if ir.num_results(op) != results.len() {
        return Err(v.op_error(op, "incorrect number of results for callee"));
    }
    let got = value_types(ir, ir.results(op));
    if let Some(i) = got.iter().zip(results).position(|(g, w)| g != w) {
        let loc = ir.loc(op);
        return Err(v
            .op_error(op, format!("result type mismatch at index {i}"))
            .with_note(loc, format!("      op result types: {}", quoted_types(ctx, &got)))
            .with_note(loc, format!("function result types: {}", quoted_types(ctx, results))));
    }
    Ok(())
}

/// The tail shared by the custom forms of `func.call` and `func.call_indirect`,
/// `(operands) attr-dict : type`: the operands (unresolved), the attribute entries, the type
/// and the offset it was written at.
pub(crate) struct CallTail {
    pub operands: Vec<UnresolvedOperand>,
    pub entries: Vec<(Ident, Attr)>,
    pub ty: Type,
    pub at: usize,
}

pub(crate) fn parse_call_tail(p: &mut dyn OpAsmParser) -> ParseResult<CallTail> {
    p.parse_punct(Punct::LParen)?;
    let operands = p.parse_operand_list()?;
    p.parse_punct(Punct::RParen)?;
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    p.parse_punct(Punct::Colon)?;
    let at = p.current_offset();
    let ty = p.parse_type()?;
    Ok(CallTail { operands, entries, ty, at })
}

/// Resolves a call's `operands` against the function type's `inputs` (their counts must agree:
/// an error at `at` otherwise) into `state.operands`.
pub(crate) fn resolve_call_operands(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    operands: &[UnresolvedOperand],
    inputs: &[Type],
    at: usize,
) -> ParseResult<()> {
    if inputs.len() != operands.len() {
        let msg = format!("{} operands present, but expected {}", operands.len(), inputs.len());
        return Err(p.emit_error_at(at, &msg));
    }
    for (u, &t) in operands.iter().zip(inputs) {
        state.operands.push(p.resolve_operand(u, t)?);
    }
    Ok(())
}

fn parse_call(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let callee = p.parse_symbol_name()?;
    let CallTail { operands, entries, ty: fty, at: type_offset } = parse_call_tail(p)?;
    let (inputs, results) = match p.ctx().type_kind(fty) {
        TypeKind::Function { inputs, results } => (inputs.clone(), results.clone()),
        _ => return Err(p.emit_error_at(type_offset, "expected function type")),
    };
    resolve_call_operands(p, state, &operands, &inputs, type_offset)?;
    let ctx = p.ctx();
    let (mut props, attrs) = split_inherent(ctx, &CALL, entries);
    props.push((ctx.ident("callee"), ctx.symbol_ref(&callee)));
    state.props = Some(ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    state.result_types = results;
    Ok(())
}

fn print_call(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (callee, operands, fty, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let callee = inherent_attr(ctx, ir, op, "callee").and_then(|a| flat_symbol(ctx, a)).unwrap_or("").to_string();
        let operands = ir.operands(op).to_vec();
        let fty = ctx.function_type(value_types(ir, &operands), value_types(ir, ir.results(op)));
        (callee, operands, fty, printed_attr_dict(ctx, ir, op))
    };
    p.write(" ");
    p.print_symbol_name(&callee);
    p.write("(");
    p.print_operands(&operands);
    p.write(")");
    p.print_optional_attr_dict(dict, &["callee"]);
    p.write(" : ");
    p.print_type(fty);
}

/// The state of a `func.call @callee(args) : (...) -> results`.
pub fn call_state(ctx: &Context, callee: &str, args: &[Value], results: Vec<Type>, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, CALL.name, loc);
    state.operands = args.to_vec();
    state.result_types = results;
    state.props = Some(dict_of(ctx, &[("callee", ctx.symbol_ref(callee))]));
    state
}

/// The `func` dialect.
pub static FUNC_DIALECT: DialectDef = DialectDef {
    namespace: "func",
    summary: "Functions, calls and returns",
    description: "The subset of MLIR's func dialect that fuser implements: function \
definitions and declarations, direct calls, returns, function constants and indirect calls, with \
MLIR's syntax and semantics.",
    ops: &[&FUNC, &RETURN, &CALL, &crate::func_indirect::CONSTANT, &crate::func_indirect::CALL_INDIRECT],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: Some(crate::func_indirect::materialize_constant),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::module_state;

    struct Fixture {
        ctx: Context,
        ir: Ir,
        module_block: BlockId,
    }

    fn fixture() -> Fixture {
        let ctx = Context::new(crate::registry());
        let mut ir = Ir::new();
        let state = module_state(&ctx, &mut ir, None, ctx.unknown_loc());
        let m = ir.create_op(state);
        let module_block = ir.region_entry(ir.region(m, 0)).unwrap();
        Fixture { ctx, ir, module_block }
    }

    impl Fixture {
        fn func(&mut self, name: &str, inputs: Vec<Type>, results: Vec<Type>, body: bool) -> (OpId, Option<BlockId>) {
            let (state, entry) =
                func_state(&self.ctx, &mut self.ir, name, inputs, results, body, self.ctx.unknown_loc());
            let f = self.ir.create_op(state);
            self.ir.append_op(self.module_block, f);
            (f, entry)
        }
        fn verify(&self, def: &OpDef, op: OpId) -> Result<(), String> {
            let v = VerifyCtx { ctx: &self.ctx, ir: &self.ir };
            def.verify.unwrap()(&v, op).map_err(|d| d.message)
        }
    }

    #[test]
    fn entry_block_must_match_signature() {
        let mut fx = fixture();
        let (i32t, i64t) = (fx.ctx.integer_type(32), fx.ctx.integer_type(64));
        let (f, entry) = fx.func("f", vec![i32t], vec![], true);
        assert_eq!(fx.verify(&FUNC, f), Ok(()));
        let arg = fx.ir.block_args(entry.unwrap())[0];
        fx.ir.set_value_type(arg, i64t);
        assert_eq!(
            fx.verify(&FUNC, f),
            Err("'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')".into())
        );
    }

    #[test]
    fn public_declaration_is_rejected() {
        let mut fx = fixture();
        let (f, _) = fx.func("ext", vec![], vec![], false);
        assert_eq!(fx.verify(&FUNC, f), Err("'func.func' op symbol declaration cannot have public visibility".into()));
        let props = fx.ctx.dict_set(fx.ir.props(f).unwrap(), "sym_visibility", Some(fx.ctx.string_attr("private")));
        fx.ir.set_props(f, Some(props));
        assert_eq!(fx.verify(&FUNC, f), Ok(()));
    }

    #[test]
    fn return_checks_count_and_types() {
        let mut fx = fixture();
        let i32t = fx.ctx.integer_type(32);
        let (_, entry) = fx.func("f", vec![i32t], vec![], true);
        let entry = entry.unwrap();
        let arg = fx.ir.block_args(entry)[0];
        let ret = fx.ir.create_op(return_state(&fx.ctx, &[arg], fx.ctx.unknown_loc()));
        fx.ir.append_op(entry, ret);
        assert_eq!(
            fx.verify(&RETURN, ret),
            Err("'func.return' op has 1 operands, but enclosing function (@f) returns 0".into())
        );
        let (_, entry2) = fx.func("g", vec![i32t], vec![fx.ctx.integer_type(64)], true);
        let entry2 = entry2.unwrap();
        let arg2 = fx.ir.block_args(entry2)[0];
        let ret2 = fx.ir.create_op(return_state(&fx.ctx, &[arg2], fx.ctx.unknown_loc()));
        fx.ir.append_op(entry2, ret2);
        assert_eq!(
            fx.verify(&RETURN, ret2),
            Err("type of return operand 0 ('i32') doesn't match function result type ('i64') in function @g".into())
        );
    }

    #[test]
    fn call_resolves_callee_through_symbol_table() {
        let mut fx = fixture();
        let i32t = fx.ctx.integer_type(32);
        let (_, entry) = fx.func("f", vec![i32t], vec![i32t], true);
        let entry = entry.unwrap();
        let arg = fx.ir.block_args(entry)[0];
        let loc = fx.ctx.unknown_loc();
        let good = fx.ir.create_op(call_state(&fx.ctx, "f", &[arg], vec![i32t], loc));
        fx.ir.append_op(entry, good);
        assert_eq!(fx.verify(&CALL, good), Ok(()));
        let missing = fx.ir.create_op(call_state(&fx.ctx, "foo", &[arg], vec![i32t], loc));
        fx.ir.append_op(entry, missing);
        assert_eq!(fx.verify(&CALL, missing), Err("'func.call' op 'foo' does not reference a valid function".into()));
        let arity = fx.ir.create_op(call_state(&fx.ctx, "f", &[arg, arg], vec![i32t], loc));
        fx.ir.append_op(entry, arity);
        assert_eq!(fx.verify(&CALL, arity), Err("'func.call' op incorrect number of operands for callee".into()));
        let result = fx.ir.create_op(call_state(&fx.ctx, "f", &[arg], vec![fx.ctx.integer_type(64)], loc));
        fx.ir.append_op(entry, result);
        assert_eq!(fx.verify(&CALL, result), Err("'func.call' op result type mismatch at index 0".into()));
    }
}
