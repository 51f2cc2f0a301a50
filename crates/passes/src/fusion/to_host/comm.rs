//! Resharding points of `fusion-to-host`: which communication a `fusion.set` / `fusion.sum
//! dims = []` needs ([`classify_reshard`]) and how it is emitted ([`emit_reshard`]), per the
//! table of docs/dev/lowering.md §5.
//!
//! Every communication is followed at once by its `comm.wait`, in the same block. Buffers given
//! to a communication are contiguous: a strided view is first copied into a per-iteration
//! buffer (and a result chunk copied back after the wait). Leading axes of extent 1 are dropped
//! with `host.select` so that the gathered / scattered axis is axis 0, as the collectives
//! require.

use super::emit::{Emitter, Site, is_contiguous};
use crate::fusion::resharding::{Place, place_of, single_changed_axis};
use crate::host::build::Placement as At;
use fuser_dialects::comm::{
    allgather_state, allreduce_state, broadcast_state, reduce_scatter_state, reduce_state, wait_state,
};
use fuser_dialects::fusion::{Sharding, Split};
use fuser_dialects::host::{Mixed, copy_state, permute_state, reshape_state, select_state, slice_state};
use fuser_dialects::reduction::ReductionKind;
use fuser_ir::ir::{OperationState, Value};

/// The communication of a resharding point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reshard {
    /// No device change (only stream splits differ): a local copy.
    Copy,
    /// Split on `axis` → not split.
    Allgather { axis: usize },
    /// Partial → not split.
    Allreduce { kind: ReductionKind },
    /// Partial → split on `axis`.
    ReduceScatter { axis: usize, kind: ReductionKind },
    /// Not split → split on `axis`: each rank copies its block, no communication.
    Slice { axis: usize },
    /// Partial, produced chunk by chunk in a stream loop along `axis` with one chunk per device
    /// → split on `axis` over those devices (Stream→DID): iteration `i` reduces chunk `i` onto
    /// rank `i`, whose block it is (`comm.reduce root %i`): the reduce-based reduce-scatter.
    ReduceToOwner { axis: usize, kind: ReductionKind },
    /// Split on `from` → split on `to` (e.g. sequence-parallel rows to head-parallel columns):
    /// every rank sends block `j` of its `to` axis to rank `j` (`comm.all_to_all`).
    AllToAll { from: usize, to: usize },
}

/// The part of a split list that decides which elements a rank holds: everything up to the last
/// device split (stream splits inside a device split do not move data between ranks).
pub fn device_layout(splits: &[Split]) -> Vec<Split> {
    match splits.iter().rposition(|s| matches!(s, Split::Device(_))) {
        Some(k) => splits[..=k].to_vec(),
        None => Vec::new(),
    }
}

/// `[Stream(3), DIDx]`.
pub fn splits_text(splits: &[Split]) -> String {
    crate::fusion::propagate::splits_text(splits)
}

/// The communication that turns `input` into `output` (one device axis may change).
pub fn classify_reshard(input: &Sharding, output: &Sharding) -> Result<Reshard, String> {
    if !input.partial.is_empty() && !output.partial.is_empty() && input.reduce != output.reduce {
        return Err(format!(
            "changing the reduction of a partial value ({} to {}) is not lowerable; reduce it first",
            input.reduce.keyword(),
            output.reduce.keyword()
        ));
    }
    match single_changed_axis(input, output)? {
        None => {
            let same = input.axes.iter().zip(&output.axes).all(|(a, b)| device_layout(a) == device_layout(b));
            if !same {
                return Err("resharding moves a Stream split across a device split of one axis; not lowerable".into());
            }
            Ok(Reshard::Copy)
        }
        Some(d) => match (place_of(input, d), place_of(output, d)) {
            (Place::Axis(axis), Place::Replicated) => Ok(Reshard::Allgather { axis }),
            (Place::Partial, Place::Replicated) => Ok(Reshard::Allreduce { kind: input.reduce }),
            (Place::Partial, Place::Axis(axis)) => Ok(Reshard::ReduceScatter { axis, kind: input.reduce }),
            (Place::Replicated, Place::Axis(axis)) => Ok(Reshard::Slice { axis }),
            (Place::Axis(from), Place::Axis(to)) if from != to => Ok(Reshard::AllToAll { from, to }),
            _ => Err(format!("resharding into a partial value over {} is not lowerable", d.keyword())),
        },
    }
}

