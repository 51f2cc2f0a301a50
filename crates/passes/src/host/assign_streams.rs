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
//!   host.stream_wait (host.get_stream (%j mod N))
//! }
//! ```
//! Invariants: the pass is idempotent (a loop that already sets a stream is left alone); the
//! stream current after the function's loops is the one current before them.

use super::build::*;
use fuser_dialects::host::types::stream_type;
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
    description: "For each top-level `host.for` of a function: iteration `i` runs on worker stream \
`i mod streams`, which first waits for the main stream; after the loop the main stream becomes \
current again and waits for every worker (a join loop). Loops that already set a stream are left \
alone.",
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
    let Some(body) = ir.regions(func).first().and_then(|&r| ir.region_entry(r)) else { return false };
    let mut changed = false;
    for lp in loops_in_block(ctx, ir, body) {
        if has_stream_ops(ctx, ir, lp) {
            continue;
        }
        distribute_loop(ctx, ir, lp, streams);
        changed = true;
    }
    changed
}

fn has_stream_ops(ctx: &Context, ir: &Ir, lp: OpId) -> bool {
    nested(ir, lp).into_iter().any(|op| is(ctx, ir, op, SET_STREAM))
}

fn distribute_loop(ctx: &Context, ir: &mut Ir, lp: OpId, streams: i64) {
    let loc = ir.loc(lp);
    let main_op =
        place(ir, Placement::Before(lp), state(ctx, CURRENT_STREAM, vec![], vec![stream_type(ctx)], &[], loc));
    let main = ir.result(main_op, 0);
    let n_op = place(ir, Placement::Before(lp), index_constant(ctx, streams, loc));
    let n = ir.result(n_op, 0);
    enter_worker_stream(ctx, ir, lp, main, n, loc);
    join_workers(ctx, ir, lp, main, n, loc);
}

/// Prepends `set_stream (get_stream (i mod n))` and `stream_wait %main` to the loop body.
fn enter_worker_stream(ctx: &Context, ir: &mut Ir, lp: OpId, main: Value, n: Value, loc: Attr) {
    let Some(body) = loop_body(ir, lp) else { return };
    let Some(&i) = ir.block_args(body).first() else { return };
    let at = match ir.first_op(body) {
        Some(first) => Placement::Before(first),
        None => Placement::End(body),
    };
    let worker = worker_stream(ctx, ir, at, i, n, loc);
    place(ir, at, state(ctx, SET_STREAM, vec![worker], vec![], &[], loc));
    place(ir, at, state(ctx, STREAM_WAIT, vec![main], vec![], &[], loc));
}

/// After the loop: `set_stream %main` and a loop over the same bounds in which main waits for
/// each iteration's worker.
fn join_workers(ctx: &Context, ir: &mut Ir, lp: OpId, main: Value, n: Value, loc: Attr) {
    let set_main = place(ir, Placement::After(lp), state(ctx, SET_STREAM, vec![main], vec![], &[], loc));
    let bounds = ir.operands(lp).to_vec();
    let index = ctx.index_type();
    let mut join_state = state(ctx, FOR, bounds, vec![], &[], loc);
    let region = ir.create_region();
    let block = ir.create_block(&[index]);
    ir.append_block(region, block);
    join_state.regions = vec![region];
    let join = ir.create_op(join_state);
    ir.insert_op_after(set_main, join);
    let j = ir.block_args(block)[0];
    let worker = worker_stream(ctx, ir, Placement::End(block), j, n, loc);
    place(ir, Placement::End(block), state(ctx, STREAM_WAIT, vec![worker], vec![], &[], loc));
}
