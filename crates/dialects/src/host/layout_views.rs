//! Layout views: `host.expand` (new axes of stride 0: a broadcast without copying),
//! `host.permute` (axes reordered) and `host.reshape` (a contiguous source seen with another
//! shape). Like the other views they are pure address computations; `fusion-to-host` lowers
//! `fusion.broadcast`, `fusion.permute` and `fusion.reshape` to a copy through them.
//!
//! Syntax:
//! - `%v = host.expand %b dims = [0] : !host.buf<64xf32> -> !host.view<48x64xf32, strides = [0, 1]>`
//! - `%v = host.permute %b dims = [1, 0] : !host.buf<4x8xf32> -> !host.view<8x4xf32, strides = [1, 8]>`
//! - `%v = host.reshape %b : !host.buf<4x8xf32> -> !host.view<32xf32, strides = [1]>`
//!
//! Invariant checked by the verifiers: the result type is exactly what [`expand_type`],
//! [`permute_type`] and [`reshape_type`] compute (for `expand`, the extents of the new axes are
//! the result's own).

use super::common::{
    BUFFER_LIKE, I64_ARRAY_ATTR, VIEW, buffer_of, finish_attrs, i64_array_attr, parse_attr_dict, print_attr_dict,
    prop_i64_array, strides_of,
};
use super::types::BufferType;
use super::views::{parse_view_types, print_view_types};
use crate::support::{dict_of, empty_state, parse_int_list};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::DYNAMIC;

fuser_ir::declare_op! {
    pub static EXPAND: "host.expand" {
        summary: "A broadcast view: new axes of stride 0",
        description: "Returns the source seen with extra axes at the result positions `dims` \
(sorted, distinct); a new axis has stride 0, so every index along it reads the same elements. \
The other axes keep the source's extents and strides, in order. The extents of the new axes are \
given by the result type. Writing through such a view is undefined behaviour.\n\n\
```mlir\n%v = host.expand %b dims = [0] : !host.buf<64xf32> -> !host.view<48x64xf32, strides = [0, 1]>\n```",
        traits: [PURE],
        operands: { source: BUFFER_LIKE },
        results: { result: VIEW },
        properties: { dims: I64_ARRAY_ATTR },
        hooks: { verify: verify_expand, parse: parse_with_dims, print: print_with_dims },
    }
}

fuser_ir::declare_op! {
    pub static PERMUTE: "host.permute" {
        summary: "A view with its axes reordered",
        description: "Returns the source with axis `dims[i]` as axis `i` (`dims` a permutation): \
extents and strides are permuted, no element moves.\n\n\
```mlir\n%t = host.permute %b dims = [1, 0] : !host.buf<4x8xf32> -> !host.view<8x4xf32, strides = [1, 8]>\n```",
        traits: [PURE],
        operands: { source: BUFFER_LIKE },
        results: { result: VIEW },
        properties: { dims: I64_ARRAY_ATTR },
        hooks: { verify: verify_permute, parse: parse_with_dims, print: print_with_dims },
    }
}

fuser_ir::declare_op! {
    pub static RESHAPE: "host.reshape" {
        summary: "A contiguous source seen with another shape",
        description: "Returns a row-major view of the same elements with the result's shape. \
The source must be contiguous (row-major without gaps; the stride of an axis of extent 1 does \
not matter, it is never stepped) and hold as many elements as the result.\n\n\
```mlir\n%f = host.reshape %b : !host.buf<4x8xf32> -> !host.view<32xf32, strides = [1]>\n```",
        traits: [PURE],
        operands: { source: BUFFER_LIKE },
        results: { result: VIEW },
        hooks: { verify: verify_reshape, parse: parse_reshape, print: print_reshape },
    }
}

/// Why a layout view does not fit its source.
pub type LayoutError = String;

