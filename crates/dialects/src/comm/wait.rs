//! `comm.wait`: the current stream waits for one or more posted communications.
//!
//! Custom form: `comm.wait %r0, %r1 {attrs}?` (all operands are `!comm.request`).
//! Canonicalization ([`DEDUP`]): repeated requests are waited on once.

use super::{REQUEST_VALUE, request_type};
use crate::support::{empty_state, printed_attr_dict};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState, Value};
use fuser_ir::registry::{PatternDef, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;

fuser_ir::declare_op! {
    pub static WAIT: "comm.wait" {
        summary: "Makes the current stream wait for communications",
        description: "The stream that is current when the wait runs waits until every listed \
communication has completed: work posted to it afterwards sees the received data, and the \
buffers of the communications may be reused or deallocated after the wait (not before). The \
host does not block. Each request should be waited on once.\n\n\
```mlir\ncomm.wait %r\ncomm.wait %r0, %r1\n```",
        operands: { requests: REQUEST_VALUE.variadic() },
        hooks: { verify: verify_wait, canonicalize: &[DEDUP], parse: parse_wait, print: print_wait },
    }
}

/// `comm.wait` on `requests` (at least one).
pub fn wait_state(ctx: &Context, requests: &[Value], loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, WAIT.name, loc);
    state.operands = requests.to_vec();
    state
}

fn verify_wait(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    if v.ir.num_operands(op) == 0 {
        return Err(v.op_error(op, "requires at least one request"));
    }
    Ok(())
}

/// Waiting twice on one request in one wait is waiting once.
pub static DEDUP: PatternDef = PatternDef { name: "comm-wait-dedup", apply: dedup_requests };

fn dedup_requests(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let ir = rw.ir_mut();
    let mut seen: Vec<Value> = Vec::new();
    let mut changed = false;
    let mut i = 0;
    while i < ir.num_operands(op) {
        let v = ir.operand(op, i);
        if seen.contains(&v) {
            ir.erase_operand(op, i);
            changed = true;
        } else {
            seen.push(v);
            i += 1;
        }
    }
    if changed {
        rw.notify_changed(op);
    }
    changed
}

fn parse_wait(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let operands = p.parse_operand_list()?;
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let ty = request_type(p.ctx());
    for o in &operands {
        let v = p.resolve_operand(o, ty)?;
        state.operands.push(v);
    }
    state.attrs = p.ctx().dictionary(entries);
    Ok(())
}

fn print_wait(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operands(op).to_vec(), printed_attr_dict(ctx, ir, op))
    };
    p.write(" ");
    p.print_operands(&operands);
    p.print_optional_attr_dict(dict, &[]);
}
