//! The second phase of `fusion-to-host`: builds the host ops of a [`Plan`] next to the fusion
//! ops (which the caller erases afterwards), following docs/dev/lowering.md §5 ("Emit").
//!
//! - A loop group becomes `host.for %i = %c0 to %cn step %c1`, placed where its first op was.
//! - Operands: a value produced in the same loop is used as is (its chunk); a value allocated
//!   outside whose axis maps onto the op's stream axis gets a `host.shard_by_stream` view;
//!   anything else is used whole.
//! - Results: in a loop, a result used only by ops of that loop is allocated per iteration with
//!   its chunk shape; other loop results are allocated in full before the loop and written
//!   through a view. At the top level a result is allocated right before its op.
//!
//! Invariants: constants and `host.rank` are created once, at the start of the function body,
//! so they dominate every use; every value the plan maps ([`Emitter::buf`], [`Emitter::chunk`])
//! is a `!host.buf` or `!host.view` of the value's local (or chunk) shape.

use super::plan::{LocalKind, OpKind, Plan};
use super::value_map::ValueMap;
use crate::host::build::{Placement, place};
use fuser_dialects::arith::{binary_state, constant_state};
use fuser_dialects::host::types::{BufferType, MemoryKind, buf_type};
use fuser_dialects::host::{
    alloc_state, copy_state, elementwise_state, fill_state, for_state, linear_state, matmul_state, rank_state,
    select_state, shard_by_stream_state, sum_state,
};
use fuser_dialects::host::{expand_state, permute_state, reduce_state, reshape_state};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::{Attr, Diagnostic};
use rustc_hash::{FxHashMap, FxHashSet};

/// The host loop an op is emitted into.
#[derive(Clone, Copy, Debug)]
pub struct LoopSite {
    pub for_op: OpId,
    pub iv: Value,
    pub chunks: i64,
}

/// Where an op's host ops go.
#[derive(Clone, Copy, Debug)]
pub struct Site {
    pub at: Placement,
    pub lp: Option<LoopSite>,
    pub loc: Attr,
}

/// Emission state of one function.
pub struct Emitter<'a> {
    pub ctx: &'a Context,
    pub ir: &'a mut Ir,
    pub plan: &'a Plan,
    /// The body block: constants and `host.rank` go at its start, in creation order.
    body: fuser_ir::BlockId,
    /// The last op created at the start of the body.
    last_top: Option<OpId>,
    consts: FxHashMap<i64, Value>,
    rank: Option<Value>,
    /// Fusion value → the buffer holding its whole local piece.
    pub buf: ValueMap<Value>,
    /// Fusion value → this iteration's chunk (cleared when a loop closes).
    pub chunk: FxHashMap<Value, Value>,
    /// The fusion ops of the group being emitted.
    group_ops: FxHashSet<OpId>,
}

impl<'a> Emitter<'a> {
    pub fn new(ctx: &'a Context, ir: &'a mut Ir, plan: &'a Plan, body: fuser_ir::BlockId) -> Self {
        Emitter {
            ctx,
            ir,
            plan,
            body,
            last_top: None,
            consts: FxHashMap::default(),
            rank: None,
            buf: ValueMap::default(),
            chunk: FxHashMap::default(),
            group_ops: FxHashSet::default(),
        }
    }

    /// Emits every group of the plan.
    pub fn emit_all(&mut self) -> Result<(), Diagnostic> {
        for g in 0..self.plan.groups.len() {
            self.emit_group(g)?;
        }
        Ok(())
    }

    fn emit_group(&mut self, g: usize) -> Result<(), Diagnostic> {
        let plan = self.plan;
        let group = &plan.groups[g];
        self.group_ops = group.ops.iter().map(|&k| plan.ops[k].op).collect();
        // A fresh map rather than `clear`, which costs the capacity a long loop left behind
        // (once per later group: quadratic).
        self.chunk = FxHashMap::default();
        let first = plan.ops[group.ops[0]].op;
        let loc = self.ir.loc(first);
        let Some(chunks) = group.chunks else {
            let site = Site { at: Placement::Before(first), lp: None, loc };
            return self.emit_op(group.ops[0], &site);
        };
        let (c0, cn, c1) = (self.constant(0, loc), self.constant(chunks, loc), self.constant(1, loc));
        let (state, body, iv) = for_state(self.ctx, self.ir, c0, cn, c1, loc);
        let for_op = place(self.ir, Placement::Before(first), state);
        for &k in &group.ops {
            let op_loc = self.ir.loc(plan.ops[k].op);
            let site = Site { at: Placement::End(body), lp: Some(LoopSite { for_op, iv, chunks }), loc: op_loc };
            self.emit_op(k, &site)?;
        }
        Ok(())
    }

