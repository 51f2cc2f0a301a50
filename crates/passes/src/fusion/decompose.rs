//! `fusion-decompose-resharding`: makes every op of a fusion function either *local* (it
//! computes on the local pieces of its operands, no communication) or a *resharding point*
//! (`fusion.set`, or `fusion.sum` with empty `dims` resolving a `partial`) that changes at most
//! one device axis (docs/dev/lowering.md §4).
//!
//! For each op, in order (ops the pass creates are visited too):
//! - a resharding point changing more than one device axis is diagnosed;
//! - the *natural* sharding of the result (what its operands give it, see
//!   [`natural_sharding`], plus the annotated device splits of the op's free result axes,
//!   `OpAxes::free`: a vocab-parallel `embedding_grad`, a class-split `one_hot`) is compared
//!   with its annotation, ignoring stream splits; when they
//!   differ the op gets the natural device layout (keeping its stream splits) and a resharding
//!   point to the annotated type follows it. Where the stream splits and the natural device
//!   splits together do not divide the result's extents, the op computes in its annotated
//!   layout instead (its operands are resharded to it, below). A row-parallel `linear` with a bias becomes a
//!   linear without bias, the reduction, and an `add` of the broadcast bias, so that the bias is
//!   added once and not once per rank;
//! - an operand whose device layout is not the one the op needs (the inverse image of the
//!   result's layout; contracted axes keep the splits the result is partial over) gets a
//!   resharding point before the op; a layout that does not divide the operand's extents (the
//!   2 key/value heads of grouped-query attention under a 4-way head split) is diagnosed.
//!
//! - a `fusion.cross_entropy` with logits split over devices on the vocabulary becomes the
//!   three phases of the vocab-parallel loss (`vocab_parallel.rs`), which are then visited.
//!
//! Invariant after the pass: for every op that is not a resharding point, the device layouts of
//! its operands and result agree through its axis map.

use super::axes::{OpAxes, op_axes};
use super::propagate::{natural_sharding, secondary_sharding_of};
use super::resharding::{device_splits, same_device_layout, single_changed_axis, stream_splits, with_device_layout_of};
use fuser_dialects::fusion::syntax::op_dims;
use fuser_dialects::fusion::{Mesh, Sharding, Split, tensor_op_state};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::pass::{Pass, PassInfo, PassOutcome};
use fuser_ir::{Attr, Diagnostic, Type};

pub static FUSION_DECOMPOSE_RESHARDING: PassInfo = PassInfo {
    name: "fusion-decompose-resharding",
    display: "FusionDecomposeResharding",
    summary: "Make every sharding change a standalone fusion.set or fusion.sum",
    description: "Splits each op whose result or operands are not laid out the way the op \
computes locally into the local op plus `fusion.set` (or `fusion.sum dims = []` for a pending \
`partial`) resharding points; a row-parallel linear becomes a local linear producing \
`partial = [DIDx]`, the sum, and the bias added after it. A resharding point that changes more \
than one device axis is diagnosed.",
    anchor: Some("func.func"),
    options: &[],
    create: |_| Ok(Box::new(Decompose)),
};

struct Decompose;

impl Pass for Decompose {
    fn info(&self) -> &'static PassInfo {
        &FUSION_DECOMPOSE_RESHARDING
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        decompose_resharding(ctx, ir, func).map(PassOutcome::from_changed)
    }
}

/// Runs the decomposition on one function; returns whether the IR changed.
pub fn decompose_resharding(ctx: &Context, ir: &mut Ir, func: OpId) -> Result<bool, Diagnostic> {
    let Some(body) = ir.regions(func).first().and_then(|&r| ir.region_entry(r)) else { return Ok(false) };
    let mut changed = false;
    let mut reshards = Reshards::default();
    let mut cur = ir.first_op(body);
    while let Some(op) = cur {
        let prev = ir.prev_op(op);
        if op_axes(ctx, ir, op).is_some() {
            if is_resharding_point(ctx, ir, op) {
                check_single_axis_change(ctx, ir, op)?;
            } else if super::vocab_parallel::expand_vocab_parallel_cross_entropy(ctx, ir, op)? {
                changed = true;
            } else {
                changed |= decompose_op(ctx, ir, op, &mut reshards)?;
            }
        }
        // A replaced op (linear with bias) is gone: resume at what now follows its predecessor,
        // i.e. the ops created in its place (visiting them again is harmless).
        cur =
            if ir.is_live_op(op) { ir.next_op(op) } else { prev.map_or_else(|| ir.first_op(body), |p| ir.next_op(p)) };
    }
    Ok(changed)
}

