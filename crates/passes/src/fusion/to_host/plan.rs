//! The first phase of `fusion-to-host`: checks the preconditions and decides, without changing
//! the IR, what each fusion op becomes (a local host op or a resharding) and which ops share a
//! host loop (docs/dev/lowering.md §5, "Plan").
//!
//! Invariants: every tensor the plan accepts has a static shape, at most one `Stream` split, and
//! a 1-D mesh of consecutive devices (or no sharding: replicated, global shape); every planned
//! op is local or a resharding point that changes one device axis. [`group_loops`] is pure: it
//! works on [`Node`]s, so the loop decisions are unit-tested without IR.

use super::comm::{Reshard, classify_reshard, device_layout, splits_text};
use super::info::TensorInfos;
pub use super::info::{TensorInfo, check_mesh, tensor_info};
use super::value_map::ValueMap;
use crate::fusion::axes::{OpAxes, op_axes};
use fuser_dialects::fusion::clauses::{prop_int, prop_ints};
use fuser_dialects::fusion::reduce::op_correction;
use fuser_dialects::fusion::slicing::slice_strides;
use fuser_dialects::fusion::syntax::{op_dims, op_keep_dims};
use fuser_dialects::fusion::{DeviceAxis, KernelOp, Sharding, Split, elementwise_kind, kernel_op};
use fuser_dialects::host::{ElementwiseKind, ReduceKind};
use fuser_dialects::reduction::ReductionKind;
use fuser_ir::Diagnostic;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use std::rc::Rc;

/// What a local fusion op becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocalKind {
    Matmul,
    Linear,
    Elementwise(ElementwiseKind),
    /// `host.sum` over these dims (result rank = input rank - dims).
    /// Reduced dims, and whether they stay as extents of 1 (`keep_dims`).
    Sum(Vec<i64>, bool),
    /// `host.reduce` of this kind over these dims, keeping them as extents of 1 or not.
    Reduce(ReduceKind, Vec<i64>, bool),
    Copy,
    /// A copy through a `host.expand` view (new axes at these result positions).
    Broadcast(Vec<i64>),
    /// A copy through a `host.permute` view.
    Permute(Vec<i64>),
    /// A copy through a `host.reshape` view (of a contiguous copy when the source is strided).
    Reshape,
    /// A copy of the `host.slice` window (global offsets, sizes, strides) of a tensor of this
    /// global shape (`to_host/slicing.rs`).
    Slice {
        global: Vec<i64>,
        offsets: Vec<i64>,
        sizes: Vec<i64>,
        strides: Vec<i64>,
    },
    /// Copies of the operands into `host.slice` views of the result along this axis.
    Concat(usize),
    /// `host.fill` with this value (`fusion.full`'s `value` attribute).
    Fill(fuser_ir::Attr),
    /// A named `host.kernel` (docs/dev/ops.md) writing every result of the op.
    Kernel(&'static KernelOp),
}

/// What a fusion op becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpKind {
    Local(LocalKind),
    Reshard(Reshard),
}

/// One planned op: its kind and the stream split of its result `(axis, chunks)`.
#[derive(Clone, Debug)]
pub struct PlannedOp {
    pub op: OpId,
    pub kind: OpKind,
    pub stream: Option<(usize, i64)>,
    pub axes: OpAxes,
}

/// The plan of one function.
pub struct Plan {
    pub ops: Vec<PlannedOp>,
    pub groups: Vec<Group>,
    /// Every tensor value of the function (arguments, operands, results); values of one type
    /// share one description.
    pub info: ValueMap<Rc<TensorInfo>>,
}

/// Ops (indices into [`Plan::ops`]) that run together: in one host loop of `chunks`
/// iterations, or at the top level (`chunks == None`, then exactly one op).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub ops: Vec<usize>,
    pub chunks: Option<i64>,
}

/// An op as the loop grouping sees it.
#[derive(Clone, Debug)]
pub struct Node {
    /// The stream split of the result: `(axis, chunks)`.
    pub stream: Option<(usize, i64)>,
    /// Per operand: the node producing it (if any) and the result axis that the producer's
    /// stream axis becomes through this op's axis map.
    pub operands: Vec<(Option<usize>, Option<usize>)>,
}

