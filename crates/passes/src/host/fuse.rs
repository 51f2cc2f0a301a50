//! `host-fuse`: groups chains of memory-bound host ops into fused regions (`host.fused`,
//! docs/dev/fusion.md), one kernel each, whose intermediate buffers are never allocated.
//!
//! **Members.** `host.elementwise` (float and `i1` types), `host.fill`, `host.sum` and
//! `host.reduce` over the trailing axes, `host.kernel` `softmax`, `log_softmax`, `layer_norm`,
//! `rms_norm` (over trailing axes) and `dropout`, and `host.copy` (a strided or broadcast
//! read, or the broadcast of a row value computed in the group: `host.copy` from a
//! `host.expand` of a group buffer along the trailing axes).
//!
//! **Grouping.** Each block is scanned in order (loop bodies too: a stream loop's body is its
//! own block, so regions never cross a stream chunk or a device split). A group grows while the
//! next op is a member that fits: its full shape is the group's domain (or, once the group
//! reduces, the domain's rows), it reduces or broadcasts over the same trailing axes, a dropout
//! shares the group's origin, and no hazard exists (a member may not read a buffer the group
//! writes other than as the very value it wrote, nor write a buffer the group reads).
//! Allocations, views and index arithmetic between members do not end a group (they touch no
//! data); any other op does.
//!
//! **Regions.** A group with at least one computing member (not only copies and fills) becomes
//! one `host.fused` at the place of its last member: inputs are the buffers read from outside,
//! outputs the buffers written that are used outside (a buffer allocated in the block and used
//! only by members is an intermediate: its allocation disappears), and the body restates each
//! member as the fusion op it came from, on tensors (a `host.reduce` mean keeps its global
//! count: a sum then a scale). A fill whose buffer is used outside stays a `host.fill`.
//!
//! `host-fuse{enabled=false}` does nothing (the pipelines' `fuse=false`).

use super::build::*;
use fuser_dialects::fusion::syntax::tensor_op_state;
use fuser_dialects::host::types::{BufferType, MemoryKind};
use fuser_dialects::host::{self, ElementwiseKind, ReduceKind};
use fuser_ir::Diagnostic;
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, Value};
use fuser_ir::pass::{OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};
use fuser_ir::types::{FloatKind, Type, TypeKind};
use rustc_hash::{FxHashMap, FxHashSet};

static OPTIONS: &[OptionDef] =
    &[OptionDef::new("enabled", OptionType::Bool, "true", "Fuse (false: leave the program unchanged)")];

pub static HOST_FUSE: PassInfo = PassInfo {
    name: "host-fuse",
    display: "HostFuse",
    summary: "Group chains of elementwise ops, reductions and norms into fused regions",
    description: "Groups consecutive `host.elementwise`, `host.fill`, `host.sum`/`host.reduce` \
over trailing axes, the `softmax`, `log_softmax`, `layer_norm`, `rms_norm` and `dropout` kernels \
and broadcast or strided copies that share one iteration domain into `host.fused` regions, one \
kernel each; buffers used only inside a region are no longer allocated. Regions stay inside \
their block, so they respect stream chunks and device splits. Run it after `fusion-to-host` (and \
`host-fuse-epilogue`), before `host-assign-streams`. `enabled=false` leaves the program as it is. \
See docs/dev/fusion.md.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| Ok(Box::new(Fuse { enabled: o.get_bool("enabled"), values: o.clone() })),
};

struct Fuse {
    enabled: bool,
    values: OptionValues,
}

impl Pass for Fuse {
    fn info(&self) -> &'static PassInfo {
        &HOST_FUSE
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        if !self.enabled {
            return Ok(PassOutcome::from_changed(false));
        }
        let mut blocks: Vec<BlockId> = body_block(ir, func).into_iter().collect();
        for op in ir.collect_ops(func, fuser_ir::ir::WalkOrder::PreOrder) {
            if op != func && is(ctx, ir, op, FOR) || is(ctx, ir, op, host::IF.name) {
                blocks.extend(ir.regions(op).iter().filter_map(|&r| ir.region_entry(r)));
            }
        }
        let mut changed = false;
        for b in blocks {
            for group in scan(ctx, ir, b) {
                changed |= build_region(ctx, ir, &group);
            }
        }
        Ok(PassOutcome::from_changed(changed))
    }
}