/// `fusion.set`, or `fusion.sum` with empty `dims`.
pub fn is_resharding_point(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    match ctx.op_name_str(ir.op_name(op)) {
        "fusion.set" => true,
        "fusion.sum" => op_dims(ctx, ir, op).is_some_and(|d| d.is_empty()),
        _ => false,
    }
}

fn sharding_of(ctx: &Context, ir: &Ir, v: Value) -> Option<Sharding> {
    Sharding::of_type(ctx, ir.value_type(v))
}

fn check_single_axis_change(ctx: &Context, ir: &Ir, op: OpId) -> Result<(), Diagnostic> {
    let (Some(a), Some(b)) = (sharding_of(ctx, ir, ir.operand(op, 0)), sharding_of(ctx, ir, ir.result(op, 0))) else {
        return Ok(());
    };
    single_changed_axis(&a, &b).map(|_| ()).map_err(|m| fuser_ir::pass::op_error(ctx, ir, op, m))
}

/// Decomposes one non-resharding op; returns whether the IR changed.
/// The resharding points made before operands so far, by (value, wanted type): operands of
/// later ops that need the same layout of the same value read the same point (the three Q/K/V
/// projections of a sequence-parallel layer share one allgather). Every op of the body block is
/// visited in order, so a point made before an earlier op dominates the later ones.
type Reshards = rustc_hash::FxHashMap<(Value, Type), Value>;

fn decompose_op(ctx: &Context, ir: &mut Ir, op: OpId, reshards: &mut Reshards) -> Result<bool, Diagnostic> {
    let result = ir.result(op, 0);
    let (Some(mut natural), Some(annotated)) = (natural_sharding(ctx, ir, op)?, sharding_of(ctx, ir, result)) else {
        return Ok(false);
    };
    keep_free_axis_splits(ctx, ir, op, &mut natural, &annotated);
    if !natural.partial.is_empty() && !annotated.partial.is_empty() && natural.reduce != annotated.reduce {
        // The shards the op computes combine by `natural.reduce` (a contraction: sum); read
        // with another reduction they give another value (fuser-lowerfuzz, seed 2000066).
        let msg = format!(
            "the op's partial result combines by {}, but it is annotated `reduce = {}`; not lowerable",
            natural.reduce.keyword(),
            annotated.reduce.keyword()
        );
        return Err(fuser_ir::pass::op_error(ctx, ir, op, msg));
    }
    if is_linear_with_bias(ctx, ir, op) && !annotated.partial.is_empty() {
        // Shards of a partial value add up to it, so the bias would have to sit in one shard;
        // every rank adds it (fuser-lowerfuzz, seed 700151): refuse instead of lowering wrongly.
        let msg = "a linear with a bias cannot produce a partial result (every rank would add the bias): \
annotate the result without `partial`, or add the bias after the reduction";
        return Err(fuser_ir::pass::op_error(ctx, ir, op, msg));
    }
    let mut changed = false;
    let mut layout = annotated.clone();
    let computed = with_device_layout_of(&stream_schedule(&annotated, &natural), &natural);
    // Where the stream chunks inside the natural device splits are too many for the extent
    // (`[Stream(4)]` rows of 4 computed from `[DIDx]` rows on 2 devices would be
    // `[Stream(4), DIDx]`, 8 pieces; fuser-lowerfuzz seed 400782), the op computes in its
    // annotated layout, its operands resharded to it before it (`fix_operands`), unless that is
    // a pending reduction the operands cannot give it.
    let differs = !same_device_layout(&natural, &annotated);
    let fits = divides(ctx, ir, result, &computed);
    let same_partial = annotated.partial.len() == natural.partial.len()
        && annotated.partial.iter().all(|d| natural.partial.contains(d));
    if differs && !fits && !same_partial && !annotated.partial.is_empty() {
        let msg = "the op's stream chunks and the device splits of its operands do not divide its result, and \
its annotated partial layout cannot be computed from resharded operands; not lowerable";
        return Err(fuser_ir::pass::op_error(ctx, ir, op, msg));
    }
    if differs && fits {
        layout = computed;
        if is_linear_with_bias(ctx, ir, op) && !layout.partial.is_empty() {
            split_off_bias(ctx, ir, op, &layout, &annotated)?;
            return Ok(true);
        }
        let result_ty = ir.value_type(result);
        ir.set_value_type(result, layout.apply_to(ctx, result_ty));
        insert_resharding_after(ctx, ir, op, result, result_ty, &layout, &annotated)?;
        changed = true;
    }
    changed |= fix_secondary_results(ctx, ir, op, &layout)?;
    changed |= fix_operands(ctx, ir, op, &layout, reshards)?;
    Ok(changed)
}

