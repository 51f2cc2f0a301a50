//! The view ops: `host.shard_by_stream`, `host.select` and `host.slice` make a `!host.view`
//! into (part of) a buffer or view, without copying. They are pure: a view is an address
//! computation.
//!
//! Syntax:
//! - `%v = host.shard_by_stream %b[%i] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1]>`
//! - `%v = host.select %b[%i] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>`
//! - `%v = host.slice %b[%o, 0] [2, 8] [1, 1] : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>`
//!
//! Invariant checked by every verifier here: the result type is exactly the one
//! [`shard_by_stream_type`], [`select_type`] and [`slice_type`] compute from the source type
//! and the static parameters (element type and memory kind kept; strides in elements of the
//! underlying buffer).

use super::common::{
    BUFFER_LIKE, I64_ARRAY_ATTR, I64_ATTR, INDEX, VIEW, buffer_of, finish_attrs, fmt_dims, i32_array_attr,
    i64_array_attr, i64_attr, mul_dyn, parse_attr_dict, parse_keyword_int, print_attr_dict, prop_i64, prop_i64_array,
    strides_of,
};
use super::types::BufferType;
use crate::support::{dict_of, empty_state};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct, UnresolvedOperand};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::OPERAND_SEGMENT_SIZES;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::DYNAMIC;

fuser_ir::declare_op! {
    pub static SHARD_BY_STREAM: "host.shard_by_stream" {
        summary: "The view of one stream chunk of a buffer",
        description: "Splits `axis` of the source into `chunks` equal contiguous chunks and \
returns a view of chunk number `index` (0-based; out-of-range indices are undefined \
behaviour). The view keeps the source's strides, element type and memory kind; its extent \
along `axis` is the source's divided by `chunks` (the static extent must be divisible). A \
stream-parallel host loop uses it to give iteration `i` its slice of a tensor allocated at \
full size outside the loop.\n\n\
```mlir\n%v = host.shard_by_stream %b[%i] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1]>\n```",
        traits: [PURE],
        operands: { source: BUFFER_LIKE, index: INDEX },
        results: { result: VIEW },
        properties: { axis: I64_ATTR, chunks: I64_ATTR },
        hooks: { verify: verify_shard_by_stream, parse: parse_shard_by_stream, print: print_shard_by_stream },
    }
}

fuser_ir::declare_op! {
    pub static SELECT: "host.select" {
        summary: "The view of one index along an axis (the axis is dropped)",
        description: "Returns the view of the source at position `index` along `axis`, with that \
axis removed: the rank drops by one, the other extents and strides are kept. Out-of-range \
indices are undefined behaviour.\n\n\
```mlir\n%row = host.select %b[%i] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>\n```",
        traits: [PURE],
        operands: { source: BUFFER_LIKE, index: INDEX },
        results: { result: VIEW },
        properties: { axis: I64_ATTR },
        hooks: { verify: verify_select, parse: parse_select, print: print_select },
    }
}

fuser_ir::declare_op! {
    pub static SLICE: "host.slice" {
        summary: "A general strided view: offsets, sizes and strides per dimension",
        description: "Returns the view that starts at `offsets` and has `sizes` elements along \
each dimension, stepping by `strides` source elements (so the view's strides are the source \
strides times the slice strides). Each offset, size and stride is a constant or an `index` \
operand, as in `memref.subview`: the constants are the properties `static_offsets`, \
`static_sizes` and `static_strides`, where a dynamic entry holds the sentinel \
`-9223372036854775808` and takes the next operand of its group. Static entries must stay in \
bounds.\n\n\
```mlir\n%v = host.slice %b[%o, 0] [2, 8] [1, 1] : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>\n%w = host.slice %b[0, 0] [%n, 4] [1, 2] : !host.buf<4x8xf32> -> !host.view<?x4xf32, strides = [8, 2]>\n```",
        traits: [PURE],
        operands: { source: BUFFER_LIKE, offsets: INDEX.variadic(), sizes: INDEX.variadic(), strides: INDEX.variadic() },
        results: { result: VIEW },
        properties: { static_offsets: I64_ARRAY_ATTR, static_sizes: I64_ARRAY_ATTR, static_strides: I64_ARRAY_ATTR },
        hooks: { verify: verify_slice, parse: parse_slice, print: print_slice },
    }
}

// ----- result types ---------------------------------------------------------------------------

/// Why a view's parameters do not fit its source.
pub type ViewError = String;

