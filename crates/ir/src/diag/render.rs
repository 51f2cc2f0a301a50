//! Rendering diagnostics as mlir-opt's source manager handler prints them: a header line,
//! the source line with a caret, `called from` notes of call-site locations.
//!
//! Layer: above the printer (a location without a file prints with the attribute printer);
//! used by the verify-diagnostics checker and the binaries. Library code returns
//! [`Diagnostic`]s and leaves rendering to its caller.

use super::diagnostic::{Diagnostic, Severity};
use super::location::{call_site, file_line_col};
use super::source::SourceMgr;
use crate::attrs::{Attr, AttrKind};
use crate::context::Context;
use std::fmt::Write as _;

/// How many `called from` notes a call-site location expands to at most (mlir-opt's default
/// call stack limit).
const CALL_STACK_LIMIT: usize = 10;

/// Renders a diagnostic (and its notes) as mlir-opt's source manager handler does: a header
/// line, then the source line and a caret when the location points into a known buffer. A
/// call-site location adds one `called from` note per caller; a note shows its source line
/// only when its location differs from the previous one printed.
pub fn render(ctx: &Context, sources: &SourceMgr, d: &Diagnostic) -> String {
    let mut out = String::new();
    let mut loc = d.loc;
    render_one(ctx, sources, d.severity, loc, &d.message, true, &mut out);
    if call_site(ctx, loc).is_some() {
        let mut current = loc;
        for _ in 0..CALL_STACK_LIMIT {
            let Some((_, caller)) = call_site(ctx, current) else { break };
            render_one(ctx, sources, Severity::Note, caller, "called from", true, &mut out);
            current = caller;
        }
        loc = current;
    }
    for n in &d.notes {
        render_one(ctx, sources, n.severity, n.loc, &n.message, n.loc != loc, &mut out);
        loc = n.loc;
    }
    out
}

fn render_one(
    ctx: &Context,
    sources: &SourceMgr,
    severity: Severity,
    loc: Attr,
    message: &str,
    show_source: bool,
    out: &mut String,
) {
    let label = severity.label();
    let Some((file, line, col)) = file_line_col(ctx, loc) else {
        // No file location: MLIR prints the location itself in front of the message.
        let prefix = match ctx.attr_kind(loc) {
            AttrKind::UnknownLoc => String::new(),
            _ => format!("{}: ", crate::printer::print_attr(ctx, loc)),
        };
        let _ = writeln!(out, "<unknown>:0: {label}: {prefix}{message}");
        return;
    };
    let _ = writeln!(out, "{file}:{line}:{col}: {label}: {message}");
    if !show_source {
        return;
    }
    let Some(src) = sources.find(&file) else { return };
    let Some(local) = line.checked_sub(src.first_line.saturating_sub(1)).filter(|&l| l > 0) else { return };
    if let Some((text, caret_col)) = src.snippet(local, col) {
        out.push_str(&source_excerpt(text, caret_col));
    }
}

/// The width of a tab stop in source excerpts.
const TAB_STOP: usize = 8;

/// The source line (tabs expanded to [`TAB_STOP`] columns) and, when the line is plain ASCII,
/// a caret line under byte column `caret_col` (0-based), as LLVM's `SMDiagnostic` prints them.
/// A caret past the end of the line sits just after its last character.
fn source_excerpt(line: &str, caret_col: usize) -> String {
    let mut out = expand_tabs(line);
    out.push('\n');
    if !line.is_ascii() {
        // Columns of multi-byte characters are ambiguous: LLVM shows no caret then.
        return out;
    }
    let bytes = line.as_bytes();
    let caret_at = caret_col.min(bytes.len());
    let mut col = 0usize;
    for (i, &b) in bytes.iter().enumerate().take(caret_at + 1) {
        let mark = if i == caret_at { '^' } else { ' ' };
        loop {
            out.push(mark);
            col += 1;
            if b != b'\t' || col.is_multiple_of(TAB_STOP) {
                break;
            }
        }
    }
    if caret_at == bytes.len() {
        out.push('^');
    }
    out.push('\n');
    out
}

/// A line with each tab replaced by spaces up to the next multiple of [`TAB_STOP`] (at least
/// one space).
fn expand_tabs(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut col = 0usize;
    for c in line.chars() {
        if c == '\t' {
            loop {
                out.push(' ');
                col += 1;
                if col.is_multiple_of(TAB_STOP) {
                    break;
                }
            }
        } else {
            out.push(c);
            col += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_column() {
        assert_eq!(source_excerpt("abc def", 4), "abc def\n    ^\n");
    }

    #[test]
    fn caret_past_end_sits_after_last_char() {
        assert_eq!(source_excerpt("ab", 7), "ab\n  ^\n");
    }

    #[test]
    fn tabs_expand_in_line_and_caret() {
        assert_eq!(source_excerpt("\tx", 1), "        x\n        ^\n");
        assert_eq!(source_excerpt("ab\tx", 3), "ab      x\n        ^\n");
    }

    #[test]
    fn caret_on_tab_repeats() {
        assert_eq!(source_excerpt("a\tb", 1), "a       b\n ^^^^^^^\n");
    }

    #[test]
    fn non_ascii_line_has_no_caret() {
        assert_eq!(source_excerpt("é x", 3), "é x\n");
    }
}
