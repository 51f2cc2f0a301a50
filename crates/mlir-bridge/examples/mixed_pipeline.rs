//! A melior program that runs MLIR's canonicalize, fuser's `tp-default` and MLIR's cse on
//! one module, then converts the result to fuser IR. docs/embedding-mlir.md shows this
//! file; tests/doc_example.rs runs it.
//!
//! Run: `cargo run -p fuser-mlir-bridge --example mixed_pipeline -- program.mlir`
//! (the program in generic form, e.g. `fuser-opt --mlir-print-op-generic examples/row_parallel_linear.mlir`).

use fuser_mlir_bridge::{FuserPasses, prepare_context, to_fuser};
use melior::dialect::DialectRegistry;
use melior::ir::Module;
use melior::pass::{PassManager, transform};
use melior::utility::register_all_dialects;
use std::error::Error;

/// Lowers `source` (MLIR generic text) with a mixed pipeline; returns the lowered module
/// as MLIR prints it and the number of ops fuser counts in it.
pub fn lower(source: &str) -> Result<(String, usize), Box<dyn Error>> {
    // An MLIR context with the upstream dialects; fuser's ops are unregistered for MLIR.
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = melior::Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    prepare_context(&context);

    let mut module = Module::parse(&context, source).ok_or("MLIR could not parse the program")?;

    // MLIR's passes and fuser's, in one MLIR pass manager.
    let fuser = FuserPasses::new()?;
    let pm = PassManager::new(&context);
    pm.add_pass(transform::create_canonicalizer());
    pm.add_pass(fuser.pass("tp-default{streams=2}")?);
    pm.add_pass(transform::create_cse());
    pm.run(&mut module)?;

    // The result as fuser IR (lossless: generic text with locations).
    let ctx = fuser_ir::Context::new(fuser_dialects::registry());
    ctx.set_allow_unregistered(true);
    let (ir, root) = to_fuser(&ctx, module.as_operation())?;
    let ops = ir.collect_ops(root, fuser_ir::ir::WalkOrder::PreOrder).len();
    Ok((module.as_operation().to_string(), ops))
}

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args().nth(1).ok_or("usage: mixed_pipeline PROGRAM.mlir")?;
    let (text, ops) = lower(&std::fs::read_to_string(path)?)?;
    println!("{text}");
    eprintln!("{ops} ops");
    Ok(())
}
