//! Fuser diagnostics as MLIR diagnostics: same severity, the location parsed from its
//! `loc(...)` text (unknown locations fall back to the op the pass ran on), notes attached.
//! Emitted through MLIR's diagnostic engine, so they reach whatever handlers the MLIR
//! context has (mlir-opt's printer, `--verify-diagnostics`, a melior handler).

use crate::location::parse_location;
use fuser_mlir_text::TextDiagnostic;
use melior::ContextRef;
use melior::ir::Location;
use mlir_sys::{MlirLocation, MlirStringRef};

unsafe extern "C" {
    /// `csrc/emit_diagnostic.cpp`.
    fn fuser_bridge_emit_diagnostic(
        loc: MlirLocation,
        severity: u32,
        message: MlirStringRef,
        note_locs: *const MlirLocation,
        notes: *const MlirStringRef,
        num_notes: usize,
    );
}

/// Emits `diag` in `context`; `at_op` replaces unknown locations.
pub fn emit(context: ContextRef<'_>, diag: &TextDiagnostic, at_op: Location<'_>) {
    let loc = location_or(context, &diag.loc, at_op);
    let note_locs: Vec<MlirLocation> =
        diag.notes.iter().map(|n| location_or(context, &n.loc, at_op).to_raw()).collect();
    let notes: Vec<MlirStringRef> = diag.notes.iter().map(|n| string_ref(&n.message)).collect();
    // SAFETY: every pointer points into `diag`, `note_locs` or `notes`, alive for the call;
    // the C++ side copies the text into the diagnostic.
    unsafe {
        fuser_bridge_emit_diagnostic(
            loc.to_raw(),
            diag.severity as u32,
            string_ref(&diag.message),
            note_locs.as_ptr(),
            notes.as_ptr(),
            notes.len(),
        );
    }
}

fn location_or<'c>(context: ContextRef<'c>, text: &str, at_op: Location<'_>) -> Location<'c> {
    // SAFETY: `at_op` belongs to the same context, which outlives 'c.
    let fallback = unsafe { Location::from_raw(at_op.to_raw()) };
    if text == "loc(unknown)" { fallback } else { parse_location(context, text, fallback) }
}

fn string_ref(s: &str) -> MlirStringRef {
    // An MlirStringRef is a (pointer, length) view; it does not need a NUL.
    MlirStringRef { data: s.as_ptr().cast(), length: s.len() }
}