/// Emits the communication (or copy) of resharding op `k` at `site`.
pub fn emit_reshard(em: &mut Emitter<'_>, k: usize, r: &Reshard, site: &Site) -> Result<(), String> {
    let plan = em.plan;
    let p = &plan.ops[k];
    let (v_in, v_out) = (em.ir.operand(p.op, 0), em.ir.result(p.op, 0));
    let (ii, oi) = (&plan.info[&v_in], &plan.info[&v_out]);
    let team: Vec<i64> = ii.mesh.as_ref().or(oi.mesh.as_ref()).map_or_else(|| vec![0], |m| m.devices.clone());
    let mut broadcast = false;
    if let Reshard::ReduceToOwner { kind, .. } = r {
        return emit_reduce_to_owner(em, k, *kind, &team, site);
    }
    let input = match (site.lp, p.stream) {
        (Some(lp), Some((ax, n))) => {
            let out_layout = device_layout(&oi.sharding.axes[ax]);
            if !out_layout.is_empty() && !matches!(out_layout[0], Split::Stream(_)) {
                return Err(format!(
                    "the result of a resharding in a stream loop must have its Stream split outermost on axis {ax}, got {}",
                    splits_text(&oi.sharding.axes[ax])
                ));
            }
            let layout = device_layout(&ii.sharding.axes[ax]);
            let stream_outermost = layout.is_empty() || matches!(layout[0], Split::Stream(_));
            if let Some(&c) = em.chunk.get(&v_in).filter(|_| stream_outermost) {
                c
            } else if em.chunk.contains_key(&v_in) {
                // Produced in this loop chunk by chunk *inside* its device split (`[DIDx,
                // Stream(n)]`): iteration i holds the rank's i-th local piece, not global
                // chunk i (fuser-lowerfuzz, seed 2004909: gathered as if it were).
                return Err(format!(
                    "resharding in a stream loop needs the Stream split of axis {ax} outside its device split, got {}; \
not lowerable",
                    splits_text(&ii.sharding.axes[ax])
                ));
            } else {
                if stream_outermost {
                    let whole = em.full(v_in)?;
                    em.shard(whole, lp, ax, site)?
                } else if *r == (Reshard::Allgather { axis: ax }) && layout.len() == 1 && n == team.len() as i64 {
                    broadcast = true;
                    em.full(v_in)?
                } else {
                    return Err(format!(
                        "resharding in a stream loop of {n} chunks needs the Stream split of axis {ax} outermost, got {} \
(a device split gathered chunk by chunk needs one chunk per device)",
                        splits_text(&ii.sharding.axes[ax])
                    ));
                }
            }
        }
        _ => em.full(v_in)?,
    };
    let out = em.result_target(k, site)?;
    let loc = site.loc;
    let ctx = em.ctx;
    // Stream chunks outside the device split of the changed axis (`[Stream(3), DIDx]`): the
    // rank's elements along the axis are P pieces, one per such chunk, not one block.
    let looped = if site.lp.is_some() && !broadcast { p.stream.map(|(ax, _)| ax) } else { None };
    let pieces = |sharding: &Sharding, axis: usize| outer_chunks(&sharding.axes[axis], looped == Some(axis));
    match r {
        Reshard::Copy => {
            em.new_op(site, copy_state(ctx, input, out, loc));
        }
        Reshard::Slice { axis } => {
            let p = pieces(&oi.sharding, *axis)?;
            emit_slice(em, input, out, (*axis, p), &team, site)?
        }
        Reshard::AllToAll { from, to } => {
            if pieces(&ii.sharding, *from)? > 1 || pieces(&oi.sharding, *to)? > 1 {
                return Err(format!(
                    "an all_to_all from {} on axis {from} to {} on axis {to} needs the device split outermost on both axes; \
not lowerable",
                    splits_text(&ii.sharding.axes[*from]),
                    splits_text(&oi.sharding.axes[*to])
                ));
            }
            emit_all_to_all(em, input, out, (*from, *to), &team, site)?
        }
        _ if broadcast => {
            let iv = site.lp.map(|lp| lp.iv).ok_or("internal error: broadcast outside a loop")?;
            let (out_c, back) = contiguous_output(em, out, site)?;
            post_and_wait(em, site, broadcast_state(ctx, input, out_c, iv, &team, loc));
            copy_back(em, out_c, back, site);
        }
        Reshard::ReduceToOwner { .. } => unreachable!("handled above"),
        Reshard::Allreduce { kind } => {
            let in_c = contiguous_input(em, input, site)?;
            let (out_c, back) = contiguous_output(em, out, site)?;
            post_and_wait(em, site, allreduce_state(ctx, *kind, in_c, out_c, &team, loc));
            copy_back(em, out_c, back, site);
        }
        Reshard::Allgather { axis } | Reshard::ReduceScatter { axis, .. } => {
            let in_c = contiguous_input(em, input, site)?;
            let (out_c, back) = contiguous_output(em, out, site)?;
            let d = team.len() as i64;
            if !outer_extents_are_one(em, in_c, out_c, *axis)? {
                // The rank's pieces along the axis: of the input when gathering, of the result
                // when scattering.
                let local = if matches!(r, Reshard::Allgather { .. }) { &ii.sharding } else { &oi.sharding };
                let p = pieces(local, *axis)?;
                staged_on_inner_axis(em, r, (in_c, out_c), (*axis, p, d), &team, site)?;
                copy_back(em, out_c, back, site);
                return Ok(());
            }
            let (in_s, out_s) = outer_axis_first(em, in_c, out_c, *axis, site)?;
            match r {
                Reshard::ReduceScatter { kind, .. } => {
                    // The global partial in rank-block order [d, P, ...] (a copy when P > 1).
                    let p = pieces(&oi.sharding, *axis)?;
                    let blocks = interleaved(em, in_s, (p, d), Direction::PiecesToRanks, site)?;
                    post_and_wait(em, site, reduce_scatter_state(ctx, *kind, blocks, out_s, &team, loc));
                }
                _ => {
                    // Gathered in rank-block order [d, P, ...], then interleaved when P > 1.
                    let p = pieces(&ii.sharding, *axis)?;
                    let gathered = if p > 1 {
                        em.alloc(&em.buffer_type(out_s)?.shape, em.buffer_type(out_s)?.elem, site.at, loc)
                    } else {
                        out_s
                    };
                    post_and_wait(em, site, allgather_state(ctx, in_s, gathered, &team, loc));
                    if p > 1 {
                        let src = regroup_view(em, gathered, (d, p), site)?;
                        let dst = split_view(em, out_s, &[p, d], site)?;
                        em.new_op(site, copy_state(ctx, src, dst, loc));
                    }
                }
            }
            copy_back(em, out_c, back, site);
        }
    }
    Ok(())
}