/// The view type of chunk `_ / chunks` along `axis` of `source`.
pub fn shard_by_stream_type(source: &BufferType, axis: i64, chunks: i64) -> Result<BufferType, ViewError> {
    let rank = source.shape.len();
    let a = checked_axis(axis, rank)?;
    if chunks <= 0 {
        return Err(format!("chunks must be positive, got {chunks}"));
    }
    let extent = source.shape[a];
    if extent != DYNAMIC && extent % chunks != 0 {
        return Err(format!("extent {extent} of axis {axis} is not divisible into {chunks} chunks"));
    }
    let mut shape = source.shape.clone();
    shape[a] = if extent == DYNAMIC { DYNAMIC } else { extent / chunks };
    Ok(BufferType { shape, elem: source.elem, memory: source.memory, strides: Some(strides_of(source)) })
}

/// The view type of one index along `axis` of `source` (the axis dropped).
pub fn select_type(source: &BufferType, axis: i64) -> Result<BufferType, ViewError> {
    let a = checked_axis(axis, source.shape.len())?;
    let mut shape = source.shape.clone();
    let mut strides = strides_of(source);
    shape.remove(a);
    strides.remove(a);
    Ok(BufferType { shape, elem: source.elem, memory: source.memory, strides: Some(strides) })
}

/// The view type of a slice with these static parameters (`DYNAMIC` where given by an operand).
pub fn slice_type(
    source: &BufferType,
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
) -> Result<BufferType, ViewError> {
    let rank = source.shape.len();
    for (what, v) in [("offset", offsets), ("size", sizes), ("stride", strides)] {
        if v.len() != rank {
            return Err(format!("expected {rank} {what} values, one per source dimension, got {}", v.len()));
        }
        if let Some(bad) = v.iter().find(|&&x| x < 0 && x != DYNAMIC) {
            return Err(format!("static {what} must be non-negative, got {bad}"));
        }
    }
    for d in 0..rank {
        let (o, n, s, e) = (offsets[d], sizes[d], strides[d], source.shape[d]);
        if [o, n, s, e].contains(&DYNAMIC) || n == 0 {
            continue;
        }
        let last = (n - 1).checked_mul(s).and_then(|x| x.checked_add(o));
        if last.is_none_or(|l| l >= e) {
            return Err(format!(
                "slice along dimension {d} is out of bounds: offset {o}, size {n}, stride {s} on extent {e}"
            ));
        }
    }
    let source_strides = strides_of(source);
    let view_strides = source_strides.iter().zip(strides).map(|(&a, &b)| mul_dyn(a, b)).collect();
    Ok(BufferType { shape: sizes.to_vec(), elem: source.elem, memory: source.memory, strides: Some(view_strides) })
}

fn checked_axis(axis: i64, rank: usize) -> Result<usize, ViewError> {
    if axis < 0 || axis as u64 >= rank as u64 {
        return Err(format!("axis {axis} is out of range for a source of rank {rank}"));
    }
    Ok(axis as usize)
}

// ----- verifiers ------------------------------------------------------------------------------

/// Checks that the result has exactly the `expected` view type.
fn check_result(v: &VerifyCtx<'_>, op: OpId, expected: Result<BufferType, ViewError>) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let expected = expected.map_err(|msg| v.op_error(op, msg))?;
    let Some(result) = buffer_of(ctx, ir, ir.result(op, 0)) else { return Ok(()) };
    if result.elem != expected.elem {
        return Err(v.op_error(op, "result element type must be the source's"));
    }
    if result.memory != expected.memory {
        return Err(v.op_error(op, "result memory kind must be the source's"));
    }
    if result.shape != expected.shape {
        return Err(v.op_error(
            op,
            format!(
                "result shape {} does not match the expected {}",
                fmt_dims(&result.shape),
                fmt_dims(&expected.shape)
            ),
        ));
    }
    let (got, want) = (strides_of(&result), strides_of(&expected));
    if got != want {
        return Err(
            v.op_error(op, format!("result strides {} do not match the expected {}", fmt_dims(&got), fmt_dims(&want)))
        );
    }
    Ok(())
}

fn source_of(v: &VerifyCtx<'_>, op: OpId) -> Option<BufferType> {
    buffer_of(v.ctx, v.ir, v.ir.operand(op, 0))
}

fn verify_shard_by_stream(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some(src) = source_of(v, op) else { return Ok(()) };
    let axis = prop_i64(v.ctx, v.ir, op, "axis").unwrap_or(-1);
    let chunks = prop_i64(v.ctx, v.ir, op, "chunks").unwrap_or(0);
    check_result(v, op, shard_by_stream_type(&src, axis, chunks))
}

fn verify_select(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some(src) = source_of(v, op) else { return Ok(()) };
    let axis = prop_i64(v.ctx, v.ir, op, "axis").unwrap_or(-1);
    check_result(v, op, select_type(&src, axis))
}

