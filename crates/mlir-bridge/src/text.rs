//! Text through melior: an op printed in generic form with debug info (the exchange
//! format), and text parsed into an MLIR module with MLIR's diagnostics collected instead
//! of printed.

use crate::error::BridgeError;
use melior::Context;
use melior::ir::operation::OperationPrintingFlags;
use melior::ir::{Module, Operation};
use std::sync::{Arc, Mutex};

/// `op` as `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo` prints it as the
/// top-level op of a file (MLIR's printer, then the newline mlir-opt adds).
pub fn generic_text(op: &Operation<'_>) -> Result<String, BridgeError> {
    let flags = OperationPrintingFlags::new().print_generic_operation_form().enable_debug_info(true, false);
    let mut text =
        op.to_string_with_flags(flags).map_err(|e| BridgeError::new(format!("cannot print the MLIR op: {e}")))?;
    text.push('\n');
    Ok(text)
}

/// Parses `text` into a module of `context` (MLIR verifies it); MLIR's diagnostics come
/// back in the error.
pub fn parse_module<'c>(context: &'c Context, text: &str) -> Result<Module<'c>, BridgeError> {
    if text.contains('\0') {
        return Err(BridgeError::new("the IR text contains a NUL byte"));
    }
    let (module, diagnostics) = collecting_diagnostics(context, || Module::parse(context, text));
    module.ok_or_else(|| BridgeError::with_diagnostics("MLIR could not parse the IR", diagnostics))
}

/// Runs `f` with a diagnostic handler that keeps MLIR's diagnostics (rendered) instead of
/// letting them reach the context's other handlers. Only diagnostics of this thread are
/// taken: MLIR may run passes on other threads meanwhile, and theirs go on to the user.
pub fn collecting_diagnostics<T>(context: &Context, f: impl FnOnce() -> T) -> (T, Vec<String>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let owner = std::thread::current().id();
    let id = context.attach_diagnostic_handler(move |d| {
        if std::thread::current().id() != owner {
            return false;
        }
        if let Ok(mut seen) = sink.lock() {
            seen.push(format!("{}: {d}", d.location()));
        }
        true
    });
    let value = f();
    context.detach_diagnostic_handler(id);
    let seen = seen.lock().map(|s| s.clone()).unwrap_or_default();
    (value, seen)
}
