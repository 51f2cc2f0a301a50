//! Golden corpus check with the dialects registered: every valid `test/corpus/X.mlir` is
//! parsed with `builtin`, `func` and `arith` registered (and unregistered dialects allowed)
//! and printed in every mode that has a golden file (`X.generic.golden`, `X.custom.golden`,
//! `X.debuginfo.golden`, `X.debuginfo-local.golden`, `X.custom-debuginfo.golden`); the output
//! must equal mlir-opt-19's byte for byte. `FUSER_CORPUS_DIR` overrides the corpus location;
//! `FUSER_CORPUS_ONLY=prefix` restricts the run to inputs whose name starts with `prefix`.

#[path = "../../ir/tests/support/corpus.rs"]
mod support;

use fuser_ir::diag::SourceFile;
use fuser_ir::{Context, Ir};
use std::sync::Arc;
use support::{check_goldens, corpus_dir, mlir_inputs};

#[test]
fn corpus_prints_like_mlir_opt() {
    let dir = corpus_dir();
    let only = std::env::var("FUSER_CORPUS_ONLY").unwrap_or_default();
    let (mut checked, mut failures) = (0usize, Vec::new());
    for path in mlir_inputs(&dir) {
        let base = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        if !base.starts_with(&only) {
            continue;
        }
        let input = std::fs::read_to_string(&path).unwrap_or_default();
        let ctx = Context::new(fuser_dialects::registry());
        ctx.set_allow_unregistered(true);
        let mut ir = Ir::new();
        let src = SourceFile::new(format!("{base}.mlir"), Arc::from(input.as_str()));
        let top = match fuser_ir::parser::parse_source(&ctx, &mut ir, &src) {
            Ok(op) => op,
            Err(d) => {
                failures.push(format!("{base}: parse error: {}", d.message));
                continue;
            }
        };
        check_goldens(&ctx, &ir, top, &dir, &base, &mut checked, &mut failures);
    }
    eprintln!("corpus: {checked} goldens checked, {} failures", failures.len());
    assert!(checked > 0, "no golden file was checked: is the corpus at {}?", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The ops quoted by "note: see current operation: ..." in an error golden.
fn quoted_ops(stderr: &str) -> Vec<String> {
    const MARK: &str = "note: see current operation: ";
    let lines: Vec<&str> = stderr.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(pos) = l.find(MARK) else { continue };
        let rest = &l[pos + MARK.len()..];
        if !rest.is_empty() {
            out.push(rest.to_string());
            continue;
        }
        // Multi-line: the op follows, up to the next diagnostic line.
        let is_diag = |s: &str| s.split_once(": ").is_some_and(|(head, _)| head.contains(".mlir:"));
        let body: Vec<&str> = lines[i + 1..].iter().copied().take_while(|s| !is_diag(s)).collect();
        out.push(body.join("\n"));
    }
    out
}

/// Every op quoted in a verifier note of `test/corpus/errors/*.stderr.golden` must be what
/// `print_op_for_diagnostic` prints for some op of the parsed input (generic form, values
/// numbered from the enclosing isolated op, large dense elements elided).
#[test]
fn diagnostic_notes_print_like_mlir_opt() {
    let dir = corpus_dir().join("errors");
    let (mut checked, mut failures) = (0usize, Vec::new());
    for path in mlir_inputs(&dir) {
        let base = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let Ok(stderr) = std::fs::read_to_string(dir.join(format!("{base}.stderr.golden"))) else {
            continue;
        };
        let quoted = quoted_ops(&stderr);
        if quoted.is_empty() {
            continue;
        }
        let input = std::fs::read_to_string(&path).unwrap_or_default();
        let ctx = Context::new(fuser_dialects::registry());
        ctx.set_allow_unregistered(!base.starts_with("noflag_"));
        let mut ir = Ir::new();
        let src = SourceFile::new(format!("{base}.mlir"), Arc::from(input.as_str()));
        let Ok(top) = fuser_ir::parser::parse_source(&ctx, &mut ir, &src) else {
            continue;
        };
        let printed: Vec<String> = ir
            .collect_ops(top, fuser_ir::ir::WalkOrder::PreOrder)
            .into_iter()
            .map(|op| fuser_ir::printer::print_op_for_diagnostic(&ctx, &ir, op))
            .collect();
        for q in quoted {
            checked += 1;
            if !printed.contains(&q) {
                failures.push(format!("{base}: no op prints as\n{q}\nprinted ops:\n{}", printed.join("\n")));
            }
        }
    }
    eprintln!("diagnostic notes: {checked} checked, {} failures", failures.len());
    assert!(checked > 0, "no diagnostic note was checked: is the corpus at {}?", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
