//! The two services the pass manager borrows from sibling modules: printing an op (for IR
//! dumps, "see current operation" notes and crash reproducers) and verifying an op (for
//! `--verify-each`). They sit behind these small functions so that the pass manager depends
//! on one signature each.

use crate::context::Context;
use crate::diag::Diagnostic;
use crate::ir::{Ir, OpId};

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
    let opts = crate::printer::PrintOptions {
        generic: flags.generic,
        debug_info: flags.debug_info,
        local_scope: flags.local_scope,
        elide_elements_attrs_if_larger: None,
    };
    crate::printer::print_module(ctx, ir, op, &opts)
}

/// Verifies `op` and everything nested in it.
pub fn verify_op(ctx: &Context, ir: &Ir, op: OpId) -> Result<(), Vec<Diagnostic>> {
    crate::verifier::verify(ctx, ir, op)
}