/// How many stream chunks of `splits` lie outside its device split and are still in the local
/// buffer (a stream loop over this axis has taken the outermost one): along the axis a rank
/// holds that many pieces, its block of each outer chunk, one after the other.
fn outer_chunks(splits: &[Split], outermost_taken: bool) -> Result<i64, String> {
    let layout = device_layout(splits);
    let Some((_, outer)) = layout.split_last() else { return Ok(1) };
    let mut p = 1;
    for (i, s) in outer.iter().enumerate() {
        match s {
            Split::Stream(_) if outermost_taken && i == 0 => {}
            Split::Stream(n) => p *= *n,
            Split::Device(_) => {
                return Err(format!("two device splits on one axis ({}) are not lowerable", splits_text(splits)));
            }
        }
    }
    Ok(p)
}

/// Which way [`interleaved`] reorders.
enum Direction {
    /// Global order `[P, d, ...]` to rank-block order `[d, P, ...]`.
    PiecesToRanks,
}

/// `v` (contiguous, the changed axis first) in rank-block order: itself when `p == 1`, else a
/// copy through a regrouping view.
fn interleaved(em: &mut Emitter<'_>, v: Value, (p, d): (i64, i64), _: Direction, site: &Site) -> Result<Value, String> {
    if p == 1 {
        return Ok(v);
    }
    let t = em.buffer_type(v)?;
    let tmp = em.alloc(&t.shape, t.elem, site.at, site.loc);
    let src = regroup_view(em, v, (p, d), site)?;
    let dst = split_view(em, tmp, &[d, p], site)?;
    em.new_op(site, copy_state(em.ctx, src, dst, site.loc));
    Ok(tmp)
}

