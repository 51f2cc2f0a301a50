//! `comm.group`: a coalesced group of communications (an NCCL group). One region with one
//! block and no terminator; the comm posts inside are posted together when the group runs, and
//! all complete with the group's own `!comm.request`.
//!
//! Custom form: `%r = comm.group { ... } {attrs}?`.
//!
//! Verifier: inside the block, only comm posts (no `comm.wait`, no nested `comm.group`, no
//! blocking `comm.share_handles`) and pure ops (index math).

use super::{REQUEST_VALUE, SHARE_HANDLES, WAIT, comm_def, request_type};
use crate::support::{empty_state, printed_attr_dict};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::ANY_REGION;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{BlockId, Ir, OpId, OperationState};
use fuser_ir::registry::{Traits, VerifyCtx};

fuser_ir::declare_op! {
    pub static GROUP: "comm.group" {
        summary: "Posts several communications together",
        description: "The communications posted in the body (sends, receives, collectives) are \
issued as one coalesced group, so that matching sends and receives of different ranks cannot \
deadlock on their order. The ops of the body run in order when the group runs; their own \
requests complete with the group's result, which is the only one to wait on. The body may hold \
comm posts and pure ops (index math), but no `comm.wait`, no nested `comm.group` and no \
`comm.share_handles`.\n\n\
```mlir\n%r = comm.group {\n  %s = comm.send %a to %next : !host.buf<8xf32>\n  %q = comm.recv %b from %prev : !host.buf<8xf32>\n}\ncomm.wait %r\n```",
        traits: [SINGLE_BLOCK | NO_TERMINATOR],
        results: { request: REQUEST_VALUE },
        regions: { body: ANY_REGION },
        hooks: { verify: verify_group, parse: parse_group, print: print_group },
    }
}

/// The state of an empty `comm.group` and the block of its body (to fill with posts).
pub fn group_state(ctx: &Context, ir: &mut Ir, loc: Attr) -> (OperationState, BlockId) {
    let mut state = empty_state(ctx, GROUP.name, loc);
    state.result_types = vec![request_type(ctx)];
    let region = ir.create_region();
    let block = ir.create_block(&[]);
    ir.append_block(region, block);
    state.regions.push(region);
    (state, block)
}

/// Why `op` may not be in a group body, if it may not.
fn disallowed_in_group(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    let name = ctx.op_name_str(ir.op_name(op));
    if [WAIT.name, GROUP.name, SHARE_HANDLES.name].contains(&name) {
        return Some(format!("may not contain '{name}'"));
    }
    if comm_def(ctx, ir, op).is_some() {
        return None;
    }
    let pure = ctx.op_def(ir.op_name(op)).is_some_and(|d| d.has(Traits::PURE));
    (!pure).then(|| format!("may only contain comm posts and pure ops, got '{name}'"))
}

fn verify_group(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let blocks = ir.region_blocks(ir.region(op, 0));
    for &b in blocks {
        for inner in ir.block_ops(b) {
            if let Some(msg) = disallowed_in_group(ctx, ir, inner) {
                return Err(v.op_error(op, msg));
            }
        }
    }
    Ok(())
}

fn parse_group(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let region = p.ir_mut().create_region();
    p.parse_region(region, &[])?;
    let ir = p.ir_mut();
    if ir.region_blocks(region).is_empty() {
        let b = ir.create_block(&[]);
        ir.append_block(region, b);
    }
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let ctx = p.ctx();
    state.attrs = ctx.dictionary(entries);
    state.regions.push(region);
    state.result_types = vec![request_type(ctx)];
    Ok(())
}

fn print_group(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (region, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.regions(op).first().copied(), printed_attr_dict(ctx, ir, op))
    };
    if let Some(r) = region {
        p.write(" ");
        p.print_region(r, false, false);
    }
    p.print_optional_attr_dict(dict, &[]);
}
