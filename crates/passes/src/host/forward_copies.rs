//! `host-forward-copies`: removes the copies `fusion-to-host` makes to materialize view-like
//! tensor ops (reshape, slice, permute, broadcast), by reading through views instead.
//!
//! Two rewrites, repeated until neither applies (each erases one `host.alloc`, so this ends):
//!
//! 1. **Forwarding.** A buffer `%b1 = host.alloc` written exactly once, by `host.copy %s, %b1`
//!    (`copy1`), and otherwise only read by copies `host.copy %v, %b2` (`copy2`, `%v` a chain of
//!    view ops rooted at `%b1`, possibly `%b1` itself): each `copy2` becomes
//!    `host.copy %v', %b2`, `%v'` being the same view chain re-applied on top of `%s` (placed
//!    right before `copy2`; `%s` may itself be a view). Then `copy1`, the old views, any
//!    `host.dealloc` of `%b1` and the alloc are erased. All readers are forwarded or none is, so
//!    every forwarding removes one copy. A buffer written by `copy1` and never read loses its
//!    copy and alloc too.
//! 2. **Elision of a contiguous materialization.** `host.copy %v, %b` with `%b = host.alloc` in
//!    the same block, `%v` (a buffer or view) of static shape and row-major contiguous strides,
//!    and every other use of `%b` (through views) a read by an op that accepts views: the uses
//!    of `%b` read `%v` instead; the copy and the alloc are erased. Views made from `%b` keep
//!    their types (their source's strides are the same). With `elementwise-strided=true`, `%v`
//!    may also be strided (a broadcast, a permutation, a slice along an inner axis) when every
//!    use of `%b` is a direct input of `host.elementwise`, which reads any strided operand
//!    element by element, as the copy did (off by default: it trades the copy for strided reads
//!    in the elementwise kernel, which a backend or a fusing pass may handle less well).
//!    With `gemm-strided=true` (the default), `%v` may also be a matrix in column-major order
//!    (its last two axes strided `[1, ld]`, `ld` at least the rows: a transposed row-major
//!    buffer, as autodiff's weight gradients read `dY^T`) or row-major with a leading stride
//!    above the columns, when every use of `%b` is a direct input of `host.matmul`: both
//!    backends' GEMMs read such operands in place (cuBLAS through its transpose flag).
//!
//! Re-applying a chain: `host.slice`, `host.select`, `host.shard_by_stream`, `host.expand` and
//! `host.permute` accept any strided source and keep their properties (the result type is
//! recomputed from the new source with the dialect's own type functions). `host.reshape`
//! requires a contiguous source; when the new source is not contiguous, a reshape that only
//! drops and inserts extent-1 axes is re-expressed as `host.select` at index 0 of each dropped
//! axis and `host.expand` of the inserted ones (an extent-1 axis is never stepped, so its
//! stride is irrelevant); any other reshape of a strided layout makes the rewrite give up.
//!
//! Safety. Let `R` be the *root* of the source (`%s` for forwarding, `%v` for elision): the
//! value reached by following view ops back. The rewrites make ops read `R` at later points
//! than before (forwarding: at `copy2` instead of `copy1`; elision: at each use of `%b` instead
//! of at the copy), so they are exact when `R` holds the same elements at those points:
//! - `R` is a `host.alloc` result or an argument of the function, of `device` memory (no peer
//!   writes it behind the program's back), and no `host.dealloc` frees it (the pass runs before
//!   `host-insert-dealloc`, which then sees the new reads through views and frees `R` after
//!   them).
//! - No op between the copy (exclusive) and the last of the moved reads (inclusive; an op
//!   containing a read counts whole, a loop with every iteration) may write a value aliasing
//!   `R`: `R` and the views made from it (when `R` is a function argument: every argument and
//!   its views, since arguments are not known not to alias). An op *writes* an operand unless
//!   it is known to only read it: a view op's source, a `host.copy` source, the inputs of
//!   `host.matmul`/`linear`/`elementwise`/`sum`/`reduce`/`kernel`/`fused`. Every other use of
//!   such a value (a DPS output, `host.fill`, `host.dealloc`, communication, `func.return`,
//!   unknown ops) counts as a write.
//! - When the copy sits in a `host.for` that `R` outlives (`R` defined outside it), nothing in
//!   that whole loop may write `R`: another iteration could otherwise write it between the copy
//!   and the moved read. A loop that allocates `R` itself gives each iteration its own `R`.
//! - The function has no stream ops (`host.set_stream`, `stream_wait`, ...): program order is
//!   then execution order for every op touching `R`. Run the pass before `host-assign-streams`,
//!   whose joins keep the moved reads ordered after the loop.
//! - Forwarding: `%b1` (not `persistent`, `device`) has no use but `copy1` (writing `%b1`
//!   itself), reading copies (through views) and deallocs; every `copy2` follows `copy1` in its
//!   block or in a block nested in it, and its target does not alias `R` (checked by the write
//!   rule: `copy2` is in the range). Shapes and element types of `%s` and `%b1` are equal.
//! - Elision: `%b` (not `persistent`, `device`) is written by the copy only; every other use is
//!   a read, after the copy, in its block or nested in it (so `%v` dominates it); no use is a
//!   return, a communication or an unknown op (they may need a `!host.buf`, or write), and none
//!   is a dealloc.
//!
//! When any condition fails, nothing is rewritten.