/// A view of `v` (contiguous, the changed axis first) with axis 0 split into `[a, b, rest]`
/// and the first two axes swapped: `[b, a, rest]`.
fn regroup_view(em: &mut Emitter<'_>, v: Value, (a, b): (i64, i64), site: &Site) -> Result<Value, String> {
    let split = split_view(em, v, &[a, b], site)?;
    let rank = em.buffer_type(split)?.shape.len() as i64;
    let dims: Vec<i64> = [1, 0].into_iter().chain(2..rank).collect();
    Ok(em.new_value(site.at, permute_state(em.ctx, em.ir, split, &dims, site.loc)?))
}

/// A view of `v` (contiguous) with axis 0 split into `outer` followed by the rest of it.
fn split_view(em: &mut Emitter<'_>, v: Value, outer: &[i64], site: &Site) -> Result<Value, String> {
    let t = em.buffer_type(v)?;
    let n: i64 = outer.iter().product();
    if n == 0 || t.shape[0] % n != 0 {
        return Err(format!("axis of extent {} does not split into {outer:?} pieces", t.shape[0]));
    }
    let shape: Vec<i64> =
        outer.iter().copied().chain(std::iter::once(t.shape[0] / n)).chain(t.shape[1..].iter().copied()).collect();
    Ok(em.new_value(site.at, reshape_state(em.ctx, em.ir, v, &shape, site.loc)?))
}

/// Iteration `i` of the loop reduces this iteration's chunk of the partial input onto rank `i`
/// (team-relative root `i`), into that rank's whole local result, allocated before the loop.
fn emit_reduce_to_owner(
    em: &mut Emitter<'_>,
    k: usize,
    kind: ReductionKind,
    team: &[i64],
    site: &Site,
) -> Result<(), String> {
    let p = &em.plan.ops[k];
    let (v_in, v_out) = (em.ir.operand(p.op, 0), em.ir.result(p.op, 0));
    let lp = site.lp.ok_or("internal error: a reduce to the owner outside a loop")?;
    let input = match em.chunk.get(&v_in) {
        Some(&c) => c,
        None => return Err("internal error: the partial of a reduce to the owner is not produced in its loop".into()),
    };
    let info = &em.plan.info[&v_out];
    let out = em.alloc(&info.local_shape(false)?, info.elem, At::Before(lp.for_op), site.loc);
    em.buf.insert(v_out, out);
    let in_c = contiguous_input(em, input, site)?;
    post_and_wait(em, site, reduce_state(em.ctx, kind, in_c, out, lp.iv, team, site.loc));
    Ok(())
}

impl Emitter<'_> {
    fn new_op(&mut self, site: &Site, state: OperationState) -> fuser_ir::OpId {
        crate::host::build::place(self.ir, site.at, state)
    }
}

/// Posts a communication and waits for it right after.
fn post_and_wait(em: &mut Emitter<'_>, site: &Site, state: OperationState) {
    let req = em.new_value(site.at, state);
    em.new_op(site, wait_state(em.ctx, &[req], site.loc));
}

