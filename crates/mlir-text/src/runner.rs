//! Runs one fuser pass or pipeline element (`cse`, `tp-default{streams=2}`) on the op at a
//! path inside a root op given as MLIR generic text, the way `fuser-opt` would: parse,
//! verify the op, run a pass manager anchored on it, print the root again in generic form
//! with debug info. Only the op at the path is transformed; the rest of the root is its
//! symbol context (meshes next to a function), as in fuser's own parallel pass manager.

use crate::diagnostic::TextDiagnostic;
use crate::path::OpPath;
use fuser_ir::diag::SourceFile;
use fuser_ir::pass::{LogEntry, OpPassManager, PassManager, PassManagerConfig, PassRegistry, adapters};
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::{Context, Ir, OpId};

/// What a run gives back.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// The pipeline succeeded (no error diagnostic).
    pub success: bool,
    /// The root in generic form with debug info, when the run succeeded and changed the text.
    pub output: Option<String>,
    /// Diagnostics in the order fuser reported them.
    pub diagnostics: Vec<TextDiagnostic>,
}

/// Runs `element` (pipeline text of one pass or pipeline, options included) on the op at
/// `path` below the root op in `text`. `source_name` names the buffer in diagnostics of
/// text without locations.
pub fn run_on_text(registry: &PassRegistry, element: &str, text: &str, source_name: &str, path: &OpPath) -> RunReport {
    let ctx = Context::new(fuser_dialects::registry());
    // MLIR hands over ops of any dialect; fuser keeps the unknown ones verbatim.
    ctx.set_allow_unregistered(true);
    match run_in_context(&ctx, registry, element, text, source_name, path) {
        Ok(report) => report,
        Err(diagnostics) => RunReport { success: false, output: None, diagnostics },
    }
}

fn run_in_context(
    ctx: &Context,
    registry: &PassRegistry,
    element: &str,
    text: &str,
    source_name: &str,
    path: &OpPath,
) -> Result<RunReport, Vec<TextDiagnostic>> {
    let to_text = |ds: Vec<fuser_ir::Diagnostic>| -> Vec<TextDiagnostic> {
        ds.iter().map(|d| TextDiagnostic::from_diagnostic(ctx, d)).collect()
    };
    let mut ir = Ir::new();
    let root = fuser_ir::parser::parse_source_all(ctx, &mut ir, &SourceFile::new(source_name, text.into()))
        .map_err(to_text)?;
    let target = path
        .find(&ir, root)
        .ok_or_else(|| vec![TextDiagnostic::error_at_unknown(format!("no op at path {path:?} of the handed-over IR"))])?;
    adapters::verify_op(ctx, &ir, target).map_err(to_text)?;
    let manager = manager_for(ctx, &ir, target, registry, element)?;
    let result = manager.run(ctx, &mut ir, target);
    let diagnostics = result
        .log
        .iter()
        .filter_map(|e| match e {
            LogEntry::Diagnostic(d) => Some(TextDiagnostic::from_diagnostic(ctx, d)),
            LogEntry::Text(_) => None,
        })
        .collect();
    let output = result.success.then(|| generic_text(ctx, &ir, root)).filter(|out| out != text);
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
    pipeline
        .add_pipeline_text(element, registry)
        .map_err(|e| vec![TextDiagnostic::error_at_unknown(e.to_string())])?;
    // MLIR attaches its own "see current operation" notes (`--mlir-print-op-on-diagnostic`);
    // a copy of fuser's would describe the handed-over copy, not the user's op.
    let config = PassManagerConfig { print_op_on_diagnostic: false, ..PassManagerConfig::default() };
    Ok(PassManager { pipeline, config })
}

/// `op` printed in generic form with debug info: the exchange format with MLIR.
pub fn generic_text(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let opts = PrintOptions { generic: true, debug_info: true, local_scope: false, elide_elements_attrs_if_larger: None };
    print_module(ctx, ir, op, &opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Catalog, DEFAULT_PREFIX};
    use crate::diagnostic::TextSeverity;

    const MODULE: &str = "\"builtin.module\"() ({\n  \"func.func\"() <{function_type = () -> i32, sym_name = \"f\"}> ({\n    %0 = \"arith.constant\"() <{value = 1 : i32}> : () -> i32 loc(\"a.mlir\":3:5)\n    %1 = \"arith.constant\"() <{value = 1 : i32}> : () -> i32 loc(\"a.mlir\":4:5)\n    %2 = \"arith.addi\"(%0, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc(\"a.mlir\":5:5)\n    \"func.return\"(%2) : (i32) -> () loc(\"a.mlir\":6:5)\n  }) : () -> () loc(\"a.mlir\":2:3)\n}) : () -> () loc(\"a.mlir\":1:1)\n";

    fn catalog() -> Catalog {
        Catalog::new(DEFAULT_PREFIX).unwrap()
    }

    #[test]
    fn canonicalize_on_the_function_folds_and_keeps_the_module_around() {
        let c = catalog();
        let path = OpPath::from_flat(&[0, 0, 0]).unwrap();
        let r = run_on_text(&c.registry, "canonicalize", MODULE, "a.mlir", &path);
        assert!(r.success, "{:?}", r.diagnostics);
        let out = r.output.unwrap();
        assert!(out.contains("value = 2 : i32"), "{out}");
        assert!(out.starts_with("\"builtin.module\"() ({"), "{out}");
        assert!(out.contains("loc(#loc"), "debug info is printed: {out}");
    }

    #[test]
    fn an_unchanged_run_gives_no_output() {
        let c = catalog();
        let first = run_on_text(&c.registry, "canonicalize", MODULE, "a.mlir", &OpPath::root()).output.unwrap();
        let again = run_on_text(&c.registry, "canonicalize", &first, "a.mlir", &OpPath::root());
        assert!(again.success && again.output.is_none(), "{:?}", again.output);
    }

    #[test]
    fn errors_come_back_as_text_diagnostics() {
        let c = catalog();
        let bad = run_on_text(&c.registry, "no-such-pass", MODULE, "a.mlir", &OpPath::root());
        assert!(!bad.success && bad.diagnostics[0].severity == TextSeverity::Error);
        let unparsable = run_on_text(&c.registry, "cse", "\"a.b\"(", "x.mlir", &OpPath::root());
        assert!(!unparsable.success);
        assert!(unparsable.diagnostics[0].loc.starts_with("loc(\"x.mlir\":1:"), "{:?}", unparsable.diagnostics);
        let missing = run_on_text(&c.registry, "cse", MODULE, "a.mlir", &OpPath::from_flat(&[0, 0, 9]).unwrap());
        assert!(!missing.success);
    }
}
