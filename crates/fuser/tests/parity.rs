//! The facade and `fuser-opt` print the same text for the same input and pipeline.

mod support;

use fuser::{Compiler, PrintOptions};
use support::{read_repo_file, run_fuser_opt};

const ROW_PARALLEL: &str = "examples/row_parallel_linear.mlir";

fn lower_with_facade(file: &str, pipeline: &str, options: &PrintOptions) -> String {
    let compiler = Compiler::new();
    let mut module = compiler.parse(file, &read_repo_file(file)).expect("example parses");
    compiler.run_pipeline(&mut module, pipeline).expect("pipeline runs");
    compiler.print(&module, options)
}

#[test]
fn tp_default_lowering_matches_fuser_opt() {
    let pipeline = "builtin.module(tp-default)";
    let expected = run_fuser_opt(&[&format!("--pass-pipeline={pipeline}"), ROW_PARALLEL]);
    assert!(expected.contains("comm.allreduce"), "fuser-opt lowered the example:\n{expected}");
    assert_eq!(lower_with_facade(ROW_PARALLEL, pipeline, &PrintOptions::default()), expected);
}

#[test]
fn generic_form_with_locations_matches_fuser_opt() {
    let pipeline = "builtin.module(tp-overlap-p2p)";
    let expected = run_fuser_opt(&[
        &format!("--pass-pipeline={pipeline}"),
        "--mlir-print-op-generic",
        "--mlir-print-debuginfo",
        "examples/column_parallel_linear.mlir",
    ]);
    let options = PrintOptions { generic: true, debug_info: true, ..PrintOptions::default() };
    assert_eq!(lower_with_facade("examples/column_parallel_linear.mlir", pipeline, &options), expected);
}

#[test]
fn parse_error_renders_like_fuser_opt() {
    let compiler = Compiler::new();
    let err = compiler
        .parse("broken.mlir", "func.func @f() {\n  %0 = arith.constant 1 : i32\n  return %1 : i32\n}\n")
        .unwrap_err();
    let d = &err.diagnostics()[0];
    assert_eq!(d.severity, fuser::Severity::Error);
    let loc = d.location.as_ref().expect("a file location");
    assert_eq!((loc.file.as_str(), loc.line), ("broken.mlir", 3));
    assert!(d.rendered.starts_with(&format!("broken.mlir:3:{}: error: ", loc.column)), "{}", d.rendered);
    assert!(d.rendered.contains("  return %1 : i32\n"), "source line shown: {}", d.rendered);
}

/// Diagnostics render as fuser-opt prints them: a verifier error with its notes, and a pass
/// failure (a sharding the lowering cannot handle).
#[test]
fn diagnostics_render_like_fuser_opt() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("parity-diagnostics");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases = [
        ("dup.mlir", "func.func @f() {\n  return\n}\nfunc.func @f() {\n  return\n}\n", "builtin.module(cse)"),
        (
            "two_streams.mlir",
            "fusion.mesh @tp = [0, 1]\nfunc.func @f(%x: tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2)], [Stream(2)]]>>) \
             -> tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2)], [Stream(2)]]>> {\n  \
             %y = fusion.neg %x : (tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2)], [Stream(2)]]>>) \
             -> tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2)], [Stream(2)]]>>\n  \
             return %y : tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2)], [Stream(2)]]>>\n}\n",
            "builtin.module(tp-default)",
        ),
    ];
    for (name, text, pipeline) in cases {
        std::fs::write(dir.join(name), text).expect("write input");
        let expected = support::fuser_opt_errors(&dir, &[&format!("--pass-pipeline={pipeline}"), name]);
        let compiler = Compiler::new();
        let err = match compiler.parse(name, text) {
            Err(e) => e,
            Ok(mut module) => compiler.run_pipeline(&mut module, pipeline).expect_err("the pipeline fails"),
        };
        assert_eq!(err.to_string(), expected, "{name}");
    }
}
