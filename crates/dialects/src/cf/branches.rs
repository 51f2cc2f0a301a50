//! What the `cf` ops and patterns share, below both: the operand ranges each successor
//! receives (MLIR's `BranchOpInterface`: read, erase, append, verify), the case values of a
//! switch, segment-size attributes, and the builders of branch states.

use crate::support::{empty_state, inherent_attr};
use fuser_ir::apint::ApInt;
use fuser_ir::attrs::{Attr, AttrKind, DenseArrayData, DenseData};
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{BlockId, Ir, OpId, OperationState, Value};
use fuser_ir::types::{Type, TypeKind};
use std::ops::Range;

/// The integers of a dense `i32` array attribute (`array<i32: 1, 2>`).
pub(crate) fn i32_array(ctx: &Context, a: Attr) -> Option<Vec<i64>> {
    match ctx.attr_kind(a) {
        AttrKind::DenseArray { data: DenseArrayData::Int(v), .. } => Some(v.clone()),
        _ => None,
    }
}

/// `array<i32: ...>`.
pub(crate) fn i32_array_attr(ctx: &Context, values: &[usize]) -> Attr {
    let data = DenseArrayData::Int(values.iter().map(|&v| v as i64).collect());
    ctx.intern_attr(AttrKind::DenseArray { elem: ctx.integer_type(32), data })
}

/// Segment sizes of `name` (a property), if present and non-negative.
fn segments(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Vec<usize>> {
    let v = i32_array(ctx, inherent_attr(ctx, ir, op, name)?)?;
    v.iter().map(|&x| usize::try_from(x).ok()).collect()
}

/// Consecutive ranges of the given sizes starting at `start`.
fn ranges_from(start: usize, sizes: &[usize]) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(sizes.len());
    let mut at = start;
    for &n in sizes {
        out.push(at..at + n);
        at += n;
    }
    out
}