/// The result axes an op computes under any device split (`OpAxes::free`: `embedding_grad`'s
/// rows, `one_hot`'s classes) take the annotation's device splits, when their device axes are
/// not already used by the natural layout (a pending sum over `DIDx` and rows split over
/// `DIDx` cannot both be: the sum is then reduce-scattered onto the rows).
fn keep_free_axis_splits(ctx: &Context, ir: &Ir, op: OpId, natural: &mut Sharding, annotated: &Sharding) {
    let Some(axes) = op_axes(ctx, ir, op) else { return };
    for &r in &axes.free {
        let (Some(have), Some(want)) = (natural.axes.get(r), annotated.axes.get(r)) else { continue };
        if !device_splits(have).is_empty() {
            continue;
        }
        let wanted = device_splits(want);
        if wanted.iter().all(|&s| !super::propagate::has_kind(natural, s)) {
            let mut l = stream_splits(have);
            l.extend(wanted);
            natural.axes[r] = l;
        }
    }
}

/// A secondary result (a norm's statistics, attention's `lse`) is computed with result 0's
/// layout on its leading axes; an annotation that differs gets a resharding point after the op.
fn fix_secondary_results(ctx: &Context, ir: &mut Ir, op: OpId, layout: &Sharding) -> Result<bool, Diagnostic> {
    let mut changed = false;
    for (j, r) in ir.results(op).to_vec().into_iter().enumerate().skip(1) {
        let Some(annotated) = sharding_of(ctx, ir, r) else { continue };
        let ty = ir.value_type(r);
        let computed = secondary_sharding_of(ctx, ir, op, j, layout, annotated.axes.len());
        if same_device_layout(&computed, &annotated) {
            continue;
        }
        ir.set_value_type(r, computed.apply_to(ctx, ty));
        insert_resharding_after(ctx, ir, op, r, ty, &computed, &annotated)?;
        changed = true;
    }
    Ok(changed)
}

fn is_linear_with_bias(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_name_str(ir.op_name(op)) == "fusion.linear" && ir.num_operands(op) == 3
}

/// The stream splits the op keeps when its device layout changes: the annotated ones, and on
/// axes the annotation leaves without a stream split, the ones its operands give it (a partial
/// result computed chunk by chunk, then reduced onto the chunks' owners, keeps its loop).
fn stream_schedule(annotated: &Sharding, natural: &Sharding) -> Sharding {
    let mut s = annotated.clone();
    for (a, axis) in s.axes.iter_mut().enumerate() {
        if stream_splits(axis).is_empty() {
            let mut from_operands = natural.axes.get(a).map(|l| stream_splits(l)).unwrap_or_default();
            from_operands.extend(device_splits(axis));
            *axis = from_operands;
        }
    }
    s
}