/// Groups nodes into loops: a node joins the open loop when its stream split has the loop's
/// chunk count and every operand produced in the loop (at least one) has its stream axis mapped
/// onto the node's stream axis; otherwise the loop closes and a node with a stream split opens a
/// new one. Linear in the number of nodes and operands: the group of each node is recorded, so
/// "produced in the loop" is one lookup, however long the loop grows.
pub fn group_loops(nodes: &[Node]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of: Vec<usize> = Vec::with_capacity(nodes.len());
    let mut open: Option<usize> = None;
    for node in nodes {
        let k = group_of.len();
        if let (Some(g), Some((ax, n))) = (open, node.stream)
            && groups[g].chunks == Some(n)
            && joins_loop(node, ax, |p| group_of.get(p) == Some(&g))
        {
            groups[g].ops.push(k);
            group_of.push(g);
            continue;
        }
        groups.push(Group { ops: vec![k], chunks: node.stream.map(|(_, n)| n) });
        group_of.push(groups.len() - 1);
        open = node.stream.is_some().then_some(groups.len() - 1);
    }
    groups
}

/// Whether `node` (streamed along result axis `ax`) reads at least one operand produced in the
/// open loop (`in_loop` of the producing node) and every such operand's stream axis maps onto
/// `ax`.
fn joins_loop(node: &Node, ax: usize, in_loop: impl Fn(usize) -> bool) -> bool {
    let mut from_loop = node.operands.iter().filter(|(p, _)| p.is_some_and(&in_loop)).peekable();
    from_loop.peek().is_some() && from_loop.all(|&(_, m)| m == Some(ax))
}

/// An error about `op` (the function itself for signature errors: its location shows the
/// header line, and a note with the whole function would add nothing).
fn err(ir: &Ir, op: OpId, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(ir.loc(op), msg.into())
}

/// An error about the fusion op `op`, with the op attached (see `fuser_ir::pass::op_error`).
fn op_err(ctx: &Context, ir: &Ir, op: OpId, msg: impl Into<String>) -> Diagnostic {
    fuser_ir::pass::op_error(ctx, ir, op, msg)
}

/// Plans the fusion ops of `ops` (in program order).
pub fn plan(ctx: &Context, ir: &Ir, func: OpId, ops: &[OpId], args: &[Value]) -> Result<Plan, Diagnostic> {
    let mut types = TensorInfos::default();
    let mut info = ValueMap::default();
    for &a in args {
        if let Some(t) = types.get(ctx, ir, func, ir.value_type(a)).map_err(|m| err(ir, func, m))? {
            info.insert(a, t);
        }
    }
    let mut planned = Vec::with_capacity(ops.len());
    for &op in ops {
        for v in ir.operands(op).into_iter().chain(ir.results(op).iter().copied()) {
            if info.contains_key(&v) {
                continue;
            }
            let Some(t) = types.get(ctx, ir, op, ir.value_type(v)).map_err(|m| op_err(ctx, ir, op, m))? else {
                return Err(op_err(ctx, ir, op, "fusion-to-host expects ranked tensor operands and results"));
            };
            info.insert(v, t);
        }
        planned.push(plan_op(ctx, ir, op, &info)?);
    }
    check_one_mesh(ir, &planned, &info)?;
    let mut producer: ValueMap<usize> = ValueMap::default();
    for (k, p) in planned.iter().enumerate() {
        for &r in ir.results(p.op) {
            producer.insert(r, k);
        }
    }
    mark_reduce_to_owner(ir, &mut planned, &producer, &info);
    let nodes: Vec<Node> = planned
        .iter()
        .map(|p| Node {
            stream: p.stream,
            operands: ir
                .operands(p.op)
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let src = producer.get(v).copied();
                    // A reduce onto each chunk's owner completes its result only when the loop
                    // ends (iteration i fills rank i's result): no consumer may share the loop
                    // (fuser-lowerfuzz, seed 706334: a broadcast read rank 0's rows while a
                    // later iteration's reduce still wrote them).
                    let mapped = src
                        .filter(|&s| !matches!(planned[s].kind, OpKind::Reshard(Reshard::ReduceToOwner { .. })))
                        .and_then(|s| planned[s].stream)
                        .and_then(|(a, _)| p.axes.maps.get(i).and_then(|m| m.get(a)).copied().flatten());
                    (src, mapped)
                })
                .collect(),
        })
        .collect();
    let groups = group_loops(&nodes);
    Ok(Plan { ops: planned, groups, info })
}