use super::build::*;
use fuser_dialects::host::layout_views::{expand_type, permute_type, reshape_type};
use fuser_dialects::host::types::{BufferType, MemoryKind};
use fuser_dialects::host::{
    self, ALLOC, COPY, DEALLOC, EXPAND, FUSED, KERNEL, PERMUTE, RESHAPE, SELECT, SHARD_BY_STREAM, SLICE, expand_state,
    select_state, select_type, shard_by_stream_type, slice_type,
};
use fuser_ir::Diagnostic;
use fuser_ir::attrs::{Attr, AttrKind, DenseArrayData};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, OperationState, Value, ValueDef, WalkOrder};
use fuser_ir::pass::{OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};
use fuser_ir::types::DYNAMIC;
use rustc_hash::FxHashSet;

pub static HOST_FORWARD_COPIES: PassInfo = PassInfo {
    name: "host-forward-copies",
    display: "HostForwardCopies",
    summary: "Remove copies that materialize views: read through the composed views instead",
    description: "Forwarding: a buffer written once by `host.copy %s, %b1` and only read by copies \
of views of it has those views re-applied on `%s`; the first copy and the buffer go. Elision: \
`host.copy %v, %b` of a row-major contiguous view `%v` into a fresh buffer `%b` that is only \
read afterwards is removed and `%b`'s readers read `%v`. Both require that the root buffer of the \
source is not written while the new reads are pending, and a function without stream ops: run it \
before `host-assign-streams` and `host-insert-dealloc`.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| {
        let strided = Strided { elementwise: o.get_bool("elementwise-strided"), gemm: o.get_bool("gemm-strided") };
        Ok(Box::new(ForwardCopies { strided, values: o.clone() }))
    },
};

static OPTIONS: &[OptionDef] = &[
    OptionDef::new(
        "elementwise-strided",
        OptionType::Bool,
        "false",
        "Also elide copies of strided (e.g. broadcast or permuted) views whose only readers are host.elementwise inputs",
    ),
    OptionDef::new(
        "gemm-strided",
        OptionType::Bool,
        "true",
        "Also elide copies of transposed (column-major) matrix views whose only readers are host.matmul inputs",
    ),
];

/// Which strided views elision may keep (the pass options).
#[derive(Clone, Copy, Debug, Default)]
pub struct Strided {
    /// Any strided view read only by `host.elementwise` inputs.
    pub elementwise: bool,
    /// Column-major (or padded row-major) matrices read only by `host.matmul` inputs.
    pub gemm: bool,
}

struct ForwardCopies {
    strided: Strided,
    values: OptionValues,
}

impl Pass for ForwardCopies {
    fn info(&self) -> &'static PassInfo {
        &HOST_FORWARD_COPIES
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        Ok(PassOutcome::from_changed(forward_copies(ctx, ir, func, self.strided)))
    }
}

/// The view ops: a view of their first operand; other operands are indices.
const VIEW_OPS: [&str; 6] = [SHARD_BY_STREAM.name, SELECT.name, SLICE.name, EXPAND.name, PERMUTE.name, RESHAPE.name];

/// Runs both rewrites on `func` until neither applies; returns whether anything changed.
/// `strided` says which strided views elision may also keep (see [`Strided`]).
pub fn forward_copies(ctx: &Context, ir: &mut Ir, func: OpId, strided: Strided) -> bool {
    if body_block(ir, func).is_none() || has_stream_ops(ctx, ir, func) {
        return false;
    }
    let mut zero = None;
    let mut changed = false;
    loop {
        let mut round = false;
        let allocs: Vec<OpId> = ir.nested_ops(func).into_iter().filter(|&op| is(ctx, ir, op, ALLOC.name)).collect();
        for alloc in allocs {
            if ir.is_live_op(alloc) {
                round |= forward_buffer(ctx, ir, func, alloc, &mut zero);
            }
        }
        let copies: Vec<OpId> = ir.nested_ops(func).into_iter().filter(|&op| is(ctx, ir, op, COPY.name)).collect();
        for copy in copies {
            if ir.is_live_op(copy) {
                round |= elide_copy(ctx, ir, func, copy, strided);
            }
        }
        if !round {
            return changed;
        }
        changed = true;
    }
}

