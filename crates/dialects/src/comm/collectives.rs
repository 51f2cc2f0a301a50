//! The collectives: `comm.allgather`, `allreduce`, `reduce_scatter`, `broadcast`, `reduce`,
//! `gather`, `scatter`, `all_to_all` and `collective_permute`. Each reads `input`, writes
//! `output` (two buffers of one element type), runs over a `team` of absolute device ids and
//! returns a `!comm.request`.
//!
//! Custom form (one parser and printer for all, driven by [`Form`]):
//! `%r = comm.NAME [KIND] %in into %out [root %root | send_to %s recv_from %r]
//!  team = [ids] [backend = cuda_ipc] {attrs}? : IN_TYPE, OUT_TYPE`.
//!
//! Shape rules (checked only where extents are static): allgather/gather write team-size times
//! the input ([`check_gathered_shape`]), reduce_scatter/scatter the inverse, all_to_all keeps
//! the element count (divisible by the team size), the others keep the shape
//! ([`check_same_shape`]).
//!
//! Canonicalization ([`TEAM_OF_ONE`]): a collective over a team of one device whose request is
//! only waited on becomes a local `host.copy` (nothing when input and output are one buffer),
//! and its waits lose that request.

use super::{
    BACKEND_PROP, BUFFER, INDEX, REDUCTION_PROP, TEAM, check_team, constant_index, default_backend, finish_state,
    parse_buffer_types, parse_reduction_keyword, parse_tail, print_buffer_types, print_tail, props_dict, request_type,
    shape_str,
};
use super::{Backend, REQUEST_VALUE};
use crate::host::types::BufferType;
use crate::reduction::ReductionKind;
use crate::support::{empty_state, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::HookSet;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{OpDef, PatternDef, Traits, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::DYNAMIC;

// ----- forms ----------------------------------------------------------------------------------

/// The index operands a collective has after `input` and `output`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Extra {
    None,
    /// `root %root`: a team-relative index.
    Root,
    /// `send_to %s recv_from %r`: absolute ranks.
    Permute,
}

/// How the output's shape relates to the input's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ShapeRule {
    /// Same shape (allreduce, broadcast, reduce, collective_permute).
    Same,
    /// Output = team size × input (allgather, gather).
    Gathers,
    /// Input = team size × output (reduce_scatter, scatter).
    Scatters,
    /// Same element count, divisible by the team size (all_to_all).
    SameCount,
}

/// What distinguishes one collective's syntax and verifier from another's.
#[derive(Clone, Copy, Debug)]
pub struct Form {
    pub reduces: bool,
    pub extra: Extra,
    pub shape: ShapeRule,
}

/// The form of the collective called `name` (`comm.allgather`, ...).
pub fn form_of(name: &str) -> Option<Form> {
    let (reduces, extra, shape) = match name {
        "comm.allgather" => (false, Extra::None, ShapeRule::Gathers),
        "comm.allreduce" => (true, Extra::None, ShapeRule::Same),
        "comm.reduce_scatter" => (true, Extra::None, ShapeRule::Scatters),
        "comm.broadcast" => (false, Extra::Root, ShapeRule::Same),
        "comm.reduce" => (true, Extra::Root, ShapeRule::Same),
        "comm.gather" => (false, Extra::Root, ShapeRule::Gathers),
        "comm.scatter" => (false, Extra::Root, ShapeRule::Scatters),
        "comm.all_to_all" => (false, Extra::None, ShapeRule::SameCount),
        "comm.collective_permute" => (false, Extra::Permute, ShapeRule::Same),
        _ => return None,
    };
    Some(Form { reduces, extra, shape })
}

/// Every collective.
pub static ALL: [&OpDef; 9] =
    [&ALLGATHER, &ALLREDUCE, &REDUCE_SCATTER, &BROADCAST, &REDUCE, &GATHER, &SCATTER, &ALL_TO_ALL, &COLLECTIVE_PERMUTE];