/// `v` itself when contiguous, else a per-iteration copy of it.
fn contiguous_input(em: &mut Emitter<'_>, v: Value, site: &Site) -> Result<Value, String> {
    let t = em.buffer_type(v)?;
    if is_contiguous(&t) {
        return Ok(v);
    }
    let tmp = em.alloc(&t.shape, t.elem, site.at, site.loc);
    em.new_op(site, copy_state(em.ctx, v, tmp, site.loc));
    Ok(tmp)
}

/// The buffer a communication writes: `v` when contiguous, else a temporary that
/// [`copy_back`] copies into `v` after the wait.
fn contiguous_output(em: &mut Emitter<'_>, v: Value, site: &Site) -> Result<(Value, Option<Value>), String> {
    let t = em.buffer_type(v)?;
    if is_contiguous(&t) {
        return Ok((v, None));
    }
    Ok((em.alloc(&t.shape, t.elem, site.at, site.loc), Some(v)))
}

fn copy_back(em: &mut Emitter<'_>, tmp: Value, target: Option<Value>, site: &Site) {
    if let Some(target) = target {
        em.new_op(site, copy_state(em.ctx, tmp, target, site.loc));
    }
}

/// Whether every axis before `axis` has extent 1 in both buffers (the collective then runs on
/// views of them without copies).
fn outer_extents_are_one(em: &Emitter<'_>, a: Value, b: Value, axis: usize) -> Result<bool, String> {
    let (ta, tb) = (em.buffer_type(a)?, em.buffer_type(b)?);
    Ok(ta.shape[..axis].iter().chain(&tb.shape[..axis]).all(|&e| e == 1))
}

/// Drops the axes before `axis` (which have extent 1, see [`outer_extents_are_one`]) from both
/// buffers, so that the gathered or scattered axis is axis 0.
fn outer_axis_first(
    em: &mut Emitter<'_>,
    mut a: Value,
    mut b: Value,
    axis: usize,
    site: &Site,
) -> Result<(Value, Value), String> {
    for _ in 0..axis {
        a = em.drop_leading(a, site)?;
        b = em.drop_leading(b, site)?;
    }
    Ok((a, b))
}

/// An allgather or reduce-scatter on `axis` over `d` ranks when an axis before it has local
/// extent > 1, so that a rank's block is not contiguous: staged through a contiguous buffer `T`
/// whose leading axis is the rank index (the technique of [`emit_all_to_all`]). With `P = p`
/// stream chunks outside the device split (see [`outer_chunks`]) the axis is `[P, d, b]`
/// globally and a rank holds `[P, b]`:
/// - allgather: the contiguous local `X [..., P·b, ...]` is gathered on a new leading axis into
///   `T [d, ...X]`, then `T` (its axis viewed as `[P, b]`) is copied into the output `Y`
///   through `Y`'s view with the axis reshaped to `[P, d, b]` and `d` permuted first;
/// - reduce-scatter: the partial `X [..., P·d·b, ...]` is copied through the same kind of view
///   into `T [d, ..., P·b, ...]`, whose leading-axis reduce-scatter is the contiguous local
///   result.
///
/// One extra copy of the local data on each side of the collective compared with the
/// outer-axis path.
fn staged_on_inner_axis(
    em: &mut Emitter<'_>,
    r: &Reshard,
    (x, y): (Value, Value),
    (axis, p, d): (usize, i64, i64),
    team: &[i64],
    site: &Site,
) -> Result<(), String> {
    let (ctx, loc) = (em.ctx, site.loc);
    match r {
        Reshard::Allgather { .. } => {
            let tx = em.buffer_type(x)?;
            let staged: Vec<i64> = std::iter::once(d).chain(tx.shape.iter().copied()).collect();
            let t = em.alloc(&staged, tx.elem, site.at, loc);
            post_and_wait(em, site, allgather_state(ctx, x, t, team, loc));
            let src = pieces_view(em, t, axis + 1, p, site)?;
            let dst = rank_first_view(em, y, axis, (p, d), site)?;
            em.new_op(site, copy_state(ctx, src, dst, loc));
        }
        Reshard::ReduceScatter { kind, .. } => {
            let ty = em.buffer_type(y)?;
            let staged: Vec<i64> = std::iter::once(d).chain(ty.shape.iter().copied()).collect();
            let t = em.alloc(&staged, ty.elem, site.at, loc);
            let src = rank_first_view(em, x, axis, (p, d), site)?;
            let dst = pieces_view(em, t, axis + 1, p, site)?;
            em.new_op(site, copy_state(ctx, src, dst, loc));
            post_and_wait(em, site, reduce_scatter_state(ctx, *kind, t, y, team, loc));
        }
        _ => return Err(format!("internal error: {r:?} is not staged")),
    }
    Ok(())
}