/// The operand range forwarded to each successor of a `cf` branch (MLIR's
/// `getSuccessorOperands`), or `None` for other ops and malformed IR.
pub fn successor_operands(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<Range<usize>>> {
    let n = ir.num_operands(op);
    let name = ctx.op_name_str(ir.op_name(op));
    let ranges = if name == "cf.br" {
        std::iter::once(0..n).collect()
    } else if name == "cf.cond_br" {
        let seg = segments(ctx, ir, op, "operandSegmentSizes")?;
        let [1, t, f] = seg[..] else { return None };
        ranges_from(1, &[t, f])
    } else if name == "cf.switch" {
        let seg = segments(ctx, ir, op, "operandSegmentSizes")?;
        let [1, d, _] = seg[..] else { return None };
        let cases = segments(ctx, ir, op, "case_operand_segments")?;
        let mut all = vec![d];
        all.extend(cases);
        ranges_from(1, &all)
    } else {
        return None;
    };
    let in_bounds = ranges.iter().all(|r| r.end <= n) && ranges.len() == ir.successors(op).len();
    in_bounds.then_some(ranges)
}

/// Erases operand `arg` of those forwarded to successor `succ`, shrinking the segment sizes
/// that cover it (MLIR's `SuccessorOperands::erase`). Does nothing on malformed IR.
pub fn erase_successor_operand(ctx: &Context, ir: &mut Ir, op: OpId, succ: usize, arg: usize) {
    let Some(ranges) = successor_operands(ctx, ir, op) else { return };
    let Some(r) = ranges.get(succ).filter(|r| arg < r.len()) else { return };
    let name = ctx.op_name_str(ir.op_name(op));
    // (property, index) of each segment entry to decrement.
    let mut shrink: Vec<(&str, usize)> = Vec::new();
    if name == "cf.cond_br" {
        shrink.push(("operandSegmentSizes", 1 + succ));
    } else if name == "cf.switch" {
        if succ == 0 {
            shrink.push(("operandSegmentSizes", 1));
        } else {
            shrink.push(("operandSegmentSizes", 2));
            shrink.push(("case_operand_segments", succ - 1));
        }
    }
    ir.erase_operand(op, r.start + arg);
    for (prop, i) in shrink {
        let Some(mut sizes) = segments(ctx, ir, op, prop) else { continue };
        if let Some(s) = sizes.get_mut(i) {
            *s = s.saturating_sub(1);
        }
        let props = ir.props(op).unwrap_or_else(|| ctx.empty_dict());
        ir.set_props(op, Some(ctx.dict_set(props, prop, Some(i32_array_attr(ctx, &sizes)))));
    }
}

/// Appends `value` to the operands forwarded to successor `succ`, growing the segment sizes
/// that cover them (MLIR's `SuccessorOperands::append`). Does nothing on malformed IR.
pub fn append_successor_operand(ctx: &Context, ir: &mut Ir, op: OpId, succ: usize, value: Value) {
    let Some(ranges) = successor_operands(ctx, ir, op) else { return };
    let Some(r) = ranges.get(succ) else { return };
    let name = ctx.op_name_str(ir.op_name(op));
    // (property, index) of each segment entry to increment.
    let mut grow: Vec<(&str, usize)> = Vec::new();
    if name == "cf.cond_br" {
        grow.push(("operandSegmentSizes", 1 + succ));
    } else if name == "cf.switch" {
        if succ == 0 {
            grow.push(("operandSegmentSizes", 1));
        } else {
            grow.push(("operandSegmentSizes", 2));
            grow.push(("case_operand_segments", succ - 1));
        }
    }
    ir.insert_operand(op, r.end, value);
    for (prop, i) in grow {
        let Some(mut sizes) = segments(ctx, ir, op, prop) else { continue };
        if let Some(s) = sizes.get_mut(i) {
            *s += 1;
        }
        let props = ir.props(op).unwrap_or_else(|| ctx.empty_dict());
        ir.set_props(op, Some(ctx.dict_set(props, prop, Some(i32_array_attr(ctx, &sizes)))));
    }
}

/// MLIR's `BranchOpInterface` check: each successor gets as many operands as it has block
/// arguments, of the same types.
pub(crate) fn verify_successor_operands(ctx: &Context, ir: &Ir, op: OpId) -> Result<(), Diagnostic> {
    let Some(ranges) = successor_operands(ctx, ir, op) else { return Ok(()) };
    for (i, (r, &dest)) in ranges.iter().zip(ir.successors(op)).enumerate() {
        let args = ir.block_args(dest);
        if r.len() != args.len() {
            let msg =
                format!("branch has {} operands for successor #{i}, but target block has {}", r.len(), args.len());
            return Err(Diagnostic::error(ir.loc(op), msg));
        }
        for (k, (oi, &arg)) in r.clone().zip(args).enumerate() {
            if ir.value_type(ir.operand(op, oi)) != ir.value_type(arg) {
                let msg = format!("type mismatch for bb argument #{k} of successor #{i}");
                return Err(Diagnostic::error(ir.loc(op), msg));
            }
        }
    }
    Ok(())
}

/// The case values of a `cf.switch` as integers of the flag's width (empty without cases).
pub fn case_values(ctx: &Context, ir: &Ir, op: OpId) -> Vec<ApInt> {
    let Some(a) = inherent_attr(ctx, ir, op, "case_values") else { return Vec::new() };
    let AttrKind::DenseElements { ty, data } = ctx.attr_kind(a) else { return Vec::new() };
    let count = ctx.type_kind(*ty).shape().map(|s| s.iter().product::<i64>()).unwrap_or(0).max(0) as usize;
    let scalar = |e: Attr| match ctx.attr_kind(e) {
        AttrKind::Integer { value, .. } => Some(value.clone()),
        AttrKind::Bool(b) => Some(ApInt::from_u128(1, *b as u128)),
        _ => None,
    };
    match data {
        DenseData::Splat(e) => scalar(*e).map(|v| vec![v; count]).unwrap_or_default(),
        DenseData::Elements(es) => es.iter().filter_map(|&e| scalar(e)).collect(),
        DenseData::Hex(_) => Vec::new(),
    }
}

/// `dense<[...]> : vector<Nxflag>`, as the parser would build it (a splat when all equal).
pub(crate) fn case_values_attr(ctx: &Context, flag: Type, values: &[ApInt]) -> Attr {
    let elems: Vec<Attr> = values
        .iter()
        .map(|v| {
            if matches!(ctx.type_kind(flag), TypeKind::Integer { width: 1, .. }) {
                ctx.bool_attr(!v.is_zero())
            } else {
                ctx.intern_attr(AttrKind::Integer { value: v.clone(), ty: flag })
            }
        })
        .collect();
    let data = match elems.first() {
        Some(&f) if elems.iter().all(|&e| e == f) => DenseData::Splat(f),
        _ => DenseData::Elements(elems),
    };
    let ty = ctx.intern_type(TypeKind::Vector { shape: vec![values.len() as i64], scalable: vec![false], elem: flag });
    ctx.intern_attr(AttrKind::DenseElements { ty, data })
}

/// The state of `cf.br ^dest(operands)`.
pub fn br_state(ctx: &Context, dest: BlockId, operands: &[Value], loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, "cf.br", loc);
    state.operands = operands.to_vec();
    state.successors = vec![dest];
    state
}

