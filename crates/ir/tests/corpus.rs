//! Golden corpus check for the core crate: every `test/corpus/X.mlir` whose ops are all
//! unregistered (no `func`/`arith` ops and no custom `module` syntax, which need
//! `fuser-dialects`) is parsed with no dialect registered and printed in every mode that has a
//! golden file (`X.generic.golden`, `X.custom.golden`, `X.debuginfo.golden`,
//! `X.debuginfo-local.golden`, `X.custom-debuginfo.golden`); the output must equal the golden
//! byte for byte. The full corpus, with the dialects registered, is checked by
//! `crates/dialects/tests/corpus.rs`.

#[path = "support/corpus.rs"]
mod support;

use fuser_ir::diag::SourceFile;
use fuser_ir::{Context, Ir};
use std::sync::Arc;
use support::{check_goldens, corpus_dir, mlir_inputs};

/// Whether the input needs registered dialects (custom forms or registered ops).
fn needs_dialects(input: &str, generic_golden: &str) -> bool {
    let registered_op = ["\"func.", "\"arith.", "\"builtin.unrealized_conversion_cast\""];
    registered_op.iter().any(|p| generic_golden.contains(p))
        || input.lines().any(|l| {
            let t = l.trim_start();
            t.starts_with("module ") || t == "module" || t.starts_with("module{")
        })
}

#[test]
fn corpus_unregistered_ops_print_like_mlir_opt() {
    let dir = corpus_dir();
    let (mut checked, mut failures) = (0usize, Vec::new());
    for path in mlir_inputs(&dir) {
        let base = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let Ok(generic_golden) = std::fs::read_to_string(dir.join(format!("{base}.generic.golden"))) else {
            continue;
        };
        let input = std::fs::read_to_string(&path).unwrap_or_default();
        if needs_dialects(&input, &generic_golden) {
            continue;
        }
        let ctx = Context::empty();
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