/// `v` (contiguous) with `axis` viewed as `[p, extent / p]` (itself when `p == 1`).
fn pieces_view(em: &mut Emitter<'_>, v: Value, axis: usize, p: i64, site: &Site) -> Result<Value, String> {
    if p == 1 {
        return Ok(v);
    }
    let t = em.buffer_type(v)?;
    if t.shape[axis] % p != 0 {
        return Err(format!("axis of extent {} does not split into {p} pieces", t.shape[axis]));
    }
    let mut shape = t.shape.clone();
    shape[axis] /= p;
    shape.insert(axis, p);
    Ok(em.new_value(site.at, reshape_state(em.ctx, em.ir, v, &shape, site.loc)?))
}

/// A view of the contiguous `v` with `axis` split into `[p, d, extent / (p·d)]` (`[d, ...]`
/// when `p == 1`) and the `d` axis moved to the front: `[d, ..., p, b, ...]`.
fn rank_first_view(
    em: &mut Emitter<'_>,
    v: Value,
    axis: usize,
    (p, d): (i64, i64),
    site: &Site,
) -> Result<Value, String> {
    let t = em.buffer_type(v)?;
    if t.shape[axis] % (p * d) != 0 {
        return Err(format!("axis {axis} of extent {} does not split into {p} x {d} pieces", t.shape[axis]));
    }
    let mut shape = t.shape[..axis].to_vec();
    if p > 1 {
        shape.push(p);
    }
    let d_axis = shape.len() as i64;
    shape.push(d);
    shape.push(t.shape[axis] / (p * d));
    shape.extend_from_slice(&t.shape[axis + 1..]);
    let reshaped = em.new_value(site.at, reshape_state(em.ctx, em.ir, v, &shape, site.loc)?);
    let dims: Vec<i64> = std::iter::once(d_axis).chain((0..shape.len() as i64).filter(|&a| a != d_axis)).collect();
    Ok(em.new_value(site.at, permute_state(em.ctx, em.ir, reshaped, &dims, site.loc)?))
}

/// Split on `from` → split on `to` over `d` ranks. With `X` the local input (axis `to` whole)
/// and `Y` the local output (axis `from` whole):
/// - the send buffer `S [d, ...X with to/d]` gets block `j` of `X`'s axis `to` as `S[j]`
///   (a copy through `X` reshaped to split `to` into `(d, to/d)` and permuted to put `d` first);
/// - `comm.all_to_all S -> R` (block `j` of rank `i`'s `S` lands in block `i` of rank `j`'s `R`);
/// - `R[i]` is the block of rows `i` of `Y`'s axis `from`: copied through `Y` reshaped to split
///   `from` into `(d, from/d)` and permuted the same way.
fn emit_all_to_all(
    em: &mut Emitter<'_>,
    input: Value,
    out: Value,
    (from, to): (usize, usize),
    team: &[i64],
    site: &Site,
) -> Result<(), String> {
    let d = team.len() as i64;
    let x = contiguous_input(em, input, site)?;
    let (y, back) = contiguous_output(em, out, site)?;
    let (tx, ty) = (em.buffer_type(x)?, em.buffer_type(y)?);
    if tx.shape[to] % d != 0 || ty.shape[from] % d != 0 {
        return Err(format!("an all_to_all over {d} ranks needs axes {from} and {to} divisible by {d}"));
    }
    // [d, ...X with axis `to` split]: the blocks in send order.
    let mut block = tx.shape.clone();
    block[to] /= d;
    let blocks: Vec<i64> = std::iter::once(d).chain(block.iter().copied()).collect();
    let send = em.alloc(&blocks, tx.elem, site.at, site.loc);
    let recv = em.alloc(&blocks, tx.elem, site.at, site.loc);
    let x_blocks = split_axis_first(em, x, to, d, site)?;
    em.new_op(site, copy_state(em.ctx, x_blocks, send, site.loc));
    post_and_wait(em, site, fuser_dialects::comm::all_to_all_state(em.ctx, send, recv, team, site.loc));
    let y_blocks = split_axis_first(em, y, from, d, site)?;
    em.new_op(site, copy_state(em.ctx, recv, y_blocks, site.loc));
    copy_back(em, y, back, site);
    Ok(())
}

