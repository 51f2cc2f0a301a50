//! The services `fuser-opt` takes from other crates, behind one function each, with thin local
//! stand-ins until the real ones land on main: the parser, the dialect and pass registries,
//! `--split-input-file` chunking, and `--verify-diagnostics` checking. Switching to the real
//! implementation is a one-line change in each function.

use fuser_ir::diag::{SourceFile, file_line_col};
use fuser_ir::pass::PassRegistry;
use fuser_ir::registry::Registry;
use fuser_ir::{Context, Diagnostic, Ir, OpId, Severity};

/// The dialects `fuser-opt` knows.
pub fn dialect_registry() -> Registry {
    Registry::new()
}

/// The passes and pipelines `fuser-opt` knows.
pub fn pass_registry() -> PassRegistry {
    PassRegistry::new()
}

/// Parses a source buffer into a top-level op (a `builtin.module`).
pub fn parse_source(ctx: &Context, source: &SourceFile) -> Result<(Ir, OpId), Vec<Diagnostic>> {
    let loc = ctx.file_loc(&source.name, source.first_line, 1);
    Err(vec![Diagnostic::error(loc, "the IR parser is not available in this build of fuser-opt")])
}

/// One chunk of a split input.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    pub text: String,
    /// 1-based line of the chunk's first line in the whole file.
    pub first_line: u32,
}

/// Splits `text` at lines consisting of `marker` (surrounding blanks allowed).
pub fn split_input(text: &str, marker: &str) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    let mut first_line = 1u32;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line.trim() == marker {
            chunks.push(Chunk { text: std::mem::take(&mut current), first_line });
            first_line = i as u32 + 2;
        } else {
            current.push_str(line);
        }
    }
    chunks.push(Chunk { text: current, first_line });
    chunks
}

/// One `expected-*` line.
struct Expectation {
    severity: Severity,
    line: u32,
    message: String,
    col: u32,
    seen: bool,
}

/// Checks `diags` against the `// expected-error {{...}}` lines of `source`.
pub fn check_diagnostics(source: &SourceFile, diags: &[Diagnostic], ctx: &Context) -> Result<(), Vec<String>> {
    let mut expected = collect_expectations(source);
    let mut errors = Vec::new();
    let all = diags.iter().flat_map(|d| std::iter::once(d).chain(d.notes.iter()));
    for d in all {
        let (file, line, col) = file_line_col(ctx, d.loc).unwrap_or_else(|| ("<unknown>".to_string(), 0, 0));
        let hit = expected
            .iter_mut()
            .find(|e| !e.seen && e.severity == d.severity && e.line == line && d.message.contains(&e.message));
        match hit {
            Some(e) => e.seen = true,
            None => errors.push(format!("{file}:{line}:{col}: error: unexpected {}: {}", d.severity.label(), d.message)),
        }
    }
    for e in expected.iter().filter(|e| !e.seen) {
        errors.push(format!(
            "{}:{}:{}: error: expected {} \"{}\" was not produced",
            source.name,
            e.line,
            e.col,
            e.severity.label(),
            e.message
        ));
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

fn collect_expectations(source: &SourceFile) -> Vec<Expectation> {
    let mut out = Vec::new();
    let mut last_non_expect = source.first_line;
    for (i, text) in source.text.lines().enumerate() {
        let line = source.first_line + i as u32;
        let Some(pos) = text.find("expected-") else {
            last_non_expect = line;
            continue;
        };
        let rest = &text[pos + "expected-".len()..];
        let Some((kind, rest)) = rest.split_once(char::is_whitespace).or_else(|| rest.split_once("{{").map(|(k, _)| (k, ""))) else {
            continue;
        };
        let severity = match kind {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            "remark" => Severity::Remark,
            "note" => Severity::Note,
            _ => continue,
        };
        let rest = rest.trim_start();
        let (target, rest) = match rest.strip_prefix('@') {
            Some(r) => {
                let (spec, r) = r.split_once(char::is_whitespace).unwrap_or((r, ""));
                let target = match spec {
                    "above" => last_non_expect,
                    "below" => line + 1,
                    s => match s.parse::<i64>() {
                        Ok(n) => (line as i64 + n).max(0) as u32,
                        Err(_) => line,
                    },
                };
                (target, r.trim_start())
            }
            None => (line, rest),
        };
        let Some(body) = rest.strip_prefix("{{").and_then(|r| r.rfind("}}").map(|e| &r[..e])) else {
            continue;
        };
        out.push(Expectation { severity, line: target, message: body.to_string(), col: pos as u32 + 1, seen: false });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_line_numbers() {
        let chunks = split_input("a\n// -----\nb\nc\n  // -----  \nd", "// -----");
        assert_eq!(chunks.len(), 3);
        assert_eq!((chunks[1].text.as_str(), chunks[1].first_line), ("b\nc\n", 3));
        assert_eq!((chunks[2].text.as_str(), chunks[2].first_line), ("d", 6));
    }

    #[test]
    fn expectations_match_by_line_and_text() {
        let ctx = Context::empty();
        let src = SourceFile::new("t.mlir", "op\n// expected-error @-1 {{bad op}}\n".into());
        let d = Diagnostic::error(ctx.file_loc("t.mlir", 1, 1), "this is a bad op here");
        assert!(check_diagnostics(&src, std::slice::from_ref(&d), &ctx).is_ok());
        let errs = check_diagnostics(&src, &[], &ctx).unwrap_err();
        assert_eq!(errs, ["t.mlir:1:4: error: expected error \"bad op\" was not produced"]);
    }
}
