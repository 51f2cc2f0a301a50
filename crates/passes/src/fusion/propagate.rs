//! `fusion-propagate-sharding`: gives every tensor of a fusion function a sharding, by copying
//! device and stream splits from tensors that have one along the ops' axis maps
//! (docs/dev/lowering.md §3).
//!
//! 1. Forward, in op order: a result without an encoding gets the splits of its operands, taken
//!    in reference order (linear: weight, bias, input; matmul: b, a; other ops: operands in
//!    order, all with the same priority). A split is copied onto the result axis its operand
//!    axis maps to when that kind of split (a device axis, or any `Stream`) is not in the result
//!    yet and the result extent stays divisible. A device axis that splits a contracted axis of
//!    every contracting operand makes the result `partial` over it.
//! 2. Backward, in reverse order: operands that are not user-annotated receive, through the
//!    inverse map, the splits of the result that they lack; function arguments receive `Stream`
//!    splits only (their device sharding is the caller's contract).
//! 3. Tensors that nothing reached become replicated when the module has exactly one mesh.
//!
//! Conflicts are diagnosed: operands of equal priority putting different splits on one result
//! axis, unless one refines the other (the same stream splits, more device splits: the result
//! takes the finer, [`refines`]). User annotations (encodings present before the pass) are never changed, except that
//! arguments may gain a `Stream` split. Afterwards the function signature matches its entry
//! block and return.

use super::axes::{OpAxes, op_axes};
use fuser_dialects::fusion::{DeviceAxis, Mesh, Sharding, Split};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::pass::{Pass, PassInfo, PassOutcome};
use fuser_ir::types::{DYNAMIC, TypeKind};
use fuser_ir::{Diagnostic, Type};
use rustc_hash::FxHashSet;

pub static FUSION_PROPAGATE_SHARDING: PassInfo = PassInfo {
    name: "fusion-propagate-sharding",
    display: "FusionPropagateSharding",
    summary: "Give every tensor a sharding by propagating device and stream splits through the ops",
    description: "Forward (operands to results, in op order) then backward (results to operands) \
propagation of `DIDx/DIDy/DIDz` and `Stream(n)` splits along each op's axis map; a device split \
of a contracted axis makes the result `partial`. User annotations are kept (arguments may gain a \
`Stream` split); operands of equal priority that disagree on a result axis are diagnosed, \
unless one refines the other (the same stream splits and more device splits: the result takes the \
finer).",
    anchor: Some("func.func"),
    options: &[],
    create: |_| Ok(Box::new(Propagate)),
};

struct Propagate;

impl Pass for Propagate {
    fn info(&self) -> &'static PassInfo {
        &FUSION_PROPAGATE_SHARDING
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        propagate_sharding(ctx, ir, func).map(PassOutcome::from_changed)
    }
}

/// Runs the propagation on one function; returns whether any type changed.
pub fn propagate_sharding(ctx: &Context, ir: &mut Ir, func: OpId) -> Result<bool, Diagnostic> {
    let Some(body) = ir.regions(func).first().and_then(|&r| ir.region_entry(r)) else { return Ok(false) };
    let ops: Vec<OpId> = ir.block_ops(body).filter(|&op| op_axes(ctx, ir, op).is_some()).collect();
    let args: FxHashSet<Value> = ir.block_args(body).iter().copied().collect();
    let annotated: FxHashSet<Value> = ops
        .iter()
        .flat_map(|&op| ir.operands(op).into_iter().chain(ir.results(op).iter().copied()))
        .filter(|&v| Sharding::of_type(ctx, ir.value_type(v)).is_some())
        .collect();
    let mut changed = false;
    for &op in &ops {
        changed |= forward(ctx, ir, op)?;
    }
    for &op in ops.iter().rev() {
        changed |= backward(ctx, ir, op, &annotated, &args);
    }
    changed |= replicate_the_rest(ctx, ir, func, &ops, &args);
    if changed {
        fuser_dialects::func::sync_signature(ctx, ir, func);
    }
    Ok(changed)
}

// ----- forward --------------------------------------------------------------------------------

/// Operand indices in reference order, each with its priority (lower first; equal priorities
/// may conflict).
fn reference_order(ctx: &Context, ir: &Ir, op: OpId) -> Vec<(usize, u8)> {
    let n = ir.num_operands(op);
    match ctx.op_name_str(ir.op_name(op)) {
        "fusion.linear" => {
            let mut order = vec![(1, 0), (0, 2)];
            if n == 3 {
                order.insert(1, (2, 1));
            }
            order
        }
        "fusion.matmul" => vec![(1, 0), (0, 1)],
        _ => (0..n).map(|i| (i, 0)).collect(),
    }
}

