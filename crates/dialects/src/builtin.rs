//! The `builtin` dialect subset: `builtin.module` (the top-level container and symbol table)
//! and `builtin.unrealized_conversion_cast` (a placeholder cast between type systems during
//! partial lowering), with MLIR's custom syntax and verification.
//!
//! Invariants checked by the verifiers: a module has no operands or results, exactly one region
//! with one argument-less block, a string `sym_name` when named, and only dialect-prefixed
//! (`dialect.name`) discardable attributes.

use crate::support::{dict_of, empty_state, inherent_attr, printed_attr_dict, split_inherent};
use crate::symbols::verify_visibility;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value, ValueDef};
use fuser_ir::registry::{ArgDef, ArgKind, DialectDef, FoldResult, OpDef, Traits, VerifyCtx};

// ----- builtin.module -----------------------------------------------------------------------

pub static MODULE: OpDef = OpDef {
    summary: "The container of a program: one block of ops, a symbol table",
    description: "A `module` holds one block of operations and no terminator. It is a symbol \
table (the functions and other symbols it contains have unique names) and is isolated from \
above: nothing inside it uses a value defined outside. A module may have a name, which makes \
it a symbol itself, and discardable attributes, whose names must be dialect-prefixed.\n\n\
Syntax: `module (@name)? (attributes {...})? { ... }`.\n\n\
```mlir\nmodule @m attributes {test.flag} {\n  func.func private @f(i32) -> i32\n}\n```",
    regions: &[ArgDef { name: "bodyRegion", constraint: "region with 1 blocks", kind: ArgKind::Single }],
    attributes: &[
        ArgDef { name: "sym_name", constraint: "string attribute", kind: ArgKind::Optional },
        ArgDef { name: "sym_visibility", constraint: "string attribute", kind: ArgKind::Optional },
    ],
    properties: &["sym_name", "sym_visibility"],
    verify: Some(verify_module),
    parse: Some(parse_module),
    print: Some(print_module),
    // Unprefixed names inside a module resolve to builtin ops, at any depth of modules.
    default_dialect: Some("builtin"),
    ..OpDef::new(
        "builtin.module",
        Traits::SYMBOL_TABLE
            .union(Traits::ISOLATED_FROM_ABOVE)
            .union(Traits::NO_TERMINATOR)
            .union(Traits::SINGLE_BLOCK)
            // Like MLIR's module: its body is a graph region (uses may precede definitions).
            .union(Traits::GRAPH_REGIONS),
    )
};

fn verify_module(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    if ir.num_operands(op) != 0 {
        return Err(v.op_error(op, "requires zero operands"));
    }
    if ir.num_results(op) != 0 {
        return Err(v.op_error(op, "requires zero results"));
    }
    if ir.regions(op).len() != 1 {
        return Err(v.op_error(op, "requires one region"));
    }
    if let Some(name) = inherent_attr(ctx, ir, op, "sym_name")
        && ctx.attr_str(name).is_none()
    {
        return Err(v.op_error(op, "attribute 'sym_name' failed to satisfy constraint: string attribute"));
    }
    verify_visibility(v, op)?;
    let blocks = ir.region_blocks(ir.region(op, 0));
    if blocks.len() != 1 {
        return Err(v.op_error(op, "region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks"));
    }
    if !ir.block_args(blocks[0]).is_empty() {
        return Err(v.op_error(op, "region should have no arguments"));
    }
    for (k, _) in ctx.dict_entries(ir.attrs(op)) {
        let key = ctx.ident_str(*k);
        if !key.contains('.') {
            return Err(
                v.op_error(op, format!("can only contain attributes with dialect-prefixed names, found: '{key}'"))
            );
        }
    }
    Ok(())
}

fn parse_module(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let name = p.parse_optional_symbol_name();
    let mut entries = Vec::new();
    p.parse_optional_attr_dict_with_keyword(&mut entries)?;
    let region = p.ir_mut().create_region();
    p.parse_region(region, &[])?;
    ensure_single_block(p.ir_mut(), region);
    let ctx = p.ctx();
    let (mut props, attrs) = split_inherent(ctx, &MODULE, entries);
    if let Some(name) = name {
        props.push((ctx.ident("sym_name"), ctx.string_attr(&name)));
    }
    state.attrs = ctx.dictionary(attrs);
    state.props = (!props.is_empty()).then(|| ctx.dictionary(props));
    state.regions.push(region);
    Ok(())
}

/// Gives an empty region its one block (a module body written `{}` or `{\n}`).
fn ensure_single_block(ir: &mut Ir, region: fuser_ir::RegionId) {
    if ir.region_blocks(region).is_empty() {
        let b = ir.create_block(&[]);
        ir.append_block(region, b);
    }
}

fn print_module(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (name, dict, region) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let name = inherent_attr(ctx, ir, op, "sym_name").and_then(|a| ctx.attr_str(a).map(str::to_owned));
        (name, printed_attr_dict(ctx, ir, op), ir.regions(op).first().copied())
    };
    if let Some(name) = name {
        p.write(" ");
        p.print_symbol_name(&name);
    }
    p.print_optional_attr_dict_with_keyword(dict, &["sym_name"]);
    if let Some(r) = region {
        p.write(" ");
        p.print_region(r, false, false);
    }
}

/// The state of an empty `module` (one empty block), optionally named.
pub fn module_state(ctx: &Context, ir: &mut Ir, name: Option<&str>, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, MODULE.name, loc);
    let region = ir.create_region();
    ensure_single_block(ir, region);
    state.regions.push(region);
    if let Some(n) = name {
        state.props = Some(dict_of(ctx, &[("sym_name", ctx.string_attr(n))]));
    }
    state
}

// ----- builtin.unrealized_conversion_cast ---------------------------------------------------

