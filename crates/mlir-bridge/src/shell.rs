//! The op an MLIR pass runs on, copied into copies of its ancestors together with its
//! symbol context, so that a fuser function pass finds what fuser's own pass manager would
//! give it (the `fusion.mesh` next to a function).
//!
//! At each level up, the copy of the op goes into a new block (with the original block's
//! argument types) of a *shell* of the parent: the parent's name, attributes, result types
//! and location, with empty regions. Siblings with neither operands nor regions (meshes,
//! other symbols without bodies) are cloned next to it. Siblings with regions are left out:
//! MLIR may be transforming them on other threads while this pass runs, and MLIR's rules
//! forbid reading them.

use crate::error::BridgeError;
use fuser_mlir_text::OpPath;
use fuser_mlir_text::path::Step;
use melior::ir::operation::OperationBuilder;
use melior::ir::{ValueLike, Block, BlockLike, Identifier, Operation, OperationRef, Region, RegionLike, Type};

/// The copy of an op in its symbol context: the owned root and the path to the copy.
pub struct Shelled<'c> {
    pub root: Operation<'c>,
    pub path: OpPath,
}

/// Copies `op` into shells of its ancestors up to the top.
pub fn shell_around<'c>(op: OperationRef<'c, '_>) -> Result<Shelled<'c>, BridgeError> {
    let mut current: Operation<'c> = Operation::clone(&op);
    let mut steps = Vec::new();
    let mut cur: OperationRef<'c, '_> = op;
    // SAFETY (for the ref re-borrows below): ancestors outlive this function's use of them.
    while let Some(parent) = cur.parent_operation() {
        let parent: OperationRef<'c, '_> = unsafe { OperationRef::from_raw(parent.to_raw()) };
        let block = cur.block().ok_or_else(|| BridgeError::new("an op with a parent op is in no block"))?;
        let region_index = region_index_of(parent, block.to_raw())?;
        let (region, copied_index) = shell_region_with(block, cur, current)?;
        current = shell_of(parent, region_index, region)?;
        steps.push(Step { region: region_index, block: 0, op: copied_index });
        cur = parent;
    }
    steps.reverse();
    Ok(Shelled { root: current, path: OpPath { steps } })
}

/// The index of the region of `parent` that holds `block`.
fn region_index_of(parent: OperationRef<'_, '_>, block: mlir_sys::MlirBlock) -> Result<usize, BridgeError> {
    // SAFETY: `block` is a live block of the IR being walked.
    let region = unsafe { mlir_sys::mlirBlockGetParentRegion(block) };
    parent
        .regions()
        .position(|r| r.to_raw().ptr == region.ptr)
        .ok_or_else(|| BridgeError::new("a block is in no region of its parent op"))
}

/// A region with one block like `block` (same arguments) holding `copy` in place of `orig`
/// and clones of the symbol siblings; returns it with the position of `copy`.
fn shell_region_with<'c>(
    block: melior::ir::BlockRef<'c, '_>,
    orig: OperationRef<'c, '_>,
    copy: Operation<'c>,
) -> Result<(Region<'c>, usize), BridgeError> {
    // MLIR 19's C API does not expose block argument locations: the copies get the op's.
    let at = orig.location();
    let args: Vec<(Type<'c>, melior::ir::Location<'c>)> = (0..block.argument_count())
        .map(|i| block.argument(i).map(|a| (a.r#type(), at)))
        .collect::<Result<_, _>>()
        .map_err(|e| BridgeError::new(format!("cannot read a block argument: {e}")))?;
    let new_block = Block::new(&args);
    let mut copy = Some(copy);
    let mut copied_index = 0;
    let mut count = 0;
    let mut next = block.first_operation();
    while let Some(sib) = next {
        if sib.to_raw().ptr == orig.to_raw().ptr {
            copied_index = count;
            new_block.append_operation(copy.take().expect("the op appears once in its block"));
            count += 1;
        } else if is_symbol_sibling(sib) {
            new_block.append_operation(Operation::clone(&sib));
            count += 1;
        }
        // SAFETY: the next op lives in the same block as `sib`, for as long as the block.
        next = sib.next_in_block().map(|n| unsafe { OperationRef::from_raw(n.to_raw()) });
    }
    if copy.is_some() {
        return Err(BridgeError::new("the op is not in its own block"));
    }
    let region = Region::new();
    region.append_block(new_block);
    Ok((region, copied_index))
}

/// Siblings copied into the context: no operands (they read nothing) and no regions.
fn is_symbol_sibling(op: OperationRef<'_, '_>) -> bool {
    op.operand_count() == 0 && op.region_count() == 0
}

/// A shell of `parent`: its name, attributes, result types and location, empty regions but
/// for `filled` at `index`.
fn shell_of<'c>(parent: OperationRef<'c, '_>, index: usize, filled: Region<'c>) -> Result<Operation<'c>, BridgeError> {
    let name = parent.name().as_string_ref().as_str().map_err(|e| BridgeError::new(e.to_string()))?.to_string();
    let attrs: Vec<(Identifier<'c>, melior::ir::Attribute<'c>)> = parent.attributes().collect();
    let results: Vec<Type<'c>> = parent.results().map(|r| r.r#type()).collect();
    let mut filled = Some(filled);
    let regions: Vec<Region<'c>> = (0..parent.region_count())
        .map(|i| if i == index { filled.take().expect("one filled region") } else { Region::new() })
        .collect();
    OperationBuilder::new(&name, parent.location())
        .add_attributes(&attrs)
        .add_results(&results)
        .add_regions_vec(regions)
        .build()
        .map_err(|e| BridgeError::new(format!("cannot build a shell of '{name}': {e}")))
}
