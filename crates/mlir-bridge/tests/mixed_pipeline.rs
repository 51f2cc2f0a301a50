//! One MLIR `PassManager` running MLIR's passes and fuser's (as external passes) on the
//! same module gives what fuser's own pass manager gives for the same pipeline, byte for
//! byte with locations; fuser's diagnostics reach MLIR's handlers at the op's location and
//! a failing fuser pass fails MLIR's run.

mod common;

use common::*;
use fuser_mlir_bridge::text::{collecting_diagnostics, generic_text, parse_module};
use fuser_mlir_bridge::{FuserPasses, to_fuser};
use fuser_mlir_text::runner::generic_text as fuser_generic_text;
use melior::pass::{PassManager, transform};

/// MLIR's text after `build` ran on `source`, and fuser's text after `fuser_pipeline` ran
/// on the same input IR (converted before the MLIR run, so the locations are the same).
fn both_ways(source: &str, build: impl FnOnce(&PassManager, &FuserPasses), fuser_pipeline: &str) -> (String, String) {
    let context = mlir_context();
    let mut module = parse_module(&context, source).unwrap();
    let ctx = fuser_context();
    let (mut ir, root) = to_fuser(&ctx, module.as_operation()).unwrap();
    let pm = PassManager::new(&context);
    build(&pm, &FuserPasses::new().unwrap());
    let (result, diags) = collecting_diagnostics(&context, || pm.run(&mut module));
    assert!(result.is_ok(), "the MLIR pipeline failed: {diags:?}");
    run_fuser(&ctx, &mut ir, root, fuser_pipeline);
    (generic_text(&module.as_operation()).unwrap(), fuser_generic_text(&ctx, &ir, root))
}

#[test]
fn mlir_canonicalize_fuser_tp_default_mlir_cse_match_fuser() {
    for name in EXAMPLES {
        let (mlir, fuser) = both_ways(
            &generic_example(name),
            |pm, passes| {
                pm.add_pass(transform::create_canonicalizer());
                pm.add_pass(passes.pass("tp-default{streams=2}").unwrap());
                pm.add_pass(transform::create_cse());
            },
            "builtin.module(canonicalize, tp-default{streams=2}, cse)",
        );
        assert!(mlir.contains("\"host."), "{name} was lowered to host ops:\n{mlir}");
        assert_eq!(mlir, fuser, "{name}");
    }
}

#[test]
fn function_passes_run_on_each_function_with_its_mesh() {
    // Nested in MLIR's func.func pass manager: each function is handed over with the mesh
    // next to it, as fuser's own pass manager does.
    let (mlir, fuser) = both_ways(
        &generic_example("row_parallel_linear.mlir"),
        |pm, passes| {
            let f = pm.nested_under("func.func");
            for p in ["fusion-propagate-sharding", "fusion-decompose-resharding", "fusion-to-host"] {
                f.add_pass(passes.pass(p).unwrap());
            }
        },
        "builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))",
    );
    assert!(mlir.contains("\"comm.allreduce\""), "{mlir}");
    assert_eq!(mlir, fuser);
}

/// A function fusion-to-host cannot lower (fuser's test/Transforms/fusion-to-host-invalid).
const NOT_LOWERABLE: &str = r#""builtin.module"() ({
  "fusion.mesh"() <{devices = array<i64: 0>, shape = array<i64: 1>, sym_name = "one"}> : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], [Stream(2)]]>>, sym_name = "two_stream_splits"}> ({
  ^bb0(%arg0: tensor<4x8xf32, #fusion.shard<@one, [[], []]>>):
    %0 = "fusion.set"(%arg0) : (tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], [Stream(2)]]>> loc("bad.mlir":5:8)
    "func.return"(%0) : (tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], [Stream(2)]]>>) -> ()
  }) : () -> ()
}) : () -> ()
"#;

#[test]
fn fuser_errors_are_mlir_diagnostics_at_the_op_and_fail_the_run() {
    let context = mlir_context();
    let mut module = parse_module(&context, NOT_LOWERABLE).unwrap();
    let before = generic_text(&module.as_operation()).unwrap();
    let pm = PassManager::new(&context);
    pm.nested_under("func.func").add_pass(FuserPasses::new().unwrap().pass("fusion-to-host").unwrap());
    let (result, diags) = collecting_diagnostics(&context, || pm.run(&mut module));
    assert!(result.is_err(), "a failing fuser pass fails MLIR's pass manager");
    assert_eq!(
        diags.first().map(String::as_str),
        Some(
            "loc(\"bad.mlir\":5:8): a tensor may have at most one Stream split, got Stream(2) on axis 0 and Stream(2) on axis 1"
        ),
        "{diags:?}"
    );
    assert_eq!(generic_text(&module.as_operation()).unwrap(), before, "a failed pass leaves the IR alone");
}

#[test]
fn unknown_passes_and_bad_options_are_refused_when_created() {
    let passes = FuserPasses::new().unwrap();
    assert!(passes.pass("no-such-pass").is_err());
    let err = passes.pass("tp-default{bogus=1}").err().expect("unknown option refused");
    assert!(err.to_string().contains("bogus"), "{err}");
    assert!(passes.pass("tp-default{streams=2}").is_ok());
    assert!(passes.entries().iter().any(|e| e.argument == "fuser-tp-default"));
}

/// The row-parallel example with its function repeated under other names (same mesh).
fn several_functions(copies: usize) -> String {
    let source = example("row_parallel_linear.mlir");
    let start = source.find("func.func @row_parallel_linear(").expect("the example's function");
    let mut text = source.clone();
    for i in 1..copies {
        text.push('\n');
        text.push_str(&source[start..].replace("@row_parallel_linear(", &format!("@row_parallel_linear_{i}(")));
    }
    let ctx = fuser_context();
    let (ir, root) = parse_fuser(&ctx, "several.mlir", &text);
    let opts = fuser_ir::printer::PrintOptions { generic: true, ..Default::default() };
    fuser_ir::printer::print_module(&ctx, &ir, root, &opts)
}

#[test]
fn function_passes_on_many_functions_with_mlir_threading() {
    // MLIR runs the func.func pipeline on the 6 functions in parallel (threading is on by
    // default); every function gets its mesh and the result is fuser's.
    let (mlir, fuser) = both_ways(
        &several_functions(6),
        |pm, passes| {
            let f = pm.nested_under("func.func");
            for p in ["fusion-propagate-sharding", "fusion-decompose-resharding", "fusion-to-host"] {
                f.add_pass(passes.pass(p).unwrap());
            }
            pm.add_pass(passes.pass("cse").unwrap());
        },
        "builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host), cse)",
    );
    assert_eq!(mlir.matches("\"comm.allreduce\"").count(), 6, "{mlir}");
    assert_eq!(mlir, fuser);
}
