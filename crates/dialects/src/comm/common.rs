//! What the `comm` ops share, below them: the operand and property constraints, the accessors
//! passes and the runtime read ops with, the properties builders set, and the clauses of the
//! custom syntax (`team = [...]`, `backend = kw`, `protocol = kw`).

use super::attrs::{
    Backend, Protocol, backend_attr, backend_of, protocol_attr, protocol_of, reduction_attr, reduction_of, team_attr,
    team_of,
};
use super::types::is_request;
use crate::reduction::ReductionKind;
use crate::support::parse_int_list;
use crate::support::{Entries, dict_of, inherent_attr, printed_attr_dict, split_inherent};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::{AttrConstraint, TypeConstraint};
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::OpDef;
use fuser_ir::types::{DYNAMIC, Type};

// ----- constraints --------------------------------------------------------------------------

fn is_buffer(ctx: &Context, t: Type) -> bool {
    crate::host::types::is_buffer_like(ctx, t)
}
fn is_index(ctx: &Context, t: Type) -> bool {
    ctx.type_kind(t).is_index()
}

/// A `!host.buf` or `!host.view` operand.
pub(crate) const BUFFER: TypeConstraint = TypeConstraint::new("buffer or view", is_buffer);
/// A root or peer operand.
pub(crate) const INDEX: TypeConstraint = TypeConstraint::new("index", is_index);
/// A `!comm.request` value.
pub(crate) const REQUEST_VALUE: TypeConstraint = TypeConstraint::new("comm request", is_request);

/// `team`: absolute device ids.
pub(crate) const TEAM: AttrConstraint =
    AttrConstraint::new("i64 dense array attribute", |ctx, a| team_of(ctx, a).is_some());
/// `backend`: optional in the text, materialized as `nccl`.
pub(crate) const BACKEND_PROP: AttrConstraint =
    AttrConstraint::new("communication backend", |ctx, a| backend_of(ctx, a).is_some()).optional();
/// `protocol`: CUDA IPC only.
pub(crate) const PROTOCOL_PROP: AttrConstraint =
    AttrConstraint::new("CUDA IPC protocol", |ctx, a| protocol_of(ctx, a).is_some()).optional();
/// `reduction`: required on the reducing collectives.
pub(crate) const REDUCTION_PROP: AttrConstraint =
    AttrConstraint::new("reduction kind", |ctx, a| reduction_of(ctx, a).is_some());

/// The default properties of every op with a backend: `backend = #comm.backend<nccl>`.
pub(crate) fn default_backend(ctx: &Context) -> Vec<(&'static str, Attr)> {
    vec![("backend", backend_attr(ctx, Backend::Nccl))]
}

/// Property names the custom forms print as clauses (never in the attribute dictionary).
pub(crate) const CLAUSE_PROPS: [&str; 5] = ["team", "backend", "protocol", "reduction", "operandSegmentSizes"];

// ----- accessors ----------------------------------------------------------------------------

/// The definition of `op` when it is a `comm` op.
pub fn comm_def(ctx: &Context, ir: &Ir, op: OpId) -> Option<&'static OpDef> {
    let name = ir.op_name(op);
    (ctx.op_dialect(name) == "comm").then(|| ctx.op_def(name)).flatten()
}

