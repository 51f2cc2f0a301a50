//! Golden corpus check with the dialects registered: every valid `test/corpus/X.mlir` is
//! parsed with `builtin`, `func` and `arith` registered (and unregistered dialects allowed)
//! and printed in every mode that has a golden file (`X.generic.golden`, `X.custom.golden`,
//! `X.debuginfo.golden`, `X.debuginfo-local.golden`, `X.custom-debuginfo.golden`); the output
//! must equal mlir-opt-19's byte for byte. `FUSER_CORPUS_DIR` overrides the corpus location;
//! `FUSER_CORPUS_ONLY=prefix` restricts the run to inputs whose name starts with `prefix`.

use fuser_ir::diag::SourceFile;
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::{Context, Ir};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn corpus_dir() -> PathBuf {
    match std::env::var_os("FUSER_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/corpus"),
    }
}

fn opts(generic: bool, debug_info: bool, local_scope: bool) -> PrintOptions {
    PrintOptions { generic, debug_info, local_scope, elide_elements_attrs_if_larger: None }
}

/// The print modes of the corpus (see test/corpus/lib.sh).
fn modes() -> Vec<(&'static str, PrintOptions)> {
    vec![
        ("generic", opts(true, false, false)),
        ("custom", opts(false, false, false)),
        ("debuginfo", opts(true, true, false)),
        ("debuginfo-local", opts(true, true, true)),
        ("custom-debuginfo", opts(false, true, false)),
    ]
}

/// A unified-diff-like report of the first differing line.
fn first_mismatch(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.split('\n').collect(), got.split('\n').collect());
    let i = w.iter().zip(&g).position(|(a, b)| a != b).unwrap_or(w.len().min(g.len()));
    let mut out = format!("@@ line {} @@\n", i + 1);
    for l in &w[i.saturating_sub(3)..i] {
        out += &format!(" {l}\n");
    }
    for l in w.iter().skip(i).take(3) {
        out += &format!("-{l}\n");
    }
    for l in g.iter().skip(i).take(3) {
        out += &format!("+{l}\n");
    }
    out
}

#[test]
fn corpus_prints_like_mlir_opt() {
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}", dir.display());
        return;
    };
    let only = std::env::var("FUSER_CORPUS_ONLY").unwrap_or_default();
    let mut inputs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    inputs.sort();
    let (mut checked, mut failures) = (0usize, Vec::new());
    for path in inputs {
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
        for (mode, opts) in modes() {
            let Ok(want) = std::fs::read_to_string(dir.join(format!("{base}.{mode}.golden"))) else {
                continue;
            };
            let got = print_module(&ctx, &ir, top, &opts);
            checked += 1;
            if got != want {
                failures.push(format!("{base}.{mode}.golden differs:\n{}", first_mismatch(&want, &got)));
            }
        }
    }
    eprintln!("corpus: {checked} goldens checked, {} failures", failures.len());
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
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut inputs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    inputs.sort();
    let (mut checked, mut failures) = (0usize, Vec::new());
    for path in inputs {
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
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
