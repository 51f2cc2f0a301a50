//! The one custom syntax of the fusion tensor ops, shared by all of them:
//!
//! `%r = fusion.OP %a, %b [dims = [..]] [keep_dims] attr-dict : (type, type) -> type`
//!
//! The op-specific part ([`Extra`]) is `dims = [...]` (sum, permute, broadcast) and, for sum, an
//! optional `keep_dims` keyword; or a keyword before the operands (`fusion.compare lt %a, %b`),
//! a string property in the generic form. In the generic form `dims` is an `array<i64: ...>` property and
//! `keep_dims` a unit property. The custom parser stores `sum` dims sorted (the printer prints
//! them sorted too); other ops keep the order written.
//!
//! Also the small attribute helpers the dialect shares (`array<i64>` read/write) and a builder
//! for the state of any tensor op ([`tensor_op_state`]).

use crate::support::parse_int_list;
use crate::support::{empty_state, inherent_attr, printed_attr_dict, split_inherent};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::{AttrKind, DenseArrayData};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::types::TypeKind;
use fuser_ir::{Attr, Type};

/// What an op writes between its operands and its attribute dictionary.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Extra {
    None,
    /// `dims = [...]`.
    Dims,
    /// `dims = [...]` (stored sorted) and an optional `keep_dims`.
    ReduceDims,
    /// A bare keyword before the operands, stored as the string property of this name
    /// (`fusion.compare lt %a, %b`: `predicate = "lt"`).
    Keyword(&'static str),
}

/// The values of an `array<i64: ...>` attribute.
pub fn i64_array(ctx: &Context, a: Attr) -> Option<Vec<i64>> {
    match ctx.attr_kind(a) {
        AttrKind::DenseArray { elem, data: DenseArrayData::Int(v) }
            if matches!(ctx.type_kind(*elem), TypeKind::Integer { width: 64, .. }) =>
        {
            Some(v.clone())
        }
        _ => None,
    }
}

/// `array<i64: values...>`.
pub fn i64_array_attr(ctx: &Context, values: &[i64]) -> Attr {
    ctx.intern_attr(AttrKind::DenseArray { elem: ctx.i64_type(), data: DenseArrayData::Int(values.to_vec()) })
}

/// The `dims` property of an op (`None` when absent or malformed).
pub fn op_dims(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<i64>> {
    i64_array(ctx, inherent_attr(ctx, ir, op, "dims")?)
}

/// Whether the `keep_dims` unit property is set.
pub fn op_keep_dims(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    inherent_attr(ctx, ir, op, "keep_dims").is_some()
}

/// The state of the fusion op `name` (e.g. `"fusion.sum"`) with these operands, result type
/// and op-specific properties (`dims` when given; `keep_dims` when true).
pub fn tensor_op_state(
    ctx: &Context,
    name: &str,
    operands: Vec<Value>,
    result: Type,
    dims: Option<&[i64]>,
    keep_dims: bool,
    loc: Attr,
) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = operands;
    state.result_types = vec![result];
    let mut props = Vec::new();
    if let Some(d) = dims {
        props.push((ctx.ident("dims"), i64_array_attr(ctx, d)));
    }
    if keep_dims {
        props.push((ctx.ident("keep_dims"), ctx.unit_attr()));
    }
    state.props = (!props.is_empty()).then(|| ctx.dictionary(props));
    state
}

/// Parses the shared form; `extra` says which op-specific part to expect.
pub fn parse_tensor_op(p: &mut dyn OpAsmParser, state: &mut OperationState, extra: Extra) -> ParseResult<()> {
    let mut props = Vec::new();
    if let Extra::Keyword(name) = extra {
        let Some(kw) = p.parse_optional_bare_id() else {
            return Err(p.emit_error(&format!("expected the '{name}' keyword")));
        };
        props.push((p.ctx().ident(name), p.ctx().string_attr(&kw)));
    }
    let operands = p.parse_operand_list()?;
    if matches!(extra, Extra::Dims | Extra::ReduceDims) {
        p.parse_keyword("dims")?;
        p.parse_punct(Punct::Equal)?;
        let mut dims = parse_int_list(p)?;
        if extra == Extra::ReduceDims {
            dims.sort_unstable();
        }
        props.push((p.ctx().ident("dims"), i64_array_attr(p.ctx(), &dims)));
        if extra == Extra::ReduceDims && p.parse_optional_keyword("keep_dims") {
            props.push((p.ctx().ident("keep_dims"), p.ctx().unit_attr()));
        }
    }
    parse_tail(p, state, &operands, props)
}