    fn emit_op(&mut self, k: usize, site: &Site) -> Result<(), Diagnostic> {
        let op = self.plan.ops[k].op;
        let result = match &self.plan.ops[k].kind {
            OpKind::Local(kind) => self.emit_local(k, kind, site),
            OpKind::Reshard(r) => super::comm::emit_reshard(self, k, r, site),
        };
        result.map_err(|m| fuser_ir::pass::op_error(self.ctx, self.ir, op, m))
    }

    fn emit_local(&mut self, k: usize, kind: &LocalKind, site: &Site) -> Result<(), String> {
        if let LocalKind::Kernel(kernel) = kind {
            return self.emit_kernel(k, kernel, site);
        }
        let op = self.plan.ops[k].op;
        let inputs: Vec<Value> =
            (0..self.ir.num_operands(op)).map(|i| self.operand(k, i, site)).collect::<Result<_, _>>()?;
        let out = self.result_target(k, site)?;
        let (ctx, loc) = (self.ctx, site.loc);
        let state = match kind {
            LocalKind::Matmul => matmul_state(ctx, inputs[0], inputs[1], out, false, loc),
            LocalKind::Linear => linear_state(ctx, inputs[0], inputs[1], inputs.get(2).copied(), out, loc),
            LocalKind::Elementwise(kind) => elementwise_state(ctx, *kind, &inputs, out, loc),
            LocalKind::Sum(dims, false) => sum_state(ctx, inputs[0], out, dims, loc),
            LocalKind::Reduce(kind, dims, keep) => {
                let target = if *keep { self.without_kept_axes(out, dims, site)? } else { out };
                reduce_state(ctx, *kind, inputs[0], target, dims, loc)
            }
            LocalKind::Sum(dims, true) => {
                // The result keeps the reduced axes as extents of 1: sum into the view of it
                // without them (index 0 of each, innermost first so the axes stay put).
                let zero = self.constant(0, loc);
                let mut kept = out;
                let mut reduced = dims.clone();
                reduced.sort_unstable_by(|a, b| b.cmp(a));
                for d in reduced {
                    let view = select_state(ctx, self.ir, kept, zero, d, loc)?;
                    kept = self.new_value(site.at, view);
                }
                sum_state(ctx, inputs[0], kept, dims, loc)
            }
            LocalKind::Copy => copy_state(ctx, inputs[0], out, loc),
            LocalKind::Fill(value) => fill_state(ctx, out, *value, loc),
            LocalKind::Broadcast(dims) => {
                let shape = self.buffer_type(out)?.shape;
                let view = expand_state(ctx, self.ir, inputs[0], dims, &shape, loc)?;
                let view = self.new_value(site.at, view);
                copy_state(ctx, view, out, loc)
            }
            LocalKind::Permute(dims) => {
                let view = permute_state(ctx, self.ir, inputs[0], dims, loc)?;
                let view = self.new_value(site.at, view);
                copy_state(ctx, view, out, loc)
            }
            LocalKind::Kernel(_) => unreachable!("emitted above"),
            LocalKind::Reshape => {
                let src = self.contiguous_copy(inputs[0], site)?;
                let shape = self.buffer_type(out)?.shape;
                let view = reshape_state(ctx, self.ir, src, &shape, loc)?;
                let view = self.new_value(site.at, view);
                copy_state(ctx, view, out, loc)
            }
            LocalKind::Slice { global, offsets, sizes, strides } => {
                self.emit_window_copy(inputs[0], out, global, (offsets, sizes, strides), site)?
            }
            LocalKind::Concat(dim) => self.emit_concat_copies(&inputs, out, *dim, site)?,
        };
        place(self.ir, site.at, state);
        Ok(())
    }