// ----- members --------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum What {
    Elementwise(ElementwiseKind),
    Fill(Attr),
    /// A copy from outside (a view read as it is) or of a group buffer.
    Copy,
    /// The broadcast of a group buffer (`inputs[0]`) along the trailing axes `dims`.
    Broadcast(Vec<i64>),
    Sum(Vec<i64>),
    Reduce(ReduceKind, Vec<i64>),
    /// A named kernel: the fusion op it implements and its properties.
    Kernel(String, Attr),
}

#[derive(Clone, Debug)]
struct Member {
    op: OpId,
    what: What,
    inputs: Vec<Value>,
    outputs: Vec<Value>,
    /// The member's full shape (its input's for reductions and norms).
    full: Vec<i64>,
    /// The trailing axes it reduces or broadcasts over.
    inner: Option<usize>,
    origin: Vec<Value>,
    global_shape: Option<Vec<i64>>,
}

fn buffer(ctx: &Context, ir: &Ir, v: Value) -> Option<BufferType> {
    BufferType::of(ctx, ir.value_type(v))
}

/// A static, device-memory buffer of a float or `i1` type (`ints`: integers allowed too).
fn fusable_type(ctx: &Context, ir: &Ir, v: Value, ints: bool) -> bool {
    let Some(t) = buffer(ctx, ir, v) else { return false };
    let elem_ok = match ctx.type_kind(t.elem) {
        TypeKind::Float(k) => matches!(k, FloatKind::BF16 | FloatKind::F16 | FloatKind::F32 | FloatKind::F64),
        TypeKind::Integer { width: 1, .. } => true,
        TypeKind::Integer { width: 32 | 64, .. } => ints,
        _ => false,
    };
    elem_ok && t.memory == MemoryKind::Device && t.shape.iter().all(|&d| d >= 0)
}

fn shape(ctx: &Context, ir: &Ir, v: Value) -> Vec<i64> {
    buffer(ctx, ir, v).map(|t| t.shape).unwrap_or_default()
}

/// Whether `dims` are the last `dims.len()` axes of a rank-`rank` shape.
fn trailing(dims: &[i64], rank: usize) -> bool {
    !dims.is_empty() && dims.len() <= rank && dims.iter().enumerate().all(|(i, &d)| d == (rank - dims.len() + i) as i64)
}

fn ints_of(ctx: &Context, a: Option<Attr>) -> Option<Vec<i64>> {
    match ctx.attr_kind(a?) {
        AttrKind::DenseArray { data: fuser_ir::attrs::DenseArrayData::Int(v), .. } => Some(v.clone()),
        _ => None,
    }
}

const KERNELS: &[&str] = &["softmax", "log_softmax", "layer_norm", "rms_norm", "dropout"];