fn sharding_of(ctx: &Context, ir: &Ir, v: Value) -> Option<Sharding> {
    Sharding::of_type(ctx, ir.value_type(v))
}

fn shape_of(ctx: &Context, t: Type) -> Vec<i64> {
    ctx.type_kind(t).shape().map(<[i64]>::to_vec).unwrap_or_default()
}

/// Whether a split of this kind (the same device axis, or any stream split) is in `s`.
pub fn has_kind(s: &Sharding, split: Split) -> bool {
    match split {
        Split::Device(d) => s.partial.contains(&d) || s.axes.iter().flatten().any(|&x| x == Split::Device(d)),
        Split::Stream(_) => s.axes.iter().flatten().any(|x| matches!(x, Split::Stream(_))),
    }
}

fn split_size(mesh: Option<&Mesh>, split: Split) -> Option<i64> {
    match split {
        Split::Device(d) => mesh?.axis_size(d),
        Split::Stream(n) => Some(n),
    }
}

/// Whether `extent` stays divisible by the product of the sizes of `splits`.
pub fn divisible(extent: i64, splits: &[Split], mesh: Option<&Mesh>) -> bool {
    if extent == DYNAMIC {
        return true;
    }
    let mut product = 1i64;
    for &s in splits {
        match split_size(mesh, s) {
            Some(n) if n > 0 => product = product.saturating_mul(n),
            _ => return false,
        }
    }
    extent % product == 0
}