    /// The view of `out` without the reduced axes `dims` a `keep_dims` reduction keeps as
    /// extents of 1 (index 0 of each, innermost first so the axes stay put).
    fn without_kept_axes(&mut self, out: Value, dims: &[i64], site: &Site) -> Result<Value, String> {
        let zero = self.constant(0, site.loc);
        let mut kept = out;
        let mut reduced = dims.to_vec();
        reduced.sort_unstable_by(|a, b| b.cmp(a));
        for d in reduced {
            let view = select_state(self.ctx, self.ir, kept, zero, d, site.loc)?;
            kept = self.new_value(site.at, view);
        }
        Ok(kept)
    }

    /// `v` itself when it is contiguous, else a copy of it in a fresh buffer at `site`.
    fn contiguous_copy(&mut self, v: Value, site: &Site) -> Result<Value, String> {
        let t = self.buffer_type(v)?;
        if is_contiguous(&t) {
            return Ok(v);
        }
        let tmp = self.alloc(&t.shape, t.elem, site.at, site.loc);
        place(self.ir, site.at, copy_state(self.ctx, v, tmp, site.loc));
        Ok(tmp)
    }

    // ----- operands and results ---------------------------------------------------------------

    /// The whole local buffer of a fusion value.
    pub fn full(&self, v: Value) -> Result<Value, String> {
        self.buf.get(&v).copied().ok_or_else(|| "internal error: a tensor has no host buffer".to_string())
    }

    /// Operand `i` of op `k` as the op reads it at `site`.
    pub fn operand(&mut self, k: usize, i: usize, site: &Site) -> Result<Value, String> {
        let p = &self.plan.ops[k];
        let v = self.ir.operand(p.op, i);
        let (Some(lp), Some((ax, _))) = (site.lp, p.stream) else { return self.full(v) };
        if let Some(&c) = self.chunk.get(&v) {
            return Ok(c);
        }
        let whole = self.full(v)?;
        match p.axes.operand_axis(i, ax) {
            Some(a) => self.shard(whole, lp, a, site),
            None => Ok(whole),
        }
    }

    /// `host.shard_by_stream %b[%i] axis = a chunks = n` at `site`.
    pub fn shard(&mut self, b: Value, lp: LoopSite, axis: usize, site: &Site) -> Result<Value, String> {
        let state = shard_by_stream_state(self.ctx, self.ir, b, lp.iv, axis as i64, lp.chunks, site.loc)?;
        Ok(self.new_value(site.at, state))
    }

    /// Allocates (or views) the buffer op `k` writes its result into at `site`, and records it.
    pub fn result_target(&mut self, k: usize, site: &Site) -> Result<Value, String> {
        self.result_target_of(k, 0, site)
    }

    /// [`Emitter::result_target`] of result `j` (a secondary result is computed in result 0's
    /// stream loop, whose axis is one of its leading axes: checked by the plan).
    pub fn result_target_of(&mut self, k: usize, j: usize, site: &Site) -> Result<Value, String> {
        let p = &self.plan.ops[k];
        let v = self.ir.result(p.op, j);
        let info = &self.plan.info[&v];
        let (Some(lp), Some((ax, n))) = (site.lp, p.stream) else {
            let b = self.alloc(&info.local_shape(false)?, info.elem, site.at, site.loc);
            self.buf.insert(v, b);
            return Ok(b);
        };
        // A secondary result is written in result 0's chunks along axis `ax`; its own chunk
        // shape is that only when it is streamed the same way (a statistics result annotated
        // without the stream split, or streamed along another axis, is written through a view
        // of its whole buffer: fuser-lowerfuzz, seeds 599 and 1752).
        let own_chunks = j == 0 || info.stream() == Some((ax, n));
        if own_chunks && self.used_only_in_group(v) {
            let b = self.alloc(&info.local_shape(true)?, info.elem, site.at, site.loc);
            self.chunk.insert(v, b);
            return Ok(b);
        }
        let whole = self.alloc(&info.local_shape(false)?, info.elem, Placement::Before(lp.for_op), site.loc);
        self.buf.insert(v, whole);
        let view = self.shard(whole, lp, ax, site)?;
        self.chunk.insert(v, view);
        Ok(view)
    }

