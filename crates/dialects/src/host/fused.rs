//! `host.fused` and `host.yield`: a fused region (docs/dev/fusion.md), one kernel that reads
//! given buffers and writes given buffers, whose body computes on tensors with `fusion` ops.
//! The body's intermediate values are never allocated: a backend keeps them in registers (the
//! cuda code generator) or in row chunks (the cpu backend). `host-fuse` builds these ops from
//! chains of `host.elementwise`, `host.fill`, `host.sum`/`host.reduce`, broadcast copies and
//! the `softmax`, `log_softmax`, `layer_norm`, `rms_norm` and `dropout` kernels.
//!
//! Syntax: `host.fused (%in, ...) into (%out, ...) (origin(%i, ...))? attr-dict
//! : (Tin, ...) into (Tout, ...) { ^bb0(%a: tensor<...>, ...): ... host.yield %v, ... : ... }`.
//! The operands come in three groups (`operandSegmentSizes`): inputs, outputs and `index`
//! origins (the global coordinates of the region's first local element, with the property
//! `global_shape`: what a dropout in the body needs). The body is one block with one tensor
//! argument per input (the input's shape and element type) and ends in `host.yield` of one
//! tensor per output (the output's shape and element type).

use super::common::{BUFFER_LIKE, I64_ARRAY_ATTR, INDEX, i32_array_attr, parse_attr_dict, print_types, prop};
use super::kernel::{parse_group_types, parse_paren_operands};
use super::types::BufferType;
use crate::support::{dict_of, empty_state, printed_attr_dict, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::ANY_REGION;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{PatternDef, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::{Type, TypeKind};

const OPERAND_SEGMENT_SIZES: &str = "operandSegmentSizes";

fuser_ir::declare_op! {
    pub static FUSED: "host.fused" {
        summary: "A fused region: one kernel computing its body over given buffers",
        description: "Reads `inputs`, computes the body, and writes the values the body yields \
into `outputs` (buffers or views it does not allocate), as one kernel on the current stream. \
The body is one block: its arguments are tensors with the inputs' shapes and element types, \
its ops are `fusion` ops on those tensors (elementwise math, `broadcast`, reductions over the \
trailing axes, `softmax`, `log_softmax`, `layer_norm`, `rms_norm`, `dropout`), and it ends in \
`host.yield` of one tensor per output, of the output's shape and element type. Intermediate \
values of the body are never allocated. Every value is rounded to its element type, as the \
unfused ops round it. `origin` (with the property `global_shape`) gives the global \
coordinates of the first element of the region's local piece, for `dropout` (its mask is a \
function of the global element index). Built by `host-fuse`; the runtime checks the body when \
it prepares the program (docs/dev/fusion.md lists what a region may hold).\n\n\
```mlir\nhost.fused (%x, %b) into (%y) : (!host.buf<4x8xbf16>, !host.view<4x8xbf16, strides = [0, 1]>) into (!host.buf<4x8xbf16>) {\n^bb0(%a: tensor<4x8xbf16>, %c: tensor<4x8xbf16>):\n  %0 = fusion.add %a, %c : tensor<4x8xbf16>\n  %1 = fusion.gelu %0 {approximate = \"tanh\"} : tensor<4x8xbf16>\n  host.yield %1 : tensor<4x8xbf16>\n}\n```",
        traits: [SINGLE_BLOCK],
        operands: { inputs: BUFFER_LIKE.variadic(), outputs: BUFFER_LIKE.variadic(), origin: INDEX.variadic() },
        properties: { global_shape: I64_ARRAY_ATTR.optional() },
        regions: { body: ANY_REGION },
        hooks: { verify: verify_fused, parse: parse_fused, print: print_fused, canonicalize: &[DROP_UNUSED_INPUTS] },
    }
}

fuser_ir::declare_op! {
    pub static YIELD: "host.yield" {
        summary: "Ends a fused region's body with the values of its outputs",
        description: "The terminator of `host.fused`'s body: one tensor per output of the \
region, of the output's shape and element type.\n\n\
```mlir\nhost.yield %0, %1 : tensor<4x8xbf16>, tensor<4xf32>\n```",
        traits: [PURE | TERMINATOR],
        operands: { values: fuser_ir::declare::ANY_TYPE.variadic() },
        hooks: { verify: verify_yield, parse: parse_yield, print: print_yield },
    }
}

/// The three operand groups (inputs, outputs, origin) of a `host.fused`.
pub fn fused_operands(ctx: &Context, ir: &Ir, op: OpId) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let group = |i| FUSED.operand_group(ctx, ir, op, i).unwrap_or_default();
    (group(0), group(1), group(2))
}

/// The `global_shape` of a `host.fused` (empty when absent).
pub fn fused_global_shape(ctx: &Context, ir: &Ir, op: OpId) -> Vec<i64> {
    prop(ctx, ir, op, "global_shape")
        .and_then(|a| super::common::i64_array(ctx, a).map(<[i64]>::to_vec))
        .unwrap_or_default()
}

/// The state of a `host.fused` with an empty body region (the caller fills the block: one
/// tensor argument per input, ops, `host.yield`).
pub fn fused_state(
    ctx: &Context,
    ir: &mut Ir,
    inputs: &[Value],
    outputs: &[Value],
    origin: &[Value],
    global_shape: Option<&[i64]>,
    loc: Attr,
) -> OperationState {
    let mut state = empty_state(ctx, FUSED.name, loc);
    state.operands = inputs.iter().chain(outputs).chain(origin).copied().collect();
    let segments = [inputs.len(), outputs.len(), origin.len()];
    let mut props = vec![(OPERAND_SEGMENT_SIZES, i32_array_attr(ctx, &segments))];
    if let Some(g) = global_shape {
        props.push(("global_shape", super::common::i64_array_attr(ctx, g)));
    }
    state.props = Some(dict_of(ctx, &props));
    state.regions.push(ir.create_region());
    state
}

/// The state of `host.yield %values`.
pub fn yield_state(ctx: &Context, values: &[Value], loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, YIELD.name, loc);
    state.operands = values.to_vec();
    state
}