/// The state of `cf.cond_br cond, ^t(t_ops), ^f(f_ops)`.
pub fn cond_br_state(
    ctx: &Context,
    cond: Value,
    t: (BlockId, &[Value]),
    f: (BlockId, &[Value]),
    loc: Attr,
) -> OperationState {
    let mut state = empty_state(ctx, "cf.cond_br", loc);
    state.operands = std::iter::once(cond).chain(t.1.iter().copied()).chain(f.1.iter().copied()).collect();
    state.successors = vec![t.0, f.0];
    let seg = i32_array_attr(ctx, &[1, t.1.len(), f.1.len()]);
    state.props = Some(ctx.dictionary(vec![(ctx.ident("operandSegmentSizes"), seg)]));
    state
}

/// One destination of a switch: the block and the values it receives.
pub type Dest = (BlockId, Vec<Value>);

/// The state of `cf.switch flag : ty, [default: ..., v: ...]`.
pub fn switch_state(
    ctx: &Context,
    ir: &Ir,
    flag: Value,
    default: Dest,
    cases: &[(ApInt, Dest)],
    loc: Attr,
) -> OperationState {
    let mut state = empty_state(ctx, "cf.switch", loc);
    state.operands.push(flag);
    state.operands.extend(default.1.iter().copied());
    state.successors.push(default.0);
    let mut case_sizes = Vec::new();
    for (_, (b, vs)) in cases {
        state.operands.extend(vs.iter().copied());
        state.successors.push(*b);
        case_sizes.push(vs.len());
    }
    let mut props = vec![
        (ctx.ident("case_operand_segments"), i32_array_attr(ctx, &case_sizes)),
        (ctx.ident("operandSegmentSizes"), i32_array_attr(ctx, &[1, default.1.len(), case_sizes.iter().sum()])),
    ];
    if !cases.is_empty() {
        let values: Vec<ApInt> = cases.iter().map(|(v, _)| v.clone()).collect();
        props.push((ctx.ident("case_values"), case_values_attr(ctx, ir.value_type(flag), &values)));
    }
    state.props = Some(ctx.dictionary(props));
    state
}

/// The blocks whose terminators branch to `b`, one entry per successor use (MLIR's
/// `getPredecessors`).
pub(crate) fn predecessors(ir: &Ir, b: BlockId) -> Vec<BlockId> {
    let Some(r) = ir.block_region(b) else { return Vec::new() };
    let mut out = Vec::new();
    for &p in ir.region_blocks(r) {
        if let Some(t) = ir.last_op(p) {
            out.extend(ir.successors(t).iter().filter(|&&s| s == b).map(|_| p));
        }
    }
    out
}

/// The only predecessor edge of `b` (MLIR's `getSinglePredecessor`). The edge count comes from
/// the IR in O(1), so only a block with exactly one edge is scanned for it.
pub(crate) fn single_predecessor(ir: &Ir, b: BlockId) -> Option<BlockId> {
    if ir.num_branch_uses(b) != 1 {
        return None;
    }
    match predecessors(ir, b)[..] {
        [p] => Some(p),
        _ => None,
    }
}

/// The block every predecessor edge of `b` comes from (MLIR's `getUniquePredecessor`).
pub(crate) fn unique_predecessor(ir: &Ir, b: BlockId) -> Option<BlockId> {
    let preds = predecessors(ir, b);
    let first = *preds.first()?;
    preds.iter().all(|&p| p == first).then_some(first)
}
