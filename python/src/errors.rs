//! Diagnostics crossing into Python: [`Diagnostic`] and [`Note`] as read-only Python objects,
//! and `FuserError`, the exception every failure of the package raises.
//!
//! A `FuserError` carries the facade's diagnostics whole (`diagnostics`), plus the first
//! error's `file`, `line`, `column`, `message` and `notes` as attributes; `str()` of it is the
//! rendered text `fuser-opt` prints (location, message, source line and caret, notes).
//! Errors made here about a place in Python code (an op the frontend could not build) are
//! rendered by the same renderer, against the Python source the frontend registered.

use fuser_ir::diag::{SourceFile, SourceMgr};
use pyo3::exceptions::{PyException, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::sync::Arc;

pyo3::create_exception!(
    _fuser,
    FuserError,
    PyException,
    "A failure of fuser: the diagnostics of a parse, verification, pass, build or run."
);

/// Which exception class a failure raises: `FuserError`, or one of its subclasses for a bad
/// argument that are also Python's built-in class for it (`except ValueError` and `except
/// fuser.FuserError` both catch a `FuserValueError`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Fuser,
    Value,
    Type,
    Overflow,
}

static VALUE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TYPE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static OVERFLOW_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

impl ErrorKind {
    /// The argument-error classes: (kind, name, docstring); the built-in base is the kind's.
    const ARGUMENT: [(ErrorKind, &'static str, &'static str); 3] = [
        (
            ErrorKind::Value,
            "FuserValueError",
            "An argument with a value fuser cannot use (a FuserError and a ValueError).",
        ),
        (ErrorKind::Type, "FuserTypeError", "An argument of a type fuser cannot use (a FuserError and a TypeError)."),
        (
            ErrorKind::Overflow,
            "FuserOverflowError",
            "An integer argument out of range (a FuserError and an OverflowError).",
        ),
    ];

    /// The kind named by `name` (`"value"`, `"type"`, `"overflow"`; anything else: `Fuser`).
    pub fn named(name: &str) -> ErrorKind {
        match name {
            "value" => ErrorKind::Value,
            "type" => ErrorKind::Type,
            "overflow" => ErrorKind::Overflow,
            _ => ErrorKind::Fuser,
        }
    }

    /// The class, made on first use (`type(name, (FuserError, builtin), ...)`).
    pub fn class<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyType>> {
        let (cell, builtin) = match self {
            ErrorKind::Fuser => return Ok(py.get_type::<FuserError>()),
            ErrorKind::Value => (&VALUE_ERROR, py.get_type::<PyValueError>()),
            ErrorKind::Type => (&TYPE_ERROR, py.get_type::<PyTypeError>()),
            ErrorKind::Overflow => (&OVERFLOW_ERROR, py.get_type::<PyOverflowError>()),
        };
        let class = cell.get_or_try_init(py, || -> PyResult<Py<PyType>> {
            let (_, name, doc) = *Self::ARGUMENT.iter().find(|(k, _, _)| *k == self).unwrap_or(&Self::ARGUMENT[0]);
            let bases = PyTuple::new(py, [py.get_type::<FuserError>(), builtin])?;
            let dict = PyDict::new(py);
            dict.set_item("__module__", "fuser._fuser")?;
            dict.set_item("__doc__", doc)?;
            let made = py.get_type::<PyType>().call1((name, bases, dict))?;
            Ok(made.cast_into::<PyType>()?.unbind())
        })?;
        Ok(class.bind(py).clone())
    }

    /// Adds the argument-error classes to the module.
    pub fn add_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
        for (kind, name, _) in Self::ARGUMENT {
            m.add(name, kind.class(m.py())?)?;
        }
        Ok(())
    }
}

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
    raise_as(py, ErrorKind::Fuser, diagnostics)
}

/// [`raise`] with the class of `kind`.
pub fn raise_as(py: Python<'_>, kind: ErrorKind, diagnostics: Vec<Diagnostic>) -> PyErr {
    let text: String = diagnostics.iter().map(|d| d.rendered.as_str()).collect();
    let err = match kind.class(py) {
        Ok(class) => PyErr::from_type(class, (text.trim_end().to_string(),)),
        Err(e) => return e,
    };
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

/// A bad argument: the `kind` class (a `FuserError` subclass) with one error diagnostic at
/// `loc`, rendered against `sources`.
pub fn argument(py: Python<'_>, kind: ErrorKind, loc: Option<&Loc>, message: &str, sources: &Sources) -> PyErr {
    raise_as(py, kind, vec![located(loc, message, sources)])
}

/// The exception for a bad argument found in Python (`kind`: `"value"`, `"type"` or
/// `"overflow"`) at `loc` = `(file, line, column)`, rendered against `sources` (`(file,
/// text)` pairs); the frontend raises it.
#[pyfunction]
#[pyo3(signature = (kind, message, loc = None, sources = Vec::new()))]
pub fn argument_error(
    py: Python<'_>,
    kind: &str,
    message: &str,
    loc: Option<(String, u32, u32)>,
    sources: Sources,
) -> Py<PyAny> {
    let loc = loc.map(|(file, line, column)| Loc { file, line, column });
    argument(py, ErrorKind::named(kind), loc.as_ref(), message, &sources).into_value(py).into_any()
}
