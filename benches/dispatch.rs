//! Dispatch cost of the runtime: how long the executor takes per host op when the ops do
//! (almost) no work. Each program is one `host.for` of [`TRIPS`] iterations on one rank over
//! 1- and 2-element buffers, prepared once (`exec::prepare`) and run many times through the
//! driver (`driver::run_on_cpu`); only the `run_program` calls are timed (the driver's
//! per-iteration times), not the rank thread start or the input generation.
//!
//! Three bodies separate the costs:
//! - `index`: index arithmetic only (`arith.addi`, `arith.remui`, `arith.cmpi`), the
//!   interpreter's inline path;
//! - `views`: the same plus a `host.shard_by_stream` view per iteration (a backend call that
//!   builds a view);
//! - `kernels`: the same plus a 1-element `host.elementwise add` and `host.copy` (compute ops
//!   handed to the backend's streams).
//!
//! Criterion's throughput is in host ops executed (every op of the loop body counts once per
//! iteration, plus the ops outside the loop), so ns per host op = 1e9 / (elements per second).
//! Run: `cargo bench -p fuser-benches --bench dispatch`; results in benches/results/dispatch.md.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fuser_ir::diag::SourceFile;
use fuser_ir::{Context, Ir, OpId};
use fuser_runtime::driver::{RunConfig, first_function, run_on_cpu};
use fuser_runtime::exec::{Program, prepare};
use std::time::Duration;

/// Iterations of the host loop.
const TRIPS: usize = 10_000;

/// Ops outside the loop: 4 constants, the allocation, the `host.for`, the return.
const TOP_LEVEL_OPS: usize = 7;

const INDEX_BODY: &[&str] =
    &["%j = arith.addi %i, %c1 : index", "%k = arith.remui %j, %c2 : index", "%p = arith.cmpi eq, %k, %c0 : index"];
const VIEW_OP: &str =
    "%x = host.shard_by_stream %a[%k] axis = 0 chunks = 2 : !host.buf<2xf32> -> !host.view<1xf32, strides = [1]>";
const KERNEL_OPS: &[&str] = &[
    "host.elementwise add %x, %acc into %acc : !host.view<1xf32, strides = [1]>, !host.buf<1xf32>, !host.buf<1xf32>",
    "host.copy %acc, %b : !host.buf<1xf32>, !host.buf<1xf32>",
];

/// The loop body of a variant.
fn body(variant: &str) -> Vec<&'static str> {
    let mut ops = INDEX_BODY.to_vec();
    if variant != "index" {
        ops.push(VIEW_OP);
    }
    if variant == "kernels" {
        ops.extend_from_slice(KERNEL_OPS);
    }
    ops
}

/// A host function running `body` [`TRIPS`] times.
fn program_text(body: &[&str]) -> String {
    let lines: String = body.iter().map(|op| format!("    {op}\n")).collect();
    format!(
        "func.func @dispatch(%a: !host.buf<2xf32>, %b: !host.buf<1xf32>) -> !host.buf<1xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant {TRIPS} : index
  %acc = host.alloc() : !host.buf<1xf32>
  host.for %i = %c0 to %n step %c1 {{
{lines}  }}
  return %acc : !host.buf<1xf32>
}}
"
    )
}

/// Parses and prepares the first function of `text`.
fn prepared(text: &str) -> (Context, Ir, OpId, Program) {
    let ctx = Context::new(fuser_dialects::registry());
    let mut ir = Ir::new();
    let src = SourceFile::new("dispatch.mlir", text.into());
    let module = fuser_ir::parser::parse_source_all(&ctx, &mut ir, &src).expect("the bench program parses");
    let func = first_function(&ctx, &ir, module).expect("the bench program has a function");
    let prog = prepare(&ctx, &ir, func).map_err(|(_, msg)| msg).expect("the bench program prepares");
    (ctx, ir, func, prog)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("dispatch");
    group.sample_size(10);
    for variant in ["index", "views", "kernels"] {
        let body = body(variant);
        let (ctx, ir, func, prog) = prepared(&program_text(&body));
        let ops = TOP_LEVEL_OPS + TRIPS * body.len();
        group.throughput(Throughput::Elements(ops as u64));
        group.bench_function(BenchmarkId::new(variant, format!("{}ops", body.len())), |b| {
            b.iter_custom(|iters| {
                let cfg = RunConfig { ranks: 1, iters: iters as usize, ..RunConfig::default() };
                let out = run_on_cpu(&ctx, &ir, func, &prog, &cfg).expect("the bench program runs");
                Duration::from_secs_f64(out.ranks[0].times_s.iter().sum())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
