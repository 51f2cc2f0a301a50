//! `host-assign-streams{streams=N}`: runs the iterations of each top-level `host.for` of a
//! function on worker streams, so that the communication of one iteration overlaps the
//! compute of another.
//!
//! For every `host.for` directly in the function body whose body has no stream op yet:
//! ```text
//! %main = host.current_stream                  // before the loop
//! host.for %i = ... {
//!   %w = host.get_stream (%i mod N)            // first in the body
//!   host.set_stream %w
//!   host.stream_wait %main                     // the worker sees what main posted before
//!   ...                                        // the original body
//! }
//! host.set_stream %main                        // after the loop
//! host.for %j = <same bounds> {                // join: main waits for every worker
//!   host.stream_wait (host.get_stream (%k mod N))
//! }
//! ```
//! `%k` is the iteration number: the induction variable itself for loops from 0 by steps of 1,
//! else `(%i - lb) / step`.
//!
//! Invariants: the pass is idempotent (a loop that already reads or changes streams, a join
//! loop included, is left alone); the stream current after each rewritten loop is the one
//! current before it, and it has waited for every worker that ran an iteration.

use super::build::*;
use fuser_dialects::arith::{DIVUI, SUBI};
use fuser_dialects::host::{current_stream_state, for_state, set_stream_state, stream_wait_state};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::pass::{OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome};
use fuser_ir::{Attr, Diagnostic};

static OPTIONS: &[OptionDef] =
    &[OptionDef::new("streams", OptionType::Int, "4", "Number of worker streams iterations are spread over (>= 1)")];

pub static HOST_ASSIGN_STREAMS: PassInfo = PassInfo {
    name: "host-assign-streams",
    display: "HostAssignStreams",
    summary: "Run the iterations of top-level host loops on worker streams",
    description: "For each top-level `host.for` of a function: iteration number `k` runs on worker \
stream `k mod streams`, which first waits for the main stream; after the loop the main stream \
becomes current again and waits for every worker (a join loop). Loops that already use streams \
(join loops included) are left alone, so the pass is idempotent.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o| {
        let streams = o.get_int("streams");
        if streams < 1 {
            return Err(format!("host-assign-streams: 'streams' must be at least 1, got {streams}"));
        }
        Ok(Box::new(AssignStreams { streams, values: o.clone() }))
    },
};

struct AssignStreams {
    streams: i64,
    values: OptionValues,
}

impl Pass for AssignStreams {
    fn info(&self) -> &'static PassInfo {
        &HOST_ASSIGN_STREAMS
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, func: OpId) -> Result<PassOutcome, Diagnostic> {
        Ok(PassOutcome::from_changed(assign_streams(ctx, ir, func, self.streams)))
    }
}

/// Rewrites every eligible top-level loop of `func`; returns whether anything changed.
pub fn assign_streams(ctx: &Context, ir: &mut Ir, func: OpId, streams: i64) -> bool {
    let Some(body) = body_block(ir, func) else { return false };
    let mut changed = false;
    for lp in loops_in_block(ctx, ir, body) {
        if has_stream_ops(ctx, ir, lp) || is_sequential(ctx, ir, lp) {
            continue;
        }
        distribute_loop(ctx, ir, lp, streams);
        changed = true;
    }
    changed
}

/// A loop whose iterations depend on each other (the `host.sequential` unit attribute, set by
/// the ring reduce-scatter) stays on the current stream.
fn is_sequential(ctx: &Context, ir: &Ir, lp: OpId) -> bool {
    ctx.dict_get(ir.attrs(lp), SEQUENTIAL_ATTR).is_some()
}

/// The discardable attribute that keeps a loop's iterations on one stream.
pub const SEQUENTIAL_ATTR: &str = "host.sequential";

fn distribute_loop(ctx: &Context, ir: &mut Ir, lp: OpId, streams: i64) {
    let loc = ir.loc(lp);
    let main_op = place(ir, Placement::Before(lp), current_stream_state(ctx, loc));
    let main = ir.result(main_op, 0);
    let n_op = place(ir, Placement::Before(lp), index_constant(ctx, streams, loc));
    let n = ir.result(n_op, 0);
    enter_worker_stream(ctx, ir, lp, main, n, loc);
    join_workers(ctx, ir, lp, main, n, loc);
}

/// Prepends `set_stream (get_stream (k mod n))` and `stream_wait %main` to the loop body, `k`
/// being the iteration number.
fn enter_worker_stream(ctx: &Context, ir: &mut Ir, lp: OpId, main: Value, n: Value, loc: Attr) {
    let Some(body) = body_block(ir, lp) else { return };
    let Some(&i) = ir.block_args(body).first() else { return };
    let at = match ir.first_op(body) {
        Some(first) => Placement::Before(first),
        None => Placement::End(body),
    };
    let k = iteration_number(ctx, ir, lp, at, i, loc);
    let worker = worker_stream(ctx, ir, at, k, n, loc);
    place(ir, at, set_stream_state(ctx, worker, loc));
    place(ir, at, stream_wait_state(ctx, main, loc));
}

/// After the loop: `set_stream %main` and a loop over the same bounds in which main waits for
/// each iteration's worker.
fn join_workers(ctx: &Context, ir: &mut Ir, lp: OpId, main: Value, n: Value, loc: Attr) {
    let set_main = place(ir, Placement::After(lp), set_stream_state(ctx, main, loc));
    let [lb, ub, step] = [0, 1, 2].map(|k| ir.operand(lp, k));
    let (join_state, block, j) = for_state(ctx, ir, lb, ub, step, loc);
    place(ir, Placement::After(set_main), join_state);
    let at = Placement::End(block);
    let k = iteration_number(ctx, ir, lp, at, j, loc);
    let worker = worker_stream(ctx, ir, at, k, n, loc);
    place(ir, at, stream_wait_state(ctx, worker, loc));
}

/// The number of the iteration whose induction variable is `i`: `i` itself when the loop
/// starts at 0 by steps of 1 (the loops stream lowering makes), else `(i - lb) / step` built at
/// `at`, so that consecutive iterations land on different streams whatever the bounds.
fn iteration_number(ctx: &Context, ir: &mut Ir, lp: OpId, at: Placement, i: Value, loc: Attr) -> Value {
    let (lb, step) = (ir.operand(lp, 0), ir.operand(lp, 2));
    let offset = match constant_int(ctx, ir, lb) {
        Some(0) => i,
        _ => index_binary(ctx, ir, at, SUBI.name, i, lb, loc),
    };
    match constant_int(ctx, ir, step) {
        Some(1) => offset,
        _ => index_binary(ctx, ir, at, DIVUI.name, offset, step, loc),
    }
}
