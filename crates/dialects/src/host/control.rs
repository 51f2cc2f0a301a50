//! Control flow of host programs: `host.for` (a counted loop whose body sees the index) and
//! `host.if` (two alternatives on an `i1`). Neither has results nor terminators: their regions
//! are single blocks of ops run for their effects (`NoTerminator`, `SingleBlock`).
//!
//! Syntax:
//! - `host.for %i = %lb to %ub step %s { ... } {attrs}?`; generic form
//!   `"host.for"(%lb, %ub, %s) ({ ^bb0(%i: index): ... }) : (index, index, index) -> ()`.
//! - `host.if %cond { ... } else { ... } {attrs}?`; the `else` part is omitted when its region
//!   is empty.
//!
//! Canonicalization: a loop whose constant bounds give no iteration, or whose body is empty, is
//! erased; an `if` on a constant condition is replaced by the ops of the taken region; an `if`
//! whose regions are both empty is erased.

use super::common::{I1, INDEX, finish_attrs, parse_attr_dict, print_attr_dict};
use crate::support::{empty_state, int_const};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::ANY_REGION;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{BlockId, Ir, OpId, OperationState, RegionId, Value};
use fuser_ir::registry::{FoldResult, PatternDef, Traits, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;

fuser_ir::declare_op! {
    pub static FOR: "host.for" {
        summary: "A counted loop run by the host",
        description: "Runs its body once for each `i` in `lowerBound, lowerBound + step, ...` \
below `upperBound` (no iteration when `lowerBound >= upperBound`; `step` must be positive at run \
time). The body is one block whose only argument is the `index` `i`; it has no terminator and \
the loop has no results: iterations communicate through buffers. In a stream-parallel loop each \
iteration usually switches to its own stream (`host.get_stream`, `host.set_stream`).\n\n\
```mlir\nhost.for %i = %c0 to %c4 step %c1 {\n  %s = host.get_stream %i : !host.stream\n  host.set_stream %s\n}\n```",
        traits: [NO_TERMINATOR | SINGLE_BLOCK],
        operands: { lowerBound: INDEX, upperBound: INDEX, step: INDEX },
        regions: { body: ANY_REGION },
        hooks: {
            verify: verify_for,
            parse: parse_for,
            print: print_for,
            canonicalize: &[ERASE_EMPTY_LOOP],
        },
    }
}

fuser_ir::declare_op! {
    pub static IF: "host.if" {
        summary: "Runs one of two regions depending on an i1",
        description: "Runs the ops of the `then` region when `condition` is true, else those of \
the `else` region (which may be empty: no block). Both regions hold at most one block without \
arguments or terminator; the op has no results. The custom form omits `else {}`.\n\n\
```mlir\n%is_root = arith.cmpi eq, %rank, %c0 : index\nhost.if %is_root {\n  host.copy %a, %b : !host.buf<4xf32>, !host.buf<4xf32>\n} else {\n  host.synchronize %s\n}\n```",
        traits: [NO_TERMINATOR | SINGLE_BLOCK],
        operands: { condition: I1 },
        regions: { thenRegion: ANY_REGION, elseRegion: ANY_REGION },
        hooks: {
            verify: verify_if,
            parse: parse_if,
            print: print_if,
            canonicalize: &[INLINE_CONSTANT_IF],
        },
    }
}

// ----- verifiers ------------------------------------------------------------------------------

fn verify_for(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let blocks = ir.region_blocks(ir.region(op, 0));
    let ok = match blocks {
        [body] => {
            let args = ir.block_args(*body);
            args.len() == 1 && ctx.type_kind(ir.value_type(args[0])).is_index()
        }
        _ => false,
    };
    if !ok {
        return Err(v.op_error(op, "expects a body block with exactly one argument, the 'index' induction variable"));
    }
    Ok(())
}

fn verify_if(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let ir = v.ir;
    if ir.region_blocks(ir.region(op, 0)).is_empty() {
        return Err(v.op_error(op, "expects a 'then' block"));
    }
    for (i, &r) in ir.regions(op).iter().enumerate() {
        if ir.region_blocks(r).iter().any(|&b| !ir.block_args(b).is_empty()) {
            return Err(v.op_error(op, format!("region #{i} must have no block arguments")));
        }
    }
    Ok(())
}

// ----- syntax ---------------------------------------------------------------------------------

fn parse_for(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let mut iv = p.parse_argument(false, false)?;
    iv.ty = p.ctx().index_type();
    p.parse_punct(Punct::Equal)?;
    let lb = p.parse_operand()?;
    p.parse_keyword("to")?;
    let ub = p.parse_operand()?;
    p.parse_keyword("step")?;
    let step = p.parse_operand()?;
    let index = p.ctx().index_type();
    state.operands =
        vec![p.resolve_operand(&lb, index)?, p.resolve_operand(&ub, index)?, p.resolve_operand(&step, index)?];
    let body = p.ir_mut().create_region();
    p.parse_region(body, std::slice::from_ref(&iv))?;
    state.regions.push(body);
    let dict = parse_attr_dict(p, state)?;
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

fn print_for(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, body, iv) = {
        let ir = p.ir();
        let body = ir.region(op, 0);
        let iv = ir.region_entry(body).and_then(|b| ir.block_args(b).first().copied());
        (ir.operands(op).to_vec(), body, iv)
    };
    let Some(iv) = iv else { return };
    p.write(" ");
    p.print_operand(iv);
    p.write(" = ");
    p.print_operand(operands[0]);
    p.write(" to ");
    p.print_operand(operands[1]);
    p.write(" step ");
    p.print_operand(operands[2]);
    p.write(" ");
    p.print_region(body, false, false);
    print_attr_dict(p, op, &[]);
}

/// Gives a region written `{}` its block (a `then` region always has one).
fn ensure_block(ir: &mut Ir, region: RegionId) {
    if ir.region_blocks(region).is_empty() {
        let b = ir.create_block(&[]);
        ir.append_block(region, b);
    }
}

fn parse_if(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let cond = p.parse_operand()?;
    let i1 = p.ctx().i1_type();
    state.operands = vec![p.resolve_operand(&cond, i1)?];
    let then_region = p.ir_mut().create_region();
    p.parse_region(then_region, &[])?;
    ensure_block(p.ir_mut(), then_region);
    let else_region = p.ir_mut().create_region();
    if p.parse_optional_keyword("else") {
        p.parse_region(else_region, &[])?;
    }
    state.regions = vec![then_region, else_region];
    let dict = parse_attr_dict(p, state)?;
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

/// True when the region has no ops (no block, or one empty block without arguments).
fn region_is_empty(ir: &Ir, r: RegionId) -> bool {
    match ir.region_blocks(r) {
        [] => true,
        [b] => ir.block_is_empty(*b) && ir.block_args(*b).is_empty(),
        _ => false,
    }
}

fn print_if(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (cond, then_region, else_region) = {
        let ir = p.ir();
        (ir.operand(op, 0), ir.region(op, 0), ir.region(op, 1))
    };
    p.write(" ");
    p.print_operand(cond);
    p.write(" ");
    p.print_region(then_region, false, false);
    if !region_is_empty(p.ir(), else_region) {
        p.write(" else ");
        p.print_region(else_region, false, false);
    }
    print_attr_dict(p, op, &[]);
}

// ----- canonicalization -----------------------------------------------------------------------

/// The integer held by the constant-like op defining `v` (read through its folder).
fn constant_int(ctx: &Context, ir: &Ir, v: Value) -> Option<i128> {
    let d = ir.defining_op(v)?;
    let def = ctx.op_def(ir.op_name(d))?;
    if !def.has(Traits::CONSTANT_LIKE) {
        return None;
    }
    match def.fold?(ctx, ir, d, &[])?.as_slice() {
        [FoldResult::Attr(a)] => int_const(ctx, *a).and_then(|(c, _)| c.signed()),
        _ => None,
    }
}

/// A loop that does nothing: constant bounds with `lb >= ub`, or an empty body.
static ERASE_EMPTY_LOOP: PatternDef = PatternDef { name: "host-erase-empty-loop", apply: erase_empty_loop };

fn erase_empty_loop(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let dead = {
        let (ctx, ir) = (rw.ctx(), rw.ir());
        if ir.num_operands(op) != 3 || ir.regions(op).len() != 1 {
            return false;
        }
        let no_trip = match (constant_int(ctx, ir, ir.operand(op, 0)), constant_int(ctx, ir, ir.operand(op, 1))) {
            (Some(lb), Some(ub)) => lb >= ub,
            _ => false,
        };
        let empty_body = ir.region_blocks(ir.region(op, 0)).iter().all(|&b| ir.block_is_empty(b));
        no_trip || empty_body
    };
    if dead {
        rw.erase_op(op);
    }
    dead
}

/// `host.if` on a constant condition: the taken region's ops replace it. Also erases an `if`
/// with two empty regions.
static INLINE_CONSTANT_IF: PatternDef = PatternDef { name: "host-inline-constant-if", apply: inline_constant_if };

fn inline_constant_if(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let taken: Option<Option<BlockId>> = {
        let (ctx, ir) = (rw.ctx(), rw.ir());
        if ir.num_operands(op) != 1 || ir.regions(op).len() != 2 {
            return false;
        }
        let both_empty = ir.regions(op).iter().all(|&r| region_is_empty(ir, r));
        match constant_int(ctx, ir, ir.operand(op, 0)) {
            Some(c) => {
                let region = ir.region(op, if c & 1 == 1 { 0 } else { 1 });
                Some(ir.region_entry(region))
            }
            None if both_empty => Some(None),
            None => None,
        }
    };
    let Some(block) = taken else { return false };
    if let Some(block) = block {
        let ops: Vec<OpId> = rw.ir().block_ops(block).collect();
        for o in ops {
            rw.ir_mut().move_op_before(o, op);
            rw.notify_changed(o);
        }
    }
    rw.erase_op(op);
    true
}

// ----- builders -------------------------------------------------------------------------------

/// The state of `host.for` over `[lb, ub)` by `step`, with an empty body block whose `index`
/// argument is returned with it (fill the block, then create the op).
pub fn for_state(
    ctx: &Context,
    ir: &mut Ir,
    lb: Value,
    ub: Value,
    step: Value,
    loc: Attr,
) -> (OperationState, BlockId, Value) {
    let mut state = empty_state(ctx, FOR.name, loc);
    state.operands = vec![lb, ub, step];
    let region = ir.create_region();
    let body = ir.create_block(&[ctx.index_type()]);
    ir.append_block(region, body);
    state.regions.push(region);
    let iv = ir.block_args(body)[0];
    (state, body, iv)
}

/// The state of `host.if cond` with an empty `then` block (returned) and, with `with_else`, an
/// empty `else` block (returned too); without, the `else` region has no block.
pub fn if_state(
    ctx: &Context,
    ir: &mut Ir,
    cond: Value,
    with_else: bool,
    loc: Attr,
) -> (OperationState, BlockId, Option<BlockId>) {
    let mut state = empty_state(ctx, IF.name, loc);
    state.operands = vec![cond];
    let then_region = ir.create_region();
    let then_block = ir.create_block(&[]);
    ir.append_block(then_region, then_block);
    let else_region = ir.create_region();
    let else_block = with_else.then(|| {
        let b = ir.create_block(&[]);
        ir.append_block(else_region, b);
        b
    });
    state.regions = vec![then_region, else_region];
    (state, then_block, else_block)
}
