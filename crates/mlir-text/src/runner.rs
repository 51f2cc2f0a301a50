//! Runs one fuser pass or pipeline element (`cse`, `tp-default{streams=2}`) on a handed-over
//! op the way `fuser-opt` would: build the op in its symbol context, verify it, run a pass
//! manager anchored on it, and print the op again, on its own, in generic form with debug
//! info (inline locations, values numbered from the op: self-contained text MLIR parses
//! back into one op). Only the op is transformed; its context is read-only.

use crate::diagnostic::TextDiagnostic;
use crate::handover::HandedOver;
use fuser_ir::pass::{LogEntry, OpPassManager, PassManager, PassManagerConfig, PassRegistry, adapters};
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::{Context, Ir, OpId};

/// What a run gives back.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// The pipeline succeeded (no error diagnostic).
    pub success: bool,
    /// The op alone in generic form with debug info, when the run succeeded and changed it.
    pub output: Option<String>,
    /// Diagnostics in the order fuser reported them.
    pub diagnostics: Vec<TextDiagnostic>,
}

/// Runs `element` (pipeline text of one pass or pipeline, options included) on the
/// handed-over op. `source_name` names the buffers in diagnostics of text without locations.
pub fn run_on_text(registry: &PassRegistry, element: &str, handed: &HandedOver, source_name: &str) -> RunReport {
    let ctx = Context::new(fuser_dialects::registry());
    // MLIR hands over ops of any dialect; fuser keeps the unknown ones verbatim.
    ctx.set_allow_unregistered(true);
    match run_in_context(&ctx, registry, element, handed, source_name) {
        Ok(report) => report,
        Err(diagnostics) => RunReport { success: false, output: None, diagnostics },
    }
}

fn run_in_context(
    ctx: &Context,
    registry: &PassRegistry,
    element: &str,
    handed: &HandedOver,
    source_name: &str,
) -> Result<RunReport, Vec<TextDiagnostic>> {
    let to_text = |ds: Vec<fuser_ir::Diagnostic>| -> Vec<TextDiagnostic> {
        ds.iter().map(|d| TextDiagnostic::from_diagnostic(ctx, d)).collect()
    };
    let mut ir = Ir::new();
    let (_root, target) = handed.build(ctx, &mut ir, source_name)?;
    adapters::verify_op(ctx, &ir, target).map_err(to_text)?;
    let manager = manager_for(ctx, &ir, target, registry, element)?;
    let before = op_text(ctx, &ir, target);
    let result = manager.run(ctx, &mut ir, target);
    let diagnostics = result
        .log
        .iter()
        .filter_map(|e| match e {
            LogEntry::Diagnostic(d) => Some(TextDiagnostic::from_diagnostic(ctx, d)),
            LogEntry::Text(_) => None,
        })
        .collect();
    let output = result.success.then(|| op_text(ctx, &ir, target)).filter(|after| *after != before);
    Ok(RunReport { success: result.success, output, diagnostics })
}

/// A pass manager anchored on the target op's name with `element` in it.
fn manager_for(
    ctx: &Context,
    ir: &Ir,
    target: OpId,
    registry: &PassRegistry,
    element: &str,
) -> Result<PassManager, Vec<TextDiagnostic>> {
    let mut pipeline = OpPassManager::new(ctx.op_name_str(ir.op_name(target)));
    pipeline.add_pipeline_text(element, registry).map_err(|e| vec![TextDiagnostic::error_at_unknown(e.to_string())])?;
    // MLIR attaches its own "see current operation" notes (`--mlir-print-op-on-diagnostic`);
    // a copy of fuser's would describe the handed-over copy, not the user's op.
    let config = PassManagerConfig { print_op_on_diagnostic: false, ..PassManagerConfig::default() };
    Ok(PassManager { pipeline, config })
}

/// `op` printed on its own: generic form, debug info, local scope.
pub fn op_text(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let opts = PrintOptions { generic: true, debug_info: true, local_scope: true, ..Default::default() };
    print_module(ctx, ir, op, &opts)
}

/// `op` printed as the top-level op of a file in generic form with debug info, as
/// `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo` prints it.
pub fn generic_text(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let opts = PrintOptions { generic: true, debug_info: true, local_scope: false, ..Default::default() };
    print_module(ctx, ir, op, &opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Catalog, DEFAULT_PREFIX};
    use crate::diagnostic::TextSeverity;
    use crate::handover::Level;

    const FUNC: &str = "\"func.func\"() <{function_type = () -> i32, sym_name = \"f\"}> ({\n  %0 = \"arith.constant\"() <{value = 1 : i32}> : () -> i32 loc(\"a.mlir\":3:5)\n  %1 = \"arith.constant\"() <{value = 1 : i32}> : () -> i32 loc(\"a.mlir\":4:5)\n  %2 = \"arith.addi\"(%0, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc(\"a.mlir\":5:5)\n  \"func.return\"(%2) : (i32) -> () loc(\"a.mlir\":6:5)\n}) : () -> () loc(\"a.mlir\":2:3)\n";
    const MODULE_SHELL: &str = "\"builtin.module\"() ({\n}) : () -> () loc(\"a.mlir\":1:1)\n";

    fn in_module(op: &str) -> HandedOver {
        HandedOver { op: op.into(), levels: vec![Level { shell: MODULE_SHELL.into(), region: 0, ..Level::default() }] }
    }

    fn catalog() -> Catalog {
        Catalog::new(DEFAULT_PREFIX).unwrap()
    }

    #[test]
    fn canonicalize_on_a_function_gives_the_function_alone() {
        let r = run_on_text(&catalog().registry, "canonicalize", &in_module(FUNC), "a.mlir");
        assert!(r.success, "{:?}", r.diagnostics);
        let out = r.output.unwrap();
        assert!(out.starts_with("\"func.func\"()"), "{out}");
        assert!(out.contains("value = 2 : i32") && out.contains("loc(\"a.mlir\":5:5)"), "{out}");
        assert!(!out.contains("#loc"), "self-contained: {out}");
    }

    #[test]
    fn an_unchanged_run_gives_no_output() {
        let first = run_on_text(&catalog().registry, "canonicalize", &in_module(FUNC), "a.mlir").output.unwrap();
        let again = run_on_text(&catalog().registry, "canonicalize", &in_module(&first), "a.mlir");
        assert!(again.success && again.output.is_none(), "{:?}", again.output);
    }

    #[test]
    fn errors_come_back_as_text_diagnostics() {
        let c = catalog();
        let bad = run_on_text(&c.registry, "no-such-pass", &in_module(FUNC), "a.mlir");
        assert!(!bad.success && bad.diagnostics[0].severity == TextSeverity::Error);
        let unparsable = run_on_text(&c.registry, "cse", &in_module("\"a.b\"("), "x.mlir");
        assert!(!unparsable.success);
        assert!(unparsable.diagnostics[0].loc.starts_with("loc(\"x.mlir\":1:"), "{:?}", unparsable.diagnostics);
    }
}
