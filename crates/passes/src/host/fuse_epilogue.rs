//! `host-fuse-epilogue`: folds the elementwise op that consumes a `host.linear`'s result into
//! the linear's GEMM epilogue (issue 24, item 3), so that the cuda backend runs one cuBLASLt
//! call instead of a GEMM, a round trip of the intermediate through memory and a second kernel.
//!
//! In every block (function bodies and loop bodies alike), for a `host.linear ... into %t`
//! whose `%t` is a `host.alloc` of the same block used by nothing else than the linear, one
//! `host.elementwise` after it in the block, and `host.dealloc`s after that:
//!
//! - (a) `host.elementwise gelu_tanh %t into %y` → `host.linear ... into %y epilogue =
//!   gelu_tanh` (the linear has no residual, epilogue nor `accumulate`);
//! - (b) `host.elementwise add %t, %r into %y` (or `%r, %t`), with `%t`, `%r` and `%y` of one
//!   shape and element type → `host.linear ... into %y residual %r`; when `%y` is `%r` itself
//!   (`h = h + linear(...)`, the residual stream) the result is `host.linear ... into %r
//!   accumulate` (cuBLASLt's `C = D`, beta = 1) instead (the linear has no residual, epilogue
//!   nor `accumulate`).
//!
//! The fused linear takes the elementwise op's place (all its operands dominate it: the
//! linear's are defined before the linear, the elementwise op's before that op); the old
//! linear, the elementwise op, the alloc of `%t` and its deallocs are erased. Moving the GEMM
//! later is sound when nothing in between writes what it reads: no op between the two (nor one
//! nested in them) touches a buffer that `%x`, `%w`, `%bias` or `%r` are views of, except by
//! reading it through a op whose written operands are known (the DPS compute ops), and no
//! stream op sits in between (the GEMM would change streams). The output `%y` must not be a
//! view of the buffer behind `%x`, `%w` or `%bias` (a GEMM must not overwrite its inputs while
//! reading them, where the elementwise op could), nor of `%r`'s unless it is `%r` itself.
//! Buffers are told apart by their root: the `host.alloc` or block argument a chain of view
//! ops (`shard_by_stream`, `select`, `slice`, `expand`, `permute`, `reshape`) starts from;
//! different roots never alias (function arguments are distinct buffers).
//!
//! Cost: one walk over the ops; each candidate scans the ops between its two positions.

use super::build::{DEALLOC, has_stream_ops, is};
use fuser_dialects::host::types::BufferType;
use fuser_dialects::host::{self, ElementwiseKind, LinearEpilogue, linear_epilogue_state, linear_parts};
use fuser_ir::Diagnostic;
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, Value};
use fuser_ir::pass::{OptionValues, Pass, PassInfo, PassOutcome};

pub static HOST_FUSE_EPILOGUE: PassInfo = PassInfo {
    name: "host-fuse-epilogue",
    display: "HostFuseEpilogue",
    summary: "Fuse a linear's gelu_tanh or residual add into its GEMM epilogue",
    description: "Rewrites `host.linear ... into %t` followed by `host.elementwise gelu_tanh %t \
into %y` into `host.linear ... into %y epilogue = gelu_tanh`, and followed by `host.elementwise \
add %t, %r into %y` into `host.linear ... into %y residual %r` (`accumulate` into `%r` when `%y` \
is `%r`), when `%t` is a `host.alloc` of the same block that nothing else uses, and nothing \
between the two ops writes the linear's inputs or switches streams. The alloc and deallocs of \
`%t` go. Run it on host programs before `host-assign-streams`.",
    anchor: Some("func.func"),
    options: &[],
    create: |o| Ok(Box::new(FuseEpilogue { values: o.clone() })),
};

struct FuseEpilogue {
    values: OptionValues,
}

impl Pass for FuseEpilogue {
    fn info(&self) -> &'static PassInfo {
        &HOST_FUSE_EPILOGUE
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        Ok(PassOutcome::from_changed(fuse_epilogues(ctx, ir, func)))
    }
}