/// The static arrays of a slice, in the order offsets, sizes, strides.
fn slice_statics(ctx: &Context, ir: &Ir, op: OpId) -> [Vec<i64>; 3] {
    ["static_offsets", "static_sizes", "static_strides"].map(|n| prop_i64_array(ctx, ir, op, n).unwrap_or_default())
}

fn verify_slice(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let Some(src) = source_of(v, op) else { return Ok(()) };
    let statics = slice_statics(ctx, ir, op);
    for (i, what) in ["offset", "size", "stride"].into_iter().enumerate() {
        let dynamic = statics[i].iter().filter(|&&x| x == DYNAMIC).count();
        let operands = SLICE.operand_group(ctx, ir, op, i + 1).map_or(0, |g| g.len());
        if dynamic != operands {
            return Err(v.op_error(
                op,
                format!("expected {dynamic} dynamic {what} operand(s), one per dynamic entry, but got {operands}"),
            ));
        }
    }
    check_result(v, op, slice_type(&src, &statics[0], &statics[1], &statics[2]))
}

// ----- syntax ---------------------------------------------------------------------------------

/// `%src[%i]`.
fn parse_source_and_index(p: &mut dyn OpAsmParser) -> ParseResult<(UnresolvedOperand, UnresolvedOperand)> {
    let source = p.parse_operand()?;
    p.parse_punct(Punct::LSquare)?;
    let index = p.parse_operand()?;
    p.parse_punct(Punct::RSquare)?;
    Ok((source, index))
}

/// `: source-type -> result-type`, resolving the source and index.
pub(super) fn parse_view_types(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    source: &UnresolvedOperand,
    rest: &[UnresolvedOperand],
) -> ParseResult<()> {
    p.parse_punct(Punct::Colon)?;
    let source_ty = p.parse_type()?;
    p.parse_punct(Punct::Arrow)?;
    let result_ty = p.parse_type()?;
    state.operands.push(p.resolve_operand(source, source_ty)?);
    let index = p.ctx().index_type();
    for r in rest {
        state.operands.push(p.resolve_operand(r, index)?);
    }
    state.result_types = vec![result_ty];
    Ok(())
}

/// Prints `: source-type -> result-type`.
pub(super) fn print_view_types(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (src, res) = {
        let ir = p.ir();
        (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.result(op, 0)))
    };
    p.write(" : ");
    p.print_type(src);
    p.write(" -> ");
    p.print_type(res);
}

fn print_source_and_index(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (src, index) = (p.ir().operand(op, 0), p.ir().operand(op, 1));
    p.write(" ");
    p.print_operand(src);
    p.write("[");
    p.print_operand(index);
    p.write("]");
}

fn parse_shard_by_stream(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let (source, index) = parse_source_and_index(p)?;
    let axis = parse_keyword_int(p, "axis")?;
    let chunks = parse_keyword_int(p, "chunks")?;
    let dict = parse_attr_dict(p, state)?;
    parse_view_types(p, state, &source, &[index])?;
    let ctx = p.ctx();
    finish_attrs(ctx, state, vec![("axis", i64_attr(ctx, axis)), ("chunks", i64_attr(ctx, chunks))], dict);
    Ok(())
}

fn print_shard_by_stream(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (axis, chunks) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (prop_i64(ctx, ir, op, "axis"), prop_i64(ctx, ir, op, "chunks"))
    };
    print_source_and_index(p, op);
    p.write(&format!(" axis = {} chunks = {}", axis.unwrap_or(0), chunks.unwrap_or(0)));
    print_attr_dict(p, op, &["axis", "chunks"]);
    print_view_types(p, op);
}

fn parse_select(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let (source, index) = parse_source_and_index(p)?;
    let axis = parse_keyword_int(p, "axis")?;
    let dict = parse_attr_dict(p, state)?;
    parse_view_types(p, state, &source, &[index])?;
    let ctx = p.ctx();
    finish_attrs(ctx, state, vec![("axis", i64_attr(ctx, axis))], dict);
    Ok(())
}

fn print_select(p: &mut dyn OpAsmPrinter, op: OpId) {
    let axis = prop_i64(p.ctx(), p.ir(), op, "axis");
    print_source_and_index(p, op);
    p.write(&format!(" axis = {}", axis.unwrap_or(0)));
    print_attr_dict(p, op, &["axis"]);
    print_view_types(p, op);
}