// ----- rewrite 1: forwarding ------------------------------------------------------------------

/// Forwards the copy into the buffer of `alloc` to its readers; returns whether it did.
fn forward_buffer(ctx: &Context, ir: &mut Ir, func: OpId, alloc: OpId, zero: &mut Option<Value>) -> bool {
    let Some(&b1) = ir.results(alloc).first() else { return false };
    if !fresh_device_buffer(ctx, ir, alloc) {
        return false;
    }
    let Some(uses) = BufferUses::collect(ctx, ir, b1) else { return false };
    let [copy1] = uses.writers[..] else { return false };
    if ir.operand(copy1, 1) != b1 || !uses.others.is_empty() {
        return false;
    }
    let s = ir.operand(copy1, 0);
    let (Some(st), Some(bt)) = (buffer(ctx, ir, s), buffer(ctx, ir, b1)) else { return false };
    if st.shape != bt.shape || st.elem != bt.elem {
        return false;
    }
    let (root, _) = view_root(ctx, ir, s);
    if uses.aliases.contains(&root) || !root_is_stable(ctx, ir, func, root) {
        return false;
    }
    let Some(block) = ir.op_block(copy1) else { return false };
    let mut anchors = FxHashSet::default();
    for &r in &uses.readers {
        match ancestor_in_block(ir, block, r) {
            Some(a) => anchors.insert(a),
            None => return false,
        };
    }
    let protected = protected_values(ctx, ir, func, root);
    if !clear_until(ctx, ir, copy1, anchors, &protected) || !loops_clear(ctx, ir, func, copy1, root, &protected) {
        return false;
    }
    // Plan every reader before changing anything: all are forwarded or none is.
    let mut plans = Vec::with_capacity(uses.readers.len());
    for &r in &uses.readers {
        let chain = chain_from(ctx, ir, ir.operand(r, 0));
        match plan_chain(ctx, ir, &chain, &st) {
            Some(steps) => plans.push((r, steps)),
            None => return false,
        }
    }
    for (r, steps) in plans {
        let v = apply_chain(ctx, ir, func, r, s, &steps, zero);
        ir.set_operand(r, 0, v);
    }
    ir.erase_op(copy1);
    for d in uses.deallocs {
        ir.erase_op(d);
    }
    for &view in uses.views.iter().rev() {
        ir.erase_op(view);
    }
    ir.erase_op(alloc);
    erase_dead_views(ctx, ir, s);
    true
}

/// A `host.alloc` that is not `persistent`, of `device` memory.
fn fresh_device_buffer(ctx: &Context, ir: &Ir, alloc: OpId) -> bool {
    let persistent = ir.props(alloc).is_some_and(|p| ctx.dict_get(p, "persistent").is_some());
    !persistent && buffer(ctx, ir, ir.result(alloc, 0)).is_some_and(|t| t.memory == MemoryKind::Device)
}

/// Erases `v`'s defining view op when nothing uses it, then its source's, and so on.
fn erase_dead_views(ctx: &Context, ir: &mut Ir, mut v: Value) {
    while let Some(op) = ir.defining_op(v) {
        if !is_view(ctx, ir, op) || ir.has_uses(v) {
            return;
        }
        v = ir.operand(op, 0);
        ir.erase_op(op);
    }
}

// ----- rewrite 2: elision ---------------------------------------------------------------------

