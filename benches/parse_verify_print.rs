//! Compiler throughput: parse, verify and print of generic-form modules of growing size.
//! Criterion reports time per op (`Throughput::Elements`), so the cost per op as the file
//! grows reads straight off the report: `cargo bench -p fuser-benches`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fuser_ir::diag::SourceFile;
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::{Context, Ir};
use std::hint::black_box;
use std::sync::Arc;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn context() -> Context {
    let ctx = Context::new(fuser_dialects::registry());
    ctx.set_allow_unregistered(true);
    ctx
}

fn parse(ctx: &Context, src: &SourceFile) -> (Ir, fuser_ir::OpId) {
    let mut ir = Ir::new();
    let op = fuser_ir::parser::parse_source(ctx, &mut ir, src).expect("generated input parses");
    (ir, op)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("compiler");
    group.sample_size(10);
    for n in SIZES {
        let text = fuser_benches::generic_ops(n, 0);
        let src = SourceFile::new("bench.mlir", Arc::from(text.as_str()));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("parse", n), &src, |b, src| {
            let ctx = context();
            b.iter(|| black_box(parse(&ctx, src)));
        });
        let ctx = context();
        let (ir, op) = parse(&ctx, &src);
        group.bench_with_input(BenchmarkId::new("verify", n), &(), |b, _| {
            b.iter(|| black_box(fuser_ir::verifier::verify(&ctx, &ir, op).is_ok()));
        });
        for generic in [false, true] {
            let name = if generic { "print-generic" } else { "print" };
            let opts = PrintOptions { generic, ..Default::default() };
            group.bench_with_input(BenchmarkId::new(name, n), &(), |b, _| {
                b.iter(|| black_box(print_module(&ctx, &ir, op, &opts).len()));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