/// A view of the contiguous buffer `v` with `axis` split into `(d, extent / d)` and the `d`
/// axis moved to the front.
fn split_axis_first(em: &mut Emitter<'_>, v: Value, axis: usize, d: i64, site: &Site) -> Result<Value, String> {
    let t = em.buffer_type(v)?;
    let mut split = t.shape.clone();
    split[axis] /= d;
    split.insert(axis, d);
    let reshaped = em.new_value(site.at, reshape_state(em.ctx, em.ir, v, &split, site.loc)?);
    if axis == 0 {
        return Ok(reshaped);
    }
    let dims: Vec<i64> =
        std::iter::once(axis as i64).chain((0..split.len() as i64).filter(|&a| a != axis as i64)).collect();
    Ok(em.new_value(site.at, permute_state(em.ctx, em.ir, reshaped, &dims, site.loc)?))
}

/// Replicated → split on `axis`: copy this rank's block, at `team_index · extent / d`; with
/// `pieces` stream chunks outside the device split, its block of each chunk.
fn emit_slice(
    em: &mut Emitter<'_>,
    input: Value,
    out: Value,
    (axis, pieces): (usize, i64),
    team: &[i64],
    site: &Site,
) -> Result<(), String> {
    let (ti, to) = (em.buffer_type(input)?, em.buffer_type(out)?);
    let d = team.len() as i64;
    let extent = ti.shape[axis];
    if extent % d != 0 || to.shape[axis] != extent / d {
        return Err(format!("axis {axis} of extent {extent} does not split into {d} blocks of {}", to.shape[axis]));
    }
    if pieces > 1 {
        return emit_slice_of_pieces(em, input, out, (axis, pieces), team, site);
    }
    let index = team_index(em, team, site);
    let block = em.constant(extent / d, site.loc);
    let offset = em.index_op("arith.muli", index, block, site);
    let offsets: Vec<Mixed> =
        (0..ti.shape.len()).map(|a| if a == axis { Mixed::Dynamic(offset) } else { Mixed::Static(0) }).collect();
    let sizes: Vec<Mixed> = to.shape.iter().map(|&e| Mixed::Static(e)).collect();
    let strides = vec![Mixed::Static(1); ti.shape.len()];
    let state = slice_state(em.ctx, em.ir, input, &offsets, &sizes, &strides, site.loc)?;
    let view = em.new_value(site.at, state);
    em.new_op(site, copy_state(em.ctx, view, out, site.loc));
    Ok(())
}

/// This rank's position in `team` (consecutive devices): `rank - team[0]`.
fn team_index(em: &mut Emitter<'_>, team: &[i64], site: &Site) -> Value {
    let rank = em.rank(site.loc);
    if team[0] == 0 {
        return rank;
    }
    let base = em.constant(team[0], site.loc);
    em.index_op("arith.subi", rank, base, site)
}