/// Removes `copy` (`host.copy %v, %b`) when `%b` can be replaced by the contiguous `%v`.
fn elide_copy(ctx: &Context, ir: &mut Ir, func: OpId, copy: OpId, strided: Strided) -> bool {
    let (v, b) = (ir.operand(copy, 0), ir.operand(copy, 1));
    let Some(alloc) = ir.defining_op(b) else { return false };
    if !is(ctx, ir, alloc, ALLOC.name)
        || ir.op_block(alloc) != ir.op_block(copy)
        || !fresh_device_buffer(ctx, ir, alloc)
    {
        return false;
    }
    let (Some(vt), Some(bt)) = (buffer(ctx, ir, v), buffer(ctx, ir, b)) else { return false };
    let static_shape = !vt.shape.contains(&DYNAMIC);
    let contiguous = vt.strides.as_ref().is_none_or(|s| *s == BufferType::contiguous_strides(&vt.shape));
    if vt.shape != bt.shape || vt.elem != bt.elem || !static_shape {
        return false;
    }
    let Some(uses) = BufferUses::collect(ctx, ir, b) else { return false };
    if uses.writers != [copy] || !uses.deallocs.is_empty() {
        return false;
    }
    // A strided view replaces the buffer only as a direct input of `host.elementwise` (which reads
    // any strided operand, stride 0 included), and only when asked to.
    let elementwise_only = uses.views.is_empty()
        && uses.readers.is_empty()
        && uses.others.iter().all(|&op| is(ctx, ir, op, host::ELEMENTWISE.name));
    // A matrix a GEMM reads in place (row- or column-major in its last two axes) replaces the
    // buffer only as a direct input of `host.matmul`.
    let gemm_only = uses.views.is_empty()
        && uses.readers.is_empty()
        && !uses.others.is_empty()
        && uses.others.iter().all(|&op| is(ctx, ir, op, host::MATMUL.name));
    let gemm_ok = strided.gemm && gemm_only && vt.strides.as_ref().is_some_and(|s| gemm_readable(&vt.shape, s));
    if !(contiguous || strided.elementwise && elementwise_only || gemm_ok) {
        return false;
    }
    let (root, _) = view_root(ctx, ir, v);
    if uses.aliases.contains(&root) || !root_is_stable(ctx, ir, func, root) {
        return false;
    }
    let Some(block) = ir.op_block(copy) else { return false };
    let mut anchors = FxHashSet::default();
    for &op in uses.readers.iter().chain(&uses.others).chain(&uses.views) {
        match ancestor_in_block(ir, block, op) {
            Some(a) if a != copy => anchors.insert(a),
            _ => return false,
        };
    }
    let protected = protected_values(ctx, ir, func, root);
    if !clear_until(ctx, ir, copy, anchors, &protected) || !loops_clear(ctx, ir, func, copy, root, &protected) {
        return false;
    }
    ir.replace_uses_where(b, v, |_, u| u.op != copy);
    ir.erase_op(copy);
    ir.erase_op(alloc);
    true
}

/// Whether a GEMM reads a view of `shape` and `strides` in place: its last two axes `[r, c]`
/// strided `[ld, 1]` with `ld >= c` (row-major) or `[1, ld]` with `ld >= r` (column-major),
/// extents of 1 ignored; the batch axes any.
fn gemm_readable(shape: &[i64], strides: &[i64]) -> bool {
    let n = shape.len();
    if n < 2 || strides.len() != n {
        return false;
    }
    let (r, c, sr, sc) = (shape[n - 2], shape[n - 1], strides[n - 2], strides[n - 1]);
    let row_major = (c <= 1 || sc == 1) && (r <= 1 || sr >= c.max(1));
    let col_major = (r <= 1 || sr == 1) && (c <= 1 || sc >= r.max(1));
    row_major || col_major
}

// ----- uses and accesses ----------------------------------------------------------------------

/// How an op uses one of its buffer-like operands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Access {
    /// The source of a view op: an alias, no access by itself.
    View,
    /// Only read.
    Read,
    /// Written, freed, handed to communication or to an op this pass does not know: anything.
    Other,
}

/// How `op` uses its operand number `i`.
fn access(ctx: &Context, ir: &Ir, op: OpId, i: usize) -> Access {
    let name = ctx.op_name_str(ir.op_name(op));
    let n = ir.num_operands(op);
    let read = |yes: bool| if yes { Access::Read } else { Access::Other };
    match name {
        _ if VIEW_OPS.contains(&name) => {
            if i == 0 {
                Access::View
            } else {
                Access::Read
            }
        }
        _ if name == host::COPY.name || name == host::SUM.name || name == host::REDUCE.name => read(i == 0),
        _ if name == host::MATMUL.name || name == host::LINEAR.name || name == host::ELEMENTWISE.name => {
            read(i + 1 < n)
        }
        _ if name == KERNEL.name || name == FUSED.name => {
            let def = if name == KERNEL.name { &KERNEL } else { &FUSED };
            let inputs = def.operand_group(ctx, ir, op, 0).map_or(0, |g| g.len());
            read(i < inputs)
        }
        _ => Access::Other,
    }
}

