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

/// Resolves a location attribute to `(file, line, col)` when it holds one.
pub fn file_line_col(ctx: &Context, loc: Attr) -> Option<(String, u32, u32)> {
    let mut cur = loc;
    // Bounded: locations are finite trees; follow first children.
    for _ in 0..10_000 {
        match ctx.attr_kind(cur) {
            AttrKind::FileLineColLoc { file, line, col } => {
                return Some((ctx.ident_str(*file).to_string(), *line, *col));
            }
            AttrKind::NameLoc { child: Some(c), .. } => cur = *c,
            AttrKind::CallSiteLoc { callee, .. } => cur = *callee,
            AttrKind::FusedLoc { locs, .. } => {
                let found = locs.iter().find_map(|l| file_line_col(ctx, *l));
                return found;
            }
            _ => return None,
        }
    }
    None
}

/// Renders a diagnostic (and its notes) as MLIR does: a header line, then the source line
/// and a caret when the source is available.
pub fn render(ctx: &Context, sources: &SourceMgr, d: &Diagnostic) -> String {
    let mut out = String::new();
    render_one(ctx, sources, d, true, &mut out);
    for n in &d.notes {
        // A note at its diagnostic's own location shows no second copy of the source line.
        render_one(ctx, sources, n, n.loc != d.loc, &mut out);
    }
    out
}

fn render_one(ctx: &Context, sources: &SourceMgr, d: &Diagnostic, show_source: bool, out: &mut String) {
    match file_line_col(ctx, d.loc) {
        Some((file, line, col)) => {
            let _ = writeln!(out, "{file}:{line}:{col}: {}: {}", d.severity.label(), d.message);
            // Line 0 (an implicit op's location) has no source line to show, as in MLIR.
            if let Some(src) = sources.find(&file).filter(|_| show_source && line > 0) {
                let local = line + 1 - src.first_line.min(line);
                if let Some(text) = src.line_text(local) {
                    let _ = writeln!(out, "{text}");
                    let pad: String = text
                        .chars()
                        .take(col.saturating_sub(1) as usize)
                        .map(|c| if c == '\t' { '\t' } else { ' ' })
                        .collect();
                    let _ = writeln!(out, "{pad}^");
                }
            }
        }
        None => {
            let _ = writeln!(out, "<unknown>:0: {}: {}", d.severity.label(), d.message);
        }
    }
}