/// [`emit_slice`] with `pieces` outer stream chunks: the input's axis viewed as
/// `[pieces, d, block]`, this rank's `d` index selected, copied to the output viewed as
/// `[pieces, block]`.
fn emit_slice_of_pieces(
    em: &mut Emitter<'_>,
    input: Value,
    out: Value,
    (axis, pieces): (usize, i64),
    team: &[i64],
    site: &Site,
) -> Result<(), String> {
    let d = team.len() as i64;
    let with_axis_split = |t: &fuser_dialects::host::types::BufferType, outer: &[i64]| -> Vec<i64> {
        let n: i64 = outer.iter().product();
        let mut shape = t.shape[..axis].to_vec();
        shape.extend_from_slice(outer);
        shape.push(t.shape[axis] / n);
        shape.extend_from_slice(&t.shape[axis + 1..]);
        shape
    };
    let (ti, to) = (em.buffer_type(input)?, em.buffer_type(out)?);
    if ti.shape[axis] % (pieces * d) != 0 {
        return Err(format!("axis {axis} of extent {} does not split into {pieces} x {d} pieces", ti.shape[axis]));
    }
    let src_shape = with_axis_split(&ti, &[pieces, d]);
    let dst_shape = with_axis_split(&to, &[pieces]);
    let split = em.new_value(site.at, reshape_state(em.ctx, em.ir, input, &src_shape, site.loc)?);
    let index = team_index(em, team, site);
    let mine = em.new_value(site.at, select_state(em.ctx, em.ir, split, index, axis as i64 + 1, site.loc)?);
    let dst = em.new_value(site.at, reshape_state(em.ctx, em.ir, out, &dst_shape, site.loc)?);
    em.new_op(site, copy_state(em.ctx, mine, dst, site.loc));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_dialects::fusion::DeviceAxis;

    fn sh(axes: Vec<Vec<Split>>, partial: Vec<DeviceAxis>) -> Sharding {
        Sharding { mesh: "m".into(), axes, partial, reduce: ReductionKind::Sum }
    }
    const X: Split = Split::Device(DeviceAxis::X);

    #[test]
    fn classification() {
        let rep = sh(vec![vec![], vec![]], vec![]);
        let rows = sh(vec![vec![X], vec![]], vec![]);
        let cols = sh(vec![vec![], vec![X]], vec![]);
        let part = sh(vec![vec![], vec![]], vec![DeviceAxis::X]);
        assert_eq!(classify_reshard(&rows, &rep), Ok(Reshard::Allgather { axis: 0 }));
        assert_eq!(classify_reshard(&part, &rep), Ok(Reshard::Allreduce { kind: ReductionKind::Sum }));
        assert_eq!(classify_reshard(&part, &cols), Ok(Reshard::ReduceScatter { axis: 1, kind: ReductionKind::Sum }));
        assert_eq!(classify_reshard(&rep, &cols), Ok(Reshard::Slice { axis: 1 }));
        assert_eq!(classify_reshard(&rows, &cols), Ok(Reshard::AllToAll { from: 0, to: 1 }));
        assert_eq!(classify_reshard(&cols, &rows), Ok(Reshard::AllToAll { from: 1, to: 0 }));
        assert!(classify_reshard(&rep, &part).unwrap_err().contains("partial"));
        let streamed = sh(vec![vec![Split::Stream(2)], vec![]], vec![]);
        assert_eq!(classify_reshard(&rep, &streamed), Ok(Reshard::Copy));
        let inner = sh(vec![vec![X, Split::Stream(2)], vec![]], vec![]);
        let outer = sh(vec![vec![Split::Stream(2), X], vec![]], vec![]);
        assert_eq!(classify_reshard(&rows, &inner), Ok(Reshard::Copy));
        assert!(classify_reshard(&inner, &outer).is_err());
    }

    #[test]
    fn two_device_axes_are_diagnosed() {
        let a = sh(vec![vec![X], vec![Split::Device(DeviceAxis::Y)]], vec![]);
        let b = sh(vec![vec![], vec![]], vec![]);
        assert!(classify_reshard(&a, &b).unwrap_err().contains("changes 2 device axes (DIDx, DIDy)"));
    }
}