/// The uses of a buffer `b`, through the views made from it.
struct BufferUses {
    /// `b` and every view made from it.
    aliases: FxHashSet<Value>,
    /// The view ops made from `b`, sources before the views made from them.
    views: Vec<OpId>,
    /// `host.copy` ops writing `b` or a view of it.
    writers: Vec<OpId>,
    /// `host.copy` ops reading `b` (through views) into another buffer.
    readers: Vec<OpId>,
    /// `host.dealloc b`.
    deallocs: Vec<OpId>,
    /// The other ops reading `b` (through views): compute inputs.
    others: Vec<OpId>,
}

impl BufferUses {
    /// Classifies every use of `b`; `None` when one is neither a view, a read, a copy into it
    /// nor a dealloc (or a copy reads and writes it).
    fn collect(ctx: &Context, ir: &Ir, b: Value) -> Option<BufferUses> {
        let mut u = BufferUses {
            aliases: FxHashSet::default(),
            views: Vec::new(),
            writers: Vec::new(),
            readers: Vec::new(),
            deallocs: Vec::new(),
            others: Vec::new(),
        };
        let mut work = std::collections::VecDeque::from([b]);
        while let Some(v) = work.pop_front() {
            u.aliases.insert(v);
            for use_ in ir.uses(v) {
                let (op, i) = (use_.op, use_.index as usize);
                let is_copy = is(ctx, ir, op, COPY.name);
                match access(ctx, ir, op, i) {
                    Access::View => {
                        u.views.push(op);
                        work.push_back(ir.result(op, 0));
                    }
                    Access::Read if is_copy => u.readers.push(op),
                    Access::Read => u.others.push(op),
                    Access::Other if is_copy && i == 1 => u.writers.push(op),
                    Access::Other if is(ctx, ir, op, DEALLOC.name) && v == b => u.deallocs.push(op),
                    Access::Other => return None,
                }
            }
        }
        // A copy from `b` into `b` (or views of it) is both a reader and a writer.
        if u.readers.iter().any(|r| u.writers.contains(r)) {
            return None;
        }
        Some(u)
    }
}

/// The value reached from `v` by following view ops back to their sources, and those ops
/// (the outermost first).
fn view_root(ctx: &Context, ir: &Ir, mut v: Value) -> (Value, Vec<OpId>) {
    let mut ops = Vec::new();
    while let Some(op) = ir.defining_op(v).filter(|&op| is_view(ctx, ir, op)) {
        ops.push(op);
        v = ir.operand(op, 0);
    }
    (v, ops)
}

/// The view ops leading from `v`'s root to `v`, the one applied to the root first.
fn chain_from(ctx: &Context, ir: &Ir, v: Value) -> Vec<OpId> {
    let (_, mut ops) = view_root(ctx, ir, v);
    ops.reverse();
    ops
}

fn is_view(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    VIEW_OPS.contains(&ctx.op_name_str(ir.op_name(op)))
}

fn buffer(ctx: &Context, ir: &Ir, v: Value) -> Option<BufferType> {
    BufferType::of(ctx, ir.value_type(v))
}

/// Whether `root` is a buffer whose elements only the program's own ops change: a `host.alloc`
/// result or an argument of `func`, of `device` memory, never freed.
fn root_is_stable(ctx: &Context, ir: &Ir, func: OpId, root: Value) -> bool {
    let owned = match ir.value_def(root) {
        ValueDef::OpResult { op, .. } => is(ctx, ir, op, ALLOC.name),
        ValueDef::BlockArg { block, .. } => body_block(ir, func) == Some(block),
        ValueDef::Placeholder => false,
    };
    let device = buffer(ctx, ir, root).is_some_and(|t| t.memory == MemoryKind::Device);
    owned && device && !ir.uses(root).any(|u| is(ctx, ir, u.op, DEALLOC.name))
}

/// The values a write to which may change `root`'s elements: `root` and its views, or, for a
/// function argument, every buffer argument and its views (arguments may alias each other).
fn protected_values(ctx: &Context, ir: &Ir, func: OpId, root: Value) -> FxHashSet<Value> {
    let is_arg = matches!(ir.value_def(root), ValueDef::BlockArg { .. });
    let mut work: Vec<Value> = match body_block(ir, func) {
        Some(body) if is_arg => ir.block_args(body).to_vec(),
        _ => vec![root],
    };
    let mut out = FxHashSet::default();
    while let Some(v) = work.pop() {
        if !out.insert(v) {
            continue;
        }
        for u in ir.uses(v) {
            if u.index == 0 && is_view(ctx, ir, u.op) {
                work.push(ir.result(u.op, 0));
            }
        }
    }
    out
}

