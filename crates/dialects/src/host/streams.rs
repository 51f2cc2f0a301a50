//! Stream ops: which stream device work is posted to, and how streams and the host wait for
//! each other. Compute and communication ops post to the *current* stream.
//!
//! Syntax:
//! - `%s = host.current_stream : !host.stream`
//! - `%s = host.get_stream %i : !host.stream` (worker stream `%i` of the rank's pool)
//! - `host.set_stream %s`, `host.stream_wait %s`, `host.synchronize %s`
//!
//! None of them is pure: they read or change the stream state of the executing rank.

use super::common::{INDEX, STREAM, finish_attrs, parse_attr_dict, print_attr_dict};
use super::types::stream_type;
use crate::support::empty_state;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::ir::{OpId, OperationState, Value};

fuser_ir::declare_op! {
    pub static CURRENT_STREAM: "host.current_stream" {
        summary: "The stream work is currently posted to",
        description: "Returns the current stream of the executing rank, typically to restore it \
after a stream-parallel loop or to make it wait for worker streams.\n\n\
```mlir\n%main = host.current_stream : !host.stream\n```",
        results: { stream: STREAM },
        hooks: { parse: parse_current_stream, print: print_current_stream },
    }
}

fuser_ir::declare_op! {
    pub static GET_STREAM: "host.get_stream" {
        summary: "A worker stream by index",
        description: "Returns worker stream number `index` of the rank's stream pool; the same \
index gives the same stream for the whole run (indices beyond the pool size wrap around it).\n\n\
```mlir\n%s = host.get_stream %i : !host.stream\n```",
        operands: { index: INDEX },
        results: { stream: STREAM },
        hooks: { parse: parse_get_stream, print: print_get_stream },
    }
}

fuser_ir::declare_op! {
    pub static SET_STREAM: "host.set_stream" {
        summary: "Makes a stream the current one",
        description: "Work posted after this op goes to `stream`.\n\n\
```mlir\nhost.set_stream %s\n```",
        operands: { stream: STREAM },
        hooks: { parse: parse_stream_operand, print: print_stream_operand },
    }
}

fuser_ir::declare_op! {
    pub static STREAM_WAIT: "host.stream_wait" {
        summary: "The current stream waits for another stream",
        description: "Work posted to the current stream after this op starts only once all work \
posted to `stream` so far has finished (an event recorded on `stream`, waited on by the \
current stream). The host does not block.\n\n\
```mlir\nhost.stream_wait %worker\n```",
        operands: { stream: STREAM },
        hooks: { parse: parse_stream_operand, print: print_stream_operand },
    }
}

fuser_ir::declare_op! {
    pub static SYNCHRONIZE: "host.synchronize" {
        summary: "The host waits until a stream is drained",
        description: "Blocks the host until all work posted to `stream` so far has finished.\n\n\
```mlir\nhost.synchronize %s\n```",
        operands: { stream: STREAM },
        hooks: { parse: parse_stream_operand, print: print_stream_operand },
    }
}

/// `: type` of the single result.
fn parse_result_type(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    p.parse_punct(Punct::Colon)?;
    state.result_types = vec![p.parse_type()?];
    Ok(())
}

fn print_result_type(p: &mut dyn OpAsmPrinter, op: OpId) {
    let ty = p.ir().value_type(p.ir().result(op, 0));
    p.write(" : ");
    p.print_type(ty);
}

fn parse_current_stream(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let dict = parse_attr_dict(p, state)?;
    parse_result_type(p, state)?;
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

fn print_current_stream(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_attr_dict(p, op, &[]);
    print_result_type(p, op);
}

fn parse_get_stream(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let index = p.parse_operand()?;
    let dict = parse_attr_dict(p, state)?;
    parse_result_type(p, state)?;
    let ty = p.ctx().index_type();
    state.operands = vec![p.resolve_operand(&index, ty)?];
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

fn print_get_stream(p: &mut dyn OpAsmPrinter, op: OpId) {
    let index = p.ir().operand(op, 0);
    p.write(" ");
    p.print_operand(index);
    print_attr_dict(p, op, &[]);
    print_result_type(p, op);
}

/// `%s {attrs}?`: the operand is a `!host.stream` (its type is not written).
fn parse_stream_operand(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let s = p.parse_operand()?;
    let dict = parse_attr_dict(p, state)?;
    let ty = stream_type(p.ctx());
    state.operands = vec![p.resolve_operand(&s, ty)?];
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

fn print_stream_operand(p: &mut dyn OpAsmPrinter, op: OpId) {
    let s = p.ir().operand(op, 0);
    p.write(" ");
    p.print_operand(s);
    print_attr_dict(p, op, &[]);
}

/// The state of `host.current_stream`.
pub fn current_stream_state(ctx: &Context, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, CURRENT_STREAM.name, loc);
    state.result_types = vec![stream_type(ctx)];
    state
}

/// The state of `host.get_stream index`.
pub fn get_stream_state(ctx: &Context, index: Value, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, GET_STREAM.name, loc);
    state.operands = vec![index];
    state.result_types = vec![stream_type(ctx)];
    state
}

fn stream_op_state(ctx: &Context, name: &str, stream: Value, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = vec![stream];
    state
}

/// The state of `host.set_stream stream`.
pub fn set_stream_state(ctx: &Context, stream: Value, loc: Attr) -> OperationState {
    stream_op_state(ctx, SET_STREAM.name, stream, loc)
}

/// The state of `host.stream_wait stream` (the current stream waits for `stream`).
pub fn stream_wait_state(ctx: &Context, stream: Value, loc: Attr) -> OperationState {
    stream_op_state(ctx, STREAM_WAIT.name, stream, loc)
}

/// The state of `host.synchronize stream` (the host waits for `stream`).
pub fn synchronize_state(ctx: &Context, stream: Value, loc: Attr) -> OperationState {
    stream_op_state(ctx, SYNCHRONIZE.name, stream, loc)
}
