//! Running passes in process for the oracle ([`crate::oracle`]) and the autodiff cases
//! ([`crate::joint`]): parse and verify a module, run a pipeline text on it (verification
//! after each pass optional, diagnostics collected as one message), and tell a pass panic
//! (the pass manager's `internal error ... panicked`) from a clean diagnostic.

use crate::verdict::{Finding, FindingClass, Verdict};
use fuser_ir::diag::{Diagnostic, SourceFile};
use fuser_ir::pass::{OpPassManager, PassManager, PassManagerConfig, PassRegistry};
use fuser_ir::{Context, Ir, OpId};
use std::sync::Arc;

/// A finding of `class` with `message`.
pub(crate) fn found(class: FindingClass, message: impl Into<String>) -> Verdict {
    Verdict::Found(Finding::new(class, message))
}

/// The dialects and passes of fuser.
pub(crate) fn pass_registry() -> PassRegistry {
    let mut registry = PassRegistry::new();
    // The names are fixed and unique; a clash would show as a missing pipeline below.
    let _ = fuser_passes::register_all(&mut registry);
    registry
}

fn messages(diags: &[Diagnostic]) -> String {
    diags.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; ")
}

/// Parses and verifies `text` as a module.
pub fn parse_verified(ctx: &Context, text: &str) -> Result<(Ir, OpId), String> {
    let mut ir = Ir::new();
    let source = SourceFile::new("<fuzz>", Arc::from(text));
    let op = fuser_ir::parser::parse_source_all(ctx, &mut ir, &source).map_err(|d| messages(&d))?;
    fuser_ir::pass::adapters::verify_op(ctx, &ir, op).map_err(|d| messages(&d))?;
    Ok((ir, op))
}

/// Runs `pipeline` on the module; `Err(messages)` with the error diagnostics on failure.
pub(crate) fn run_pipeline(
    ctx: &Context,
    registry: &PassRegistry,
    ir: &mut Ir,
    op: OpId,
    pipeline: &str,
    verify_each: bool,
) -> Result<(), String> {
    let pm = OpPassManager::parse(pipeline, registry).map_err(|e| format!("pipeline '{pipeline}': {e}"))?;
    let config =
        PassManagerConfig { threading: false, verify_each, print_op_on_diagnostic: false, ..Default::default() };
    let result = PassManager { pipeline: pm, config }.run(ctx, ir, op);
    if result.success {
        return Ok(());
    }
    let errors: Vec<Diagnostic> = result.diagnostics().filter(|d| d.is_error()).cloned().collect();
    Err(if errors.is_empty() { "the pipeline failed without a diagnostic".into() } else { messages(&errors) })
}

/// Whether a pipeline's message is a pass panic.
pub(crate) fn is_panic(message: &str) -> bool {
    message.contains("internal error") && message.contains("panicked")
}