/// A reduce-scatter whose partial input is produced in a stream loop along the scattered axis,
/// one chunk per device, joins that loop as a reduce per chunk onto the chunk's owner
/// (Stream→DID): its result has no stream split of its own, so it takes the producer's.
fn mark_reduce_to_owner(
    ir: &Ir,
    planned: &mut [PlannedOp],
    producer: &ValueMap<usize>,
    info: &ValueMap<Rc<TensorInfo>>,
) {
    for k in 0..planned.len() {
        let OpKind::Reshard(Reshard::ReduceScatter { axis, kind }) = planned[k].kind else { continue };
        if planned[k].stream.is_some() {
            continue;
        }
        let v_in = ir.operand(planned[k].op, 0);
        let Some(&src) = producer.get(&v_in) else { continue };
        let Some((ax, n)) = planned[src].stream else { continue };
        let out = &info[&ir.result(planned[k].op, 0)];
        let devices = out.mesh.as_ref().map_or(1, |m| m.num_devices());
        let single_split = matches!(out.sharding.axes.get(axis).map(Vec::as_slice), Some([Split::Device(_)]));
        let input_chunks = matches!(info[&v_in].sharding.axes.get(axis).map(Vec::as_slice), Some([Split::Stream(_)]));
        if ax == axis && n == devices && single_split && input_chunks {
            planned[k].stream = Some((axis, n));
            planned[k].kind = OpKind::Reshard(Reshard::ReduceToOwner { axis, kind });
        }
    }
}

/// Every sharded tensor of one op is on the same mesh.
fn check_one_mesh(ir: &Ir, planned: &[PlannedOp], info: &ValueMap<Rc<TensorInfo>>) -> Result<(), Diagnostic> {
    for p in planned {
        let names: Vec<&str> = ir
            .operands(p.op)
            .iter()
            .chain(ir.results(p.op))
            .filter_map(|v| info[v].mesh.as_ref().map(|m| m.name.as_str()))
            .collect();
        if names.windows(2).any(|w| w[0] != w[1]) {
            return Err(err(ir, p.op, "fusion-to-host needs the tensors of one op on one mesh"));
        }
    }
    Ok(())
}