/// What every fusion op's custom form ends with, after its operands and its own clauses:
/// `attr-dict : (operand types) -> result type(s)`. Resolves `operands` against the types, and
/// stores `props` (the clauses' properties) with the properties written in the attribute
/// dictionary (the clauses win) and the discardable attributes.
pub fn parse_tail(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    operands: &[fuser_ir::asm::UnresolvedOperand],
    mut props: Vec<(fuser_ir::attrs::Ident, Attr)>,
) -> ParseResult<()> {
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    p.parse_punct(Punct::Colon)?;
    let types_at = p.current_offset();
    p.parse_punct(Punct::LParen)?;
    let types = if p.parse_optional_punct(Punct::RParen) {
        Vec::new()
    } else {
        let t = p.parse_type_list()?;
        p.parse_punct(Punct::RParen)?;
        t
    };
    p.parse_punct(Punct::Arrow)?;
    let results = p.parse_type_list_parens_or_single()?;
    if types.len() != operands.len() {
        let msg = format!("{} operands present, but expected {} (one per operand type)", operands.len(), types.len());
        return Err(p.emit_error_at(types_at, &msg));
    }
    for (u, &t) in operands.iter().zip(&types) {
        state.operands.push(p.resolve_operand(u, t)?);
    }
    state.result_types = results;
    let ctx = p.ctx();
    let (written_props, attrs) = match ctx.op_def(state.name) {
        Some(def) => split_inherent(ctx, def, entries),
        None => (Vec::new(), entries),
    };
    for (k, v) in written_props {
        if !props.iter().any(|(pk, _)| *pk == k) {
            props.push((k, v));
        }
    }
    state.props = (!props.is_empty()).then(|| ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    Ok(())
}

/// Prints the shared form.
pub fn print_tensor_op(p: &mut dyn OpAsmPrinter, op: OpId, extra: Extra) {
    let (operands, types, result, dims, keep, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let operands = ir.operands(op).to_vec();
        let types: Vec<Type> = operands.iter().map(|&v| ir.value_type(v)).collect();
        let result = ir.results(op).first().map(|&r| ir.value_type(r));
        let mut dims = op_dims(ctx, ir, op).unwrap_or_default();
        if extra == Extra::ReduceDims {
            dims.sort_unstable();
        }
        (operands, types, result, dims, op_keep_dims(ctx, ir, op), printed_attr_dict(ctx, ir, op))
    };
    if let Extra::Keyword(name) = extra {
        let kw = crate::support::inherent_attr(p.ctx(), p.ir(), op, name).and_then(|a| p.ctx().attr_str(a));
        let kw = kw.map_or_else(|| "<<missing>>".to_string(), str::to_string);
        p.write(" ");
        p.write(&kw);
    }
    if !operands.is_empty() {
        p.write(" ");
    }
    p.print_operands(&operands);
    if matches!(extra, Extra::Dims | Extra::ReduceDims) {
        let text: Vec<String> = dims.iter().map(i64::to_string).collect();
        p.write(&format!(" dims = [{}]", text.join(", ")));
        if extra == Extra::ReduceDims && keep {
            p.write(" keep_dims");
        }
    }
    let keyword = [match extra {
        Extra::Keyword(name) => name,
        _ => "",
    }];
    let elided: &[&str] = match extra {
        Extra::None => &[],
        Extra::Dims => &["dims"],
        Extra::ReduceDims => &["dims", "keep_dims"],
        Extra::Keyword(_) => &keyword,
    };
    p.print_optional_attr_dict(dict, elided);
    p.write(" : (");
    for (i, &t) in types.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
    }
    p.write(") -> ");
    if let Some(r) = result {
        p.print_type(r);
    }
}
