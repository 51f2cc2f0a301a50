//! Locations given as `loc(...)` text (how fuser diagnostics carry them across) turned into
//! MLIR locations: MLIR's C API parses no location on its own, so the text is attached to a
//! throwaway unregistered op that MLIR parses, and the op's location is kept.

use crate::text::collecting_diagnostics;
use melior::ContextRef;
use melior::ir::Location;
use mlir_sys::{MlirStringRef, mlirOperationCreateParse, mlirOperationDestroy, mlirOperationGetLocation};

/// The MLIR location written as `loc_text` (e.g. `loc("a.mlir":3:5)`), or `fallback` when
/// MLIR does not parse it.
pub fn parse_location<'c>(context: ContextRef<'c>, loc_text: &str, fallback: Location<'c>) -> Location<'c> {
    let source = format!("\"fuser.location_carrier\"() : () -> () {loc_text}\0");
    let name = b"fuser-location\0";
    // SAFETY: the context outlives this call.
    let owned = unsafe { context.to_ref() };
    // MLIR's complaints about text that is not a location are not the user's business.
    let (loc, _ignored) = collecting_diagnostics(owned, || parse_carrier(context, &source, name));
    loc.unwrap_or(fallback)
}

/// The location of the carrier op in `source`, if it parses.
fn parse_carrier<'c>(context: ContextRef<'c>, source: &str, name: &[u8]) -> Option<Location<'c>> {
    // SAFETY: both strings are NUL-terminated and outlive the call; the parsed op is owned
    // here and destroyed after its location (uniqued in the context) was taken.
    unsafe {
        let op = mlirOperationCreateParse(
            context.to_ref().to_raw(),
            MlirStringRef { data: source.as_ptr().cast(), length: source.len() - 1 },
            MlirStringRef { data: name.as_ptr().cast(), length: name.len() - 1 },
        );
        if op.ptr.is_null() {
            return None;
        }
        let loc = mlirOperationGetLocation(op);
        mlirOperationDestroy(op);
        Some(Location::from_raw(loc))
    }
}
