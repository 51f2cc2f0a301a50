//! Moving a transformed op's contents into the op MLIR handed to the pass: the pass
//! manager holds that op, so it must stay the same object. Its regions' bodies are replaced
//! by the new op's (MLIR's `Region::takeBody`) and its attributes (inherent and
//! discardable) are made equal to the new op's. Name, result types and location cannot
//! change in place: a pass that changed them is reported as an error.

use crate::error::BridgeError;
use mlir_sys::{
    MlirOperation, MlirStringRef, mlirIdentifierStr, mlirLocationEqual, mlirOperationGetAttribute,
    mlirOperationGetLocation, mlirOperationGetName, mlirOperationGetNumAttributes, mlirOperationGetNumRegions,
    mlirOperationGetNumResults, mlirOperationGetRegion, mlirOperationGetResult, mlirOperationRemoveAttributeByName,
    mlirOperationSetAttributeByName, mlirRegionTakeBody, mlirTypeEqual, mlirValueGetType,
};

/// Makes `target` what `source` is (see the module docs); `source` is left with empty
/// regions.
///
/// # Safety
/// Both ops must be live, of the same context, and not nested in each other; nothing else
/// may access `target` meanwhile (it is the op the running pass owns).
pub unsafe fn replace_contents(target: MlirOperation, source: MlirOperation) -> Result<(), BridgeError> {
    unsafe {
        check_same_shape(target, source)?;
        replace_attributes(target, source);
        for i in 0..mlirOperationGetNumRegions(target) {
            mlirRegionTakeBody(mlirOperationGetRegion(target, i), mlirOperationGetRegion(source, i));
        }
    }
    Ok(())
}

/// Name, number of regions, result types and location must agree.
unsafe fn check_same_shape(target: MlirOperation, source: MlirOperation) -> Result<(), BridgeError> {
    unsafe {
        let (t, s) = (name_of(target), name_of(source));
        if t != s {
            return Err(BridgeError::new(format!("the pass replaced the '{t}' it ran on by a '{s}'")));
        }
        if mlirOperationGetNumRegions(target) != mlirOperationGetNumRegions(source) {
            return Err(BridgeError::new(format!("the pass changed the number of regions of '{t}'")));
        }
        let n = mlirOperationGetNumResults(target);
        let same_results = n == mlirOperationGetNumResults(source)
            && (0..n).all(|i| {
                mlirTypeEqual(
                    mlirValueGetType(mlirOperationGetResult(target, i)),
                    mlirValueGetType(mlirOperationGetResult(source, i)),
                )
            });
        if !same_results {
            return Err(BridgeError::new(format!("the pass changed the result types of '{t}'")));
        }
        if !mlirLocationEqual(mlirOperationGetLocation(target), mlirOperationGetLocation(source)) {
            return Err(BridgeError::new(format!(
                "the pass changed the location of '{t}', which MLIR 19's C API cannot set"
            )));
        }
    }
    Ok(())
}

/// Removes the attributes `source` lacks, then sets every attribute of `source`.
unsafe fn replace_attributes(target: MlirOperation, source: MlirOperation) {
    unsafe {
        let wanted: Vec<String> = (0..mlirOperationGetNumAttributes(source))
            .map(|i| string_of(mlirIdentifierStr(mlirOperationGetAttribute(source, i).name)))
            .collect();
        let stale: Vec<String> = (0..mlirOperationGetNumAttributes(target))
            .map(|i| string_of(mlirIdentifierStr(mlirOperationGetAttribute(target, i).name)))
            .filter(|n| !wanted.contains(n))
            .collect();
        for name in &stale {
            mlirOperationRemoveAttributeByName(target, string_ref(name));
        }
        for i in 0..mlirOperationGetNumAttributes(source) {
            let attr = mlirOperationGetAttribute(source, i);
            let name = string_of(mlirIdentifierStr(attr.name));
            mlirOperationSetAttributeByName(target, string_ref(&name), attr.attribute);
        }
    }
}

unsafe fn name_of(op: MlirOperation) -> String {
    unsafe { string_of(mlirIdentifierStr(mlirOperationGetName(op))) }
}

unsafe fn string_of(s: MlirStringRef) -> String {
    // SAFETY: an MlirStringRef from MLIR points at `length` valid bytes.
    let bytes = unsafe { std::slice::from_raw_parts(s.data.cast::<u8>(), s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

fn string_ref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr().cast(), length: s.len() }
}
