//! Symbol helpers shared by symbol-defining ops (`builtin.module`, `func.func`) and symbol users
//! (`func.call`): visibility checks and lookup of a flat symbol in the nearest enclosing symbol
//! table.
//!
//! Lookup scans the top-level ops of the symbol table's block, so it is linear in the number of
//! symbols; it never follows nested references and never panics on malformed IR.

use crate::support::inherent_attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::registry::{Traits, VerifyCtx};

/// The visibilities MLIR accepts in `sym_visibility`.
pub const VISIBILITIES: [&str; 3] = ["public", "private", "nested"];

/// Checks that `sym_visibility`, when present, is one of [`VISIBILITIES`].
pub fn verify_visibility(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some(vis) = inherent_attr(v.ctx, v.ir, op, "sym_visibility") else { return Ok(()) };
    match v.ctx.attr_str(vis) {
        Some(s) if VISIBILITIES.contains(&s) => Ok(()),
        Some(s) => Err(v.op_error(
            op,
            format!("visibility expected to be one of [\"public\", \"private\", \"nested\"], but got \"{s}\""),
        )),
        None => Err(v.op_error(op, "attribute 'sym_visibility' failed to satisfy constraint: string attribute")),
    }
}

/// The nearest proper ancestor of `op` that holds a symbol table.
pub fn nearest_symbol_table(ctx: &Context, ir: &Ir, op: OpId) -> Option<OpId> {
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if ctx.op_def(ir.op_name(p)).is_some_and(|d| d.has(Traits::SYMBOL_TABLE)) {
            return Some(p);
        }
        cur = ir.parent_op(p);
    }
    None
}

/// The op named `name` directly inside the symbol table op `table`.
pub fn lookup_in_table(ctx: &Context, ir: &Ir, table: OpId, name: &str) -> Option<OpId> {
    let region = *ir.regions(table).first()?;
    let block = ir.region_entry(region)?;
    ir.block_ops(block).find(|&o| inherent_attr(ctx, ir, o, "sym_name").and_then(|a| ctx.attr_str(a)) == Some(name))
}

/// Resolves a flat symbol reference made by `user` through its nearest symbol table.
/// `None` when there is no enclosing symbol table (e.g. a function verified on its own).
pub fn resolve_from(ctx: &Context, ir: &Ir, user: OpId, name: &str) -> Option<Option<OpId>> {
    let table = nearest_symbol_table(ctx, ir, user)?;
    Some(lookup_in_table(ctx, ir, table, name))
}