/// The hooks every collective shares: one verifier, one custom syntax, the team-of-one
/// canonicalization and the default `backend`.
const COLLECTIVE_HOOKS: HookSet = HookSet {
    verify: Some(verify_collective),
    canonicalize: &[TEAM_OF_ONE],
    parse: Some(parse_collective),
    print: Some(print_collective),
    default_props: Some(default_backend),
    ..HookSet::NONE
};

// ----- the ops --------------------------------------------------------------------------------

fuser_ir::declare_op! {
    pub static ALLGATHER: "comm.allgather" {
        summary: "Concatenates the inputs of every team member on every member",
        description: "Every device of the team contributes `input`; every device receives the \
contributions in team order, concatenated along dimension 0 into `output`. `output` holds team \
size × the elements of `input`: either with the same rank and dimension 0 multiplied by the team \
size, or with one more leading dimension of extent team size. Posted on the current stream; the \
result is waited on by `comm.wait`.\n\n**Implementation.** `backend = nccl` (the default) runs NCCL's kernel; `backend = cuda_ipc` \
selects the copy-engine implementation (docs/dev/copy-engine.md): the bytes move by copy-engine \
copies between buffers mapped through CUDA IPC, so no SM is taken from concurrent kernels. \
The semantics are the same; every collective has both implementations.\n\n\
```mlir\n%r = comm.allgather %shard into %full team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<8x8xf32>\n```",
        operands: { input: BUFFER, output: BUFFER },
        results: { request: REQUEST_VALUE },
        properties: { team: TEAM, backend: BACKEND_PROP },
        hook_set: COLLECTIVE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static ALLREDUCE: "comm.allreduce" {
        summary: "Reduces the inputs of the team elementwise, on every member",
        description: "Every device of the team contributes `input`; every device receives the \
elementwise reduction (`sum`, `prod`, `min` or `max`) of all contributions in `output`, which \
has the shape and element type of `input` (`input` and `output` may be the same buffer). \
Posted on the current stream.\n\n**Implementation.** `backend = nccl` (the default) runs NCCL's kernel; `backend = cuda_ipc` \
selects the copy-engine implementation (docs/dev/copy-engine.md): the bytes move by copy-engine \
copies between buffers mapped through CUDA IPC, so no SM is taken from concurrent kernels (the reduction itself is one small elementwise kernel). \
The semantics are the same; every collective has both implementations.\n\n\
```mlir\n%r = comm.allreduce sum %partial into %total team = [0, 1] : !host.buf<4x8xf32>, !host.buf<4x8xf32>\n```",
        operands: { input: BUFFER, output: BUFFER },
        results: { request: REQUEST_VALUE },
        properties: { team: TEAM, backend: BACKEND_PROP, reduction: REDUCTION_PROP },
        hook_set: COLLECTIVE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static REDUCE_SCATTER: "comm.reduce_scatter" {
        summary: "Reduces the inputs of the team and scatters the result in team order",
        description: "Every device contributes `input`, made of team-size chunks along dimension \
0 (or along a leading dimension of extent team size); the device at team position `i` receives \
the elementwise reduction of everyone's chunk `i` in `output`. The inverse shape rule of \
`comm.allgather`. Posted on the current stream.\n\n**Implementation.** `backend = nccl` (the default) runs NCCL's kernel; `backend = cuda_ipc` \
selects the copy-engine implementation (docs/dev/copy-engine.md): the bytes move by copy-engine \
copies between buffers mapped through CUDA IPC, so no SM is taken from concurrent kernels (the reduction itself is one small elementwise kernel). \
The semantics are the same; every collective has both implementations.\n\n\
```mlir\n%r = comm.reduce_scatter sum %full into %shard team = [0, 1, 2, 3] : !host.buf<8x8xf32>, !host.buf<2x8xf32>\n```",
        operands: { input: BUFFER, output: BUFFER },
        results: { request: REQUEST_VALUE },
        properties: { team: TEAM, backend: BACKEND_PROP, reduction: REDUCTION_PROP },
        hook_set: COLLECTIVE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static BROADCAST: "comm.broadcast" {
        summary: "Copies the root's input to the output of every team member",
        description: "The device at team position `root` sends its `input`; every device of the \
team (the root included) receives it in `output`, of the same shape. `root` is a \
**team-relative** index (`0` is the first device of `team`), possibly computed at run time \
(a loop index); only the root reads `input`. Posted on the current stream.\n\n**Implementation.** `backend = nccl` (the default) runs NCCL; `backend = cuda_ipc` the copy-engine implementation (docs/dev/copy-engine.md): every member pulls the root's staged input through CUDA IPC. The semantics are the same.\n\n\
```mlir\n%r = comm.broadcast %x into %y root %i team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<2x8xf32>\n```",
        operands: { input: BUFFER, output: BUFFER, root: INDEX },
        results: { request: REQUEST_VALUE },
        properties: { team: TEAM, backend: BACKEND_PROP },
        hook_set: COLLECTIVE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static REDUCE: "comm.reduce" {
        summary: "Reduces the inputs of the team elementwise into the root's output",
        description: "Every device contributes `input`; the device at team position `root` (a \
**team-relative** index) receives the elementwise reduction in `output`, of the same shape. \
Other devices leave `output` unchanged. Posted on the current stream.\n\n**Implementation.** `backend = nccl` (the default) runs NCCL; `backend = cuda_ipc` the copy-engine implementation (docs/dev/copy-engine.md): the root pulls every member's staged input and reduces them in team order (one small kernel). The semantics are the same.\n\n\
```mlir\n%r = comm.reduce max %x into %y root %c0 team = [0, 1] : !host.buf<16xf32>, !host.buf<16xf32>\n```",
        operands: { input: BUFFER, output: BUFFER, root: INDEX },
        results: { request: REQUEST_VALUE },
        properties: { team: TEAM, backend: BACKEND_PROP, reduction: REDUCTION_PROP },
        hook_set: COLLECTIVE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static GATHER: "comm.gather" {
        summary: "Concatenates the inputs of the team on the root",
        description: "Like `comm.allgather`, but only the device at team position `root` (a \
**team-relative** index) receives the concatenation in `output`; the others only send. Same \
shape rule as `comm.allgather`. Posted on the current stream.\n\n**Implementation.** `backend = nccl` (the default) runs NCCL; `backend = cuda_ipc` the copy-engine implementation (docs/dev/copy-engine.md): the root pulls every member's staged input into its chunk. The semantics are the same.\n\n\
```mlir\n%r = comm.gather %shard into %full root %c0 team = [0, 1] : !host.buf<2x8xf32>, !host.buf<4x8xf32>\n```",
        operands: { input: BUFFER, output: BUFFER, root: INDEX },
        results: { request: REQUEST_VALUE },
        properties: { team: TEAM, backend: BACKEND_PROP },
        hook_set: COLLECTIVE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static SCATTER: "comm.scatter" {
        summary: "Splits the root's input in team order across the team",
        description: "The device at team position `root` (a **team-relative** index) splits its \
`input` into team-size chunks along dimension 0; the device at team position `i` receives chunk \
`i` in `output`. The inverse shape rule of `comm.gather`. Posted on the current stream.\n\n**Implementation.** `backend = nccl` (the default) runs NCCL; `backend = cuda_ipc` the copy-engine implementation (docs/dev/copy-engine.md): every member pulls its chunk of the root's staged input. The semantics are the same.\n\n\
```mlir\n%r = comm.scatter %full into %shard root %c0 team = [0, 1] : !host.buf<4x8xf32>, !host.buf<2x8xf32>\n```",
        operands: { input: BUFFER, output: BUFFER, root: INDEX },
        results: { request: REQUEST_VALUE },
        properties: { team: TEAM, backend: BACKEND_PROP },
        hook_set: COLLECTIVE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static ALL_TO_ALL: "comm.all_to_all" {
        summary: "Exchanges equal chunks between every pair of team members",
        description: "`input` is split into team-size equal chunks (in row-major element order); \
chunk `j` of the device at team position `i` lands in chunk `i` of the `output` of the device \
at position `j`. `input` and `output` hold the same number of elements, divisible by the team \
size. Posted on the current stream.\n\n**Implementation.** `backend = nccl` (the default) runs NCCL; `backend = cuda_ipc` the copy-engine implementation (docs/dev/copy-engine.md): every member pulls its chunk of every peer's staged input. The semantics are the same.\n\n\
```mlir\n%r = comm.all_to_all %x into %y team = [0, 1, 2, 3] : !host.buf<4x8xf32>, !host.buf<4x8xf32>\n```",
        operands: { input: BUFFER, output: BUFFER },
        results: { request: REQUEST_VALUE },
        properties: { team: TEAM, backend: BACKEND_PROP },
        hook_set: COLLECTIVE_HOOKS,
    }
}

fuser_ir::declare_op! {
    pub static COLLECTIVE_PERMUTE: "comm.collective_permute" {
        summary: "Sends the input to one peer and receives the output from another",
        description: "Every device of the team sends `input` to the device `send_to` and \
receives `output` (same shape) from the device `recv_from`; both are **absolute** ranks, \
typically computed from the executing rank and a loop index (a ring step). A peer equal to the \
executing rank means a local copy. The send and the receive are posted together on the current \
stream.\n\n**Implementation.** `backend = nccl` (the default) runs NCCL; `backend = cuda_ipc` the copy-engine implementation (docs/dev/copy-engine.md): every member pulls the staged input of its `recv_from`. The semantics are the same.\n\n\
```mlir\n%r = comm.collective_permute %x into %y send_to %next recv_from %prev team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<2x8xf32>\n```",
        operands: { input: BUFFER, output: BUFFER, send_to: INDEX, recv_from: INDEX },
        results: { request: REQUEST_VALUE },
        properties: { team: TEAM, backend: BACKEND_PROP },
        hook_set: COLLECTIVE_HOOKS,
    }
}

// ----- builders -------------------------------------------------------------------------------

/// The state of collective `def` over `team` (backend nccl), operands in declaration order.
fn collective_state(
    ctx: &Context,
    def: &OpDef,
    reduction: Option<ReductionKind>,
    operands: Vec<Value>,
    team: &[i64],
    loc: Attr,
) -> OperationState {
    let mut state = empty_state(ctx, def.name, loc);
    state.operands = operands;
    state.result_types = vec![request_type(ctx)];
    state.props = Some(props_dict(ctx, Some(team), reduction, Backend::Nccl, None));
    state
}

/// `comm.allgather %input into %output team = [...]`.
pub fn allgather_state(ctx: &Context, input: Value, output: Value, team: &[i64], loc: Attr) -> OperationState {
    collective_state(ctx, &ALLGATHER, None, vec![input, output], team, loc)
}

/// `comm.allreduce KIND %input into %output team = [...]`.
pub fn allreduce_state(
    ctx: &Context,
    kind: ReductionKind,
    input: Value,
    output: Value,
    team: &[i64],
    loc: Attr,
) -> OperationState {
    collective_state(ctx, &ALLREDUCE, Some(kind), vec![input, output], team, loc)
}

/// `comm.reduce_scatter KIND %input into %output team = [...]`.
pub fn reduce_scatter_state(
    ctx: &Context,
    kind: ReductionKind,
    input: Value,
    output: Value,
    team: &[i64],
    loc: Attr,
) -> OperationState {
    collective_state(ctx, &REDUCE_SCATTER, Some(kind), vec![input, output], team, loc)
}

/// `comm.broadcast %input into %output root %root team = [...]` (`root` team-relative).
pub fn broadcast_state(
    ctx: &Context,
    input: Value,
    output: Value,
    root: Value,
    team: &[i64],
    loc: Attr,
) -> OperationState {
    collective_state(ctx, &BROADCAST, None, vec![input, output, root], team, loc)
}

/// `comm.reduce KIND %input into %output root %root team = [...]` (`root` team-relative).
pub fn reduce_state(
    ctx: &Context,
    kind: ReductionKind,
    input: Value,
    output: Value,
    root: Value,
    team: &[i64],
    loc: Attr,
) -> OperationState {
    collective_state(ctx, &REDUCE, Some(kind), vec![input, output, root], team, loc)
}

/// `comm.gather %input into %output root %root team = [...]` (`root` team-relative).
pub fn gather_state(
    ctx: &Context,
    input: Value,
    output: Value,
    root: Value,
    team: &[i64],
    loc: Attr,
) -> OperationState {
    collective_state(ctx, &GATHER, None, vec![input, output, root], team, loc)
}

/// `comm.scatter %input into %output root %root team = [...]` (`root` team-relative).
pub fn scatter_state(
    ctx: &Context,
    input: Value,
    output: Value,
    root: Value,
    team: &[i64],
    loc: Attr,
) -> OperationState {
    collective_state(ctx, &SCATTER, None, vec![input, output, root], team, loc)
}

/// `comm.all_to_all %input into %output team = [...]`.
pub fn all_to_all_state(ctx: &Context, input: Value, output: Value, team: &[i64], loc: Attr) -> OperationState {
    collective_state(ctx, &ALL_TO_ALL, None, vec![input, output], team, loc)
}

/// `comm.collective_permute %input into %output send_to %s recv_from %r team = [...]` (peers
/// absolute ranks).
pub fn collective_permute_state(
    ctx: &Context,
    input: Value,
    output: Value,
    send_to: Value,
    recv_from: Value,
    team: &[i64],
    loc: Attr,
) -> OperationState {
    collective_state(ctx, &COLLECTIVE_PERMUTE, None, vec![input, output, send_to, recv_from], team, loc)
}

// ----- shape rules ----------------------------------------------------------------------------

fn static_eq(a: i64, b: i64) -> bool {
    a == DYNAMIC || b == DYNAMIC || a == b
}

/// `a` and `b` have the same rank and agree on every extent static in both.
pub fn check_same_shape(a: &[i64], b: &[i64], a_name: &str, b_name: &str) -> Result<(), String> {
    if a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| static_eq(x, y)) {
        return Ok(());
    }
    Err(format!("expected '{a_name}' and '{b_name}' to have the same shape, got {} and {}", shape_str(a), shape_str(b)))
}

/// `large` holds `team` times the elements of `small`: same rank with dimension 0 multiplied by
/// `team` and the other extents equal, or one more leading dimension of extent `team`. Only
/// extents static on both sides are compared.
pub fn check_gathered_shape(
    small: &[i64],
    large: &[i64],
    team: i64,
    small_name: &str,
    large_name: &str,
) -> Result<(), String> {
    if large.len() == small.len() + 1 {
        if !static_eq(large[0], team) {
            return Err(format!(
                "expected dimension 0 of '{large_name}' to be the team size ({team}), got {}",
                large[0]
            ));
        }
        for (i, (&s, &l)) in small.iter().zip(&large[1..]).enumerate() {
            if !static_eq(s, l) {
                return Err(format!(
                    "expected dimension {} of '{large_name}' to equal dimension {i} of '{small_name}' ({s}), got {l}",
                    i + 1
                ));
            }
        }
        return Ok(());
    }
    if large.len() != small.len() || small.is_empty() {
        return Err(format!(
            "expected '{large_name}' to have the rank of '{small_name}' ({}) or one more, got rank {}",
            small.len(),
            large.len()
        ));
    }
    if small[0] != DYNAMIC && large[0] != DYNAMIC && small[0].checked_mul(team) != Some(large[0]) {
        return Err(format!(
            "expected dimension 0 of '{large_name}' to be {team} x {} = {} (team size x dimension 0 of \
'{small_name}'), got {}",
            small[0],
            small[0].saturating_mul(team),
            large[0]
        ));
    }
    for i in 1..small.len() {
        if !static_eq(small[i], large[i]) {
            return Err(format!(
                "expected dimension {i} of '{large_name}' to equal that of '{small_name}' ({}), got {}",
                small[i], large[i]
            ));
        }
    }
    Ok(())
}

/// Same element count (when static on both sides), divisible by `team`.
pub fn check_same_count(input: &BufferType, output: &BufferType, team: i64) -> Result<(), String> {
    let (Some(a), Some(b)) = (input.static_num_elements(), output.static_num_elements()) else { return Ok(()) };
    if a != b {
        return Err(format!("expected 'input' and 'output' to have the same number of elements, got {a} and {b}"));
    }
    if a % team != 0 {
        return Err(format!("expected the number of elements ({a}) to be divisible by the team size ({team})"));
    }
    Ok(())
}

// ----- verifier -------------------------------------------------------------------------------

/// What the declaration does not say: a valid team, buffers of one element type related by the
/// op's shape rule, and a constant root inside the team.
fn verify_collective(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let Some(form) = form_of(ctx.op_name_str(ir.op_name(op))) else { return Ok(()) };
    let team = super::team(ctx, ir, op).unwrap_or_default();
    check_team(&team).map_err(|m| v.op_error(op, m))?;
    let (in_ty, out_ty) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.operand(op, 1)));
    let (Some(input), Some(output)) = (BufferType::of(ctx, in_ty), BufferType::of(ctx, out_ty)) else {
        return Ok(());
    };
    if input.elem != output.elem {
        return Err(v.op_error(
            op,
            format!(
                "expected 'input' and 'output' to have the same element type, got '{}' and '{}'",
                type_str(ctx, input.elem),
                type_str(ctx, output.elem)
            ),
        ));
    }
    let n = team.len() as i64;
    let shapes = match form.shape {
        ShapeRule::Same => check_same_shape(&input.shape, &output.shape, "input", "output"),
        ShapeRule::Gathers => check_gathered_shape(&input.shape, &output.shape, n, "input", "output"),
        ShapeRule::Scatters => check_gathered_shape(&output.shape, &input.shape, n, "output", "input"),
        ShapeRule::SameCount => check_same_count(&input, &output, n),
    };
    shapes.map_err(|m| v.op_error(op, m))?;
    let root = if form.extra == Extra::Root { constant_index(ctx, ir, ir.operand(op, 2)) } else { None };
    if let Some(root) = root.filter(|&r| r < 0 || r >= n) {
        return Err(v.op_error(op, format!("root {root} is not a team-relative index of a team of {n} devices")));
    }
    Ok(())
}

/// Whether the collective called `name` may use `backend = cuda_ipc` (the copy-engine
/// implementation of docs/dev/copy-engine.md): every collective has one.
pub fn has_copy_engine_form(name: &str) -> bool {
    form_of(name).is_some()
}

// ----- syntax ---------------------------------------------------------------------------------

fn parse_collective(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let ctx = p.ctx();
    let (Some(def), Some(form)) = (ctx.op_def(state.name), form_of(ctx.op_name_str(state.name))) else {
        return Err(p.emit_error("not a collective"));
    };
    let reduction = if form.reduces { Some(parse_reduction_keyword(p)?) } else { None };
    let input = p.parse_operand()?;
    p.parse_keyword("into")?;
    let output = p.parse_operand()?;
    let mut extras = Vec::new();
    match form.extra {
        Extra::None => {}
        Extra::Root => {
            p.parse_keyword("root")?;
            extras.push(p.parse_operand()?);
        }
        Extra::Permute => {
            p.parse_keyword("send_to")?;
            extras.push(p.parse_operand()?);
            p.parse_keyword("recv_from")?;
            extras.push(p.parse_operand()?);
        }
    }
    let mut tail = parse_tail(p, def, true, false)?;
    tail.props.extend(reduction);
    let types = parse_buffer_types(p, 2)?;
    let mut operands = vec![p.resolve_operand(&input, types[0])?, p.resolve_operand(&output, types[1])?];
    let index = p.ctx().index_type();
    for e in &extras {
        operands.push(p.resolve_operand(e, index)?);
    }
    state.operands = operands;
    state.result_types = vec![request_type(p.ctx())];
    finish_state(p, state, tail);
    Ok(())
}

fn print_collective(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (form, kind, operands) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (form_of(ctx.op_name_str(ir.op_name(op))), super::reduction_kind(ctx, ir, op), ir.operands(op).to_vec())
    };
    let Some(form) = form else { return };
    if operands.len() < 2 {
        return;
    }
    if let Some(k) = kind {
        p.write(&format!(" {}", k.keyword()));
    }
    p.write(" ");
    p.print_operand(operands[0]);
    p.write(" into ");
    p.print_operand(operands[1]);
    match (form.extra, &operands[2..]) {
        (Extra::Root, [root]) => {
            p.write(" root ");
            p.print_operand(*root);
        }
        (Extra::Permute, [s, r]) => {
            p.write(" send_to ");
            p.print_operand(*s);
            p.write(" recv_from ");
            p.print_operand(*r);
        }
        _ => {}
    }
    print_tail(p, op);
    print_buffer_types(p, &operands[..2]);
}

// ----- canonicalization -----------------------------------------------------------------------

/// A collective over one device is a local copy (see the module docs).
pub static TEAM_OF_ONE: PatternDef = PatternDef { name: "comm-team-of-one-to-copy", apply: team_of_one_to_copy };

/// The local copy that replaces a collective over a team of one.
pub const HOST_COPY: &str = "host.copy";

fn team_of_one_to_copy(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some(waits) = replaceable_team_of_one(rw.ctx(), rw.ir(), op) else { return false };
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let (input, output, request, loc) = (ir.operand(op, 0), ir.operand(op, 1), ir.result(op, 0), ir.loc(op));
    if input != output {
        let mut copy = empty_state(ctx, HOST_COPY, loc);
        copy.operands = vec![input, output];
        rw.set_insertion_point_before(op);
        rw.create_op(copy);
    }
    for wait in waits {
        drop_wait_operand(rw, wait, request);
    }
    rw.erase_op(op);
    true
}

/// Removes every use of `request` from `wait`, erasing the wait when nothing is left.
fn drop_wait_operand(rw: &mut dyn Rewriter, wait: OpId, request: Value) {
    let ir = rw.ir_mut();
    for i in (0..ir.num_operands(wait)).rev() {
        if ir.operand(wait, i) == request {
            ir.erase_operand(wait, i);
        }
    }
    if ir.num_operands(wait) == 0 {
        rw.erase_op(wait);
    } else {
        rw.notify_changed(wait);
    }
}

/// The waits on `op`'s request when `op` is a collective over one device that can become a
/// local copy: not inside a `comm.group`; its request used only by `comm.wait`s later in the
/// same block with no stream change in between (the copy runs on the posting stream, so a wait
/// on another stream would lose its ordering); distinct buffers need `host.copy` registered
/// and the same shape and element type.
fn replaceable_team_of_one(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<OpId>> {
    form_of(ctx.op_name_str(ir.op_name(op)))?;
    if super::team(ctx, ir, op)?.len() != 1 || ir.num_results(op) != 1 || ir.num_operands(op) < 2 {
        return None;
    }
    if ir.parent_op(op).is_some_and(|p| ctx.op_name_str(ir.op_name(p)) == super::GROUP.name) {
        return None;
    }
    let (input, output) = (ir.operand(op, 0), ir.operand(op, 1));
    if input != output && !copyable(ctx, ir, input, output) {
        return None;
    }
    let mut waits = Vec::new();
    for u in ir.uses(ir.result(op, 0)) {
        if ctx.op_name_str(ir.op_name(u.op)) != super::WAIT.name || !same_stream_later(ctx, ir, op, u.op) {
            return None;
        }
        if !waits.contains(&u.op) {
            waits.push(u.op);
        }
    }
    Some(waits)
}

/// `host.copy` exists and the buffers have one shape and element type.
fn copyable(ctx: &Context, ir: &Ir, a: Value, b: Value) -> bool {
    if ctx.registry().op(HOST_COPY).is_none() {
        return false;
    }
    match (BufferType::of(ctx, ir.value_type(a)), BufferType::of(ctx, ir.value_type(b))) {
        (Some(x), Some(y)) => x.shape == y.shape && x.elem == y.elem,
        _ => false,
    }
}

/// `later` follows `op` in its block, and no op in between (nested ops included) may change
/// the current stream.
fn same_stream_later(ctx: &Context, ir: &Ir, op: OpId, later: OpId) -> bool {
    if ir.op_block(op).is_none() || ir.op_block(op) != ir.op_block(later) {
        return false;
    }
    let mut cur = ir.next_op(op);
    while let Some(o) = cur {
        if o == later {
            return true;
        }
        if ir.collect_ops(o, fuser_ir::ir::WalkOrder::PreOrder).into_iter().any(|n| may_switch_stream(ctx, ir, n)) {
            return false;
        }
        cur = ir.next_op(o);
    }
    false
}

/// Conservatively, any non-pure op outside `comm` whose name mentions a stream
/// (`host.set_current_stream`, ...).
fn may_switch_stream(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let name = ir.op_name(op);
    let pure = ctx.op_def(name).is_some_and(|d| d.has(Traits::PURE));
    !pure && ctx.op_dialect(name) != "comm" && ctx.op_name_str(name).contains("stream")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gathered_shapes() {
        let d = DYNAMIC;
        assert_eq!(check_gathered_shape(&[2, 8], &[8, 8], 4, "input", "output"), Ok(()));
        assert_eq!(check_gathered_shape(&[2, 8], &[4, 2, 8], 4, "input", "output"), Ok(()));
        assert_eq!(check_gathered_shape(&[d, 8], &[8, d], 4, "input", "output"), Ok(()));
        assert_eq!(
            check_gathered_shape(&[2, 8], &[6, 8], 4, "input", "output"),
            Err("expected dimension 0 of 'output' to be 4 x 2 = 8 (team size x dimension 0 of 'input'), got 6".into())
        );
        assert_eq!(
            check_gathered_shape(&[2, 8], &[8, 4], 4, "input", "output"),
            Err("expected dimension 1 of 'output' to equal that of 'input' (8), got 4".into())
        );
        assert_eq!(
            check_gathered_shape(&[2, 8], &[3, 2, 8], 4, "input", "output"),
            Err("expected dimension 0 of 'output' to be the team size (4), got 3".into())
        );
        assert_eq!(
            check_gathered_shape(&[2, 8], &[4, 2, 7], 4, "input", "output"),
            Err("expected dimension 2 of 'output' to equal dimension 1 of 'input' (8), got 7".into())
        );
        assert!(check_gathered_shape(&[2], &[1, 2, 8], 4, "input", "output").is_err());
        assert!(check_gathered_shape(&[], &[], 1, "input", "output").is_err());
        assert_eq!(check_gathered_shape(&[], &[3], 3, "input", "output"), Ok(()));
    }

    #[test]
    fn same_shapes() {
        assert_eq!(check_same_shape(&[2, DYNAMIC], &[2, 8], "input", "output"), Ok(()));
        assert_eq!(
            check_same_shape(&[2, 8], &[8], "input", "output"),
            Err("expected 'input' and 'output' to have the same shape, got 2x8 and 8".into())
        );
    }

    #[test]
    fn forms_cover_every_collective() {
        for def in ALL {
            let form = form_of(def.name).unwrap();
            assert_eq!(form.reduces, def.properties.contains(&"reduction"), "{}", def.name);
            let extras = def.operands.len() - 2;
            let want = match form.extra {
                Extra::None => 0,
                Extra::Root => 1,
                Extra::Permute => 2,
            };
            assert_eq!(extras, want, "{}", def.name);
        }
        assert!(form_of("comm.wait").is_none());
    }
}