pub static UNREALIZED_CONVERSION_CAST: OpDef = OpDef {
    summary: "A placeholder cast between types, left by partial conversions",
    description: "Holds a conversion between values of one type system and another that a \
partial lowering has not resolved yet. It has no semantics of its own; a later pass removes \
pairs of casts that cancel out. Folds: a cast to its own operand types is its operands; a cast \
of all the results of another cast back to that cast's operand types is that cast's operands.\n\n\
Syntax: `unrealized_conversion_cast (%in, ... : type, ...)? to type, ...`.\n\n\
```mlir\n%1 = builtin.unrealized_conversion_cast %0 : i64 to index\n```",
    operands: &[ArgDef { name: "inputs", constraint: "any type", kind: ArgKind::Variadic }],
    results: &[ArgDef { name: "outputs", constraint: "any type", kind: ArgKind::Variadic }],
    parse: Some(parse_cast),
    print: Some(print_cast),
    verify: Some(verify_cast),
    fold: Some(fold_cast),
    ..OpDef::new("builtin.unrealized_conversion_cast", Traits::PURE)
};

/// MLIR's fold: a cast to its own operand types is its operands; a cast of all the results of
/// another cast, back to that cast's operand types, is that cast's operands.
fn fold_cast(_ctx: &Context, ir: &Ir, op: OpId, _operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let inputs = ir.operands(op);
    let inputs: &[Value] = &inputs;
    let types = |vs: &[Value]| vs.iter().map(|&v| ir.value_type(v)).collect::<Vec<_>>();
    let result_types = types(ir.results(op));
    let forward = |vs: &[Value]| Some(vs.iter().map(|&v| FoldResult::Value(v)).collect());
    if types(inputs) == result_types {
        return forward(inputs);
    }
    let ValueDef::OpResult { op: producer, .. } = ir.value_def(*inputs.first()?) else { return None };
    let same_op = ir.op_name(producer) == ir.op_name(op);
    let producer_inputs = ir.operands(producer);
    if !same_op || ir.results(producer) != inputs || types(&producer_inputs) != result_types {
        return None;
    }
    forward(&producer_inputs)
}

/// A cast produces at least one value.
fn verify_cast(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    if v.ir.results(op).is_empty() {
        return Err(v.op_error(op, "expected at least one result for cast operation"));
    }
    Ok(())
}

fn parse_cast(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let operands = p.parse_operand_list()?;
    let mut input_types = Vec::new();
    if !operands.is_empty() {
        p.parse_punct(Punct::Colon)?;
        input_types = p.parse_type_list()?;
        if input_types.len() != operands.len() {
            let msg = format!("{} operands present, but expected {}", operands.len(), input_types.len());
            return Err(p.emit_error(&msg));
        }
    }
    p.parse_keyword("to")?;
    state.result_types = p.parse_type_list()?;
    if state.result_types.is_empty() {
        // The list after `to` is not optional: report the missing type as MLIR does.
        state.result_types.push(p.parse_type()?);
    }
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    for (u, t) in operands.iter().zip(input_types) {
        state.operands.push(p.resolve_operand(u, t)?);
    }
    state.attrs = p.ctx().dictionary(entries);
    Ok(())
}

fn print_cast(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, in_types, out_types, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let operands = ir.operands(op).to_vec();
        let in_types: Vec<_> = operands.iter().map(|&v| ir.value_type(v)).collect();
        let out_types: Vec<_> = ir.results(op).iter().map(|&v| ir.value_type(v)).collect();
        (operands, in_types, out_types, printed_attr_dict(ctx, ir, op))
    };
    if !operands.is_empty() {
        p.write(" ");
        p.print_operands(&operands);
        p.write(" : ");
        print_type_list(p, &in_types);
    }
    p.write(" to ");
    print_type_list(p, &out_types);
    p.print_optional_attr_dict(dict, &[]);
}

/// `t1, t2` without parentheses.
pub(crate) fn print_type_list(p: &mut dyn OpAsmPrinter, ts: &[fuser_ir::Type]) {
    for (i, &t) in ts.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
    }
}

/// The `builtin` dialect.
pub static BUILTIN: DialectDef = DialectDef {
    namespace: "builtin",
    summary: "The container op and casts every program uses",
    description: "The subset of MLIR's builtin dialect that fuser implements. Its ops print \
without the `builtin.` prefix.",
    ops: &[&MODULE, &UNREALIZED_CONVERSION_CAST],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn verify(ctx: &Context, ir: &Ir, op: OpId) -> Result<(), Diagnostic> {
        verify_module(&VerifyCtx { ctx, ir }, op)
    }

    #[test]
    fn module_state_verifies() {
        let ctx = Context::new(crate::registry());
        let mut ir = Ir::new();
        let state = module_state(&ctx, &mut ir, Some("m"), ctx.unknown_loc());
        let m = ir.create_op(state);
        assert!(verify(&ctx, &ir, m).is_ok());
    }

    #[test]
    fn module_rejects_unprefixed_attributes_and_block_args() {
        let ctx = Context::new(crate::registry());
        let mut ir = Ir::new();
        let state = module_state(&ctx, &mut ir, None, ctx.unknown_loc());
        let m = ir.create_op(state);
        ir.set_attrs(m, dict_of(&ctx, &[("x", ctx.unit_attr())]));
        let err = verify(&ctx, &ir, m).unwrap_err();
        assert_eq!(
            err.message,
            "'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'x'"
        );
        ir.set_attrs(m, ctx.empty_dict());
        let b = ir.region_entry(ir.region(m, 0)).unwrap();
        ir.add_block_arg(b, ctx.i1_type(), None);
        let err = verify(&ctx, &ir, m).unwrap_err();
        assert_eq!(err.message, "'builtin.module' op region should have no arguments");
    }
}