    fn used_only_in_group(&self, v: Value) -> bool {
        self.ir.uses(v).all(|u| self.group_ops.contains(&u.op))
    }

    // ----- small builders ---------------------------------------------------------------------

    /// Creates the op at `at` and returns its only result.
    pub fn new_value(&mut self, at: Placement, state: OperationState) -> Value {
        let op = place(self.ir, at, state);
        self.ir.result(op, 0)
    }

    /// `host.alloc : !host.buf<shape x elem>` at `at`.
    pub fn alloc(&mut self, shape: &[i64], elem: fuser_ir::Type, at: Placement, loc: Attr) -> Value {
        let ty = buf_type(self.ctx, shape, elem, MemoryKind::Device);
        self.new_value(at, alloc_state(self.ctx, ty, &[], false, loc))
    }

    /// The decoded buffer or view type of a host value.
    pub fn buffer_type(&self, v: Value) -> Result<BufferType, String> {
        BufferType::of(self.ctx, self.ir.value_type(v)).ok_or_else(|| "internal error: not a host buffer".to_string())
    }

    /// `host.select %v[%c0] axis = 0` at `at` (drops a leading axis of extent 1).
    pub fn drop_leading(&mut self, v: Value, site: &Site) -> Result<Value, String> {
        let c0 = self.constant(0, site.loc);
        let state = select_state(self.ctx, self.ir, v, c0, 0, site.loc)?;
        Ok(self.new_value(site.at, state))
    }

    /// An `index` constant, created once at the start of the function.
    pub fn constant(&mut self, value: i64, loc: Attr) -> Value {
        if let Some(&c) = self.consts.get(&value) {
            return c;
        }
        let attr = self.ctx.int_attr(self.ctx.index_type(), value);
        let state = constant_state(self.ctx, attr, loc).expect("an integer attribute has a type");
        let c = self.at_top(state);
        self.consts.insert(value, c);
        c
    }

    /// `%rank = host.rank`, created once at the start of the function.
    pub fn rank(&mut self, loc: Attr) -> Value {
        if let Some(r) = self.rank {
            return r;
        }
        let r = self.at_top(rank_state(self.ctx, loc));
        self.rank = Some(r);
        r
    }

    /// Creates an op at the start of the body, after those created there before.
    fn at_top(&mut self, state: OperationState) -> Value {
        let op = self.ir.create_op(state);
        match self.last_top {
            Some(last) => self.ir.insert_op_after(last, op),
            None => self.ir.prepend_op(self.body, op),
        }
        self.last_top = Some(op);
        self.ir.result(op, 0)
    }

    /// An `arith` binary op on `index` values at `site`.
    pub fn index_op(&mut self, name: &str, a: Value, b: Value, site: &Site) -> Value {
        let state = binary_state(self.ctx, name, a, b, self.ctx.index_type(), site.loc);
        self.new_value(site.at, state)
    }
}

/// Whether a buffer or view type is dense row-major (axes of extent 1 have any stride): the
/// dialect's rule, which `host.reshape` checks.
pub use fuser_dialects::host::layout_views::is_contiguous;

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::types::FloatKind;

    fn view(ctx: &Context, shape: &[i64], strides: &[i64]) -> BufferType {
        BufferType {
            shape: shape.to_vec(),
            elem: ctx.float_type(FloatKind::F32),
            memory: MemoryKind::Device,
            strides: Some(strides.to_vec()),
        }
    }

    #[test]
    fn contiguity_ignores_unit_axes() {
        let ctx = Context::empty();
        assert!(is_contiguous(&view(&ctx, &[2, 8], &[8, 1])));
        assert!(!is_contiguous(&view(&ctx, &[4, 4], &[8, 1])));
        assert!(is_contiguous(&view(&ctx, &[1, 4], &[8, 1])));
        assert!(is_contiguous(&view(&ctx, &[4, 2], &[2, 1])));
    }
}