/// Fuses every candidate in `root`'s blocks; returns whether anything changed.
pub fn fuse_epilogues(ctx: &Context, ir: &mut Ir, root: OpId) -> bool {
    let linears: Vec<OpId> = ir.nested_ops(root).into_iter().filter(|&op| is(ctx, ir, op, host::LINEAR.name)).collect();
    let mut changed = false;
    for linear in linears {
        // Each rewrite erases only its own linear, elementwise op, alloc and deallocs: the
        // other linears stay valid.
        if let Some(plan) = candidate(ctx, ir, linear) {
            apply(ctx, ir, plan);
            changed = true;
        }
    }
    changed
}

/// One rewrite.
struct Plan {
    linear: OpId,
    elementwise: OpId,
    alloc: OpId,
    deallocs: Vec<OpId>,
    /// The fused linear's residual, output, accumulation and epilogue.
    residual: Option<Value>,
    y: Value,
    accumulate: bool,
    epilogue: Option<LinearEpilogue>,
}

/// The rewrite of `linear`, if it is a candidate.
fn candidate(ctx: &Context, ir: &Ir, linear: OpId) -> Option<Plan> {
    let parts = linear_parts(ctx, ir, linear)?;
    if parts.accumulate || parts.residual.is_some() || !matches!(parts.epilogue, Ok(None)) {
        return None;
    }
    let block = ir.op_block(linear)?;
    let t = parts.y;
    let alloc = ir.defining_op(t).filter(|&a| is(ctx, ir, a, host::ALLOC.name) && ir.op_block(a) == Some(block))?;
    // Every use of %t: the linear (as its output only), one elementwise op, deallocs.
    let mut elementwise = None;
    let mut deallocs = Vec::new();
    for u in ir.uses(t) {
        if u.op == linear {
            if u.index as usize != ir.num_operands(linear) - 1 {
                return None;
            }
        } else if is(ctx, ir, u.op, DEALLOC) {
            deallocs.push(u.op);
        } else if elementwise.replace(u.op).is_some() {
            return None;
        }
    }
    let elementwise = elementwise.filter(|&e| is(ctx, ir, e, host::ELEMENTWISE.name))?;
    let between = ops_between(ir, block, linear, elementwise)?;
    // The deallocs come after the elementwise op.
    if deallocs.iter().any(|&d| ir.op_block(d) != Some(block) || between.contains(&d)) {
        return None;
    }
    let operands = ir.operands(elementwise).to_vec();
    // Every buffer of the elementwise op has %t's shape and element type (the verifier allows
    // `?` against a static extent; the linear's output must match its expected shape itself).
    let same_as_t = |vs: &[Value]| -> Option<bool> {
        let tt = BufferType::of(ctx, ir.value_type(t))?;
        let all = vs.iter().map(|&v| BufferType::of(ctx, ir.value_type(v))).collect::<Option<Vec<_>>>()?;
        Some(all.iter().all(|ty| ty.shape == tt.shape && ty.elem == tt.elem))
    };
    let (residual, y, accumulate, epilogue) = match (ElementwiseKind::of_op(ctx, ir, elementwise)?, &operands[..]) {
        (ElementwiseKind::GeluTanh, &[input, y]) if input == t && same_as_t(&[y])? => {
            (None, y, false, Some(LinearEpilogue::GeluTanh))
        }
        (ElementwiseKind::Add, &[a, b, y]) if (a == t) != (b == t) => {
            let r = if a == t { b } else { a };
            if !same_as_t(&[r, y])? {
                return None;
            }
            if y == r { (None, y, true, None) } else { (Some(r), y, false, None) }
        }
        _ => return None,
    };
    // Aliasing: the output must not overlap the GEMM's inputs (nor the residual, unless it is
    // the residual: then accumulate).
    let y_root = root(ctx, ir, y);
    let inputs: Vec<Value> = [Some(parts.x), Some(parts.w), parts.bias].into_iter().flatten().collect();
    if inputs.iter().any(|&v| root(ctx, ir, v) == y_root) {
        return None;
    }
    if let Some(r) = residual
        && root(ctx, ir, r) == y_root
    {
        return None;
    }
    // Nothing in between switches streams or writes what the moved GEMM reads.
    let read_roots: Vec<Value> = inputs.iter().chain(residual.iter()).map(|&v| root(ctx, ir, v)).collect();
    for &op in &between {
        if has_stream_ops(ctx, ir, op) {
            return None;
        }
        let nested = std::iter::once(op).chain(ir.nested_ops(op));
        for o in nested {
            if writes_any(ctx, ir, o, &read_roots) {
                return None;
            }
        }
    }
    Some(Plan { linear, elementwise, alloc, deallocs, residual, y, accumulate, epilogue })
}