/// The member `op` would be, if it can be one.
fn member(ctx: &Context, ir: &Ir, op: OpId, group_buffers: &FxHashSet<Value>) -> Option<Member> {
    let name = ctx.op_name_str(ir.op_name(op));
    let operands = ir.operands(op).to_vec();
    let mut m = Member {
        op,
        what: What::Copy,
        inputs: Vec::new(),
        outputs: Vec::new(),
        full: Vec::new(),
        inner: None,
        origin: Vec::new(),
        global_shape: None,
    };
    match name {
        n if n == host::ELEMENTWISE.name => {
            let kind = ElementwiseKind::of_op(ctx, ir, op)?;
            let (out, ins) = operands.split_last()?;
            if !operands.iter().all(|&v| fusable_type(ctx, ir, v, false)) {
                return None;
            }
            m.what = What::Elementwise(kind);
            m.inputs = ins.to_vec();
            m.outputs = vec![*out];
            m.full = shape(ctx, ir, *out);
        }
        n if n == host::FILL.name => {
            let target = operands[0];
            if !fusable_type(ctx, ir, target, false) {
                return None;
            }
            let value = ir.props(op).and_then(|p| ctx.dict_get(p, "value"))?;
            m.what = What::Fill(value);
            m.outputs = vec![target];
            m.full = shape(ctx, ir, target);
        }
        n if n == host::COPY.name => {
            let (src, dst) = (operands[0], operands[1]);
            if !fusable_type(ctx, ir, src, false) || !fusable_type(ctx, ir, dst, false) {
                return None;
            }
            let t = buffer(ctx, ir, src)?;
            if t.elem != buffer(ctx, ir, dst)?.elem {
                return None;
            }
            m.full = shape(ctx, ir, dst);
            m.outputs = vec![dst];
            let expand = ir.defining_op(src).filter(|&d| is(ctx, ir, d, host::EXPAND.name));
            match expand {
                Some(e) if group_buffers.contains(&ir.operand(e, 0)) => {
                    let dims = ints_of(ctx, ir.props(e).and_then(|p| ctx.dict_get(p, "dims")))?;
                    if !trailing(&dims, m.full.len()) {
                        return None;
                    }
                    m.inner = Some(dims.len());
                    m.what = What::Broadcast(dims);
                    m.inputs = vec![ir.operand(e, 0)];
                }
                _ => m.inputs = vec![src],
            }
        }
        n if n == host::SUM.name || n == host::REDUCE.name => {
            let (input, output) = (operands[0], operands[1]);
            if !fusable_type(ctx, ir, input, false) || !fusable_type(ctx, ir, output, false) {
                return None;
            }
            let dims = ints_of(ctx, ir.props(op).and_then(|p| ctx.dict_get(p, "dims")))?;
            m.full = shape(ctx, ir, input);
            if !trailing(&dims, m.full.len()) {
                return None;
            }
            m.inner = Some(dims.len());
            m.what = if n == host::SUM.name {
                What::Sum(dims)
            } else {
                What::Reduce(ReduceKind::of_op(ctx, ir, op).ok()?, dims)
            };
            m.inputs = vec![input];
            m.outputs = vec![output];
        }
        n if n == host::KERNEL.name => {
            let kname = host::kernel_name(ctx, ir, op)?;
            if !KERNELS.contains(&kname) {
                return None;
            }
            let (ins, outs, origin) = host::kernel_operands(ctx, ir, op);
            let seeds_ok = |i: usize, v: Value| kname == "dropout" && i > 0 && fusable_type(ctx, ir, v, true);
            if !ins.iter().enumerate().all(|(i, &v)| fusable_type(ctx, ir, v, false) || seeds_ok(i, v))
                || !outs.iter().all(|&v| fusable_type(ctx, ir, v, false))
            {
                return None;
            }
            let params = host::kernel_params(ctx, ir, op);
            m.full = shape(ctx, ir, *ins.first()?);
            if kname == "dropout" {
                m.global_shape = Some(ints_of(ctx, ctx.dict_get(params, "global_shape"))?);
                m.origin = origin;
            } else {
                let dims = ints_of(ctx, ctx.dict_get(params, "dims"))?;
                if !trailing(&dims, m.full.len()) {
                    return None;
                }
                m.inner = Some(dims.len());
            }
            let props: Vec<(fuser_ir::Ident, Attr)> = match ctx.attr_kind(params) {
                AttrKind::Dictionary(entries) => {
                    entries.iter().filter(|(k, _)| ctx.ident_str(*k) != "global_shape").cloned().collect()
                }
                _ => Vec::new(),
            };
            m.what = What::Kernel(format!("fusion.{kname}"), ctx.dictionary(props));
            m.inputs = ins;
            m.outputs = outs;
        }
        _ => return None,
    }
    Some(m)
}

/// Ops that may sit between members without ending a group: they touch no data.
fn transparent(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let name = ctx.op_name_str(ir.op_name(op));
    name == ALLOC
        || [host::EXPAND.name, host::SLICE.name, host::SELECT.name, host::PERMUTE.name, host::RESHAPE.name]
            .contains(&name)
        || name == host::SHARD_BY_STREAM.name
        || name == host::RANK.name
        || name == host::WORLD_SIZE.name
        || (name.starts_with("arith.") && ir.regions(op).is_empty())
}