pub fn splits_text(splits: &[Split]) -> String {
    let parts: Vec<String> = splits
        .iter()
        .map(|s| match s {
            Split::Device(d) => d.keyword().to_string(),
            Split::Stream(n) => format!("Stream({n})"),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

fn forward(ctx: &Context, ir: &mut Ir, op: OpId) -> Result<bool, Diagnostic> {
    let Some(&result) = ir.results(op).first() else { return Ok(false) };
    if sharding_of(ctx, ir, result).is_some() {
        return Ok(false);
    }
    let Some(mut natural) = natural_sharding(ctx, ir, op)? else { return Ok(false) };
    if is_linear_with_bias(ctx, ir, op) {
        // A partial sum of `x·wᵀ + b` would add the bias once per rank: the result is the
        // reduced value (fusion-decompose-resharding then sums `x·wᵀ` and adds `b` once).
        natural.partial.clear();
    }
    let ty = ir.value_type(result);
    ir.set_value_type(result, natural.apply_to(ctx, ty));
    set_secondary_results(ctx, ir, op, &natural);
    Ok(true)
}

/// The sharding of a secondary result of rank `rank` (the statistics of a norm, the `lse` of
/// attention): result 0's splits on its leading axes, never partial (docs/dev/ops.md).
pub fn secondary_sharding(first: &Sharding, rank: usize) -> Sharding {
    Sharding { axes: first.axes.iter().take(rank).cloned().collect(), partial: Vec::new(), ..first.clone() }
}

/// The sharding of secondary result `j` (of rank `rank`) of `op` when result 0 has `first`:
/// [`OpAxes::secondary_layout`] (for ops without axis maps, [`secondary_sharding`]).
pub fn secondary_sharding_of(ctx: &Context, ir: &Ir, op: OpId, j: usize, first: &Sharding, rank: usize) -> Sharding {
    match op_axes(ctx, ir, op) {
        Some(axes) => axes.secondary_layout(j, first, rank),
        None => secondary_sharding(first, rank),
    }
}

/// Gives the secondary results of `op` without an encoding theirs, from result 0's `first`.
fn set_secondary_results(ctx: &Context, ir: &mut Ir, op: OpId, first: &Sharding) {
    for (j, r) in ir.results(op).to_vec().into_iter().enumerate().skip(1) {
        let ty = ir.value_type(r);
        if sharding_of(ctx, ir, r).is_some() {
            continue;
        }
        let rank = shape_of(ctx, ty).len();
        ir.set_value_type(r, secondary_sharding_of(ctx, ir, op, j, first, rank).apply_to(ctx, ty));
    }
}

fn is_linear_with_bias(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_name_str(ir.op_name(op)) == "fusion.linear" && ir.num_operands(op) == 3
}

/// The sharding the result of `op` gets from its operands (what forward propagation gives an
/// unannotated result), whatever the result's own encoding; `None` when no operand is sharded.
pub fn natural_sharding(ctx: &Context, ir: &Ir, op: OpId) -> Result<Option<Sharding>, Diagnostic> {
    let Some(&result) = ir.results(op).first() else { return Ok(None) };
    let Some(axes) = op_axes(ctx, ir, op) else { return Ok(None) };
    let extents = shape_of(ctx, ir.value_type(result));
    let mut out: Option<Sharding> = None;
    let mut set_by: Vec<Option<(usize, u8)>> = vec![None; extents.len()];
    let mut mesh: Option<Mesh> = None;
    for (i, priority) in reference_order(ctx, ir, op) {
        let Some(s) = ir.operands(op).get(i).and_then(|&v| sharding_of(ctx, ir, v)) else { continue };
        let target = out.get_or_insert_with(|| {
            mesh = Mesh::lookup(ctx, ir, op, &s.mesh);
            Sharding::replicated(&s.mesh, extents.len())
        });
        if target.mesh != s.mesh {
            continue;
        }
        for (a, splits) in s.axes.iter().enumerate() {
            let Some(m) = axes.maps.get(i).and_then(|map| map.get(a)).copied().flatten() else { continue };
            // An axis the op reads whole is computed whole: its splits do not carry over.
            if splits.is_empty() || m >= extents.len() || axes.is_whole(i, a) {
                continue;
            }
            if let Some((j, p)) = set_by[m] {
                if p == priority && target.axes[m] != *splits {
                    // The same stream chunks, one operand split over more device axes: not a
                    // conflict (as an unsplit axis next to a split one is not): the result
                    // takes the finer layout, and fusion-decompose-resharding brings the
                    // coarser operand to it (a local slice, or the reduce-scatter of a
                    // partial sum: the sum of a sequence-split residual cotangent and a
                    // partial dgrad under stream chunks).
                    if refines(&target.axes[m], splits) {
                        continue;
                    }
                    if refines(splits, &target.axes[m]) {
                        let extra: Vec<Split> =
                            splits.iter().copied().filter(|x| !target.axes[m].contains(x)).collect();
                        if extra.iter().all(|&x| !has_kind(target, x)) && divisible(extents[m], splits, mesh.as_ref()) {
                            target.axes[m] = splits.clone();
                            continue;
                        }
                    }
                    let msg = format!(
                        "conflicting shardings for result axis {m}: {} from operand #{j}, {} from operand #{i}",
                        splits_text(&target.axes[m]),
                        splits_text(splits)
                    );
                    return Err(fuser_ir::pass::op_error(ctx, ir, op, msg));
                }
                continue;
            }
            let new: Vec<Split> = splits.iter().copied().filter(|&x| !has_kind(target, x)).collect();
            if !new.is_empty() && divisible(extents[m], &new, mesh.as_ref()) {
                target.axes[m] = new;
                set_by[m] = Some((i, priority));
            }
        }
    }
    let Some(mut out) = out else { return Ok(None) };
    add_partial(ctx, ir, op, &axes, &mut out);
    Ok(Some(out))
}

/// Whether the splits `fine` of one axis refine `coarse`: the same stream splits, and
/// `coarse`'s device splits among `fine`'s in order (`[Stream(2), DIDx]` refines `[Stream(2)]`;
/// `[Stream(2), DIDx]` does not refine `[DIDx]`, whose chunks hold other rows).
pub fn refines(fine: &[Split], coarse: &[Split]) -> bool {
    let streams = |l: &[Split]| l.iter().copied().filter(|&x| is_stream(x)).collect::<Vec<_>>();
    streams(fine) == streams(coarse) && is_subsequence(coarse, fine)
}

/// A device axis splitting a contracted axis of every contracting operand makes the result
/// partial over it.
fn add_partial(ctx: &Context, ir: &Ir, op: OpId, axes: &OpAxes, out: &mut Sharding) {
    let contracting: Vec<usize> = (0..axes.contracted.len()).filter(|&i| !axes.contracted[i].is_empty()).collect();
    if contracting.is_empty() {
        return;
    }
    for d in DeviceAxis::ALL {
        if has_kind(out, Split::Device(d)) {
            continue;
        }
        let everywhere = contracting.iter().all(|&i| {
            let Some(s) = ir.operands(op).get(i).and_then(|&v| sharding_of(ctx, ir, v)) else { return false };
            axes.contracted[i].iter().any(|&a| s.axes.get(a).is_some_and(|l| l.contains(&Split::Device(d))))
        });
        if everywhere {
            out.partial.push(d);
            out.reduce = axes.partial_kind;
        }
    }
}

// ----- backward -------------------------------------------------------------------------------

fn backward(ctx: &Context, ir: &mut Ir, op: OpId, annotated: &FxHashSet<Value>, args: &FxHashSet<Value>) -> bool {
    let Some(&result) = ir.results(op).first() else { return false };
    let Some(rs) = sharding_of(ctx, ir, result) else { return false };
    let Some(axes) = op_axes(ctx, ir, op) else { return false };
    let mesh = Mesh::lookup(ctx, ir, op, &rs.mesh);
    let mut changed = false;
    for (i, v) in ir.operands(op).into_iter().enumerate() {
        let is_arg = args.contains(&v);
        if annotated.contains(&v) && !is_arg {
            continue;
        }
        let ty = ir.value_type(v);
        let extents = shape_of(ctx, ty);
        let mut target = sharding_of(ctx, ir, v).unwrap_or_else(|| Sharding::replicated(&rs.mesh, extents.len()));
        if target.mesh != rs.mesh || target.axes.len() != extents.len() {
            continue;
        }
        let mut operand_changed = false;
        for (m, splits) in rs.axes.iter().enumerate() {
            let Some(a) = axes.operand_axis(i, m).filter(|&a| !axes.is_whole(i, a)) else { continue };
            let wanted: Vec<Split> = splits
                .iter()
                .copied()
                .filter(|&x| target.axes[a].contains(&x) || (!has_kind(&target, x) && (!is_arg || is_stream(x))))
                .collect();
            if wanted == target.axes[a] || !is_subsequence(&target.axes[a], &wanted) {
                continue;
            }
            // The caller lays an argument out: a stream split may be added only where it
            // leaves what each rank holds alone (inside the device splits, not outside them:
            // `[DIDx]` → `[Stream(3), DIDx]` would interleave the rows a rank holds).
            if is_arg && device_prefix(&wanted) != device_prefix(&target.axes[a]) {
                continue;
            }
            if divisible(extents[a], &wanted, mesh.as_ref()) {
                target.axes[a] = wanted;
                operand_changed = true;
            }
        }
        let had_encoding = sharding_of(ctx, ir, v).is_some();
        if operand_changed || (!had_encoding && !is_arg) {
            ir.set_value_type(v, target.apply_to(ctx, ty));
            changed = true;
        }
    }
    changed
}

/// The splits up to the last device split: what decides which elements a rank holds.
fn device_prefix(splits: &[Split]) -> &[Split] {
    match splits.iter().rposition(|s| matches!(s, Split::Device(_))) {
        Some(k) => &splits[..=k],
        None => &[],
    }
}

fn is_stream(s: Split) -> bool {
    matches!(s, Split::Stream(_))
}

/// Whether `small` appears in `big` in order (not necessarily contiguously).
fn is_subsequence(small: &[Split], big: &[Split]) -> bool {
    let mut it = big.iter();
    small.iter().all(|s| it.any(|b| b == s))
}

// ----- defaults and signature -----------------------------------------------------------------

/// Tensors still without an encoding become replicated on the module's only mesh.
fn replicate_the_rest(ctx: &Context, ir: &mut Ir, func: OpId, ops: &[OpId], args: &FxHashSet<Value>) -> bool {
    let Some(mesh) = only_mesh(ctx, ir, func) else { return false };
    let mut values: Vec<Value> = args.iter().copied().collect();
    values.sort_by_key(|v| v.index());
    for &op in ops {
        values.extend(ir.operands(op));
        values.extend(ir.results(op).iter().copied());
    }
    let mut changed = false;
    for v in values {
        let ty = ir.value_type(v);
        let TypeKind::RankedTensor { shape, encoding: None, .. } = ctx.type_kind(ty) else { continue };
        let rank = shape.len();
        ir.set_value_type(v, Sharding::replicated(&mesh, rank).apply_to(ctx, ty));
        changed = true;
    }
    changed
}

/// The name of the only `fusion.mesh` of the module around `func`.
fn only_mesh(ctx: &Context, ir: &Ir, func: OpId) -> Option<String> {
    let module = ir.parent_op(func)?;
    let meshes: Vec<String> =
        ir.nested_ops(module).into_iter().filter_map(|op| Mesh::of_op(ctx, ir, op)).map(|m| m.name).collect();
    if meshes.len() == 1 { meshes.into_iter().next() } else { None }
}