fn plan_op(ctx: &Context, ir: &Ir, op: OpId, info: &ValueMap<Rc<TensorInfo>>) -> Result<PlannedOp, Diagnostic> {
    let name = ctx.op_name_str(ir.op_name(op)).to_string();
    let axes =
        op_axes(ctx, ir, op).ok_or_else(|| op_err(ctx, ir, op, format!("'{name}' is not a fusion tensor op")))?;
    let result = ir.result(op, 0);
    let out = &info[&result];
    let stream = out.stream();
    let input = |i: usize| &info[&ir.operand(op, i)];
    let is_reshard_point = name == "fusion.set"
        || (name == "fusion.sum" && op_dims(ctx, ir, op).is_some_and(|d| d.is_empty()) && !op_keep_dims(ctx, ir, op));
    if is_reshard_point {
        let kind = classify_reshard(&input(0).sharding, &out.sharding).map_err(|m| op_err(ctx, ir, op, m))?;
        return Ok(PlannedOp { op, kind: OpKind::Reshard(kind), stream, axes });
    }
    let local = match name.as_str() {
        "fusion.matmul" => LocalKind::Matmul,
        "fusion.linear" => LocalKind::Linear,
        "fusion.add" => LocalKind::Elementwise(ElementwiseKind::Add),
        "fusion.sub" => LocalKind::Elementwise(ElementwiseKind::Sub),
        "fusion.mul" => LocalKind::Elementwise(ElementwiseKind::Mul),
        "fusion.div" => LocalKind::Elementwise(ElementwiseKind::Div),
        "fusion.neg" => LocalKind::Elementwise(ElementwiseKind::Neg),
        "fusion.cast" => LocalKind::Elementwise(ElementwiseKind::Cast),
        "fusion.sum" => LocalKind::Sum(op_dims(ctx, ir, op).unwrap_or_default(), op_keep_dims(ctx, ir, op)),
        "fusion.max" | "fusion.min" | "fusion.mean" | "fusion.var" => {
            let dims = op_dims(ctx, ir, op).unwrap_or_default();
            let kind = match name.as_str() {
                "fusion.max" => ReduceKind::Max,
                "fusion.min" => ReduceKind::Min,
                // The global count: on a device-split axis each rank's mean is a partial sum.
                "fusion.mean" => {
                    ReduceKind::Mean { count: dims.iter().map(|&d| input(0).global[d as usize]).product() }
                }
                _ => ReduceKind::Var { correction: op_correction(ctx, ir, op) },
            };
            LocalKind::Reduce(kind, dims, op_keep_dims(ctx, ir, op))
        }
        "fusion.broadcast" => LocalKind::Broadcast(op_dims(ctx, ir, op).unwrap_or_default()),
        "fusion.permute" => LocalKind::Permute(op_dims(ctx, ir, op).unwrap_or_default()),
        "fusion.reshape" => LocalKind::Reshape,
        "fusion.slice" => {
            let (offsets, sizes) = (prop_ints(ctx, ir, op, "offsets"), prop_ints(ctx, ir, op, "sizes"));
            let (Some(offsets), Some(sizes)) = (offsets, sizes) else {
                return Err(op_err(ctx, ir, op, "'fusion.slice' needs 'offsets' and 'sizes'"));
            };
            let global = input(0).global.clone();
            let strides = slice_strides(prop_ints(ctx, ir, op, "strides").as_deref(), global.len());
            LocalKind::Slice { global, offsets, sizes, strides }
        }
        "fusion.concat" => match prop_int(ctx, ir, op, "dim").and_then(|d| usize::try_from(d).ok()) {
            Some(d) => LocalKind::Concat(d),
            None => return Err(op_err(ctx, ir, op, "'fusion.concat' needs a 'dim'")),
        },
        "fusion.full" => LocalKind::Fill(
            ir.props(op)
                .and_then(|p| ctx.dict_get(p, "value"))
                .or_else(|| ctx.dict_get(ir.attrs(op), "value"))
                .ok_or_else(|| op_err(ctx, ir, op, "'fusion.full' has no 'value'"))?,
        ),
        _ if NONLINEAR.contains(&name.as_str()) => LocalKind::Elementwise(
            elementwise_kind(ctx, ir, op)
                .ok_or_else(|| op_err(ctx, ir, op, format!("'{name}' has an invalid predicate or approximation")))?,
        ),
        _ if kernel_op(&name).is_some() => LocalKind::Kernel(kernel_op(&name).expect("checked")),
        _ => {
            return Err(op_err(ctx, ir, op, format!("'{name}' is not lowerable yet by fusion-to-host")));
        }
    };
    let operands: Vec<&Sharding> = (0..ir.num_operands(op)).map(|i| &input(i).sharding).collect();
    check_local(&name, &axes, &operands, &out.sharding).map_err(|m| op_err(ctx, ir, op, m))?;
    check_secondary_results(ctx, ir, op, info, stream).map_err(|m| op_err(ctx, ir, op, m))?;
    Ok(PlannedOp { op, kind: OpKind::Local(local), stream, axes })
}

/// The elementwise ops of `fusion/math.rs`: none is linear, so none takes a partial operand.
const NONLINEAR: [&str; 16] = [
    "fusion.exp",
    "fusion.log",
    "fusion.tanh",
    "fusion.erf",
    "fusion.sqrt",
    "fusion.rsqrt",
    "fusion.sigmoid",
    "fusion.abs",
    "fusion.reciprocal",
    "fusion.silu",
    "fusion.gelu",
    "fusion.maximum",
    "fusion.minimum",
    "fusion.pow",
    "fusion.compare",
    "fusion.where",
];