/// The ops strictly between `first` and `last` in `block`; `None` unless `last` follows
/// `first` there.
fn ops_between(ir: &Ir, block: BlockId, first: OpId, last: OpId) -> Option<Vec<OpId>> {
    if ir.op_block(last) != Some(block) {
        return None;
    }
    let mut out = Vec::new();
    let mut cur = ir.next_op(first)?;
    while cur != last {
        out.push(cur);
        cur = ir.next_op(cur)?;
    }
    Some(out)
}

/// The ops that make a view of their first operand.
const VIEW_OPS: [&str; 6] = [
    host::SHARD_BY_STREAM.name,
    host::SELECT.name,
    host::SLICE.name,
    host::EXPAND.name,
    host::PERMUTE.name,
    host::RESHAPE.name,
];

/// The buffer `v` is a view of: the start of its chain of view ops.
fn root(ctx: &Context, ir: &Ir, v: Value) -> Value {
    let mut cur = v;
    // A guard against malformed chains (the verifier rejects cycles through dominance).
    for _ in 0..256 {
        match ir.defining_op(cur) {
            Some(def) if VIEW_OPS.iter().any(|n| is(ctx, ir, def, n)) => match ir.operands(def).first() {
                Some(&src) => cur = src,
                None => return cur,
            },
            _ => return cur,
        }
    }
    cur
}

/// Whether `op` may write a buffer whose root is in `roots`. The DPS compute ops write their
/// destination only (the last operand; `host.kernel` its outputs); any other op that uses such
/// a buffer (communication, deallocation, unknown ops) counts as a write.
fn writes_any(ctx: &Context, ir: &Ir, op: OpId, roots: &[Value]) -> bool {
    let operands = ir.operands(op);
    let hits = |vs: &[Value]| vs.iter().any(|&v| roots.contains(&root(ctx, ir, v)));
    const LAST_WRITTEN: [&str; 7] = [
        host::LINEAR.name,
        host::MATMUL.name,
        host::ELEMENTWISE.name,
        host::COPY.name,
        host::SUM.name,
        host::FILL.name,
        host::REDUCE.name,
    ];
    if LAST_WRITTEN.iter().any(|n| is(ctx, ir, op, n)) {
        return operands.last().is_some_and(|&v| hits(&[v]));
    }
    if is(ctx, ir, op, host::KERNEL.name) {
        let (_, outputs, _) = host::kernel_operands(ctx, ir, op);
        return hits(&outputs);
    }
    // Views only name a buffer; they write nothing.
    if VIEW_OPS.iter().any(|n| is(ctx, ir, op, n)) {
        return false;
    }
    hits(&operands)
}

fn apply(ctx: &Context, ir: &mut Ir, plan: Plan) {
    let Some(parts) = linear_parts(ctx, ir, plan.linear) else { return };
    // The linear's location: traces and errors of the fused op point at the GEMM.
    let loc = ir.loc(plan.linear);
    let mut state = linear_epilogue_state(ctx, parts.x, parts.w, parts.bias, plan.residual, plan.y, plan.epilogue, loc);
    if plan.accumulate {
        let props = state.props.unwrap_or_else(|| ctx.empty_dict());
        state.props = Some(ctx.dict_set(props, "accumulate", Some(ctx.unit_attr())));
    }
    // Discardable attributes of the linear (tags, stream hints) carry over.
    state.attrs = ir.attrs(plan.linear);
    let fused = ir.create_op(state);
    ir.insert_op_before(plan.elementwise, fused);
    ir.erase_op(plan.elementwise);
    ir.erase_op(plan.linear);
    for d in plan.deallocs {
        ir.erase_op(d);
    }
    ir.erase_op(plan.alloc);
}
