//! Diagnostics in MLIR's shape: `file:line:col: error: message`, the source line, a caret, and
//! attached `note:` diagnostics.
//!
//! A [`Diagnostic`] carries a location attribute; [`SourceMgr`] holds the text of the buffers
//! that locations refer to, so rendering can show the source line. Library code returns
//! diagnostics; only binaries decide what to print and which exit code to use.
//!
//! This file only gathers the public names; its parts sit in different layers:
//! - `diagnostic.rs` ([`Diagnostic`], [`Severity`]) and `source.rs` ([`SourceFile`],
//!   [`SourceMgr`]): plain data, the lowest layer of the core (they import only `attrs`);
//! - `location.rs` ([`file_line_col`]): reads location attributes, above the context;
//! - `render.rs` ([`render`]): mlir-opt's text, above the printer.
//!
//! Crate code imports these names through this module (`crate::diag::Diagnostic`); the
//! layering check (`tests/layering.rs`) follows such re-exports to the defining file, and no
//! item is defined here, so this facade is in no import circle.

mod diagnostic;
mod location;
mod render;
mod source;

pub use diagnostic::{Diagnostic, Severity};
pub use location::file_line_col;
pub use render::render;
pub use source::{SourceFile, SourceMgr};