/// A `fusion.set` (or `fusion.sum dims = []` when `from` is partial) from `value` to `to_ty`,
/// placed right after `after`; every other use of `value` reads the new value.
fn insert_resharding_after(
    ctx: &Context,
    ir: &mut Ir,
    after: OpId,
    value: Value,
    to_ty: Type,
    from: &Sharding,
    to: &Sharding,
) -> Result<Value, Diagnostic> {
    let loc = ir.loc(after);
    let point = resharding_op(ctx, ir, value, to_ty, from, to, loc)?;
    ir.insert_op_after(after, point);
    let new_value = ir.result(point, 0);
    ir.replace_uses_where(value, new_value, |_, u| u.op != point);
    Ok(new_value)
}

/// Creates (detached) the resharding point from `value` (sharded `from`) to `to_ty` (`to`).
fn resharding_op(
    ctx: &Context,
    ir: &mut Ir,
    value: Value,
    to_ty: Type,
    from: &Sharding,
    to: &Sharding,
    loc: Attr,
) -> Result<OpId, Diagnostic> {
    single_changed_axis(from, to).map_err(|m| Diagnostic::error(loc, m))?;
    let resolves_partial = from.partial.iter().any(|d| !to.partial.contains(d));
    let state = if resolves_partial {
        tensor_op_state(ctx, "fusion.sum", vec![value], to_ty, Some(&[]), false, loc)
    } else {
        tensor_op_state(ctx, "fusion.set", vec![value], to_ty, None, false, loc)
    };
    Ok(ir.create_op(state))
}

/// Gives each operand the device layout the op needs, with a resharding point before the op.
fn fix_operands(
    ctx: &Context,
    ir: &mut Ir,
    op: OpId,
    result_layout: &Sharding,
    reshards: &mut Reshards,
) -> Result<bool, Diagnostic> {
    let Some(axes) = op_axes(ctx, ir, op) else { return Ok(false) };
    let mut changed = false;
    for (i, v) in ir.operands(op).into_iter().enumerate() {
        let Some(actual) = sharding_of(ctx, ir, v) else { continue };
        let required = required_operand_layout(&axes, i, &actual, result_layout);
        if same_device_layout(&actual, &required) {
            continue;
        }
        let wanted = with_device_layout_of(&actual, &required);
        check_divisible(ctx, ir, op, i, v, &wanted)?;
        let ty = wanted.apply_to(ctx, ir.value_type(v));
        if let Some(&done) = reshards.get(&(v, ty)) {
            ir.set_operand(op, i, done);
            changed = true;
            continue;
        }
        let point = resharding_op(ctx, ir, v, ty, &actual, &wanted, ir.loc(op))?;
        ir.insert_op_before(op, point);
        let new_value = ir.result(point, 0);
        ir.set_operand(op, i, new_value);
        reshards.insert((v, ty), new_value);
        changed = true;
    }
    Ok(changed)
}

/// Whether `layout` divides the extents of `v` (a value of an op on the mesh `layout` names);
/// true when the mesh or the shape is unknown (the verifier reports those).
fn divides(ctx: &Context, ir: &Ir, v: Value, layout: &Sharding) -> bool {
    let Some(op) = ir.defining_op(v) else { return true };
    let Some(mesh) = Mesh::lookup(ctx, ir, op, &layout.mesh) else { return true };
    let Some(global) = ctx.type_kind(ir.value_type(v)).shape() else { return true };
    layout.local_shape(global, &mesh, true).is_ok()
}

