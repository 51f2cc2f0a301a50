//! Locations given as `loc(...)` text (how fuser diagnostics carry them across) turned into
//! MLIR locations: MLIR's C API parses no location on its own, so the text is attached to a
//! throwaway unregistered op that MLIR parses, and the op's location is kept.

use melior::ir::Location;
use melior::ContextRef;
use mlir_sys::{MlirStringRef, mlirOperationCreateParse, mlirOperationDestroy, mlirOperationGetLocation};

/// The MLIR location written as `loc_text` (e.g. `loc("a.mlir":3:5)`), or `fallback` when
/// MLIR does not parse it.
pub fn parse_location<'c>(context: ContextRef<'c>, loc_text: &str, fallback: Location<'c>) -> Location<'c> {
    let source = format!("\"fuser.location_carrier\"() : () -> () {loc_text}\0");
    let name = b"fuser-location\0";
    // SAFETY: both strings are NUL-terminated and outlive the call; the parsed op is owned
    // here and destroyed after its location (uniqued in the context) was taken.
    unsafe {
        let op = mlirOperationCreateParse(
            context.to_ref().to_raw(),
            MlirStringRef { data: source.as_ptr().cast(), length: source.len() - 1 },
            MlirStringRef { data: name.as_ptr().cast(), length: name.len() - 1 },
        );
        if op.ptr.is_null() {
            return fallback;
        }
        let loc = mlirOperationGetLocation(op);
        mlirOperationDestroy(op);
        Location::from_raw(loc)
    }
}