/// Whether `op` or an op nested in it may write one of `protected`.
fn may_write(ctx: &Context, ir: &Ir, op: OpId, protected: &FxHashSet<Value>) -> bool {
    ir.collect_ops(op, WalkOrder::PreOrder).into_iter().any(|o| {
        ir.operands(o).iter().enumerate().any(|(i, v)| protected.contains(v) && access(ctx, ir, o, i) == Access::Other)
    })
}

/// Whether every op of `anchors` (ops of `from`'s block) follows `from`, and no op after
/// `from` up to the last of them (included, with its nested ops) may write `protected`.
fn clear_until(ctx: &Context, ir: &Ir, from: OpId, mut anchors: FxHashSet<OpId>, protected: &FxHashSet<Value>) -> bool {
    let mut cur = ir.next_op(from);
    while !anchors.is_empty() {
        let Some(op) = cur else { return false };
        if may_write(ctx, ir, op, protected) {
            return false;
        }
        anchors.remove(&op);
        cur = ir.next_op(op);
    }
    true
}

/// Whether no `host.for` around `at` that `root` outlives may write `protected` anywhere (in
/// another iteration it could run between `at` and a moved read).
fn loops_clear(ctx: &Context, ir: &Ir, func: OpId, at: OpId, root: Value, protected: &FxHashSet<Value>) -> bool {
    let mut cur = ir.parent_op(at);
    while let Some(p) = cur {
        if p == func {
            break;
        }
        if is(ctx, ir, p, FOR) && defined_outside(ir, root, p) && may_write(ctx, ir, p, protected) {
            return false;
        }
        cur = ir.parent_op(p);
    }
    true
}

// ----- re-applying view chains ----------------------------------------------------------------

/// One view op to build on top of the previous one.
enum Step {
    /// The op again, with the new source and this result type.
    Clone { op: OpId, result: BufferType },
    /// A reshape that only drops (`select` at 0, highest axis first) and inserts (`expand`)
    /// extent-1 axes, to `shape`.
    UnitReshape { op: OpId, drops: Vec<i64>, inserts: Vec<i64>, shape: Vec<i64> },
}

/// The steps that re-apply `chain` on a source of type `src`; `None` when one op does not
/// accept the new layout.
fn plan_chain(ctx: &Context, ir: &Ir, chain: &[OpId], src: &BufferType) -> Option<Vec<Step>> {
    let mut cur = src.clone();
    let mut steps = Vec::with_capacity(chain.len());
    for &op in chain {
        let old = buffer(ctx, ir, ir.result(op, 0))?;
        let (step, next) = plan_op(ctx, ir, op, &cur, &old)?;
        if next.shape != old.shape || next.elem != old.elem || next.memory != old.memory {
            return None;
        }
        steps.push(step);
        cur = next;
    }
    Some(steps)
}

/// The step re-applying `op` (whose result is `old`) on `src`, and its result type.
fn plan_op(ctx: &Context, ir: &Ir, op: OpId, src: &BufferType, old: &BufferType) -> Option<(Step, BufferType)> {
    let name = ctx.op_name_str(ir.op_name(op));
    let ints = |key: &str| prop_ints(ctx, ir, op, key);
    let int = |key: &str| prop(ctx, ir, op, key).and_then(|a| ctx.attr_i64(a));
    let result = match name {
        _ if name == SHARD_BY_STREAM.name => shard_by_stream_type(src, int("axis")?, int("chunks")?).ok()?,
        _ if name == SELECT.name => select_type(src, int("axis")?).ok()?,
        _ if name == SLICE.name => {
            slice_type(src, &ints("static_offsets")?, &ints("static_sizes")?, &ints("static_strides")?).ok()?
        }
        _ if name == EXPAND.name => expand_type(src, &ints("dims")?, &old.shape).ok()?,
        _ if name == PERMUTE.name => permute_type(src, &ints("dims")?).ok()?,
        _ if name == RESHAPE.name => match reshape_type(src, &old.shape) {
            Ok(t) => t,
            Err(_) => {
                let (drops, inserts, result) = plan_unit_reshape(src, &old.shape)?;
                return Some((Step::UnitReshape { op, drops, inserts, shape: old.shape.clone() }, result));
            }
        },
        _ => return None,
    };
    Some((Step::Clone { op, result: result.clone() }, result))
}