/// The tensor type a region sees for a buffer-like type (its shape and element type).
pub fn region_tensor_type(ctx: &Context, buffer: Type) -> Option<Type> {
    let t = BufferType::of(ctx, buffer)?;
    Some(ctx.tensor_type(t.shape.clone(), t.elem, None))
}

/// Shape and element type of a ranked tensor without encoding.
fn tensor_parts(ctx: &Context, t: Type) -> Option<(Vec<i64>, Type)> {
    match ctx.type_kind(t) {
        TypeKind::RankedTensor { shape, elem, encoding: None } => Some((shape.clone(), *elem)),
        _ => None,
    }
}

fn verify_fused(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let (inputs, outputs, origin) = fused_operands(ctx, ir, op);
    if outputs.is_empty() {
        return Err(v.op_error(op, "requires at least one output"));
    }
    let global = fused_global_shape(ctx, ir, op);
    if !origin.is_empty() && global.len() != origin.len() {
        return Err(v.op_error(
            op,
            format!("has {} origin coordinates but a global_shape of rank {}", origin.len(), global.len()),
        ));
    }
    let Some(body) = ir.region_entry(ir.region(op, 0)) else {
        return Err(v.op_error(op, "requires a body block"));
    };
    let args = ir.block_args(body);
    if args.len() != inputs.len() {
        return Err(v.op_error(op, format!("has {} inputs but its body has {} arguments", inputs.len(), args.len())));
    }
    for (i, (&arg, &input)) in args.iter().zip(&inputs).enumerate() {
        let want = region_tensor_type(ctx, ir.value_type(input));
        if want != Some(ir.value_type(arg)) {
            return Err(v.op_error(
                op,
                format!(
                    "body argument #{i} has type '{}', expected the tensor of input #{i} ('{}')",
                    type_str(ctx, ir.value_type(arg)),
                    want.map_or_else(|| "a static buffer".to_string(), |t| type_str(ctx, t))
                ),
            ));
        }
    }
    let Some(term) = ir.block_ops(body).last() else {
        return Err(v.op_error(op, "requires a body ending in 'host.yield'"));
    };
    if ctx.op_name_str(ir.op_name(term)) != YIELD.name {
        return Err(v.op_error(op, "requires a body ending in 'host.yield'"));
    }
    let yielded = ir.operands(term);
    if yielded.len() != outputs.len() {
        return Err(v.op_error(op, format!("has {} outputs but yields {} values", outputs.len(), yielded.len())));
    }
    for (i, (&y, &out)) in yielded.iter().zip(&outputs).enumerate() {
        let want = region_tensor_type(ctx, ir.value_type(out));
        if want != Some(ir.value_type(y)) {
            return Err(v.op_error(
                op,
                format!(
                    "yielded value #{i} has type '{}', expected the tensor of output #{i} ('{}')",
                    type_str(ctx, ir.value_type(y)),
                    want.map_or_else(|| "a static buffer".to_string(), |t| type_str(ctx, t))
                ),
            ));
        }
    }
    for body_op in ir.block_ops(body) {
        let name = ctx.op_name_str(ir.op_name(body_op));
        if body_op != term && !name.starts_with("fusion.") {
            return Err(v.op_error(op, format!("body op '{name}' is not a fusion op")));
        }
        for &r in ir.results(body_op) {
            if tensor_parts(ctx, ir.value_type(r)).is_none() {
                return Err(v.op_error(op, format!("body op '{name}' has a result that is not an unsharded tensor")));
            }
        }
    }
    Ok(())
}

/// A `host.fused` input whose body argument has no use (its users were erased as dead code)
/// is dropped: the region no longer reads it.
static DROP_UNUSED_INPUTS: PatternDef = PatternDef { name: "host-fused-drop-unused-inputs", apply: drop_unused_inputs };

