//! Lowering throughput as programs grow: the whole `tp-default` pipeline (as `fuser-opt` runs
//! it, verifying after each pass), and `fusion-to-host` alone (not verified), on stacks of sequence-parallel MLP layers (`fuser_benches::mlp_layers`, 4 devices).
//! Criterion reports time per layer (`Throughput::Elements`), so a pass that stays linear shows
//! the same per-layer time at every size: `cargo bench -p fuser-benches --bench lowering`.
//! Results and the per-pass table: benches/results/lowering-scaling.md. Every iteration builds
//! and drops a fresh IR (hundreds of MB at 30,000 layers); glibc returns that memory to the
//! kernel in between unless told not to (`MALLOC_TRIM_THRESHOLD_`, `MALLOC_MMAP_THRESHOLD_`, see
//! the results), which adds page faults that a single `fuser-opt` run does not have.

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fuser_ir::diag::SourceFile;
use fuser_ir::pass::{OpPassManager, PassManager, PassRegistry};
use fuser_ir::{Context, Ir, OpId};
use std::hint::black_box;
use std::sync::Arc;

const SIZES: [usize; 3] = [1_000, 10_000, 30_000];

/// What `tp-default` runs before `fusion-to-host`.
const BEFORE_TO_HOST: &str = "builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding))";

fn registry() -> PassRegistry {
    let mut registry = PassRegistry::new();
    fuser_passes::register_all(&mut registry).expect("unique pass names");
    registry
}

fn pass_manager(text: &str, registry: &PassRegistry) -> PassManager {
    PassManager::new(OpPassManager::parse(text, registry).expect("the pipeline parses"))
}

fn parse(ctx: &Context, src: &SourceFile) -> (Ir, OpId) {
    let mut ir = Ir::new();
    let op = fuser_ir::parser::parse_source(ctx, &mut ir, src).expect("generated input parses");
    (ir, op)
}

fn run(pm: &PassManager, ctx: &Context, (mut ir, op): (Ir, OpId)) -> Ir {
    assert!(pm.run(ctx, &mut ir, op).success, "the pipeline runs");
    ir
}

fn bench(c: &mut Criterion) {
    let ctx = Context::new(fuser_dialects::registry());
    let registry = registry();
    let tp_default = pass_manager("builtin.module(tp-default)", &registry);
    let before = pass_manager(BEFORE_TO_HOST, &registry);
    // The pass alone: without the verification the pipeline runs after it.
    let mut to_host = pass_manager("builtin.module(func.func(fusion-to-host))", &registry);
    to_host.config.verify_each = false;
    let mut group = c.benchmark_group("lowering");
    group.sample_size(10);
    for n in SIZES {
        let text = fuser_benches::mlp_layers(n, fuser_benches::MlpShape::default());
        let src = SourceFile::new("layers.mlir", Arc::from(text.as_str()));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("tp-default", n), &src, |b, src| {
            b.iter_batched(
                || parse(&ctx, src),
                |input| black_box(run(&tp_default, &ctx, input)),
                BatchSize::PerIteration,
            );
        });
        group.bench_with_input(BenchmarkId::new("fusion-to-host", n), &src, |b, src| {
            let setup = || {
                let (ir, op) = parse(&ctx, src);
                (run(&before, &ctx, (ir, op)), op)
            };
            b.iter_batched(setup, |input| black_box(run(&to_host, &ctx, input)), BatchSize::PerIteration);
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
