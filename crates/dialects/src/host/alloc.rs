//! `host.alloc` and `host.dealloc`: the lifetime of a `!host.buf`.
//!
//! Syntax: `%b = host.alloc(%d0, %d1) persistent? {attrs}? : !host.buf<?x?xf32>` (one `index`
//! operand per `?` extent, in order) and `host.dealloc %b {attrs}? : !host.buf<...>`.
//!
//! Canonicalization: an allocation whose only users are deallocations is erased with them.

use super::common::{BUF, INDEX, UNIT_ATTR, finish_attrs, has_flag, parse_attr_dict, print_attr_dict};
use super::types::BufferType;
use crate::support::empty_state;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState, Value};
use fuser_ir::registry::{PatternDef, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::{DYNAMIC, Type};

fuser_ir::declare_op! {
    pub static ALLOC: "host.alloc" {
        summary: "Allocates a buffer on the executing rank",
        description: "Allocates an uninitialized row-major buffer of the result type in its memory \
kind, on the current stream's device. Each `?` extent of the type is given by one `index` \
operand, in order. With `persistent`, the allocation is identical across runs and ranks (same \
size, same place in a persistent pool), which CUDA IPC needs: peers open its handle once and \
reuse it. The buffer lives until `host.dealloc`.\n\n\
```mlir\n%b = host.alloc(%m, %n) : !host.buf<?x?xf32>\n%p = host.alloc() persistent : !host.buf<128x1024xbf16, ipc>\n```",
        operands: { dynamicSizes: INDEX.variadic() },
        results: { buffer: BUF },
        properties: { persistent: UNIT_ATTR },
        hooks: { verify: verify_alloc, parse: parse_alloc, print: print_alloc, canonicalize: &[ERASE_UNUSED_ALLOC] },
    }
}

fuser_ir::declare_op! {
    pub static DEALLOC: "host.dealloc" {
        summary: "Frees a buffer",
        description: "Releases a buffer made by `host.alloc` once the work already posted on the \
current stream is done with it. Views of the buffer must not be used afterwards. The operand \
must be the buffer itself, not a view.\n\n```mlir\nhost.dealloc %b : !host.buf<?x?xf32>\n```",
        operands: { buffer: BUF },
        hooks: { parse: parse_dealloc, print: print_dealloc },
    }
}

fn verify_alloc(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let Some(t) = BufferType::of(ctx, ir.value_type(ir.result(op, 0))) else { return Ok(()) };
    let dynamic = t.shape.iter().filter(|&&d| d == DYNAMIC).count();
    if dynamic != ir.num_operands(op) {
        return Err(v.op_error(
            op,
            format!(
                "expected {dynamic} dynamic size operand(s), one per '?' extent of the buffer type, but got {}",
                ir.num_operands(op)
            ),
        ));
    }
    Ok(())
}

fn parse_alloc(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    p.parse_punct(Punct::LParen)?;
    let sizes = p.parse_operand_list()?;
    p.parse_punct(Punct::RParen)?;
    let persistent = p.parse_optional_keyword("persistent");
    let dict = parse_attr_dict(p, state)?;
    p.parse_punct(Punct::Colon)?;
    let ty = p.parse_type()?;
    let index = p.ctx().index_type();
    for s in &sizes {
        state.operands.push(p.resolve_operand(s, index)?);
    }
    state.result_types = vec![ty];
    let ctx = p.ctx();
    let own = if persistent { vec![("persistent", ctx.unit_attr())] } else { Vec::new() };
    finish_attrs(ctx, state, own, dict);
    Ok(())
}

fn print_alloc(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (sizes, ty, persistent) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operands(op).to_vec(), ir.value_type(ir.result(op, 0)), has_flag(ctx, ir, op, "persistent"))
    };
    p.write("(");
    p.print_operands(&sizes);
    p.write(")");
    if persistent {
        p.write(" persistent");
    }
    print_attr_dict(p, op, &["persistent"]);
    p.write(" : ");
    p.print_type(ty);
}

fn parse_dealloc(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let buf = p.parse_operand()?;
    let dict = parse_attr_dict(p, state)?;
    p.parse_punct(Punct::Colon)?;
    let ty = p.parse_type()?;
    state.operands = vec![p.resolve_operand(&buf, ty)?];
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

fn print_dealloc(p: &mut dyn OpAsmPrinter, op: OpId) {
    let buf = p.ir().operand(op, 0);
    p.write(" ");
    p.print_operand(buf);
    print_attr_dict(p, op, &[]);
    p.write(" : ");
    let ty = p.ir().value_type(buf);
    p.print_type(ty);
}

/// An allocation nobody reads or writes: only deallocations use it.
static ERASE_UNUSED_ALLOC: PatternDef = PatternDef { name: "host-erase-unused-alloc", apply: erase_unused_alloc };

fn erase_unused_alloc(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let deallocs = {
        let (ctx, ir) = (rw.ctx(), rw.ir());
        if ir.num_results(op) != 1 {
            return false;
        }
        let mut users = Vec::new();
        for u in ir.uses(ir.result(op, 0)) {
            if ctx.op_name_str(ir.op_name(u.op)) != DEALLOC.name {
                return false;
            }
            if !users.contains(&u.op) {
                users.push(u.op);
            }
        }
        users
    };
    for d in deallocs {
        rw.erase_op(d);
    }
    rw.erase_op(op);
    true
}

/// The state of `host.alloc` of type `ty` (a `!host.buf`) with one `index` value per `?`
/// extent.
pub fn alloc_state(ctx: &Context, ty: Type, dynamic_sizes: &[Value], persistent: bool, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, ALLOC.name, loc);
    state.operands = dynamic_sizes.to_vec();
    state.result_types = vec![ty];
    if persistent {
        state.props = Some(crate::support::dict_of(ctx, &[("persistent", ctx.unit_attr())]));
    }
    state
}

/// The state of `host.dealloc buffer`.
pub fn dealloc_state(ctx: &Context, buffer: Value, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, DEALLOC.name, loc);
    state.operands = vec![buffer];
    state
}
