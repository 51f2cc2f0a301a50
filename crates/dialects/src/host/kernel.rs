//! `host.kernel`: a named kernel in destination-passing style, the host form of the fusion ops
//! whose computation is more than one elementwise expression (softmax, norms, attention,
//! lookups; docs/dev/ops.md).
//!
//! Syntax: `host.kernel "NAME" (%in, ...) into (%out, ...) (origin(%i, ...))? (params {...})?
//! attr-dict : (Tin, ...) into (Tout, ...)`. The kernel name is the string property `kernel`,
//! the parameters the dictionary property `params` (the fusion op's properties), and the
//! operands come in three groups (`operandSegmentSizes`): inputs, outputs and `index` origins.
//!
//! The op checks its structure only: which shapes a kernel accepts is the kernel's business
//! (the runtime checks them when it prepares the program, before running anything).

use super::common::{BUFFER_LIKE, INDEX, STRING_ATTR, i32_array_attr, parse_attr_dict, print_types, prop};
use crate::support::{dict_of, empty_state, printed_attr_dict};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;

const OPERAND_SEGMENT_SIZES: &str = "operandSegmentSizes";

/// A dictionary attribute.
const DICT_ATTR: AttrConstraint =
    AttrConstraint::new("dictionary attribute", |ctx, a| matches!(ctx.attr_kind(a), AttrKind::Dictionary(_)))
        .optional();

fuser_ir::declare_op! {
    pub static KERNEL: "host.kernel" {
        summary: "A named kernel writing into given buffers",
        description: "Runs the kernel `kernel` on `inputs` and writes `outputs` (buffers or views \
it does not allocate), on the current stream. `params` holds the kernel's parameters: the \
properties of the fusion op it implements (`dims`, `epsilon`, `causal`, ...). `origin` are the \
global coordinates of the first element of one value's local piece, for kernels whose result \
depends on global positions (the dropout mask, the rows of a vocab-parallel embedding); such \
kernels also get `global_shape` in `params`. The runtime resolves the name and checks the \
shapes when it prepares the program; the kernels are listed in docs/dev/ops.md.\n\n\
```mlir\nhost.kernel \"softmax\" (%x) into (%y) params {dims = array<i64: 1>} : (!host.buf<4x8xf32>) into (!host.buf<4x8xf32>)\n```",
        operands: { inputs: BUFFER_LIKE.variadic(), outputs: BUFFER_LIKE.variadic(), origin: INDEX.variadic() },
        properties: { kernel: STRING_ATTR, params: DICT_ATTR },
        hooks: { verify: verify_kernel, parse: parse_kernel, print: print_kernel },
    }
}

/// The kernel name of a `host.kernel`.
pub fn kernel_name<'c>(ctx: &'c Context, ir: &Ir, op: OpId) -> Option<&'c str> {
    prop(ctx, ir, op, "kernel").and_then(|a| ctx.attr_str(a))
}

/// The `params` dictionary of a `host.kernel` (an empty dictionary when absent).
pub fn kernel_params(ctx: &Context, ir: &Ir, op: OpId) -> Attr {
    prop(ctx, ir, op, "params").unwrap_or_else(|| ctx.dictionary(Vec::new()))
}

/// The three operand groups (inputs, outputs, origin) of a `host.kernel`.
pub fn kernel_operands(ctx: &Context, ir: &Ir, op: OpId) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let group = |i| KERNEL.operand_group(ctx, ir, op, i).unwrap_or_default();
    (group(0), group(1), group(2))
}

/// The state of `host.kernel "name" (inputs) into (outputs) origin(origin) params {params}`.
pub fn kernel_state(
    ctx: &Context,
    name: &str,
    inputs: &[Value],
    outputs: &[Value],
    origin: &[Value],
    params: Attr,
    loc: Attr,
) -> OperationState {
    let mut state = empty_state(ctx, KERNEL.name, loc);
    state.operands = inputs.iter().chain(outputs).chain(origin).copied().collect();
    let segments = [inputs.len(), outputs.len(), origin.len()];
    state.props = Some(dict_of(
        ctx,
        &[
            ("kernel", ctx.string_attr(name)),
            (OPERAND_SEGMENT_SIZES, i32_array_attr(ctx, &segments)),
            ("params", params),
        ],
    ));
    state
}

fn verify_kernel(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (_, outputs, _) = kernel_operands(v.ctx, v.ir, op);
    if kernel_name(v.ctx, v.ir, op).is_some_and(str::is_empty) {
        return Err(v.op_error(op, "requires a non-empty kernel name"));
    }
    if outputs.is_empty() {
        return Err(v.op_error(op, "requires at least one output"));
    }
    Ok(())
}

