//! Shared by the golden-corpus tests of `fuser-ir` (unregistered ops only) and
//! `fuser-dialects` (the full corpus): where the corpus is, its print modes, and how a parsed
//! input is compared with its goldens.

use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::{Context, Ir, OpId};
use std::path::{Path, PathBuf};

/// `test/corpus` of the workspace, or `$FUSER_CORPUS_DIR` when set.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("FUSER_CORPUS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/corpus"),
    }
}

/// The `.mlir` files of `dir`, sorted (empty when the folder is missing).
pub fn mlir_inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("no corpus at {}", dir.display());
        return Vec::new();
    };
    let mut inputs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    inputs.sort();
    inputs
}

const fn opts(generic: bool, debug_info: bool, local_scope: bool) -> PrintOptions {
    PrintOptions {
        generic,
        debug_info,
        local_scope,
        elide_elements_attrs_if_larger: None,
        pretty_debug_info: false,
        elements_hex_if_larger: None,
        skip_regions: false,
        unique_ssa_ids: false,
        value_users: false,
        elide_resource_strings_if_larger: None,
        assume_verified: false,
    }
}

/// The print modes of the corpus (see test/corpus/lib.sh).
pub const MODES: &[(&str, PrintOptions)] = &[
    ("generic", opts(true, false, false)),
    ("custom", opts(false, false, false)),
    ("debuginfo", opts(true, true, false)),
    ("debuginfo-local", opts(true, true, true)),
    ("custom-debuginfo", opts(false, true, false)),
];

/// Prints `top` in every mode that has a golden `base.MODE.golden` in `dir`; counts the
/// comparisons in `checked` and records each difference in `failures`.
pub fn check_goldens(
    ctx: &Context,
    ir: &Ir,
    top: OpId,
    dir: &Path,
    base: &str,
    checked: &mut usize,
    failures: &mut Vec<String>,
) {
    for (mode, opts) in MODES {
        let Ok(want) = std::fs::read_to_string(dir.join(format!("{base}.{mode}.golden"))) else {
            continue;
        };
        let got = print_module(ctx, ir, top, opts);
        *checked += 1;
        if got != want {
            failures.push(format!("{base}.{mode}.golden differs:\n{}", first_mismatch(&want, &got)));
        }
    }
}

/// A unified-diff-like report of the first differing line.
pub fn first_mismatch(want: &str, got: &str) -> String {
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