/// The team of a collective (absolute device ids in team order).
pub fn team(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<i64>> {
    team_of(ctx, inherent_attr(ctx, ir, op, "team")?).map(<[i64]>::to_vec)
}

/// The backend of a communication (`nccl` when the property is absent).
pub fn backend(ctx: &Context, ir: &Ir, op: OpId) -> Backend {
    inherent_attr(ctx, ir, op, "backend").and_then(|a| backend_of(ctx, a)).unwrap_or_default()
}

/// The effective CUDA IPC protocol: the property, else `get` with `cuda_ipc`; `None` with NCCL.
pub fn protocol(ctx: &Context, ir: &Ir, op: OpId) -> Option<Protocol> {
    let written = inherent_attr(ctx, ir, op, "protocol").and_then(|a| protocol_of(ctx, a));
    match backend(ctx, ir, op) {
        Backend::Nccl => None,
        Backend::CudaIpc => Some(written.unwrap_or_default()),
    }
}

/// The reduction kind of `comm.allreduce`, `comm.reduce` and `comm.reduce_scatter`.
pub fn reduction_kind(ctx: &Context, ir: &Ir, op: OpId) -> Option<ReductionKind> {
    reduction_of(ctx, inherent_attr(ctx, ir, op, "reduction")?)
}

/// The operand called `name` of a `comm` op (`input`, `output`, `root`, `buffer`, `peer`,
/// `send_to`, `recv_from`).
fn named_operand(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Value> {
    comm_def(ctx, ir, op)?.operand_named(ctx, ir, op, name)
}

/// The buffer a collective reads.
pub fn input(ctx: &Context, ir: &Ir, op: OpId) -> Option<Value> {
    named_operand(ctx, ir, op, "input")
}
/// The buffer a collective writes.
pub fn output(ctx: &Context, ir: &Ir, op: OpId) -> Option<Value> {
    named_operand(ctx, ir, op, "output")
}
/// The team-relative root of `broadcast`, `reduce`, `gather` and `scatter`.
pub fn root(ctx: &Context, ir: &Ir, op: OpId) -> Option<Value> {
    named_operand(ctx, ir, op, "root")
}
/// The buffer of `comm.send` / `comm.recv`.
pub fn buffer(ctx: &Context, ir: &Ir, op: OpId) -> Option<Value> {
    named_operand(ctx, ir, op, "buffer")
}
/// The absolute rank `comm.send` sends to / `comm.recv` receives from.
pub fn peer(ctx: &Context, ir: &Ir, op: OpId) -> Option<Value> {
    named_operand(ctx, ir, op, "peer")
}
/// The absolute rank `comm.collective_permute` sends to.
pub fn send_to(ctx: &Context, ir: &Ir, op: OpId) -> Option<Value> {
    named_operand(ctx, ir, op, "send_to")
}
/// The absolute rank `comm.collective_permute` receives from.
pub fn recv_from(ctx: &Context, ir: &Ir, op: OpId) -> Option<Value> {
    named_operand(ctx, ir, op, "recv_from")
}

/// The request a posting op returns (`None` for `comm.wait`, `comm.share_handles` and non-comm
/// ops).
pub fn request(ctx: &Context, ir: &Ir, op: OpId) -> Option<Value> {
    comm_def(ctx, ir, op)?;
    let r = *ir.results(op).first()?;
    is_request(ctx, ir.value_type(r)).then_some(r)
}

/// The integer held by `v` when it is defined by an `arith.constant`.
pub(crate) fn constant_index(ctx: &Context, ir: &Ir, v: Value) -> Option<i64> {
    let d = ir.defining_op(v)?;
    if ctx.op_name_str(ir.op_name(d)) != "arith.constant" {
        return None;
    }
    let (c, _) = crate::support::int_const(ctx, inherent_attr(ctx, ir, d, "value")?)?;
    c.to_i64()
}

/// `4x?x8` (for messages).
pub(crate) fn shape_str(shape: &[i64]) -> String {
    if shape.is_empty() {
        return "scalar".into();
    }
    shape.iter().map(|&d| if d == DYNAMIC { "?".to_string() } else { d.to_string() }).collect::<Vec<_>>().join("x")
}

// ----- properties of builders ---------------------------------------------------------------

/// The properties every builder sets: team (if any), reduction (if any), backend, protocol.
pub(crate) fn props_dict(
    ctx: &Context,
    team: Option<&[i64]>,
    reduction: Option<ReductionKind>,
    backend: Backend,
    protocol: Option<Protocol>,
) -> Attr {
    let mut entries: Vec<(&str, Attr)> = vec![("backend", backend_attr(ctx, backend))];
    if let Some(t) = team {
        entries.push(("team", team_attr(ctx, t)));
    }
    if let Some(k) = reduction {
        entries.push(("reduction", reduction_attr(ctx, k)));
    }
    if let Some(p) = protocol {
        entries.push(("protocol", protocol_attr(ctx, p)));
    }
    dict_of(ctx, &entries)
}

/// Sets the backend of an op state built by one of the `*_state` builders.
pub fn set_backend(ctx: &Context, state: &mut OperationState, backend: Backend) {
    let props = state.props.unwrap_or_else(|| ctx.empty_dict());
    state.props = Some(ctx.dict_set(props, "backend", Some(backend_attr(ctx, backend))));
}

// ----- custom syntax clauses ----------------------------------------------------------------

/// The clauses after the operands of a custom form: `team = [...]`, `backend = kw`,
/// `protocol = kw`, then the attribute dictionary.
pub(crate) struct Tail {
    pub props: Entries,
    pub attrs: Entries,
}

/// `= keyword` decoded by `decode` into an attribute, or an error naming `what`.
fn parse_keyword_value(
    p: &mut dyn OpAsmParser,
    what: &str,
    decode: impl Fn(&Context, &str) -> Option<Attr>,
) -> ParseResult<Attr> {
    p.parse_punct(Punct::Equal)?;
    let at = p.current_offset();
    let kw = p.parse_optional_bare_id().ok_or_else(|| p.emit_error(&format!("expected {what}")))?;
    decode(p.ctx(), &kw).ok_or_else(|| p.emit_error_at(at, &format!("unknown {what} '{kw}'")))
}

/// Parses `team = [...]` (when `with_team`), then optional `backend = ...` and (when
/// `with_protocol`) `protocol = ...`, then an optional attribute dictionary.
pub(crate) fn parse_tail(
    p: &mut dyn OpAsmParser,
    def: &OpDef,
    with_team: bool,
    with_protocol: bool,
) -> ParseResult<Tail> {
    let mut props = Vec::new();
    if with_team {
        p.parse_keyword("team")?;
        p.parse_punct(Punct::Equal)?;
        let team = parse_int_list(p)?;
        let ctx = p.ctx();
        props.push((ctx.ident("team"), team_attr(ctx, &team)));
    }
    if p.parse_optional_keyword("backend") {
        let a = parse_keyword_value(p, "backend", |ctx, kw| Backend::from_keyword(kw).map(|b| backend_attr(ctx, b)))?;
        props.push((p.ctx().ident("backend"), a));
    }
    if with_protocol && p.parse_optional_keyword("protocol") {
        let a =
            parse_keyword_value(p, "protocol", |ctx, kw| Protocol::from_keyword(kw).map(|x| protocol_attr(ctx, x)))?;
        props.push((p.ctx().ident("protocol"), a));
    }
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let (inherent, attrs) = split_inherent(p.ctx(), def, entries);
    props.extend(inherent);
    Ok(Tail { props, attrs })
}

/// A leading reduction keyword (`sum`, `prod`, `min`, `max`) as a `reduction` property.
pub(crate) fn parse_reduction_keyword(p: &mut dyn OpAsmParser) -> ParseResult<(fuser_ir::attrs::Ident, Attr)> {
    let at = p.current_offset();
    let kw =
        p.parse_optional_bare_id().ok_or_else(|| p.emit_error("expected reduction kind (sum, prod, min or max)"))?;
    let kind = ReductionKind::from_keyword(&kw).ok_or_else(|| {
        p.emit_error_at(at, &format!("unknown reduction kind '{kw}' (expected sum, prod, min or max)"))
    })?;
    let ctx = p.ctx();
    Ok((ctx.ident("reduction"), reduction_attr(ctx, kind)))
}

/// Stores the parsed clauses in `state`.
pub(crate) fn finish_state(p: &mut dyn OpAsmParser, state: &mut OperationState, tail: Tail) {
    let ctx = p.ctx();
    state.props = (!tail.props.is_empty()).then(|| ctx.dictionary(tail.props));
    state.attrs = ctx.dictionary(tail.attrs);
}

/// `: T1, T2, ...` with exactly `n` types.
pub(crate) fn parse_buffer_types(p: &mut dyn OpAsmParser, n: usize) -> ParseResult<Vec<Type>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    p.parse_punct(Punct::Colon)?;
    let at = p.current_offset();
    let types = p.parse_type_list()?;
    if types.len() != n {
        return Err(p.emit_error_at(at, &format!("expected {n} buffer types, got {}", types.len())));
    }
    Ok(types)
}

/// Prints ` team = [...]`, ` backend = ...` (unless nccl), ` protocol = ...`, the remaining
/// attribute dictionary.
pub(crate) fn print_tail(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (team, backend, protocol, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let backend = inherent_attr(ctx, ir, op, "backend").and_then(|a| backend_of(ctx, a));
        let protocol = inherent_attr(ctx, ir, op, "protocol").and_then(|a| protocol_of(ctx, a));
        (team(ctx, ir, op), backend, protocol, printed_attr_dict(ctx, ir, op))
    };
    if let Some(team) = team {
        let ids: Vec<String> = team.iter().map(i64::to_string).collect();
        p.write(&format!(" team = [{}]", ids.join(", ")));
    }
    if let Some(b) = backend.filter(|&b| b != Backend::Nccl) {
        p.write(&format!(" backend = {}", b.keyword()));
    }
    if let Some(x) = protocol {
        p.write(&format!(" protocol = {}", x.keyword()));
    }
    p.print_optional_attr_dict(dict, &CLAUSE_PROPS);
}

/// ` : T1, T2` (nothing for no types).
pub(crate) fn print_buffer_types(p: &mut dyn OpAsmPrinter, values: &[Value]) {
    for (i, &v) in values.iter().enumerate() {
        p.write(if i == 0 { " : " } else { ", " });
        let t = p.ir().value_type(v);
        p.print_type(t);
    }
}