/// `source` with new stride-0 axes at `dims` of a result of shape `result_shape`.
pub fn expand_type(source: &BufferType, dims: &[i64], result_shape: &[i64]) -> Result<BufferType, LayoutError> {
    let rank = source.shape.len() + dims.len();
    if result_shape.len() != rank {
        return Err(format!("expected a result of rank {rank}, got {}", result_shape.len()));
    }
    if dims.windows(2).any(|w| w[0] >= w[1]) || dims.iter().any(|&d| d < 0 || d as usize >= rank) {
        return Err(format!("dims must be sorted, distinct and below {rank}"));
    }
    let src_strides = strides_of(source);
    let (mut shape, mut strides) = (Vec::with_capacity(rank), Vec::with_capacity(rank));
    let mut next = 0;
    for (r, &extent) in result_shape.iter().enumerate() {
        if dims.contains(&(r as i64)) {
            shape.push(extent);
            strides.push(0);
        } else {
            shape.push(source.shape[next]);
            strides.push(src_strides[next]);
            next += 1;
        }
    }
    Ok(BufferType { shape, elem: source.elem, memory: source.memory, strides: Some(strides) })
}

/// `source` with axis `dims[i]` as axis `i`.
pub fn permute_type(source: &BufferType, dims: &[i64]) -> Result<BufferType, LayoutError> {
    let rank = source.shape.len();
    let mut seen = vec![false; rank];
    for &d in dims {
        match seen.get_mut(d as usize) {
            Some(s) if d >= 0 && !*s => *s = true,
            _ => return Err(format!("dims must be a permutation of 0..{rank}")),
        }
    }
    if dims.len() != rank {
        return Err(format!("dims must be a permutation of 0..{rank}"));
    }
    let src_strides = strides_of(source);
    let shape = dims.iter().map(|&d| source.shape[d as usize]).collect();
    let strides = dims.iter().map(|&d| src_strides[d as usize]).collect();
    Ok(BufferType { shape, elem: source.elem, memory: source.memory, strides: Some(strides) })
}

/// Whether `t`'s elements are row-major without gaps. An axis of extent 1 is never stepped, so
/// its stride does not matter: a stream chunk `[1, 5]` of a `[1, 15]` buffer (strides
/// `[15, 1]`) is contiguous.
pub fn is_contiguous(t: &BufferType) -> bool {
    let dense = BufferType::contiguous_strides(&t.shape);
    t.shape.iter().zip(strides_of(t)).zip(dense).all(|((&e, s), d)| e == 1 || s == d)
}

/// A contiguous `source` ([`is_contiguous`]) seen with `shape`.
pub fn reshape_type(source: &BufferType, shape: &[i64]) -> Result<BufferType, LayoutError> {
    if !is_contiguous(source) {
        return Err("the source must be contiguous (copy it into a buffer first)".into());
    }
    let count = |s: &[i64]| s.iter().try_fold(1i64, |acc, &d| if d == DYNAMIC { None } else { acc.checked_mul(d) });
    if let (Some(a), Some(b)) = (count(&source.shape), count(shape))
        && a != b
    {
        return Err(format!("the source has {a} elements, the result {b}"));
    }
    let strides = BufferType::contiguous_strides(shape);
    Ok(BufferType { shape: shape.to_vec(), elem: source.elem, memory: source.memory, strides: Some(strides) })
}

// ----- verifiers ------------------------------------------------------------------------------

fn operand_and_result(v: &VerifyCtx<'_>, op: OpId) -> Option<(BufferType, BufferType)> {
    Some((buffer_of(v.ctx, v.ir, v.ir.operand(op, 0))?, buffer_of(v.ctx, v.ir, v.ir.result(op, 0))?))
}

fn check(
    v: &VerifyCtx<'_>,
    op: OpId,
    result: &BufferType,
    expected: Result<BufferType, LayoutError>,
) -> Result<(), Diagnostic> {
    let expected = expected.map_err(|m| v.op_error(op, m))?;
    if *result != expected {
        let want = expected.to_type(v.ctx);
        return Err(v.op_error(op, format!("result type must be {}", crate::support::type_str(v.ctx, want))));
    }
    Ok(())
}

