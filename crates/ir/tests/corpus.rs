//! Golden corpus check for the core crate: every `test/corpus/X.mlir` whose ops are all
//! unregistered (no `func`/`arith` ops and no custom `module` syntax, which need
//! `fuser-dialects`) is parsed with no dialect registered and printed in every mode that has a
//! golden file (`X.generic.golden`, `X.custom.golden`, `X.debuginfo.golden`,
//! `X.debuginfo-local.golden`, `X.custom-debuginfo.golden`); the output must equal the golden
//! byte for byte. The full corpus, with the dialects registered, is checked by
//! `crates/dialects/tests/corpus.rs`.

use fuser_ir::diag::SourceFile;
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::{Context, Ir};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `test/corpus` of the workspace, or `$FUSER_CORPUS_DIR` when set.
fn corpus_dir() -> PathBuf {
    match std::env::var_os("FUSER_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/corpus"),
    }
}

/// The print modes of the corpus (see test/corpus/lib.sh).
const MODES: &[(&str, PrintOptions)] = &[
    (
        "generic",
        PrintOptions { generic: true, debug_info: false, local_scope: false, elide_elements_attrs_if_larger: None },
    ),
    (
        "custom",
        PrintOptions { generic: false, debug_info: false, local_scope: false, elide_elements_attrs_if_larger: None },
    ),
    (
        "debuginfo",
        PrintOptions { generic: true, debug_info: true, local_scope: false, elide_elements_attrs_if_larger: None },
    ),
    (
        "debuginfo-local",
        PrintOptions { generic: true, debug_info: true, local_scope: true, elide_elements_attrs_if_larger: None },
    ),
    (
        "custom-debuginfo",
        PrintOptions { generic: false, debug_info: true, local_scope: false, elide_elements_attrs_if_larger: None },
    ),
];

/// Whether the input needs registered dialects (custom forms or registered ops).
fn needs_dialects(input: &str, generic_golden: &str) -> bool {
    let registered_op = ["\"func.", "\"arith.", "\"builtin.unrealized_conversion_cast\""];
    registered_op.iter().any(|p| generic_golden.contains(p))
        || input.lines().any(|l| {
            let t = l.trim_start();
            t.starts_with("module ") || t == "module" || t.starts_with("module{")
        })
}

/// A unified-diff-like report of the first differing line.
fn first_mismatch(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.split('\n').collect(), got.split('\n').collect());
    let i = w.iter().zip(&g).position(|(a, b)| a != b).unwrap_or(w.len().min(g.len()));
    let from = i.saturating_sub(3);
    let mut out = format!("@@ line {} @@\n", i + 1);
    for l in &w[from..i] {
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
fn corpus_unregistered_ops_print_like_mlir_opt() {
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}", dir.display());
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
        for (mode, opts) in MODES {
            let Ok(want) = std::fs::read_to_string(dir.join(format!("{base}.{mode}.golden"))) else {
                continue;
            };
            let got = print_module(&ctx, &ir, top, opts);
            checked += 1;
            if got != want {
                failures.push(format!("{base}.{mode}.golden differs:\n{}", first_mismatch(&want, &got)));
            }
        }
    }
    eprintln!("corpus: {checked} goldens checked, {} failures", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
