//! Point-to-point communication: `comm.send`, `comm.recv` (one buffer, one peer given as an
//! absolute rank) and `comm.share_handles` (the up-front exchange of CUDA IPC handles for a set
//! of sends and receives).
//!
//! Custom forms:
//! - `%r = comm.send %buf to %peer [backend = cuda_ipc [protocol = put]] {attrs}? : T`
//! - `%r = comm.recv %buf from %peer [...] : T`
//! - `comm.share_handles [send(%b to %p, ...)] [recv(%b from %p, ...)] backend = cuda_ipc
//!   {attrs}? [: buffer types, sends first]`
//!
//! `share_handles` has four variadic operand groups (send buffers, send peers, recv buffers,
//! recv peers) sized by `operandSegmentSizes`, which the custom parser and the builder set.

use super::{
    BACKEND_PROP, BUFFER, INDEX, PROTOCOL_PROP, REQUEST_VALUE, constant_index, default_backend, finish_state,
    parse_buffer_types, parse_tail, print_buffer_types, print_tail, props_dict, request_type,
};
use super::{Backend, Protocol};
use crate::support::empty_state;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct, UnresolvedOperand};
use fuser_ir::attrs::{Attr, AttrKind, DenseArrayData};
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;

fuser_ir::declare_op! {
    pub static SEND: "comm.send" {
        summary: "Sends a buffer to one peer",
        description: "Posts the send of `buffer` to the device `peer`, an **absolute** rank \
(not a team index), on the current stream; the matching `comm.recv` runs on the peer. With \
`backend = cuda_ipc` the bytes move by a direct copy through the peer's IPC handle (exchanged \
beforehand by `comm.share_handles`); `protocol` chooses who copies: `get` (default: the \
receiver reads) or `put` (the sender writes). `buffer` must not be written before a wait on \
the request.\n\n\
```mlir\n%r = comm.send %buf to %peer : !host.buf<2x8xf32>\n\
%s = comm.send %buf to %peer backend = cuda_ipc protocol = put : !host.buf<2x8xf32>\n```",
        operands: { buffer: BUFFER, peer: INDEX },
        results: { request: REQUEST_VALUE },
        properties: { backend: BACKEND_PROP, protocol: PROTOCOL_PROP },
        hooks: { verify: verify_p2p, parse: parse_send, print: print_send, default_props: default_backend },
    }
}

fuser_ir::declare_op! {
    pub static RECV: "comm.recv" {
        summary: "Receives a buffer from one peer",
        description: "Posts the receive into `buffer` of what the device `peer` (an **absolute** \
rank) sends, on the current stream. `buffer` holds the data only after a wait on the request. \
`backend` and `protocol` as for `comm.send`; both sides must agree.\n\n\
```mlir\n%r = comm.recv %buf from %peer : !host.buf<2x8xf32>\n```",
        operands: { buffer: BUFFER, peer: INDEX },
        results: { request: REQUEST_VALUE },
        properties: { backend: BACKEND_PROP, protocol: PROTOCOL_PROP },
        hooks: { verify: verify_p2p, parse: parse_recv, print: print_recv, default_props: default_backend },
    }
}

fuser_ir::declare_op! {
    pub static SHARE_HANDLES: "comm.share_handles" {
        summary: "Exchanges CUDA IPC handles for a set of sends and receives",
        description: "Before CUDA IPC transfers can run, each side must open the other's buffer: \
for every `send(%b to %p)` this rank exports the handle of `%b` to peer `%p` (an absolute rank) \
and imports the peer's, and likewise for every `recv(%b from %p)`. The exchange is blocking \
and returns no request; it is typically placed once before a loop of `cuda_ipc` sends and \
receives. Requires `backend = cuda_ipc`.\n\n\
```mlir\ncomm.share_handles send(%b0 to %p0) recv(%b1 from %p1) backend = cuda_ipc : !host.buf<2x8xf32, ipc>, !host.buf<2x8xf32, ipc>\n```",
        operands: {
            send_buffers: BUFFER.variadic(),
            send_peers: INDEX.variadic(),
            recv_buffers: BUFFER.variadic(),
            recv_peers: INDEX.variadic(),
        },
        properties: { backend: BACKEND_PROP },
        hooks: {
            verify: verify_share_handles,
            parse: parse_share_handles,
            print: print_share_handles,
            default_props: default_backend,
        },
    }
}

// ----- builders -------------------------------------------------------------------------------