fn drop_unused_inputs(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (unused, segments) = {
        let (ctx, ir) = (rw.ctx(), rw.ir());
        let Some(body) = ir.region_entry(ir.region(op, 0)) else { return false };
        let (inputs, outputs, origin) = fused_operands(ctx, ir, op);
        if ir.block_args(body).len() != inputs.len() {
            return false;
        }
        let unused: Vec<usize> = (0..inputs.len()).filter(|&i| !ir.has_uses(ir.block_args(body)[i])).collect();
        (unused, [inputs.len(), outputs.len(), origin.len()])
    };
    if unused.is_empty() {
        return false;
    }
    let ctx = rw.ctx();
    let sizes = i32_array_attr(ctx, &[segments[0] - unused.len(), segments[1], segments[2]]);
    let props = {
        let ir = rw.ir();
        let mut entries: Vec<(fuser_ir::Ident, Attr)> = match ir.props(op).map(|p| ctx.attr_kind(p)) {
            Some(fuser_ir::AttrKind::Dictionary(e)) => e.clone(),
            _ => Vec::new(),
        };
        entries.retain(|(k, _)| ctx.ident_str(*k) != OPERAND_SEGMENT_SIZES);
        entries.push((ctx.ident(OPERAND_SEGMENT_SIZES), sizes));
        ctx.dictionary(entries)
    };
    let ir = rw.ir_mut();
    let body = ir.region_entry(ir.region(op, 0)).expect("checked above");
    for &i in unused.iter().rev() {
        ir.erase_operand(op, i);
        ir.erase_block_arg(body, i);
    }
    ir.set_props(op, Some(props));
    rw.notify_changed(op);
    true
}

fn verify_yield(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    match ir.parent_op(op) {
        Some(p) if ctx.op_name_str(ir.op_name(p)) == FUSED.name => Ok(()),
        _ => Err(v.op_error(op, "expects parent op 'host.fused'")),
    }
}

fn parse_fused(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let inputs = parse_paren_operands(p)?;
    p.parse_keyword("into")?;
    let outputs = parse_paren_operands(p)?;
    let origin = if p.parse_optional_keyword("origin") { parse_paren_operands(p)? } else { Vec::new() };
    let (written, attrs) = parse_attr_dict(p, state)?;
    parse_group_types(p, state, &inputs, &outputs, &origin)?;
    let body = p.ir_mut().create_region();
    p.parse_region(body, &[])?;
    state.regions.push(body);
    let ctx = p.ctx();
    let mut props =
        vec![(ctx.ident(OPERAND_SEGMENT_SIZES), i32_array_attr(ctx, &[inputs.len(), outputs.len(), origin.len()]))];
    for (k, v) in written {
        props.retain(|(pk, _)| *pk != k);
        props.push((k, v));
    }
    state.props = Some(ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    Ok(())
}

fn print_fused(p: &mut dyn OpAsmPrinter, op: OpId) {
    let ((inputs, outputs, origin), dict, body) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (fused_operands(ctx, ir, op), printed_attr_dict(ctx, ir, op), ir.region(op, 0))
    };
    p.write(" (");
    p.print_operands(&inputs);
    p.write(") into (");
    p.print_operands(&outputs);
    p.write(")");
    if !origin.is_empty() {
        p.write(" origin(");
        p.print_operands(&origin);
        p.write(")");
    }
    p.print_optional_attr_dict(dict, &[OPERAND_SEGMENT_SIZES]);
    let types = |vs: &[Value], ir: &Ir| vs.iter().map(|&v| ir.value_type(v)).collect::<Vec<_>>();
    let (ti, to) = (types(&inputs, p.ir()), types(&outputs, p.ir()));
    p.write(" : (");
    print_types(p, &ti);
    p.write(") into (");
    print_types(p, &to);
    p.write(") ");
    p.print_region(body, true, true);
}

fn parse_yield(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let mut operands = Vec::new();
    if let Some(first) = p.parse_optional_operand()? {
        operands.push(first);
        while p.parse_optional_punct(Punct::Comma) {
            operands.push(p.parse_operand()?);
        }
    }
    let (written, attrs) = parse_attr_dict(p, state)?;
    if !operands.is_empty() {
        p.parse_punct(Punct::Colon)?;
        let types = p.parse_type_list()?;
        if types.len() != operands.len() {
            return Err(p.emit_error(&format!("expected {} types, got {}", operands.len(), types.len())));
        }
        for (u, t) in operands.iter().zip(types) {
            state.operands.push(p.resolve_operand(u, t)?);
        }
    }
    let ctx = p.ctx();
    if !written.is_empty() {
        state.props = Some(ctx.dictionary(written));
    }
    state.attrs = ctx.dictionary(attrs);
    Ok(())
}

fn print_yield(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operands(op).to_vec(), printed_attr_dict(ctx, ir, op))
    };
    if !operands.is_empty() {
        p.write(" ");
        p.print_operands(&operands);
    }
    p.print_optional_attr_dict(dict, &[]);
    if !operands.is_empty() {
        let types: Vec<Type> = operands.iter().map(|&v| p.ir().value_type(v)).collect();
        p.write(" : ");
        print_types(p, &types);
    }
}