/// The layout `wanted` for operand `i` (`v`) of `op` must divide its extents: an axis that maps
/// to a result axis of another extent (attention's key/value heads under the query heads) may
/// not take that axis' split (`Hkv = 2` cannot be split 4 ways).
fn check_divisible(ctx: &Context, ir: &Ir, op: OpId, i: usize, v: Value, wanted: &Sharding) -> Result<(), Diagnostic> {
    let Some(mesh) = Mesh::lookup(ctx, ir, op, &wanted.mesh) else { return Ok(()) };
    let Some(global) = ctx.type_kind(ir.value_type(v)).shape().map(<[i64]>::to_vec) else { return Ok(()) };
    wanted.local_shape(&global, &mesh, true).map(|_| ()).map_err(|m| {
        let name = ctx.op_name_str(ir.op_name(op));
        let msg = format!(
            "'{name}' computes on local pieces: operand #{i} must take the result's device splits, but its {m}"
        );
        fuser_ir::pass::op_error(ctx, ir, op, msg)
    })
}

/// The device layout operand `i` must have for the op to compute `result` locally: mapped axes
/// take the result axis' device splits, contracted axes keep the operand's own splits over the
/// device axes the result is partial over, everything else is replicated; never partial.
fn required_operand_layout(axes: &OpAxes, i: usize, actual: &Sharding, result: &Sharding) -> Sharding {
    let map = &axes.maps[i];
    let contracted = &axes.contracted[i];
    let per_axis = (0..actual.axes.len())
        .map(|a| match map.get(a).copied().flatten() {
            // Read whole: gathered on every rank.
            _ if axes.is_whole(i, a) => Vec::new(),
            Some(m) => device_splits(result.axes.get(m).map(Vec::as_slice).unwrap_or(&[])),
            None if contracted.contains(&a) => device_splits(&actual.axes[a])
                .into_iter()
                .filter(|s| matches!(s, Split::Device(d) if result.partial.contains(d)))
                .collect(),
            None => Vec::new(),
        })
        .collect();
    Sharding { mesh: actual.mesh.clone(), axes: per_axis, partial: Vec::new(), reduce: actual.reduce }
}

/// `y = linear(x, w, b)` with a partial natural result becomes
/// `l = linear(x, w)` (partial), `s = sum l dims = []`, `y = add s, broadcast(b)`.
fn split_off_bias(
    ctx: &Context,
    ir: &mut Ir,
    op: OpId,
    layout: &Sharding,
    annotated: &Sharding,
) -> Result<(), Diagnostic> {
    let loc = ir.loc(op);
    let (x, w, bias) = (ir.operand(op, 0), ir.operand(op, 1), ir.operand(op, 2));
    let result = ir.result(op, 0);
    let result_ty = ir.value_type(result);
    let rank = annotated.axes.len();
    let partial_ty = layout.apply_to(ctx, result_ty);
    let linear = ir.create_op(tensor_op_state(ctx, "fusion.linear", vec![x, w], partial_ty, None, false, loc));
    ir.insert_op_before(op, linear);
    let l = ir.result(linear, 0);
    let sum = resharding_op(ctx, ir, l, result_ty, layout, annotated, loc)?;
    ir.insert_op_after(linear, sum);
    let s = ir.result(sum, 0);
    // The broadcast bias takes the result's whole layout (its device splits are local slices
    // of the replicated bias), so that the add sees operands split alike (a bias split only by
    // the stream chunks conflicted with a sequence-parallel sum: `[Stream(2)]` against
    // `[DIDx, Stream(2)]`).
    let bias_layout = Sharding {
        mesh: annotated.mesh.clone(),
        axes: annotated.axes.clone(),
        partial: Vec::new(),
        reduce: annotated.reduce,
    };
    let new_axes: Vec<i64> = (0..rank as i64 - 1).collect();
    let bias_ty = bias_layout.apply_to(ctx, result_ty);
    let bcast =
        ir.create_op(tensor_op_state(ctx, "fusion.broadcast", vec![bias], bias_ty, Some(&new_axes), false, loc));
    ir.insert_op_after(sum, bcast);
    let b = ir.result(bcast, 0);
    let add = ir.create_op(tensor_op_state(ctx, "fusion.add", vec![s, b], result_ty, None, false, loc));
    ir.insert_op_after(bcast, add);
    ir.replace_all_uses(result, ir.result(add, 0));
    ir.erase_op(op);
    Ok(())
}