/// The buffer a view is a window of (the value itself for a buffer).
fn root(ctx: &Context, ir: &Ir, mut v: Value) -> Value {
    while let Some(d) = ir.defining_op(v) {
        let name = ctx.op_name_str(ir.op_name(d));
        if !transparent(ctx, ir, d) || name == ALLOC || ir.num_operands(d) == 0 || name.starts_with("arith.") {
            break;
        }
        v = ir.operand(d, 0);
    }
    v
}

// ----- groups ---------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Group {
    members: Vec<Member>,
    domain: Vec<i64>,
    inner: Option<usize>,
    origin: Vec<Value>,
    global_shape: Option<Vec<i64>>,
    /// Values written by members, and their roots; roots of the buffers read from outside.
    written: FxHashSet<Value>,
    written_roots: FxHashSet<Value>,
    read_roots: FxHashSet<Value>,
    /// The weights and biases of the group's norms (read along the inner axes) and the
    /// vectors its row members read from outside (read along the rows): where rows and
    /// columns have one shape, a vector of both sets, or a norm weight the group computes (a
    /// row value), would be read along the wrong axes; the decoder refuses such regions, so
    /// they are never built.
    col_inputs: FxHashSet<Value>,
    row_inputs: FxHashSet<Value>,
}

impl Group {
    /// Whether `m` fits (module docs); adds it if so.
    fn try_add(&mut self, ctx: &Context, ir: &Ir, m: &Member) -> bool {
        if self.members.is_empty() {
            self.domain = m.full.clone();
        }
        let rows = self.inner.map(|k| self.domain[..self.domain.len() - k].to_vec());
        let row_member = matches!(m.what, What::Elementwise(_) | What::Fill(_) | What::Copy)
            && rows.as_ref().is_some_and(|r| *r == m.full && m.inputs.iter().all(|&v| shape(ctx, ir, v) == *r));
        if m.full != self.domain && !row_member {
            return false;
        }
        let weights: &[Value] = match &m.what {
            What::Kernel(name, _) if name == "fusion.layer_norm" || name == "fusion.rms_norm" => {
                m.inputs.get(1..).unwrap_or(&[])
            }
            _ => &[],
        };
        if weights.iter().any(|w| self.written.contains(w) || self.row_inputs.contains(w))
            || (row_member && m.inputs.iter().any(|v| self.col_inputs.contains(v)))
        {
            return false;
        }
        if let (Some(a), Some(b)) = (self.inner, m.inner)
            && a != b
        {
            return false;
        }
        if let Some(g) = &m.global_shape
            && self.global_shape.as_ref().is_some_and(|mine| mine != g || self.origin != m.origin)
        {
            return false;
        }
        // Hazards.
        let mut reads = Vec::new();
        for &v in &m.inputs {
            if self.written.contains(&v) {
                continue;
            }
            let r = root(ctx, ir, v);
            if self.written_roots.contains(&r) {
                return false;
            }
            reads.push(r);
        }
        for &o in &m.outputs {
            let r = root(ctx, ir, o);
            if self.written.contains(&o) || self.read_roots.contains(&r) || reads.contains(&r) {
                return false;
            }
        }
        self.read_roots.extend(reads);
        self.col_inputs.extend(weights.iter().copied());
        if row_member {
            self.row_inputs.extend(m.inputs.iter().copied().filter(|v| !self.written.contains(v)));
        }
        for &o in &m.outputs {
            self.written.insert(o);
            self.written_roots.insert(root(ctx, ir, o));
        }
        if m.inner.is_some() {
            self.inner = m.inner;
        }
        if m.global_shape.is_some() {
            self.global_shape = m.global_shape.clone();
            self.origin = m.origin.clone();
        }
        self.members.push(m.clone());
        true
    }
}