fn p2p_state(
    ctx: &Context,
    name: &str,
    buffer: Value,
    peer: Value,
    backend: Backend,
    protocol: Option<Protocol>,
    loc: Attr,
) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = vec![buffer, peer];
    state.result_types = vec![request_type(ctx)];
    state.props = Some(props_dict(ctx, None, None, backend, protocol));
    state
}

/// `comm.send %buffer to %peer` (`peer` an absolute rank); `protocol` only with `cuda_ipc`.
pub fn send_state(
    ctx: &Context,
    buffer: Value,
    peer: Value,
    backend: Backend,
    protocol: Option<Protocol>,
    loc: Attr,
) -> OperationState {
    p2p_state(ctx, SEND.name, buffer, peer, backend, protocol, loc)
}

/// `comm.recv %buffer from %peer` (`peer` an absolute rank); `protocol` only with `cuda_ipc`.
pub fn recv_state(
    ctx: &Context,
    buffer: Value,
    peer: Value,
    backend: Backend,
    protocol: Option<Protocol>,
    loc: Attr,
) -> OperationState {
    p2p_state(ctx, RECV.name, buffer, peer, backend, protocol, loc)
}

fn segment_sizes(ctx: &Context, sizes: &[usize]) -> Attr {
    let data = DenseArrayData::Int(sizes.iter().map(|&n| n as i64).collect());
    ctx.intern_attr(AttrKind::DenseArray { elem: ctx.integer_type(32), data })
}

/// `comm.share_handles send(b to p, ...) recv(b from p, ...) backend = cuda_ipc`: `sends` and
/// `recvs` are (buffer, absolute peer) pairs.
pub fn share_handles_state(
    ctx: &Context,
    sends: &[(Value, Value)],
    recvs: &[(Value, Value)],
    loc: Attr,
) -> OperationState {
    let mut state = empty_state(ctx, SHARE_HANDLES.name, loc);
    state.operands = sends
        .iter()
        .map(|s| s.0)
        .chain(sends.iter().map(|s| s.1))
        .chain(recvs.iter().map(|r| r.0))
        .chain(recvs.iter().map(|r| r.1))
        .collect();
    let props = props_dict(ctx, None, None, Backend::CudaIpc, None);
    let sizes = segment_sizes(ctx, &[sends.len(), sends.len(), recvs.len(), recvs.len()]);
    state.props = Some(ctx.dict_set(props, "operandSegmentSizes", Some(sizes)));
    state
}

/// Operand groups `buffers` and `peers` of a `share_handles`, zipped (empty when malformed).
fn pairs(ctx: &Context, ir: &Ir, op: OpId, buffers: usize, peers: usize) -> Vec<(Value, Value)> {
    let group = |i| SHARE_HANDLES.operand_group(ctx, ir, op, i).unwrap_or_default();
    group(buffers).into_iter().zip(group(peers)).collect()
}

/// The (buffer, peer) pairs of the sends of a `comm.share_handles`.
pub fn share_handles_sends(ctx: &Context, ir: &Ir, op: OpId) -> Vec<(Value, Value)> {
    pairs(ctx, ir, op, 0, 1)
}

/// The (buffer, peer) pairs of the receives of a `comm.share_handles`.
pub fn share_handles_recvs(ctx: &Context, ir: &Ir, op: OpId) -> Vec<(Value, Value)> {
    pairs(ctx, ir, op, 2, 3)
}

// ----- verifiers ------------------------------------------------------------------------------

/// A protocol only with `cuda_ipc`; a constant peer is a non-negative rank.
fn verify_p2p(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let has_protocol = crate::support::inherent_attr(ctx, ir, op, "protocol").is_some();
    if has_protocol && super::backend(ctx, ir, op) != Backend::CudaIpc {
        return Err(v.op_error(op, "requires the cuda_ipc backend when a protocol is given"));
    }
    if let Some(peer) = constant_index(ctx, ir, ir.operand(op, 1)).filter(|&p| p < 0) {
        return Err(v.op_error(op, format!("requires a non-negative peer rank, got {peer}")));
    }
    Ok(())
}

/// One peer per buffer in each direction, and the `cuda_ipc` backend.
fn verify_share_handles(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let count = |i| SHARE_HANDLES.operand_group(ctx, ir, op, i).map_or(0, |g| g.len());
    for (dir, buffers, peers) in [("send", 0, 1), ("recv", 2, 3)] {
        let (b, p) = (count(buffers), count(peers));
        if b != p {
            return Err(v.op_error(op, format!("expected as many {dir} peers as {dir} buffers, got {p} and {b}")));
        }
    }
    if super::backend(ctx, ir, op) != Backend::CudaIpc {
        return Err(v.op_error(op, "requires the cuda_ipc backend"));
    }
    Ok(())
}