/// Secondary results (a norm's statistics, attention's `lse`, `sdpa_grad`'s `dk`, `dv`) are
/// computed with the device layout `OpAxes::secondary_layout` gives from result 0's (by
/// default its leading axes, never partial), and in result 0's stream loop only when its
/// stream axis is one of theirs.
fn check_secondary_results(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    info: &ValueMap<Rc<TensorInfo>>,
    stream: Option<(usize, i64)>,
) -> Result<(), String> {
    let first = &info[&ir.result(op, 0)].sharding;
    let name = ctx.op_name_str(ir.op_name(op));
    let axes = op_axes(ctx, ir, op);
    for (k, &r) in ir.results(op).iter().enumerate().skip(1) {
        let s = &info[&r].sharding;
        let rank = s.axes.len();
        let layout = match &axes {
            Some(a) => a.secondary_layout(k, first, rank),
            None => crate::fusion::propagate::secondary_sharding(first, rank),
        };
        let want: Vec<Vec<Split>> = layout.axes.iter().map(|l| device_layout(l)).collect();
        let have: Vec<Vec<Split>> = s.axes.iter().map(|l| device_layout(l)).collect();
        let sorted = |p: &[DeviceAxis]| {
            let mut p = p.to_vec();
            p.sort();
            p
        };
        if have != want || sorted(&s.partial) != sorted(&layout.partial) {
            let default = axes.as_ref().is_none_or(|a| a.secondary.is_empty());
            let how = if default {
                format!("as result #0 on its {rank} leading axes")
            } else {
                format!(
                    "{}{} from result #0's layout",
                    want.iter().map(|l| splits_text(l)).collect::<Vec<_>>().join(", "),
                    if layout.partial.is_empty() { String::new() } else { " (partial)".to_string() }
                )
            };
            return Err(format!(
                "'{name}' is not local: result #{k} must be split {how} (run fusion-decompose-resharding)"
            ));
        }
        if let Some((ax, _)) = stream {
            let along = axes.as_ref().map_or(ax < rank, |a| a.secondary_streams_with(k, ax, rank));
            let default = axes.as_ref().is_none_or(|a| a.secondary.is_empty());
            if !along && default {
                return Err(format!(
                    "'{name}': result #0 is streamed along axis {ax}, which result #{k} does not have; stream it along one of its {rank} leading axes"
                ));
            }
            if !along {
                return Err(format!(
                    "'{name}': result #0 is streamed along axis {ax}, which result #{k} sums over (the chunks would \
overwrite it); gather that axis or stream another one"
                ));
            }
        }
    }
    Ok(())
}

/// Whether an op computes its result from the local pieces of its operands: device layouts
/// agree through the axis map, device splits of contracted axes become the result's `partial`,
/// and pending reductions only pass through ops that are linear in them.
/// The contracting operands split their contracted axes alike: the partial sums of rank r
/// must cover the same indices in every operand (`[Stream(3), DIDx]` against `[DIDx]` pairs
/// interleaved rows with a block: fuser-lowerfuzz, seed 900255).
fn check_contracted_layouts(name: &str, axes: &OpAxes, operands: &[&Sharding]) -> Result<(), String> {
    let layouts: Vec<(usize, Vec<Vec<Split>>)> = operands
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let c = axes.contracted.get(i).filter(|c| !c.is_empty())?;
            Some((i, c.iter().map(|&a| s.axes.get(a).map(|l| device_layout(l)).unwrap_or_default()).collect()))
        })
        .collect();
    for pair in layouts.windows(2) {
        let ((i, a), (j, b)) = (&pair[0], &pair[1]);
        if a != b {
            let text = |l: &[Vec<Split>]| l.iter().map(|x| splits_text(x)).collect::<Vec<_>>().join(", ");
            return Err(format!(
                "'{name}' is not local: its contracted axes are split {} in operand #{i} but {} in operand #{j}; \
a fusion.set must reshard one of them",
                text(a),
                text(b)
            ));
        }
    }
    Ok(())
}

