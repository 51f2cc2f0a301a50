//! The executing rank as runtime values (`host.rank`, `host.world_size`), so that one host
//! program serves every rank, and `host.launch`, an opaque kernel call.
//!
//! Syntax: `%r = host.rank : index`, `%n = host.world_size : index`,
//! `host.launch @kernel(%a, %n) : !host.buf<4xf32>, index` (no `:` part without operands).

use super::common::{
    FLAT_SYMBOL_REF, INDEX, finish_attrs, operand_types, parse_attr_dict, print_attr_dict, print_types, prop,
};
use crate::support::{dict_of, empty_state, flat_symbol};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::ANY_TYPE;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};

fuser_ir::declare_op! {
    pub static RANK: "host.rank" {
        summary: "The rank executing the program",
        description: "The global rank of the executing process, in `[0, world_size)`. A runtime \
value: the same host program runs on every rank and computes peers, roots and chunk indices \
from it.\n\n```mlir\n%rank = host.rank : index\n```",
        traits: [PURE],
        results: { rank: INDEX },
        hooks: { parse: parse_index_value, print: print_index_value, result_names: rank_name },
    }
}

fuser_ir::declare_op! {
    pub static WORLD_SIZE: "host.world_size" {
        summary: "The number of ranks",
        description: "The number of ranks running the program (a runtime value).\n\n\
```mlir\n%world_size = host.world_size : index\n```",
        traits: [PURE],
        results: { size: INDEX },
        hooks: { parse: parse_index_value, print: print_index_value, result_names: world_size_name },
    }
}

fuser_ir::declare_op! {
    pub static LAUNCH: "host.launch" {
        summary: "Launches an opaque kernel",
        description: "Posts the kernel named `callee` to the current stream with the operands as \
arguments (buffers, views or scalars). The kernel is opaque to the compiler: it may read and \
write every buffer it gets. No results.\n\n\
```mlir\nhost.launch @softmax(%x, %y, %n) : !host.buf<4x8xf32>, !host.buf<4x8xf32>, index\n```",
        operands: { args: ANY_TYPE.variadic() },
        properties: { callee: FLAT_SYMBOL_REF },
        hooks: { parse: parse_launch, print: print_launch },
    }
}

fn rank_name(_: &Context, ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    set(ir.result(op, 0), "rank".into());
}

fn world_size_name(_: &Context, ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    set(ir.result(op, 0), "world_size".into());
}

fn parse_index_value(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let dict = parse_attr_dict(p, state)?;
    p.parse_punct(Punct::Colon)?;
    state.result_types = vec![p.parse_type()?];
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

fn print_index_value(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_attr_dict(p, op, &[]);
    let ty = p.ir().value_type(p.ir().result(op, 0));
    p.write(" : ");
    p.print_type(ty);
}

fn parse_launch(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let callee = p.parse_symbol_name()?;
    p.parse_punct(Punct::LParen)?;
    let args = p.parse_operand_list()?;
    p.parse_punct(Punct::RParen)?;
    let dict = parse_attr_dict(p, state)?;
    if !args.is_empty() {
        p.parse_punct(Punct::Colon)?;
        let types = super::common::parse_n_types(p, args.len())?;
        for (u, t) in args.iter().zip(types) {
            state.operands.push(p.resolve_operand(u, t)?);
        }
    }
    let ctx = p.ctx();
    finish_attrs(ctx, state, vec![("callee", ctx.symbol_ref(&callee))], dict);
    Ok(())
}

fn print_launch(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (callee, args, types) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let callee = prop(ctx, ir, op, "callee").and_then(|a| flat_symbol(ctx, a)).map(str::to_owned);
        (callee, ir.operands(op).to_vec(), operand_types(ir, op))
    };
    p.write(" ");
    p.print_symbol_name(callee.as_deref().unwrap_or(""));
    p.write("(");
    p.print_operands(&args);
    p.write(")");
    print_attr_dict(p, op, &["callee"]);
    if !types.is_empty() {
        p.write(" : ");
        print_types(p, &types);
    }
}

/// The state of `host.rank`.
pub fn rank_state(ctx: &Context, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, RANK.name, loc);
    state.result_types = vec![ctx.index_type()];
    state
}

/// The state of `host.world_size`.
pub fn world_size_state(ctx: &Context, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, WORLD_SIZE.name, loc);
    state.result_types = vec![ctx.index_type()];
    state
}

/// The state of `host.launch @callee(args)`.
pub fn launch_state(ctx: &Context, callee: &str, args: &[Value], loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, LAUNCH.name, loc);
    state.operands = args.to_vec();
    state.props = Some(dict_of(ctx, &[("callee", ctx.symbol_ref(callee))]));
    state
}
