//! The op an MLIR pass runs on, handed to fuser as text with its symbol context
//! ([`fuser_mlir_text::HandedOver`]), and fuser's result parsed back into one MLIR op.
//!
//! Pieces are printed, never cloned: MLIR 19 drops the properties (`<{...}>`) of an
//! unregistered op when it clones it, and fuser's ops are unregistered for MLIR. At each
//! level up, the parent is described by a shell (its name, attributes, result types and
//! location, regions empty: built with MLIR's `OperationState`, printed, destroyed) and
//! its siblings without operands or regions (meshes) are printed as they are. Siblings
//! with regions are left out: MLIR may be transforming them on other threads, and its
//! rules forbid reading them.

use crate::error::BridgeError;
use crate::text::collecting_diagnostics;
use fuser_mlir_text::{HandedOver, Level};
use melior::ContextRef;
use melior::ir::operation::{OperationBuilder, OperationPrintingFlags};
use melior::ir::{BlockLike, Identifier, Operation, OperationRef, Region, RegionLike, Type, ValueLike};
use mlir_sys::{MlirStringRef, mlirOperationCreateParse};

/// `op` and its context, printed.
pub fn hand_over(op: OperationRef<'_, '_>) -> Result<HandedOver, BridgeError> {
    let mut levels = Vec::new();
    let mut cur = op;
    while let Some(parent) = cur.parent_operation() {
        // SAFETY: ancestors outlive this function's use of them.
        let parent: OperationRef<'_, '_> = unsafe { OperationRef::from_raw(parent.to_raw()) };
        levels.push(level_of(parent, cur)?);
        cur = parent;
    }
    Ok(HandedOver { op: op_text(&op)?, levels })
}

/// The level of `parent` around `child`: shell, region index, symbol siblings, position.
fn level_of(parent: OperationRef<'_, '_>, child: OperationRef<'_, '_>) -> Result<Level, BridgeError> {
    let block = child.block().ok_or_else(|| BridgeError::new("an op with a parent op is in no block"))?;
    // SAFETY: `block` is a live block of the IR being walked.
    let region = unsafe { mlir_sys::mlirBlockGetParentRegion(block.to_raw()) };
    let region = parent
        .regions()
        .position(|r| r.to_raw().ptr == region.ptr)
        .ok_or_else(|| BridgeError::new("a block is in no region of its parent op"))?;
    let mut siblings = Vec::new();
    let mut position = 0;
    let mut next = block.first_operation();
    while let Some(sib) = next {
        if sib.to_raw().ptr == child.to_raw().ptr {
            position = siblings.len();
        } else if sib.operand_count() == 0 && sib.region_count() == 0 {
            siblings.push(op_text(&sib)?);
        }
        // SAFETY: the next op lives in the same block as `sib`, for as long as the block.
        next = sib.next_in_block().map(|n| unsafe { OperationRef::from_raw(n.to_raw()) });
    }
    Ok(Level { shell: shell_text(parent)?, region, siblings, position })
}

/// `parent` with its regions empty, printed.
fn shell_text(parent: OperationRef<'_, '_>) -> Result<String, BridgeError> {
    let name = parent.name().as_string_ref().as_str().map_err(|e| BridgeError::new(e.to_string()))?.to_string();
    let attrs: Vec<(Identifier<'_>, melior::ir::Attribute<'_>)> = parent.attributes().collect();
    let results: Vec<Type<'_>> = parent.results().map(|r| r.r#type()).collect();
    let regions: Vec<Region<'_>> = (0..parent.region_count()).map(|_| Region::new()).collect();
    let shell = OperationBuilder::new(&name, parent.location())
        .add_attributes(&attrs)
        .add_results(&results)
        .add_regions_vec(regions)
        .build()
        .map_err(|e| BridgeError::new(format!("cannot build a shell of '{name}': {e}")))?;
    op_text(&shell)
}

/// `op` printed on its own: generic form, debug info (inline: a nested op prints no
/// aliases), values numbered from the op.
pub fn op_text(op: &Operation<'_>) -> Result<String, BridgeError> {
    let flags =
        OperationPrintingFlags::new().print_generic_operation_form().enable_debug_info(true, false).use_local_scope();
    op.to_string_with_flags(flags).map_err(|e| BridgeError::new(format!("cannot print an MLIR op: {e}")))
}

/// An op parsed from `text` (one op, verified by MLIR), owned by the caller.
pub fn parse_op<'c>(context: ContextRef<'c>, text: &str) -> Result<Operation<'c>, BridgeError> {
    let source = format!("{text}\0");
    let name = b"fuser\0";
    // SAFETY: the context outlives this call.
    let owned = unsafe { context.to_ref() };
    let (op, diagnostics) = collecting_diagnostics(owned, || {
        // SAFETY: both strings are NUL-terminated and live for the call.
        unsafe {
            mlirOperationCreateParse(
                context.to_ref().to_raw(),
                MlirStringRef { data: source.as_ptr().cast(), length: source.len() - 1 },
                MlirStringRef { data: name.as_ptr().cast(), length: name.len() - 1 },
            )
        }
    });
    if op.ptr.is_null() {
        return Err(BridgeError::with_diagnostics("MLIR could not parse the op fuser produced", diagnostics));
    }
    // SAFETY: a non-null op from the parser, owned by nobody else.
    Ok(unsafe { Operation::from_raw(op) })
}
