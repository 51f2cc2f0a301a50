//! The MLIR-free half of fuser's MLIR integration: run one fuser pass or named pipeline on
//! an op handed over as MLIR *generic* text (with `-mlir-print-debuginfo` locations) and hand
//! back the transformed text and the diagnostics, each with its location as `loc(...)` text.
//!
//! Both MLIR front ends use it: `fuser-mlir-bridge` (melior, in-process MLIR) and
//! `fuser-mlir-plugin` (a pass plugin for `mlir-opt-19`, where MLIR lives in the executable).
//! Text is the exchange format because fuser's generic printer is byte-identical to MLIR's,
//! so nothing is lost in either direction, locations included.
//!
//! Layers: [`handover`] (the op and its symbol context as text), [`diagnostic`]
//! (diagnostics as text), [`catalog`] (the passes and pipelines offered to MLIR, by name),
//! [`runner`] (parse, run, print).

pub mod catalog;
pub mod diagnostic;
pub mod handover;
pub mod runner;

pub use catalog::{Catalog, Entry, EntryKind};
pub use diagnostic::{TextDiagnostic, TextSeverity};
pub use handover::{HandedOver, Level};
pub use runner::{RunReport, run_on_text};
