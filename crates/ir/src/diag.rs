//! Diagnostics in MLIR's shape: `file:line:col: error: message`, the source line, a caret, and
//! attached `note:` diagnostics.
//!
//! A [`Diagnostic`] carries a location attribute; [`SourceMgr`] holds the text of the buffers
//! that locations refer to, so rendering can show the source line. Library code returns
//! diagnostics; only binaries decide what to print and which exit code to use.

use crate::attrs::{Attr, AttrKind};
use crate::context::Context;
use std::fmt::Write as _;
use std::sync::Arc;

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Remark,
    Note,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
            Severity::Note => "note",
        }
    }
}

/// One diagnostic with its notes.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A location attribute.
    pub loc: Attr,
    pub message: String,
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    pub fn new(severity: Severity, loc: Attr, message: impl Into<String>) -> Self {
        Diagnostic { severity, loc, message: message.into(), notes: Vec::new() }
    }
    pub fn error(loc: Attr, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, loc, message)
    }
    pub fn warning(loc: Attr, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, loc, message)
    }
    pub fn remark(loc: Attr, message: impl Into<String>) -> Self {
        Self::new(Severity::Remark, loc, message)
    }
    /// Attaches a note.
    pub fn with_note(mut self, loc: Attr, message: impl Into<String>) -> Self {
        self.notes.push(Diagnostic::new(Severity::Note, loc, message));
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A source buffer.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: Arc<str>,
    /// Line number (1-based) of the buffer's first line in the file it came from
    /// (`--split-input-file` chunks start later in their file).
    pub first_line: u32,
    /// Byte offsets where each line starts.
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: Arc<str>) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        SourceFile { name: name.into(), text, first_line: 1, line_starts }
    }

    /// (line, col), both 1-based, of a byte offset, relative to this buffer.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line as u32 + 1, (offset - self.line_starts[line]) as u32 + 1)
    }

    /// The text of a 1-based line of this buffer, without its newline.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        let i = line.checked_sub(1)? as usize;
        let start = *self.line_starts.get(i)?;
        let end = self.line_starts.get(i + 1).map(|e| e - 1).unwrap_or(self.text.len());
        let s = self.text.get(start..end.max(start))?;
        Some(s.strip_suffix('\r').unwrap_or(s))
    }

    /// The line shown for a diagnostic at 1-based `(line, col)` of this buffer and the caret's
    /// 0-based byte column in it, following LLVM's `SourceMgr`: the column must not run past
    /// the end of the line (one past its last character is allowed); the shown line is
    /// delimited by `\n` or `\r`. `None` when the position is not in the buffer.
    pub fn snippet(&self, line: u32, col: u32) -> Option<(&str, usize)> {
        let start = *self.line_starts.get(line.checked_sub(1)? as usize)?;
        let bytes = self.text.as_bytes();
        let offset = col.saturating_sub(1) as usize;
        let at = start.checked_add(offset).filter(|&p| p <= bytes.len())?;
        if bytes[start..at].iter().any(|&b| b == b'\n' || b == b'\r') {
            return None;
        }
        let is_break = |b: &u8| *b == b'\n' || *b == b'\r';
        let line_start = bytes[..at].iter().rposition(is_break).map_or(0, |i| i + 1);
        let line_end = bytes[at..].iter().position(is_break).map_or(bytes.len(), |i| at + i);
        // Lines split at ASCII bytes, so both ends are character boundaries.
        let text = self.text.get(line_start..line_end)?;
        Some((text, at - line_start))
    }
}

/// The buffers that locations may point into.
#[derive(Default, Clone, Debug)]
pub struct SourceMgr {
    files: Vec<SourceFile>,
}

impl SourceMgr {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn add(&mut self, file: SourceFile) {
        self.files.push(file);
    }
    pub fn find(&self, name: &str) -> Option<&SourceFile> {
        self.files.iter().rev().find(|f| f.name == name)
    }
}

/// Resolves a location attribute to `(file, line, col)` when it holds one: the first
/// `FileLineColLoc` of a pre-order walk of the location tree (a call site's callee before its
/// caller, fused locations in order), as MLIR's `findInstanceOf` finds it.
pub fn file_line_col(ctx: &Context, loc: Attr) -> Option<(String, u32, u32)> {
    let mut stack = vec![loc];
    // Bounded: locations are finite trees; the cap guards against pathological inputs.
    let mut budget = 1_000_000usize;
    while let Some(cur) = stack.pop() {
        budget = budget.checked_sub(1)?;
        match ctx.attr_kind(cur) {
            AttrKind::FileLineColLoc { file, line, col } => {
                return Some((ctx.ident_str(*file).to_string(), *line, *col));
            }
            AttrKind::NameLoc { child: Some(c), .. } => stack.push(*c),
            AttrKind::CallSiteLoc { callee, caller } => stack.extend([*caller, *callee]),
            AttrKind::FusedLoc { locs, .. } => stack.extend(locs.iter().rev().copied()),
            _ => {}
        }
    }
    None
}

/// MLIR's `getCallSiteLoc`: the call site a location is (possibly under names).
fn call_site(ctx: &Context, loc: Attr) -> Option<(Attr, Attr)> {
    let mut cur = loc;
    for _ in 0..10_000 {
        match ctx.attr_kind(cur) {
            AttrKind::NameLoc { child: Some(c), .. } => cur = *c,
            AttrKind::CallSiteLoc { callee, caller } => return Some((*callee, *caller)),
            _ => return None,
        }
    }
    None
}

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

    #[test]
    fn snippet_rejects_columns_beyond_the_line() {
        let f = SourceFile::new("f", Arc::from("ab\ncd"));
        assert_eq!(f.snippet(1, 3), Some(("ab", 2)));
        assert_eq!(f.snippet(1, 4), None);
        assert_eq!(f.snippet(2, 3), Some(("cd", 2)));
        assert_eq!(f.snippet(2, 4), None);
        assert_eq!(f.snippet(3, 1), None);
    }

    #[test]
    fn carriage_return_ends_the_shown_line() {
        let f = SourceFile::new("f", Arc::from("ab\rcd\n"));
        assert_eq!(f.snippet(1, 1), Some(("ab", 0)));
        assert_eq!(f.snippet(1, 4), None);
    }
}
