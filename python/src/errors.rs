//! Diagnostics crossing into Python: [`Diagnostic`] and [`Note`] as read-only Python objects,
//! and `FuserError`, the exception every failure of the package raises.
//!
//! A `FuserError` carries the facade's diagnostics whole (`diagnostics`), plus the first
//! error's `file`, `line`, `column`, `message` and `notes` as attributes; `str()` of it is the
//! rendered text `fuser-opt` prints (location, message, source line and caret, notes).
//! Errors made here about a place in Python code (an op the frontend could not build) are
//! rendered by the same renderer, against the Python source the frontend registered.

use fuser_ir::diag::{SourceFile, SourceMgr};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::sync::Arc;

pyo3::create_exception!(
    _fuser,
    FuserError,
    PyException,
    "A failure of fuser: the diagnostics of a parse, verification, pass, build or run."
);

/// A note attached to a diagnostic.
#[pyclass(module = "fuser._fuser", frozen, get_all)]
#[derive(Clone)]
pub struct Note {
    /// The file the note points at, or `None`.
    pub file: Option<String>,
    /// 1-based line (0 without location).
    pub line: u32,
    /// 1-based column (0 without location).
    pub column: u32,
    /// The note's text.
    pub message: String,
}

#[pymethods]
impl Note {
    fn __repr__(&self) -> String {
        format!(
            "Note({}:{}:{}: {:?})",
            self.file.as_deref().unwrap_or("<unknown>"),
            self.line,
            self.column,
            self.message
        )
    }
}

/// One diagnostic: severity, location, message, notes and the text `fuser-opt` prints.
#[pyclass(module = "fuser._fuser", frozen, get_all)]
#[derive(Clone)]
pub struct Diagnostic {
    /// `"error"`, `"warning"`, `"remark"` or `"note"`.
    pub severity: String,
    /// The file it points at, or `None` (a diagnostic about the run, not a place).
    pub file: Option<String>,
    /// 1-based line (0 without location).
    pub line: u32,
    /// 1-based column (0 without location).
    pub column: u32,
    /// The message, without location or severity prefix.
    pub message: String,
    /// Attached notes, in order.
    pub notes: Vec<Note>,
    /// The rendered text: `file:line:col: error: message`, source line, caret, notes.
    pub rendered: String,
}

#[pymethods]
impl Diagnostic {
    fn __str__(&self) -> String {
        self.rendered.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Diagnostic({} at {}:{}:{}: {:?})",
            self.severity,
            self.file.as_deref().unwrap_or("<unknown>"),
            self.line,
            self.column,
            self.message
        )
    }
}

impl From<&fuser::Diagnostic> for Diagnostic {
    fn from(d: &fuser::Diagnostic) -> Diagnostic {
        let (file, line, column) = split_location(d.location.as_ref());
        Diagnostic {
            severity: d.severity.label().to_string(),
            file,
            line,
            column,
            message: d.message.clone(),
            notes: d
                .notes
                .iter()
                .map(|n| {
                    let (file, line, column) = split_location(n.location.as_ref());
                    Note { file, line, column, message: n.message.clone() }
                })
                .collect(),
            rendered: d.rendered.clone(),
        }
    }
}

fn split_location(l: Option<&fuser::Location>) -> (Option<String>, u32, u32) {
    l.map_or((None, 0, 0), |l| (Some(l.file.clone()), l.line, l.column))
}

/// A source location in Python code (or any file), as the frontend passes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl Loc {
    pub fn facade(&self) -> fuser::Location {
        fuser::Location { file: self.file.clone(), line: self.line, column: self.column }
    }
}

/// Sources by file name, for rendering diagnostics with the source line.
pub type Sources = Vec<(String, String)>;

/// A source manager holding `sources`.
pub fn source_mgr(sources: &Sources) -> SourceMgr {
    let mut mgr = SourceMgr::new();
    for (name, text) in sources {
        mgr.add(SourceFile::new(name, Arc::from(text.as_str())));
    }
    mgr
}

/// An error diagnostic at `loc` (or without location), rendered against `sources`.
pub fn located(loc: Option<&Loc>, message: &str, sources: &Sources) -> Diagnostic {
    let ctx = fuser_ir::Context::new(fuser_ir::registry::Registry::new());
    let attr = loc.map_or_else(|| ctx.unknown_loc(), |l| ctx.file_loc(&l.file, l.line, l.column));
    let internal = fuser_ir::Diagnostic::error(attr, message);
    let rendered = match loc {
        Some(_) => fuser_ir::diag::render(&ctx, &source_mgr(sources), &internal),
        None => format!("error: {message}\n"),
    };
    Diagnostic {
        severity: "error".into(),
        file: loc.map(|l| l.file.clone()),
        line: loc.map_or(0, |l| l.line),
        column: loc.map_or(0, |l| l.column),
        message: message.to_string(),
        notes: Vec::new(),
        rendered,
    }
}

/// The `FuserError` for these diagnostics (at least one; the first error among them gives
/// the exception's shortcut attributes).
pub fn raise(py: Python<'_>, diagnostics: Vec<Diagnostic>) -> PyErr {
    let text: String = diagnostics.iter().map(|d| d.rendered.as_str()).collect();
    let err = FuserError::new_err(text.trim_end().to_string());
    let first = diagnostics.iter().find(|d| d.severity == "error").or(diagnostics.first()).cloned();
    let value = err.value(py);
    let set = |k: &str, v: Bound<'_, PyAny>| {
        // Setting attributes on a fresh exception instance cannot fail short of memory.
        let _ = value.setattr(k, v);
    };
    let none = || py.None().into_bound(py);
    match first {
        Some(d) => {
            set("file", d.file.clone().into_pyobject(py).map_or_else(|_| none(), |o| o.into_any()));
            set("line", d.line.into_pyobject(py).map_or_else(|_| none(), |o| o.into_any()));
            set("column", d.column.into_pyobject(py).map_or_else(|_| none(), |o| o.into_any()));
            set("message", d.message.clone().into_pyobject(py).map_or_else(|_| none(), |o| o.into_any()));
            set("notes", d.notes.clone().into_pyobject(py).map_or_else(|_| none(), |o| o.into_any()));
        }
        None => {
            for k in ["file", "line", "column", "message", "notes"] {
                set(k, none());
            }
        }
    }
    set("diagnostics", diagnostics.into_pyobject(py).map_or_else(|_| none(), |o| o.into_any()));
    err
}

/// The `FuserError` for a facade error.
pub fn from_facade(py: Python<'_>, e: &fuser::Error) -> PyErr {
    raise(py, e.diagnostics().iter().map(Diagnostic::from).collect())
}

/// The `FuserError` for a facade error that has no location, placed at `loc` (the Python line
/// that asked for it); located diagnostics are kept as they are.
pub fn at_loc(py: Python<'_>, e: &fuser::Error, loc: &Loc, sources: &Sources) -> PyErr {
    let diagnostics = e
        .diagnostics()
        .iter()
        .map(|d| if d.location.is_none() { located(Some(loc), &d.message, sources) } else { Diagnostic::from(d) })
        .collect();
    raise(py, diagnostics)
}