/// A reshape of the strided `src` to `shape` that only drops and inserts extent-1 axes: the
/// axes to `select` at 0 (highest first), those to `expand`, and the resulting view type; `None`
/// for any other reshape, or with dynamic or zero extents.
fn plan_unit_reshape(src: &BufferType, shape: &[i64]) -> Option<(Vec<i64>, Vec<i64>, BufferType)> {
    if src.shape.iter().chain(shape).any(|&d| d == DYNAMIC || d == 0) {
        return None;
    }
    let kept = |s: &[i64]| s.iter().copied().filter(|&d| d != 1).collect::<Vec<_>>();
    if kept(&src.shape) != kept(shape) {
        return None;
    }
    let mut cur = src.clone();
    let mut drops = Vec::new();
    for axis in (0..src.shape.len()).rev().filter(|&a| src.shape[a] == 1) {
        cur = select_type(&cur, axis as i64).ok()?;
        drops.push(axis as i64);
    }
    let inserts: Vec<i64> = (0..shape.len()).filter(|&a| shape[a] == 1).map(|a| a as i64).collect();
    if !inserts.is_empty() {
        cur = expand_type(&cur, &inserts, shape).ok()?;
    }
    Some((drops, inserts, cur))
}

/// Builds `steps` on `src` right before `at`; returns the last view.
fn apply_chain(
    ctx: &Context,
    ir: &mut Ir,
    func: OpId,
    at: OpId,
    src: Value,
    steps: &[Step],
    zero: &mut Option<Value>,
) -> Value {
    let mut cur = src;
    for step in steps {
        match step {
            Step::Clone { op, result } => {
                let mut operands = ir.operands(*op).to_vec();
                operands[0] = cur;
                let state = OperationState {
                    name: ir.op_name(*op),
                    operands,
                    result_types: vec![result.to_type(ctx)],
                    successors: Vec::new(),
                    regions: Vec::new(),
                    attrs: ir.attrs(*op),
                    props: ir.props(*op),
                    loc: ir.loc(*op),
                };
                let new = place(ir, Placement::Before(at), state);
                cur = ir.result(new, 0);
            }
            Step::UnitReshape { op, drops, inserts, shape } => {
                let loc = ir.loc(*op);
                for &axis in drops {
                    let index = index_zero(ctx, ir, func, zero);
                    let state = select_state(ctx, ir, cur, index, axis, loc).expect("planned select fits");
                    let new = place(ir, Placement::Before(at), state);
                    cur = ir.result(new, 0);
                }
                if !inserts.is_empty() {
                    let state = expand_state(ctx, ir, cur, inserts, shape, loc).expect("planned expand fits");
                    let new = place(ir, Placement::Before(at), state);
                    cur = ir.result(new, 0);
                }
            }
        }
    }
    cur
}

/// `arith.constant 0 : index` at the start of `func`, made once.
fn index_zero(ctx: &Context, ir: &mut Ir, func: OpId, zero: &mut Option<Value>) -> Value {
    if let Some(z) = *zero
        && ir.is_live_value(z)
    {
        return z;
    }
    let body = body_block(ir, func).expect("the function has a body");
    let at = match ir.first_op(body) {
        Some(first) => Placement::Before(first),
        None => Placement::End(body),
    };
    let loc = ir.loc(func);
    let op = place(ir, at, index_constant(ctx, 0, loc));
    let z = ir.result(op, 0);
    *zero = Some(z);
    z
}

/// The inherent attribute `key` of `op` (property, else discardable attribute).
fn prop(ctx: &Context, ir: &Ir, op: OpId, key: &str) -> Option<Attr> {
    ir.props(op).and_then(|p| ctx.dict_get(p, key)).or_else(|| ctx.dict_get(ir.attrs(op), key))
}

