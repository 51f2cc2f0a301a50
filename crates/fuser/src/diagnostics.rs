//! Diagnostics as plain data: what went wrong (or what a pass remarks), where, and the text
//! `fuser-opt` would print for it.
//!
//! Internally a diagnostic points at a location *attribute* of a context; an embedder gets it
//! resolved here into a file, line and column, with its notes, and with the rendered
//! mlir-opt-style text (header, source line, caret) so that nothing needs the context
//! afterwards. [`Error`] is the failure of a facade call: one or more diagnostics, at least
//! one of them an error.

use fuser_ir::Context;
use fuser_ir::diag::{self, SourceMgr};

/// How serious a diagnostic is.
///
/// ```
/// assert!(fuser::Severity::Error < fuser::Severity::Note);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The operation failed.
    Error,
    /// Something is suspicious but the operation went on.
    Warning,
    /// Information a pass reports (e.g. an analysis result).
    Remark,
    /// Additional information attached to another diagnostic.
    Note,
}

impl Severity {
    /// The lower-case word mlir-opt prints: `error`, `warning`, `remark` or `note`.
    ///
    /// ```
    /// assert_eq!(fuser::Severity::Warning.label(), "warning");
    /// ```
    pub fn label(self) -> &'static str {
        self.internal().label()
    }

    fn internal(self) -> diag::Severity {
        match self {
            Severity::Error => diag::Severity::Error,
            Severity::Warning => diag::Severity::Warning,
            Severity::Remark => diag::Severity::Remark,
            Severity::Note => diag::Severity::Note,
        }
    }

    fn of_internal(s: diag::Severity) -> Severity {
        match s {
            diag::Severity::Error => Severity::Error,
            diag::Severity::Warning => Severity::Warning,
            diag::Severity::Remark => Severity::Remark,
            diag::Severity::Note => Severity::Note,
        }
    }
}

/// A position in a source buffer: the buffer's name and a 1-based line and column.
///
/// ```
/// let err = fuser::Compiler::new().parse("in.mlir", "\n  %x = arith.constant : i32\n").unwrap_err();
/// let loc = err.diagnostics()[0].location.clone().unwrap();
/// assert_eq!((loc.file.as_str(), loc.line), ("in.mlir", 2));
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct Location {
    /// The name the buffer was parsed under (a file name, or any label the caller chose).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in bytes).
    pub column: u32,
}

/// A note attached to a [`Diagnostic`].
///
/// ```
/// let compiler = fuser::Compiler::new();
/// let text = "func.func @f() {\n  %0 = arith.constant 1 : i32\n  %0 = arith.constant 2 : i32\n  return\n}\n";
/// let err = compiler.parse("dup.mlir", text).unwrap_err();
/// let d = &err.diagnostics()[0];
/// assert_eq!(d.message, "redefinition of SSA value '%0'");
/// assert_eq!(d.notes[0].message, "previously defined here");
/// assert_eq!(d.notes[0].location.as_ref().map(|l| l.line), Some(2));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Note {
    /// Where the note points, when it has a file location.
    pub location: Option<Location>,
    /// The note's text.
    pub message: String,
}

/// One diagnostic, resolved: severity, location, message, notes and the rendered text.
///
/// ```
/// let err = fuser::Compiler::new().parse("x.mlir", "%0 = arith.addi\n").unwrap_err();
/// let d = &err.diagnostics()[0];
/// assert!(d.is_error());
/// assert_eq!(d.to_string(), d.rendered);
/// assert!(d.rendered.starts_with("x.mlir:"));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// Where it points, when it has a file location (IR built without locations has none).
    pub location: Option<Location>,
    /// The message, without location or severity prefix.
    pub message: String,
    /// Attached notes, in order.
    pub notes: Vec<Note>,
    /// The text `fuser-opt` prints for it: `file:line:col: error: message`, the source line
    /// and a caret when the source is known, then the notes; ends with a newline.
    pub rendered: String,
}