fn verify_expand(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some((src, res)) = operand_and_result(v, op) else { return Ok(()) };
    let dims = prop_i64_array(v.ctx, v.ir, op, "dims").unwrap_or_default();
    check(v, op, &res, expand_type(&src, &dims, &res.shape))
}

fn verify_permute(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some((src, res)) = operand_and_result(v, op) else { return Ok(()) };
    let dims = prop_i64_array(v.ctx, v.ir, op, "dims").unwrap_or_default();
    check(v, op, &res, permute_type(&src, &dims))
}

fn verify_reshape(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some((src, res)) = operand_and_result(v, op) else { return Ok(()) };
    check(v, op, &res, reshape_type(&src, &res.shape))
}

// ----- syntax ---------------------------------------------------------------------------------

fn parse_with_dims(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let source = p.parse_operand()?;
    p.parse_keyword("dims")?;
    p.parse_punct(Punct::Equal)?;
    let dims = parse_int_list(p)?;
    let dict = parse_attr_dict(p, state)?;
    parse_view_types(p, state, &source, &[])?;
    let ctx = p.ctx();
    finish_attrs(ctx, state, vec![("dims", i64_array_attr(ctx, &dims))], dict);
    Ok(())
}

fn print_with_dims(p: &mut dyn OpAsmPrinter, op: OpId) {
    let dims = prop_i64_array(p.ctx(), p.ir(), op, "dims").unwrap_or_default();
    let src = p.ir().operand(op, 0);
    p.write(" ");
    p.print_operand(src);
    let text: Vec<String> = dims.iter().map(i64::to_string).collect();
    p.write(&format!(" dims = [{}]", text.join(", ")));
    print_attr_dict(p, op, &["dims"]);
    print_view_types(p, op);
}

fn parse_reshape(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let source = p.parse_operand()?;
    let dict = parse_attr_dict(p, state)?;
    parse_view_types(p, state, &source, &[])?;
    finish_attrs(p.ctx(), state, Vec::new(), dict);
    Ok(())
}

fn print_reshape(p: &mut dyn OpAsmPrinter, op: OpId) {
    let src = p.ir().operand(op, 0);
    p.write(" ");
    p.print_operand(src);
    print_attr_dict(p, op, &[]);
    print_view_types(p, op);
}

// ----- builders -------------------------------------------------------------------------------

fn view_state(ctx: &Context, name: &str, source: Value, result: &BufferType, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = vec![source];
    state.result_types = vec![result.to_type(ctx)];
    state
}

/// `host.expand source dims` with the result of shape `result_shape`.
pub fn expand_state(
    ctx: &Context,
    ir: &Ir,
    source: Value,
    dims: &[i64],
    result_shape: &[i64],
    loc: Attr,
) -> Result<OperationState, LayoutError> {
    let src = buffer_of(ctx, ir, source).ok_or("source is not a buffer or view")?;
    let result = expand_type(&src, dims, result_shape)?;
    let mut state = view_state(ctx, EXPAND.name, source, &result, loc);
    state.props = Some(dict_of(ctx, &[("dims", i64_array_attr(ctx, dims))]));
    Ok(state)
}

/// `host.permute source dims`.
pub fn permute_state(
    ctx: &Context,
    ir: &Ir,
    source: Value,
    dims: &[i64],
    loc: Attr,
) -> Result<OperationState, LayoutError> {
    let src = buffer_of(ctx, ir, source).ok_or("source is not a buffer or view")?;
    let result = permute_type(&src, dims)?;
    let mut state = view_state(ctx, PERMUTE.name, source, &result, loc);
    state.props = Some(dict_of(ctx, &[("dims", i64_array_attr(ctx, dims))]));
    Ok(state)
}

/// `host.reshape source` to `shape`.
pub fn reshape_state(
    ctx: &Context,
    ir: &Ir,
    source: Value,
    shape: &[i64],
    loc: Attr,
) -> Result<OperationState, LayoutError> {
    let src = buffer_of(ctx, ir, source).ok_or("source is not a buffer or view")?;
    let result = reshape_type(&src, shape)?;
    Ok(view_state(ctx, RESHAPE.name, source, &result, loc))
}