/// The axes an op reads whole carry no device or stream split, in the operand or in the result
/// axis they map to.
fn check_whole_axes(name: &str, axes: &OpAxes, operands: &[&Sharding], out: &Sharding) -> Result<(), String> {
    for (i, s) in operands.iter().enumerate() {
        for (a, splits) in s.axes.iter().enumerate() {
            if !axes.is_whole(i, a) {
                continue;
            }
            let result_axis = axes.maps.get(i).and_then(|m| m.get(a)).copied().flatten();
            let result_splits = result_axis.and_then(|r| out.axes.get(r)).map(Vec::as_slice).unwrap_or(&[]);
            if !splits.is_empty() || !result_splits.is_empty() {
                let (where_, shown) = if splits.is_empty() {
                    (format!("result axis {}", result_axis.unwrap_or(0)), result_splits)
                } else {
                    (format!("axis {a} of operand #{i}"), splits.as_slice())
                };
                return Err(format!(
                    "'{name}' reads axis {a} of operand #{i} whole, but {where_} is split {}; gather it first (fusion-decompose-resharding inserts the allgather of a device split; a stream split there cannot be honoured)",
                    splits_text(shown)
                ));
            }
        }
    }
    Ok(())
}

pub fn check_local(name: &str, axes: &OpAxes, operands: &[&Sharding], out: &Sharding) -> Result<(), String> {
    let mut partial: Vec<DeviceAxis> = Vec::new();
    let mut covered = vec![false; out.axes.len()];
    check_whole_axes(name, axes, operands, out)?;
    for (i, s) in operands.iter().enumerate() {
        for (a, splits) in s.axes.iter().enumerate() {
            let layout = device_layout(splits);
            match axes.maps.get(i).and_then(|m| m.get(a)).copied().flatten() {
                Some(r) => {
                    let want = out.axes.get(r).map(|l| device_layout(l)).unwrap_or_default();
                    if layout != want {
                        return Err(format!(
                            "'{name}' is not local: axis {a} of operand #{i} is split {} but result axis {r} is split {}; \
a fusion.set must reshard it (run fusion-decompose-resharding)",
                            splits_text(&layout),
                            splits_text(&want)
                        ));
                    }
                    covered[r] = true;
                }
                None => {
                    for sp in layout {
                        if let fuser_dialects::fusion::Split::Device(d) = sp
                            && !partial.contains(&d)
                        {
                            partial.push(d);
                        }
                    }
                }
            }
        }
    }
    // A `full` has no operand: each rank fills its piece of any device layout; the free axes
    // of a kernel (`OpAxes::free`) are computed from the result's global origin.
    if let Some(r) =
        (0..out.axes.len()).find(|&r| !covered[r] && !axes.free.contains(&r) && !device_layout(&out.axes[r]).is_empty())
        && name != "fusion.full"
    {
        return Err(format!("'{name}' is not local: result axis {r} is split over devices but no operand axis is"));
    }
    check_contracted_layouts(name, axes, operands)?;
    let contracted = partial.clone();
    for (i, s) in operands.iter().enumerate() {
        let contracting = axes.contracted.get(i).is_some_and(|c| !c.is_empty());
        for &d in &contracted {
            let here = axes
                .contracted
                .get(i)
                .into_iter()
                .flatten()
                .any(|&a| s.axes.get(a).is_some_and(|l| l.contains(&fuser_dialects::fusion::Split::Device(d))));
            if contracting && !here {
                return Err(format!(
                    "'{name}' is not local: {} splits a contracted axis of some operands but not of operand #{i}",
                    d.keyword()
                ));
            }
        }
        for &d in &s.partial {
            if !partial.contains(&d) {
                partial.push(d);
            }
        }
    }
    let pending = operands.iter().filter(|s| !s.partial.is_empty()).count();
    let nonlinear = operands
        .iter()
        .enumerate()
        .any(|(i, s)| !s.partial.is_empty() && !axes.linear.get(i).copied().unwrap_or(false));
    // A pending max/min passes through nothing but a resharding (max(a, b) + c is not
    // max(a + c, b + c) summed).
    let not_a_sum = operands.iter().any(|s| !s.partial.is_empty() && s.reduce != ReductionKind::Sum);
    if nonlinear || not_a_sum || (pending > 1 && matches!(name, "fusion.matmul" | "fusion.linear")) {
        return Err(format!("'{name}' of a partial value is not local; reduce it first (fusion.sum dims = [])"));
    }
    let from_contraction = partial.iter().any(|d| !operands.iter().any(|s| s.partial.contains(d)));
    if from_contraction && !out.partial.is_empty() && out.reduce != axes.partial_kind {
        return Err(format!(
            "'{name}' leaves a partial {} but its result is annotated `reduce = {}`",
            axes.partial_kind.keyword(),
            out.reduce.keyword()
        ));
    }
    let mut want = out.partial.clone();
    want.sort();
    partial.sort();
    if want != partial {
        let text = |v: &[DeviceAxis]| format!("[{}]", v.iter().map(|d| d.keyword()).collect::<Vec<_>>().join(", "));
        return Err(format!(
            "'{name}' is not local: its operands make the result partial over {} but it is annotated partial = {}",
            text(&partial),
            text(&want)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_dialects::fusion::Mesh;

    fn node(stream: Option<(usize, i64)>, operands: &[(Option<usize>, Option<usize>)]) -> Node {
        Node { stream, operands: operands.to_vec() }
    }

    #[test]
    fn linear_and_allreduce_share_a_loop() {
        let nodes = [node(Some((0, 3)), &[(None, None), (None, None)]), node(Some((0, 3)), &[(Some(0), Some(0))])];
        assert_eq!(group_loops(&nodes), vec![Group { ops: vec![0, 1], chunks: Some(3) }]);
    }

    #[test]
    fn stream_on_n_then_m_needs_two_loops() {
        // mm1 streams N (axis 1); mm2 contracts that axis and streams M.
        let nodes =
            [node(Some((1, 3)), &[(None, None), (None, None)]), node(Some((0, 3)), &[(Some(0), None), (None, None)])];
        assert_eq!(
            group_loops(&nodes),
            vec![Group { ops: vec![0], chunks: Some(3) }, Group { ops: vec![1], chunks: Some(3) }]
        );
    }

    #[test]
    fn different_chunk_counts_and_top_level_ops_close_loops() {
        let nodes = [
            node(Some((0, 3)), &[(None, None)]),
            node(Some((0, 2)), &[(Some(0), Some(0))]),
            node(None, &[(Some(1), Some(0))]),
            node(Some((0, 2)), &[(Some(2), None)]),
            node(Some((0, 2)), &[(Some(3), Some(0)), (Some(1), Some(0))]),
        ];
        let g = group_loops(&nodes);
        assert_eq!(
            g,
            vec![
                Group { ops: vec![0], chunks: Some(3) },
                Group { ops: vec![1], chunks: Some(2) },
                Group { ops: vec![2], chunks: None },
                Group { ops: vec![3, 4], chunks: Some(2) },
            ]
        );
    }

    #[test]
    fn a_long_chain_forms_one_loop_and_a_break_starts_the_next() {
        // 500 ops each reading the previous one along the stream axis, then an op reading
        // only the first (still in the loop) along another axis, then a chain again.
        let mut nodes = vec![node(Some((0, 4)), &[(None, None)])];
        nodes.extend((1..500).map(|k| node(Some((0, 4)), &[(Some(k - 1), Some(0)), (None, None)])));
        nodes.push(node(Some((0, 4)), &[(Some(0), Some(1))]));
        nodes.extend((501..600).map(|k| node(Some((0, 4)), &[(Some(k - 1), Some(0))])));
        let g = group_loops(&nodes);
        assert_eq!(
            g,
            vec![
                Group { ops: (0..500).collect(), chunks: Some(4) },
                Group { ops: (500..600).collect(), chunks: Some(4) },
            ]
        );
    }

    #[test]
    fn an_unrelated_stream_op_opens_its_own_loop() {
        // Same chunk count but no operand from the loop.
        let nodes = [node(Some((0, 3)), &[(None, None)]), node(Some((0, 3)), &[(None, None)])];
        assert_eq!(group_loops(&nodes).len(), 2);
    }

    #[test]
    fn mesh_must_be_linear_and_consecutive() {
        assert!(check_mesh(&Mesh::linear("m", &[2, 3, 4])).is_ok());
        assert!(check_mesh(&Mesh::linear("m", &[0, 2])).is_err());
        let grid = Mesh { name: "m".into(), shape: vec![2, 2], devices: vec![0, 1, 2, 3] };
        assert!(check_mesh(&grid).unwrap_err().contains("1-D meshes"));
    }
}