impl Diagnostic {
    /// Whether this is an error.
    ///
    /// ```
    /// assert!(fuser::Error::message("x").diagnostics()[0].is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Resolves an internal diagnostic against the context and sources it refers to.
    pub(crate) fn resolve(ctx: &Context, sources: &SourceMgr, d: &diag::Diagnostic) -> Diagnostic {
        Diagnostic {
            severity: Severity::of_internal(d.severity),
            location: location_of(ctx, d.loc),
            message: d.message.clone(),
            notes: d
                .notes
                .iter()
                .map(|n| Note { location: location_of(ctx, n.loc), message: n.message.clone() })
                .collect(),
            rendered: diag::render(ctx, sources, d),
        }
    }

    /// A diagnostic without location (failures of the facade itself, such as a bad argument).
    pub(crate) fn unlocated(severity: Severity, message: impl Into<String>) -> Diagnostic {
        let message = message.into();
        let rendered = format!("<unknown>:0: {}: {message}\n", severity.label());
        Diagnostic { severity, location: None, message, notes: Vec::new(), rendered }
    }
}

fn location_of(ctx: &Context, loc: fuser_ir::Attr) -> Option<Location> {
    diag::file_line_col(ctx, loc).map(|(file, line, column)| Location { file, line, column })
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.rendered)
    }
}

/// The failure of a facade call: the diagnostics it produced, at least one an error.
///
/// `Display` prints every diagnostic as `fuser-opt` would.
///
/// ```
/// let compiler = fuser::Compiler::new();
/// let err = compiler.parse("bad.mlir", "func.func @f(\n").unwrap_err();
/// let first = &err.diagnostics()[0];
/// assert_eq!(first.severity, fuser::Severity::Error);
/// assert_eq!(first.location.as_ref().map(|l| (l.line, l.column)), Some((1, 14)));
/// assert!(err.to_string().starts_with("bad.mlir:1:14: error:"));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Error {
    diagnostics: Vec<Diagnostic>,
}

impl Error {
    /// An error made of these diagnostics. When none of them is an error, an error saying
    /// so is added, so that an `Error` always holds one.
    ///
    /// ```
    /// let e = fuser::Error::new(Vec::new());
    /// assert_eq!(e.diagnostics().len(), 1);
    /// assert!(e.diagnostics()[0].is_error());
    /// ```
    pub fn new(mut diagnostics: Vec<Diagnostic>) -> Error {
        if !diagnostics.iter().any(Diagnostic::is_error) {
            diagnostics.push(Diagnostic::unlocated(Severity::Error, "operation failed without an error diagnostic"));
        }
        Error { diagnostics }
    }

    /// A single error without location.
    ///
    /// ```
    /// let e = fuser::Error::message("out of coffee");
    /// assert_eq!(e.to_string(), "<unknown>:0: error: out of coffee\n");
    /// ```
    pub fn message(text: impl Into<String>) -> Error {
        Error { diagnostics: vec![Diagnostic::unlocated(Severity::Error, text)] }
    }

    /// The diagnostics, in the order they were reported.
    ///
    /// ```
    /// assert_eq!(fuser::Error::message("a").diagnostics()[0].message, "a");
    /// ```
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Takes the diagnostics.
    ///
    /// ```
    /// let ds = fuser::Error::message("a").into_diagnostics();
    /// assert_eq!(ds.len(), 1);
    /// ```
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.diagnostics.iter().try_for_each(|d| f.write_str(&d.rendered))
    }
}

impl std::error::Error for Error {}

/// Resolves a list of internal diagnostics.
pub(crate) fn resolve_all(ctx: &Context, sources: &SourceMgr, ds: &[diag::Diagnostic]) -> Vec<Diagnostic> {
    ds.iter().map(|d| Diagnostic::resolve(ctx, sources, d)).collect()
}