/// `[%a, 4, %b]`: the static entries (`DYNAMIC` for an operand) and the operands.
fn parse_mixed_list(p: &mut dyn OpAsmParser) -> ParseResult<(Vec<i64>, Vec<UnresolvedOperand>)> {
    p.parse_punct(Punct::LSquare)?;
    let (mut statics, mut operands) = (Vec::new(), Vec::new());
    if p.parse_optional_punct(Punct::RSquare) {
        return Ok((statics, operands));
    }
    loop {
        if let Some(operand) = p.parse_optional_operand()? {
            statics.push(DYNAMIC);
            operands.push(operand);
        } else {
            statics.push(p.parse_integer()?);
        }
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::RSquare)?;
    Ok((statics, operands))
}

fn parse_slice(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let source = p.parse_operand()?;
    let (offsets, dyn_offsets) = parse_mixed_list(p)?;
    let (sizes, dyn_sizes) = parse_mixed_list(p)?;
    let (strides, dyn_strides) = parse_mixed_list(p)?;
    let dict = parse_attr_dict(p, state)?;
    let segments = [1, dyn_offsets.len(), dyn_sizes.len(), dyn_strides.len()];
    let rest: Vec<UnresolvedOperand> = dyn_offsets.into_iter().chain(dyn_sizes).chain(dyn_strides).collect();
    parse_view_types(p, state, &source, &rest)?;
    let ctx = p.ctx();
    let own = vec![
        (OPERAND_SEGMENT_SIZES, i32_array_attr(ctx, &segments)),
        ("static_offsets", i64_array_attr(ctx, &offsets)),
        ("static_sizes", i64_array_attr(ctx, &sizes)),
        ("static_strides", i64_array_attr(ctx, &strides)),
    ];
    finish_attrs(ctx, state, own, dict);
    Ok(())
}

/// `[%a, 4, %b]` from the static entries and the group's operands.
fn print_mixed_list(p: &mut dyn OpAsmPrinter, statics: &[i64], operands: &[Value]) {
    p.write("[");
    let mut next = operands.iter();
    for (i, &s) in statics.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        match (s == DYNAMIC).then(|| next.next()).flatten() {
            Some(&v) => p.print_operand(v),
            None => p.write(&s.to_string()),
        }
    }
    p.write("]");
}

fn print_slice(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (statics, groups) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let groups: Vec<Vec<Value>> = (1..4).map(|i| SLICE.operand_group(ctx, ir, op, i).unwrap_or_default()).collect();
        (slice_statics(ctx, ir, op), groups)
    };
    let src = p.ir().operand(op, 0);
    p.write(" ");
    p.print_operand(src);
    for (i, s) in statics.iter().enumerate() {
        if i > 0 {
            p.write(" ");
        }
        print_mixed_list(p, s, &groups[i]);
    }
    print_attr_dict(p, op, &[OPERAND_SEGMENT_SIZES, "static_offsets", "static_sizes", "static_strides"]);
    print_view_types(p, op);
}

// ----- builders -------------------------------------------------------------------------------

/// An offset, size or stride of `host.slice`: a constant or an `index` value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mixed {
    Static(i64),
    Dynamic(Value),
}

fn view_state(ctx: &Context, name: &str, operands: Vec<Value>, result: &BufferType, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = operands;
    state.result_types = vec![result.to_type(ctx)];
    state
}

/// The state of `host.shard_by_stream source[index] axis chunks`, its result type inferred;
/// an error when the source is not a buffer or view or the parameters do not fit it.
pub fn shard_by_stream_state(
    ctx: &Context,
    ir: &Ir,
    source: Value,
    index: Value,
    axis: i64,
    chunks: i64,
    loc: Attr,
) -> Result<OperationState, ViewError> {
    let src = buffer_of(ctx, ir, source).ok_or("source is not a buffer or view")?;
    let result = shard_by_stream_type(&src, axis, chunks)?;
    let mut state = view_state(ctx, SHARD_BY_STREAM.name, vec![source, index], &result, loc);
    state.props = Some(dict_of(ctx, &[("axis", i64_attr(ctx, axis)), ("chunks", i64_attr(ctx, chunks))]));
    Ok(state)
}

/// The state of `host.select source[index] axis`, its result type inferred.
pub fn select_state(
    ctx: &Context,
    ir: &Ir,
    source: Value,
    index: Value,
    axis: i64,
    loc: Attr,
) -> Result<OperationState, ViewError> {
    let src = buffer_of(ctx, ir, source).ok_or("source is not a buffer or view")?;
    let result = select_type(&src, axis)?;
    let mut state = view_state(ctx, SELECT.name, vec![source, index], &result, loc);
    state.props = Some(dict_of(ctx, &[("axis", i64_attr(ctx, axis))]));
    Ok(state)
}

