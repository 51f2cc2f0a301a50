//! Shared helpers of the bridge tests: an MLIR context like mlir-opt's (all upstream
//! dialects, unregistered ones allowed), the example programs, and fuser's own run of a
//! pipeline (what `fuser-opt` does: parse, verify, run, print).

#![allow(dead_code)]

use fuser_ir::diag::SourceFile;
use fuser_ir::pass::{OpPassManager, PassManager, PassManagerConfig, PassRegistry, adapters};
use fuser_ir::{Context as FuserContext, Ir, OpId};
use melior::dialect::DialectRegistry;
use melior::utility::register_all_dialects;

/// An MLIR context with every upstream dialect, allowing fuser's ops.
pub fn mlir_context() -> melior::Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = melior::Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    fuser_mlir_bridge::prepare_context(&context);
    context
}

/// A fuser context like `fuser-opt --allow-unregistered-dialect`.
pub fn fuser_context() -> FuserContext {
    let ctx = FuserContext::new(fuser_dialects::registry());
    ctx.set_allow_unregistered(true);
    ctx
}

/// The three fusion examples the issue names.
pub const EXAMPLES: [&str; 3] =
    ["row_parallel_linear.mlir", "column_parallel_linear.mlir", "stream_parallel_matmul.mlir"];

/// The text of `examples/<name>`.
pub fn example(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every pass and pipeline fuser-opt knows.
pub fn fuser_passes() -> PassRegistry {
    let mut r = PassRegistry::new();
    fuser_passes::register_all(&mut r).expect("fuser pass names are unique");
    r
}

/// Runs `pipeline` on fuser's `root` as fuser-opt does; panics with the diagnostics on failure.
pub fn run_fuser(ctx: &FuserContext, ir: &mut Ir, root: OpId, pipeline: &str) {
    adapters::verify_op(ctx, ir, root).expect("the input verifies");
    let pm = OpPassManager::parse(pipeline, &fuser_passes()).expect("the pipeline parses");
    let out = PassManager { pipeline: pm, config: PassManagerConfig::default() }.run(ctx, ir, root);
    assert!(out.success, "fuser's pipeline failed: {:?}", out.diagnostics().map(|d| &d.message).collect::<Vec<_>>());
}

/// Parses text with fuser (buffer `name`).
pub fn parse_fuser(ctx: &FuserContext, name: &str, text: &str) -> (Ir, OpId) {
    let mut ir = Ir::new();
    let root = fuser_ir::parser::parse_source(ctx, &mut ir, &SourceFile::new(name, text.into())).expect("fuser parses");
    (ir, root)
}

/// An example in generic form (MLIR cannot read fuser's custom op syntax).
pub fn generic_example(name: &str) -> String {
    let ctx = fuser_context();
    let (ir, root) = parse_fuser(&ctx, name, &example(name));
    let opts = fuser_ir::printer::PrintOptions { generic: true, ..Default::default() };
    fuser_ir::printer::print_module(&ctx, &ir, root, &opts)
}
