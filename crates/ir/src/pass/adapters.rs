//! The two services the pass manager borrows from sibling modules: printing an op (for IR
//! dumps, "see current operation" notes and crash reproducers) and verifying an op (for
//! `--verify-each`). They sit behind these small functions so that the pass manager depends
//! on one signature each.
//!
//! Until the printer and verifier land, `print_op` is a minimal structural stand-in and
//! `verify_op` accepts everything; switching over is one line in each function.

use crate::context::Context;
use crate::diag::Diagnostic;
use crate::ir::{Ir, OpId};
use std::fmt::Write as _;

/// The printing flags the pass manager forwards (mirrors `--mlir-print-*`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IrPrintFlags {
    /// `--mlir-print-op-generic`.
    pub generic: bool,
    /// `--mlir-print-debuginfo`.
    pub debug_info: bool,
    /// `--mlir-print-local-scope`.
    pub local_scope: bool,
}

/// Prints `op` (and everything nested in it) as the top-level op of the output.
pub fn print_op(ctx: &Context, ir: &Ir, op: OpId, flags: &IrPrintFlags) -> String {
    let _ = flags;
    print_structure(ctx, ir, op)
}

/// Verifies `op` and everything nested in it.
pub fn verify_op(ctx: &Context, ir: &Ir, op: OpId) -> Result<(), Vec<Diagnostic>> {
    let _ = (ctx, ir, op);
    Ok(())
}

/// Stand-in printer: op names and nesting only, in MLIR's generic shape.
fn print_structure(ctx: &Context, ir: &Ir, root: OpId) -> String {
    let mut out = String::new();
    let mut stack: Vec<(OpId, usize, bool)> = vec![(root, 0, false)];
    while let Some((op, depth, closing)) = stack.pop() {
        let pad = "  ".repeat(depth);
        if closing {
            let _ = writeln!(out, "{pad}}})");
            continue;
        }
        let name = ctx.op_name_str(ir.op_name(op));
        if ir.regions(op).is_empty() {
            let _ = writeln!(out, "{pad}\"{name}\"()");
            continue;
        }
        let _ = writeln!(out, "{pad}\"{name}\"() ({{");
        stack.push((op, depth, true));
        let children: Vec<OpId> = ir
            .regions(op)
            .iter()
            .flat_map(|&r| ir.region_blocks(r).iter().flat_map(|&b| ir.block_ops(b)))
            .collect();
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1, false)));
    }
    out
}