/// Splits mixed entries into the static array and the operands.
fn split_mixed(entries: &[Mixed]) -> (Vec<i64>, Vec<Value>) {
    let mut statics = Vec::with_capacity(entries.len());
    let mut values = Vec::new();
    for e in entries {
        match *e {
            Mixed::Static(s) => statics.push(s),
            Mixed::Dynamic(v) => {
                statics.push(DYNAMIC);
                values.push(v);
            }
        }
    }
    (statics, values)
}

/// The state of `host.slice source[offsets] [sizes] [strides]`, its result type inferred.
pub fn slice_state(
    ctx: &Context,
    ir: &Ir,
    source: Value,
    offsets: &[Mixed],
    sizes: &[Mixed],
    strides: &[Mixed],
    loc: Attr,
) -> Result<OperationState, ViewError> {
    let src = buffer_of(ctx, ir, source).ok_or("source is not a buffer or view")?;
    let (o, ov) = split_mixed(offsets);
    let (n, nv) = split_mixed(sizes);
    let (s, sv) = split_mixed(strides);
    let result = slice_type(&src, &o, &n, &s)?;
    let segments = [1, ov.len(), nv.len(), sv.len()];
    let operands: Vec<Value> = std::iter::once(source).chain(ov).chain(nv).chain(sv).collect();
    let mut state = view_state(ctx, SLICE.name, operands, &result, loc);
    state.props = Some(dict_of(
        ctx,
        &[
            (OPERAND_SEGMENT_SIZES, i32_array_attr(ctx, &segments)),
            ("static_offsets", i64_array_attr(ctx, &o)),
            ("static_sizes", i64_array_attr(ctx, &n)),
            ("static_strides", i64_array_attr(ctx, &s)),
        ],
    ));
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::types::MemoryKind;
    use fuser_ir::types::FloatKind;

    fn buf(ctx: &Context, shape: &[i64]) -> BufferType {
        BufferType {
            shape: shape.to_vec(),
            elem: ctx.float_type(FloatKind::F32),
            memory: MemoryKind::Device,
            strides: None,
        }
    }

    #[test]
    fn shard_by_stream_keeps_strides() {
        let ctx = Context::empty();
        let t = shard_by_stream_type(&buf(&ctx, &[5, 6]), 1, 3).unwrap();
        assert_eq!(t.shape, [5, 2]);
        assert_eq!(t.strides.as_deref(), Some(&[6, 1][..]));
        assert!(shard_by_stream_type(&buf(&ctx, &[5, 6]), 0, 3).unwrap_err().contains("not divisible"));
        assert!(shard_by_stream_type(&buf(&ctx, &[5, 6]), 2, 3).unwrap_err().contains("out of range"));
        assert!(shard_by_stream_type(&buf(&ctx, &[5, 6]), 1, 0).unwrap_err().contains("positive"));
        let d = shard_by_stream_type(&buf(&ctx, &[DYNAMIC, 6]), 0, 4).unwrap();
        assert_eq!(d.shape, [DYNAMIC, 6]);
    }

    #[test]
    fn select_drops_the_axis() {
        let ctx = Context::empty();
        let t = select_type(&buf(&ctx, &[4, 8]), 0).unwrap();
        assert_eq!((t.shape, t.strides), (vec![8], Some(vec![1])));
        let t = select_type(&buf(&ctx, &[4, 8]), 1).unwrap();
        assert_eq!((t.shape, t.strides), (vec![4], Some(vec![8])));
    }

    #[test]
    fn slice_multiplies_strides_and_checks_bounds() {
        let ctx = Context::empty();
        let t = slice_type(&buf(&ctx, &[4, 8]), &[DYNAMIC, 0], &[2, 4], &[1, 2]).unwrap();
        assert_eq!((t.shape, t.strides), (vec![2, 4], Some(vec![8, 2])));
        let t = slice_type(&buf(&ctx, &[4, 8]), &[0, 0], &[2, 4], &[DYNAMIC, 1]).unwrap();
        assert_eq!(t.strides, Some(vec![DYNAMIC, 1]));
        assert!(slice_type(&buf(&ctx, &[4, 8]), &[0, 1], &[2, 8], &[1, 1]).unwrap_err().contains("out of bounds"));
        assert!(slice_type(&buf(&ctx, &[4, 8]), &[0], &[2, 8], &[1, 1]).unwrap_err().contains("expected 2 offset"));
        assert!(slice_type(&buf(&ctx, &[4, 8]), &[0, 0], &[-2, 8], &[1, 1]).unwrap_err().contains("non-negative"));
    }
}