/// The groups of block `b` (module docs).
fn scan(ctx: &Context, ir: &Ir, b: BlockId) -> Vec<Group> {
    let mut groups = Vec::new();
    let mut cur = Group::default();
    for op in ir.block_ops(b).collect::<Vec<_>>() {
        if let Some(m) = member(ctx, ir, op, &cur.written) {
            if cur.try_add(ctx, ir, &m) {
                continue;
            }
            groups.push(std::mem::take(&mut cur));
            let m = member(ctx, ir, op, &cur.written).expect("a member without group context");
            if !cur.try_add(ctx, ir, &m) {
                groups.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if !transparent(ctx, ir, op) {
            groups.push(std::mem::take(&mut cur));
        }
    }
    groups.push(cur);
    groups.retain(|g| g.members.iter().any(|m| !matches!(m.what, What::Copy | What::Fill(_) | What::Broadcast(_))));
    groups
}

// ----- regions --------------------------------------------------------------------------------

/// Whether `b` is used only by the group's members (directly or through `host.expand` views
/// used only by them) and allocated in the members' block.
fn intermediate(ctx: &Context, ir: &Ir, b: Value, members: &FxHashSet<OpId>, block: BlockId) -> bool {
    let Some(def) = ir.defining_op(b) else { return false };
    if !is(ctx, ir, def, ALLOC) || ir.op_block(def) != Some(block) {
        return false;
    }
    ir.uses(b).all(|u| {
        members.contains(&u.op)
            || (is(ctx, ir, u.op, host::EXPAND.name) && ir.uses(ir.result(u.op, 0)).all(|w| members.contains(&w.op)))
    })
}

fn tensor_of(ctx: &Context, ir: &Ir, v: Value) -> Type {
    host::region_tensor_type(ctx, ir.value_type(v)).expect("a fusable buffer is static")
}

/// Turns `group` into a `host.fused` (module docs); false when nothing is left to fuse.
fn build_region(ctx: &Context, ir: &mut Ir, group: &Group) -> bool {
    let last = group.members.last().expect("groups are not empty").op;
    let block = ir.op_block(last).expect("members sit in a block");
    let loc = ir.loc(last);
    let mut members: Vec<Member> = group.members.clone();
    // A fill whose buffer is used outside stays a host.fill (a region yields no constants).
    let ops: FxHashSet<OpId> = members.iter().map(|m| m.op).collect();
    members.retain(|m| !matches!(m.what, What::Fill(_)) || intermediate(ctx, ir, m.outputs[0], &ops, block));
    if !members.iter().any(|m| !matches!(m.what, What::Copy | What::Fill(_) | What::Broadcast(_))) {
        return false;
    }
    let ops: FxHashSet<OpId> = members.iter().map(|m| m.op).collect();
    // A member whose outputs are intermediates that no live member reads computes nothing
    // observable: it is erased with the others but not restated in the body (a body op
    // without uses would be deleted by the cleanup passes, leaving body arguments that only it
    // read and that the decoder cannot place: fuser-lowerfuzz, seed 42082).
    let mut needed: FxHashSet<Value> = FxHashSet::default();
    let mut live = vec![false; members.len()];
    for (i, m) in members.iter().enumerate().rev() {
        if m.outputs.iter().any(|&o| needed.contains(&o) || !intermediate(ctx, ir, o, &ops, block)) {
            live[i] = true;
            needed.extend(m.inputs.iter().copied());
        }
    }
    if !members.iter().zip(&live).any(|(m, &l)| l && !matches!(m.what, What::Copy | What::Fill(_) | What::Broadcast(_)))
    {
        // Nothing computed here is used (dead code, left for the cleanup passes), or only
        // copies and fills are.
        return false;
    }
    // Members that iterate over the domain's rows were admitted because a reduction or a norm
    // gave the group its inner axes; when every such member is dead, the region's body has no
    // inner axes and a row-shaped member fits nothing (the decoder refuses it). The group is
    // then left unfused (fusion-autodiff's sweep: a dead layer_norm's backward next to a
    // chain on its rows).
    let live_inner = members.iter().zip(&live).any(|(m, &l)| l && m.inner.is_some());
    if !live_inner && members.iter().zip(&live).any(|(m, &l)| l && m.full != group.domain) {
        return false;
    }
    let mut written: Vec<Value> = Vec::new();
    let mut inputs: Vec<Value> = Vec::new();
    for m in members.iter().zip(&live).filter(|(_, l)| **l).map(|(m, _)| m) {
        for &v in &m.inputs {
            if !written.contains(&v) && !inputs.contains(&v) {
                inputs.push(v);
            }
        }
        written.extend(m.outputs.iter().copied());
    }
    let (mut inter, outputs): (Vec<Value>, Vec<Value>) =
        written.iter().copied().partition(|&b| intermediate(ctx, ir, b, &ops, block));
    // The dead members' buffers go with them.
    for m in members.iter().zip(&live).filter(|(_, l)| !**l).map(|(m, _)| m) {
        for &o in &m.outputs {
            if !inter.contains(&o) {
                inter.push(o);
            }
        }
    }
    let origin = if members.iter().any(|m| m.global_shape.is_some()) { group.origin.clone() } else { Vec::new() };
    let global = if origin.is_empty() { None } else { group.global_shape.as_deref() };
    let state = host::fused_state(ctx, ir, &inputs, &outputs, &origin, global, loc);
    let region = state.regions[0];
    let arg_types: Vec<Type> = inputs.iter().map(|&v| tensor_of(ctx, ir, v)).collect();
    let body = ir.create_block(&arg_types);
    ir.append_block(region, body);
    let mut map: FxHashMap<Value, Value> = FxHashMap::default();
    for (i, &v) in inputs.iter().enumerate() {
        map.insert(v, ir.block_args(body)[i]);
    }
    for m in members.iter().zip(&live).filter(|(_, l)| **l).map(|(m, _)| m) {
        let args: Vec<Value> = m.inputs.iter().map(|v| map[v]).collect();
        let out_types: Vec<Type> = m.outputs.iter().map(|&v| tensor_of(ctx, ir, v)).collect();
        let results = restate(ctx, ir, body, m, &args, &out_types, loc);
        for (&o, r) in m.outputs.iter().zip(results) {
            map.insert(o, r);
        }
    }
    let yielded: Vec<Value> = outputs.iter().map(|v| map[v]).collect();
    place(ir, Placement::End(body), host::yield_state(ctx, &yielded, loc));
    place(ir, Placement::Before(last), state);
    // The views the members read (broadcasts of region values among them) die with them.
    let mut views: Vec<OpId> = members
        .iter()
        .flat_map(|m| ir.operands(m.op).to_vec())
        .filter_map(|v| ir.defining_op(v))
        .filter(|&d| is(ctx, ir, d, host::EXPAND.name))
        .collect();
    views.sort_unstable();
    views.dedup();
    for m in members.iter().rev() {
        ir.erase_op(m.op);
    }
    for v in views {
        if ir.results_unused(v) {
            ir.erase_op(v);
        }
    }
    for b in inter {
        if let Some(def) = ir.defining_op(b).filter(|_| !ir.has_uses(b)) {
            ir.erase_op(def);
        }
    }
    true
}

/// The body ops of one member; returns the tensors of its outputs.
fn restate(
    ctx: &Context,
    ir: &mut Ir,
    body: BlockId,
    m: &Member,
    args: &[Value],
    outs: &[Type],
    loc: Attr,
) -> Vec<Value> {
    let at = Placement::End(body);
    let one = |ir: &mut Ir, name: &str, operands: Vec<Value>, props: Vec<(&str, Attr)>, ty: Type| -> Value {
        let mut s = tensor_op_state(ctx, name, operands, ty, None, false, loc);
        if !props.is_empty() {
            s.props = Some(fuser_dialects::dict_of(ctx, &props));
        }
        let op = place(ir, at, s);
        ir.result(op, 0)
    };
    match &m.what {
        What::Copy => vec![args[0]],
        What::Fill(value) => vec![one(ir, "fusion.full", vec![], vec![("value", *value)], outs[0])],
        What::Broadcast(dims) => {
            let s = tensor_op_state(ctx, "fusion.broadcast", args.to_vec(), outs[0], Some(dims), false, loc);
            let op = place(ir, at, s);
            vec![ir.result(op, 0)]
        }
        What::Sum(dims) => {
            let op = place(ir, at, tensor_op_state(ctx, "fusion.sum", args.to_vec(), outs[0], Some(dims), false, loc));
            vec![ir.result(op, 0)]
        }
        What::Reduce(kind, dims) => {
            let (name, extra): (&str, Vec<(&str, Attr)>) = match kind {
                ReduceKind::Max => ("fusion.max", vec![]),
                ReduceKind::Min => ("fusion.min", vec![]),
                ReduceKind::Var { correction } => {
                    ("fusion.var", vec![("correction", ctx.int_attr(ctx.integer_type(64), *correction))])
                }
                ReduceKind::Mean { count } => {
                    // The global count (a mean over a device-split axis is a partial sum):
                    // sum, then scale, rounding once at the scale.
                    let elem = match ctx.type_kind(fuser_dialects::element_type(ctx, outs[0])) {
                        TypeKind::Float(FloatKind::F64) => ctx.float_type(FloatKind::F64),
                        _ => ctx.float_type(FloatKind::F32),
                    };
                    let TypeKind::RankedTensor { shape, .. } = ctx.type_kind(outs[0]).clone() else {
                        return vec![];
                    };
                    let wide = ctx.tensor_type(shape.clone(), elem, None);
                    let TypeKind::RankedTensor { shape: in_shape, .. } = ctx.type_kind(ir.value_type(args[0])).clone()
                    else {
                        return vec![];
                    };
                    let wide_in = one(ir, "fusion.cast", args.to_vec(), vec![], ctx.tensor_type(in_shape, elem, None));
                    let s = tensor_op_state(ctx, "fusion.sum", vec![wide_in], wide, Some(dims), false, loc);
                    let sop = place(ir, at, s);
                    let sum = ir.result(sop, 0);
                    let scale = fuser_dialects::fusion::norm::f64_attr(ctx, 1.0 / *count as f64);
                    let scale = match ctx.type_kind(elem) {
                        TypeKind::Float(FloatKind::F64) => scale,
                        _ => {
                            ctx.intern_attr(AttrKind::Float { bits: (1.0 / *count as f32).to_bits() as u128, ty: elem })
                        }
                    };
                    let k = one(ir, "fusion.full", vec![], vec![("value", scale)], wide);
                    let prod = one(ir, "fusion.mul", vec![sum, k], vec![], wide);
                    let cast = one(ir, "fusion.cast", vec![prod], vec![], outs[0]);
                    return vec![cast];
                }
            };
            let mut s = tensor_op_state(ctx, name, args.to_vec(), outs[0], Some(dims), false, loc);
            if !extra.is_empty() {
                let mut props: Vec<(&str, Attr)> = vec![("dims", host::i64_array_attr(ctx, dims))];
                props.extend(extra);
                s.props = Some(fuser_dialects::dict_of(ctx, &props));
            }
            let op = place(ir, at, s);
            vec![ir.result(op, 0)]
        }
        What::Elementwise(kind) => {
            let (name, props): (String, Vec<(&str, Attr)>) = match kind {
                ElementwiseKind::Max => ("fusion.maximum".into(), vec![]),
                ElementwiseKind::Min => ("fusion.minimum".into(), vec![]),
                ElementwiseKind::Gelu => ("fusion.gelu".into(), vec![]),
                ElementwiseKind::GeluTanh => ("fusion.gelu".into(), vec![("approximate", ctx.string_attr("tanh"))]),
                k if k.is_compare() => ("fusion.compare".into(), vec![("predicate", ctx.string_attr(k.keyword()))]),
                k => (format!("fusion.{}", k.keyword()), vec![]),
            };
            vec![one(ir, &name, args.to_vec(), props, outs[0])]
        }
        What::Kernel(name, props) => {
            let mut s = fuser_dialects::empty_state(ctx, name, loc);
            s.operands = args.to_vec();
            s.result_types = outs.to_vec();
            s.props = Some(*props);
            let op = place(ir, at, s);
            ir.results(op).to_vec()
        }
    }
}