// ----- syntax ---------------------------------------------------------------------------------

fn parse_send(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_p2p(p, state, "to")
}

fn parse_recv(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_p2p(p, state, "from")
}

/// `%buf to|from %peer` clauses `: T`.
fn parse_p2p(p: &mut dyn OpAsmParser, state: &mut OperationState, word: &str) -> ParseResult<()> {
    let Some(def) = p.ctx().op_def(state.name) else { return Err(p.emit_error("not a comm op")) };
    let buffer = p.parse_operand()?;
    p.parse_keyword(word)?;
    let peer = p.parse_operand()?;
    let tail = parse_tail(p, def, false, true)?;
    let types = parse_buffer_types(p, 1)?;
    let index = p.ctx().index_type();
    state.operands = vec![p.resolve_operand(&buffer, types[0])?, p.resolve_operand(&peer, index)?];
    state.result_types = vec![request_type(p.ctx())];
    finish_state(p, state, tail);
    Ok(())
}

fn print_send(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_p2p(p, op, "to");
}

fn print_recv(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_p2p(p, op, "from");
}

fn print_p2p(p: &mut dyn OpAsmPrinter, op: OpId, word: &str) {
    let operands = p.ir().operands(op).to_vec();
    let [buffer, peer] = operands.as_slice() else { return };
    p.write(" ");
    p.print_operand(*buffer);
    p.write(&format!(" {word} "));
    p.print_operand(*peer);
    print_tail(p, op);
    print_buffer_types(p, &[*buffer]);
}

/// `kw(%b word %p, ...)` if present: the buffers and peers.
fn parse_pairs(
    p: &mut dyn OpAsmParser,
    kw: &str,
    word: &str,
) -> ParseResult<(Vec<UnresolvedOperand>, Vec<UnresolvedOperand>)> {
    let (mut buffers, mut peers) = (Vec::new(), Vec::new());
    if !p.parse_optional_keyword(kw) {
        return Ok((buffers, peers));
    }
    p.parse_punct(Punct::LParen)?;
    if p.parse_optional_punct(Punct::RParen) {
        return Ok((buffers, peers));
    }
    loop {
        buffers.push(p.parse_operand()?);
        p.parse_keyword(word)?;
        peers.push(p.parse_operand()?);
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::RParen)?;
    Ok((buffers, peers))
}

fn parse_share_handles(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let (send_b, send_p) = parse_pairs(p, "send", "to")?;
    let (recv_b, recv_p) = parse_pairs(p, "recv", "from")?;
    let mut tail = parse_tail(p, &SHARE_HANDLES, false, false)?;
    let types = parse_buffer_types(p, send_b.len() + recv_b.len())?;
    let index = p.ctx().index_type();
    let mut operands = Vec::new();
    for (b, t) in send_b.iter().zip(&types) {
        operands.push(p.resolve_operand(b, *t)?);
    }
    for peer in &send_p {
        operands.push(p.resolve_operand(peer, index)?);
    }
    for (b, t) in recv_b.iter().zip(&types[send_b.len()..]) {
        operands.push(p.resolve_operand(b, *t)?);
    }
    for peer in &recv_p {
        operands.push(p.resolve_operand(peer, index)?);
    }
    state.operands = operands;
    let ctx = p.ctx();
    let sizes = segment_sizes(ctx, &[send_b.len(), send_p.len(), recv_b.len(), recv_p.len()]);
    tail.props.push((ctx.ident("operandSegmentSizes"), sizes));
    finish_state(p, state, tail);
    Ok(())
}

/// ` kw(%b word %p, ...)` unless there are no pairs.
fn print_pairs(p: &mut dyn OpAsmPrinter, kw: &str, word: &str, pairs: &[(Value, Value)]) {
    if pairs.is_empty() {
        return;
    }
    p.write(&format!(" {kw}("));
    for (i, &(b, peer)) in pairs.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_operand(b);
        p.write(&format!(" {word} "));
        p.print_operand(peer);
    }
    p.write(")");
}

fn print_share_handles(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (sends, recvs) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (share_handles_sends(ctx, ir, op), share_handles_recvs(ctx, ir, op))
    };
    print_pairs(p, "send", "to", &sends);
    print_pairs(p, "recv", "from", &recvs);
    print_tail(p, op);
    let buffers: Vec<Value> = sends.iter().chain(&recvs).map(|pair| pair.0).collect();
    print_buffer_types(p, &buffers);
}
