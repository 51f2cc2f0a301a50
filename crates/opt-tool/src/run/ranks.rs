//! The number of ranks of a run without `--ranks`: rank r runs device r, so the default is the
//! number of devices the input's top-level `fusion.mesh` declarations name, all meshes
//! together (a mesh for a sub-team adds no rank), and 1 when the input declares no mesh. The
//! devices must then be exactly 0..=N-1, or no run of the program could give every device a
//! rank; that is diagnosed at the first mesh with a device outside the range.

use fuser_dialects::fusion::Mesh;
use fuser_ir::{Context, Diagnostic, Ir, OpId};
use std::collections::BTreeSet;

/// The `fusion.mesh` ops directly in `module`'s body, decoded, with the op.
fn top_level_meshes(ctx: &Context, ir: &Ir, module: OpId) -> Vec<(OpId, Mesh)> {
    let Some(block) = ir.regions(module).first().and_then(|&r| ir.region_entry(r)) else { return Vec::new() };
    ir.block_ops(block).filter_map(|op| Mesh::of_op(ctx, ir, op).map(|m| (op, m))).collect()
}

/// The number of ranks for `module` when `--ranks` is not given (see the module docs).
pub fn default_ranks(ctx: &Context, ir: &Ir, module: OpId) -> Result<usize, Diagnostic> {
    let meshes = top_level_meshes(ctx, ir, module);
    let devices: BTreeSet<i64> = meshes.iter().flat_map(|(_, m)| m.devices.iter().copied()).collect();
    if devices.is_empty() {
        return Ok(1);
    }
    let n = devices.len();
    let outside = |m: &Mesh| m.devices.iter().any(|&d| usize::try_from(d).is_ok_and(|d| d >= n) || d < 0);
    match meshes.iter().find(|(_, m)| outside(m)) {
        None => Ok(n),
        Some((op, mesh)) => Err(Diagnostic::error(
            ir.loc(*op),
            format!(
                "mesh @{} has devices {:?}: without --ranks the {n} devices of the input's meshes \
                 need to be devices 0..={} (rank r runs device r); pass --ranks",
                mesh.name,
                mesh.devices,
                n - 1
            ),
        )),
    }
}