/// The integers of the `array<i64: ...>` attribute `key` of `op`.
fn prop_ints(ctx: &Context, ir: &Ir, op: OpId, key: &str) -> Option<Vec<i64>> {
    match ctx.attr_kind(prop(ctx, ir, op, key)?) {
        AttrKind::DenseArray { data: DenseArrayData::Int(v), .. } => Some(v.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::diag::SourceFile;
    use fuser_ir::parser::parse_source;
    use fuser_ir::types::FloatKind;
    use std::sync::Arc;

    fn strided(ctx: &Context, shape: &[i64], strides: &[i64]) -> BufferType {
        BufferType {
            shape: shape.to_vec(),
            elem: ctx.float_type(FloatKind::F32),
            memory: MemoryKind::Device,
            strides: Some(strides.to_vec()),
        }
    }

    fn unit_reshape(src: &BufferType, shape: &[i64]) -> Option<(Vec<i64>, Vec<i64>, BufferType)> {
        plan_unit_reshape(src, shape)
    }

    #[test]
    fn unit_reshapes_of_strided_layouts_become_select_and_expand() {
        let ctx = Context::new(fuser_dialects::registry());
        let slice = strided(&ctx, &[16, 2, 1, 8], &[48, 24, 8, 1]);
        let (drops, inserts, t) = unit_reshape(&slice, &[16, 2, 8]).unwrap();
        assert_eq!((drops, inserts), (vec![2], vec![]));
        assert_eq!(t.strides, Some(vec![48, 24, 1]));
        let permuted = strided(&ctx, &[2, 16, 8], &[24, 48, 1]);
        let (drops, inserts, t) = unit_reshape(&permuted, &[1, 2, 16, 1, 8]).unwrap();
        assert_eq!((drops, inserts), (vec![], vec![0, 3]));
        assert_eq!((t.shape, t.strides), (vec![1, 2, 16, 1, 8], Some(vec![0, 24, 48, 0, 1])));
        // Merging or splitting axes of a strided layout is not a unit reshape.
        assert!(unit_reshape(&permuted, &[32, 8]).is_none());
        assert!(unit_reshape(&permuted, &[2, 16, 2, 4]).is_none());
        assert!(unit_reshape(&strided(&ctx, &[DYNAMIC, 1], &[2, 1]), &[DYNAMIC]).is_none());
    }

    const PROGRAM: &str = r#"
func.func @f(%x: !host.buf<4x6xf32>, %w: !host.buf<2x6xf32>) -> !host.buf<2x3x4xf32> {
  %a = host.alloc() : !host.buf<4x6xf32>
  host.elementwise neg %x into %a : !host.buf<4x6xf32>, !host.buf<4x6xf32>
  %t = host.alloc() : !host.buf<4x2x3xf32>
  %r = host.reshape %a : !host.buf<4x6xf32> -> !host.view<4x2x3xf32, strides = [6, 3, 1]>
  host.copy %r, %t : !host.view<4x2x3xf32, strides = [6, 3, 1]>, !host.buf<4x2x3xf32>
  %o = host.alloc() : !host.buf<2x3x4xf32>
  %p = host.permute %t dims = [1, 2, 0] : !host.buf<4x2x3xf32> -> !host.view<2x3x4xf32, strides = [3, 1, 6]>
  host.copy %p, %o : !host.view<2x3x4xf32, strides = [3, 1, 6]>, !host.buf<2x3x4xf32>
  %m = host.alloc() : !host.buf<4x6xf32>
  host.copy %a, %m : !host.buf<4x6xf32>, !host.buf<4x6xf32>
  %y = host.alloc() : !host.buf<4x2xf32>
  host.linear %m, %w into %y : !host.buf<4x6xf32>, !host.buf<2x6xf32>, !host.buf<4x2xf32>
  return %o : !host.buf<2x3x4xf32>
}
"#;

    #[test]
    fn both_rewrites_apply_once_and_keep_the_program_valid() {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let module = parse_source(&ctx, &mut ir, &SourceFile::new("t.mlir", Arc::from(PROGRAM))).expect("parses");
        let func = ir.collect_ops(module, WalkOrder::PreOrder).into_iter().find(|&o| is(&ctx, &ir, o, "func.func"));
        let func = func.expect("a function");
        let copies = |ir: &Ir| ir.nested_ops(func).into_iter().filter(|&o| is(&ctx, ir, o, COPY.name)).count();
        assert_eq!(copies(&ir), 3);
        assert!(forward_copies(&ctx, &mut ir, func, Strided::default()));
        assert!(!forward_copies(&ctx, &mut ir, func, Strided::default()), "a second run finds nothing");
        if let Err(d) = fuser_ir::verifier::verify(&ctx, &ir, module) {
            panic!("{}", d[0].message);
        }
        // The permute reads the reshape of %a (forwarded); the linear reads %a (elided).
        assert_eq!(copies(&ir), 1);
        let linear = ir.nested_ops(func).into_iter().find(|&o| is(&ctx, &ir, o, host::LINEAR.name)).unwrap();
        let x = ir.operand(linear, 0);
        assert!(matches!(ir.value_def(x), ValueDef::OpResult { op, .. } if is(&ctx, &ir, op, ALLOC.name)));
        assert_eq!(access(&ctx, &ir, linear, 0), Access::Read);
        assert_eq!(access(&ctx, &ir, linear, 2), Access::Other);
    }
}
