//! Printing throughput: 200k generic ops (operands, results, attributes, nested regions) must
//! print in well under 0.2 s in release builds. The timing assertion only runs in release
//! (`cargo test --release -p fuser-ir --test print_perf -- --nocapture`).

use fuser_ir::ir::OperationState;
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::types::FloatKind;
use fuser_ir::{Context, Ir, OpId};
use std::time::Instant;

/// A module of `n` ops in functions of 1000 ops each: constants with an attribute, binary ops
/// chaining their results, one terminator per function body.
fn build(ctx: &Context, ir: &mut Ir, n: usize) -> OpId {
    let i32t = ctx.integer_type(32);
    let f32t = ctx.float_type(FloatKind::F32);
    let tensor = ctx.tensor_type(vec![4096, 8192], f32t, None);
    let loc = ctx.file_loc("perf.mlir", 1, 1);
    let st = |name: &str, operands: Vec<fuser_ir::Value>, results: Vec<fuser_ir::Type>, attrs| OperationState {
        name: ctx.op_name(name),
        operands,
        result_types: results,
        successors: vec![],
        regions: vec![],
        attrs,
        props: None,
        loc,
    };
    let module_block = ir.create_block(&[]);
    let mut made = 0;
    while made < n {
        let body = ir.create_block(&[tensor, i32t]);
        let args = ir.block_args(body).to_vec();
        let mut last = args[0];
        for i in 0..999.min(n - made) {
            let op = if i % 3 == 0 {
                let value = ctx.int_attr(i32t, i as i64);
                let dict = ctx.dictionary(vec![(ctx.ident("value"), value)]);
                ir.create_op(st("fz.constant", vec![], vec![i32t], dict))
            } else {
                ir.create_op(st("fz.add", vec![last, args[0]], vec![tensor], ctx.empty_dict()))
            };
            ir.append_op(body, op);
            if i % 3 != 0 {
                last = ir.result(op, 0);
            }
            made += 1;
        }
        let ret = ir.create_op(st("fz.return", vec![last], vec![], ctx.empty_dict()));
        ir.append_op(body, ret);
        let region = ir.create_region();
        ir.append_block(region, body);
        let name = ctx.dictionary(vec![(ctx.ident("sym_name"), ctx.string_attr("f"))]);
        let mut fs = st("fz.func", vec![], vec![], name);
        fs.regions = vec![region];
        let f = ir.create_op(fs);
        ir.append_op(module_block, f);
        made += 2;
    }
    let region = ir.create_region();
    ir.append_block(region, module_block);
    let mut ms = st("builtin.module", vec![], vec![], ctx.empty_dict());
    ms.regions = vec![region];
    ir.create_op(ms)
}

/// CPU time of this thread in nanoseconds (Linux), to time fairly on a shared machine.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Best-of-3 time of `f`: CPU time where the OS reports it, else wall time.
fn best_time(mut f: impl FnMut()) -> std::time::Duration {
    let mut best = std::time::Duration::MAX;
    for _ in 0..3 {
        let (wall, cpu) = (Instant::now(), thread_cpu_ns());
        f();
        let t = match (cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) => std::time::Duration::from_nanos(b - a),
            _ => wall.elapsed(),
        };
        best = best.min(t);
    }
    best
}

#[test]
fn prints_200k_generic_ops_quickly() {
    let ctx = Context::empty();
    let mut ir = Ir::new();
    let m = build(&ctx, &mut ir, 200_000);
    let opts = PrintOptions { generic: true, ..Default::default() };
    let mut text = String::new();
    let elapsed = best_time(|| text = print_module(&ctx, &ir, m, &opts));
    let custom = best_time(|| drop(print_module(&ctx, &ir, m, &PrintOptions::default())));
    eprintln!("printed {} ops, {} bytes: generic {:?}, custom {:?}", ir.num_ops(), text.len(), elapsed, custom);
    assert_eq!(text.lines().count(), ir.num_ops() + 2 * 200 + 2);
    assert!(text.contains(
        " = \"fz.add\"(%1, %arg0) : (tensor<4096x8192xf32>, tensor<4096x8192xf32>) -> tensor<4096x8192xf32>\n"
    ));
    if !cfg!(debug_assertions) {
        assert!(elapsed.as_secs_f64() < 0.2, "printing took {elapsed:?}");
    }
}