/// `( %a, %b )`, possibly empty.
pub(super) fn parse_paren_operands(p: &mut dyn OpAsmParser) -> ParseResult<Vec<fuser_ir::asm::UnresolvedOperand>> {
    p.parse_punct(Punct::LParen)?;
    if p.parse_optional_punct(Punct::RParen) {
        return Ok(Vec::new());
    }
    let list = p.parse_operand_list()?;
    p.parse_punct(Punct::RParen)?;
    Ok(list)
}

/// `( t1, t2 )`, exactly `n` of them.
pub(super) fn parse_paren_types(p: &mut dyn OpAsmParser, n: usize) -> ParseResult<Vec<fuser_ir::Type>> {
    let at = p.current_offset();
    p.parse_punct(Punct::LParen)?;
    let types = if p.parse_optional_punct(Punct::RParen) {
        Vec::new()
    } else {
        let t = p.parse_type_list()?;
        p.parse_punct(Punct::RParen)?;
        t
    };
    if types.len() != n {
        return Err(p.emit_error_at(at, &format!("expected {n} types, got {}", types.len())));
    }
    Ok(types)
}

/// `: (Tin, ...) into (Tout, ...)` after the operand groups of a `host.kernel` or `host.fused`:
/// resolves the inputs and outputs with those types and the origin as `index` values.
pub(super) fn parse_group_types(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    inputs: &[fuser_ir::asm::UnresolvedOperand],
    outputs: &[fuser_ir::asm::UnresolvedOperand],
    origin: &[fuser_ir::asm::UnresolvedOperand],
) -> ParseResult<()> {
    p.parse_punct(Punct::Colon)?;
    let in_types = parse_paren_types(p, inputs.len())?;
    p.parse_keyword("into")?;
    let out_types = parse_paren_types(p, outputs.len())?;
    for (u, t) in inputs.iter().zip(in_types).chain(outputs.iter().zip(out_types)) {
        state.operands.push(p.resolve_operand(u, t)?);
    }
    let index = p.ctx().index_type();
    for u in origin {
        state.operands.push(p.resolve_operand(u, index)?);
    }
    Ok(())
}

fn parse_kernel(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let Some(name) = p.parse_optional_string() else {
        return Err(p.emit_error("expected the kernel name as a string"));
    };
    let inputs = parse_paren_operands(p)?;
    p.parse_keyword("into")?;
    let outputs = parse_paren_operands(p)?;
    let origin = if p.parse_optional_keyword("origin") { parse_paren_operands(p)? } else { Vec::new() };
    let params = if p.parse_optional_keyword("params") {
        let at = p.current_offset();
        let a = p.parse_attribute(None)?;
        if !matches!(p.ctx().attr_kind(a), AttrKind::Dictionary(_)) {
            return Err(p.emit_error_at(at, "expected a dictionary of kernel parameters"));
        }
        Some(a)
    } else {
        None
    };
    let (written, attrs) = parse_attr_dict(p, state)?;
    parse_group_types(p, state, &inputs, &outputs, &origin)?;
    let ctx = p.ctx();
    let mut props = vec![
        (ctx.ident("kernel"), ctx.string_attr(&name)),
        (ctx.ident(OPERAND_SEGMENT_SIZES), i32_array_attr(ctx, &[inputs.len(), outputs.len(), origin.len()])),
    ];
    if let Some(a) = params {
        props.push((ctx.ident("params"), a));
    }
    for (k, v) in written {
        props.retain(|(pk, _)| *pk != k);
        props.push((k, v));
    }
    state.props = Some(ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    Ok(())
}

fn print_kernel(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (name, (inputs, outputs, origin), params, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let name = kernel_name(ctx, ir, op).unwrap_or("").to_string();
        let params = prop(ctx, ir, op, "params");
        (name, kernel_operands(ctx, ir, op), params, printed_attr_dict(ctx, ir, op))
    };
    let quoted = p.ctx().string_attr(&name);
    p.write(" ");
    p.print_attribute(quoted);
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
    if let Some(a) = params {
        p.write(" params ");
        p.print_attribute(a);
    }
    p.print_optional_attr_dict(dict, &["kernel", "params", OPERAND_SEGMENT_SIZES]);
    let types = |vs: &[Value], ir: &Ir| vs.iter().map(|&v| ir.value_type(v)).collect::<Vec<_>>();
    let (ti, to) = (types(&inputs, p.ir()), types(&outputs, p.ir()));
    p.write(" : (");
    print_types(p, &ti);
    p.write(") into (");
    print_types(p, &to);
    p.write(")");
}
