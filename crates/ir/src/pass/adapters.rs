//! The services the pass manager and passes borrow from sibling modules: printing an op (for
//! IR dumps, "see current operation" notes and crash reproducers), verifying an op (for
//! `--verify-each`) and a pass's error about an op (with the op attached, as MLIR's
//! `op->emitError`). They sit behind these small functions so that the pass manager and the
//! passes depend on one signature each.

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
    /// `--mlir-pretty-debuginfo`.
    pub pretty_debug_info: bool,
    /// `--mlir-print-elementsattrs-with-hex-if-larger`.
    pub elements_hex_if_larger: Option<i64>,
    /// `--mlir-print-unique-ssa-ids`.
    pub unique_ssa_ids: bool,
    /// `--mlir-print-value-users`.
    pub value_users: bool,
    /// `--mlir-elide-resource-strings-if-larger`.
    pub elide_resource_strings_if_larger: Option<u64>,
    /// `--mlir-elide-elementsattrs-if-larger`.
    pub elide_elements_attrs_if_larger: Option<usize>,
    /// `--mlir-print-assume-verified`: print without verifying first (see [`print_op`]).
    pub assume_verified: bool,
}

impl IrPrintFlags {
    /// The printer's options for these flags.
    pub fn print_options(&self) -> crate::printer::PrintOptions {
        crate::printer::PrintOptions {
            generic: self.generic,
            debug_info: self.debug_info,
            local_scope: self.local_scope,
            elide_elements_attrs_if_larger: self.elide_elements_attrs_if_larger,
            pretty_debug_info: self.pretty_debug_info,
            elements_hex_if_larger: self.elements_hex_if_larger,
            skip_regions: false,
            unique_ssa_ids: self.unique_ssa_ids,
            value_users: self.value_users,
            elide_resource_strings_if_larger: self.elide_resource_strings_if_larger,
            assume_verified: self.assume_verified,
        }
    }
}

/// Prints `op` (and everything nested in it) as the top-level op of the output.
///
/// As mlir-opt's printer, unless the flags ask for the generic form or assume the IR verified,
/// the op is verified first (silently) and printed in the generic form when it fails: a custom
/// printer may not cope with invalid IR. The op verified is the one values are numbered from:
/// `op` itself in local scope or at the top, else the outermost op.
pub fn print_op(ctx: &Context, ir: &Ir, op: OpId, flags: &IrPrintFlags) -> String {
    let mut opts = flags.print_options();
    let root = if opts.local_scope { op } else { outermost(ir, op) };
    opts.generic |= needs_generic_fallback(ctx, ir, root, &opts);
    crate::printer::print_module(ctx, ir, op, &opts)
}

/// Whether printing `root` with `opts` must switch to the generic form: the custom form was
/// asked for without `assume_verified` and `root` fails to verify.
pub fn needs_generic_fallback(ctx: &Context, ir: &Ir, root: OpId, opts: &crate::printer::PrintOptions) -> bool {
    !opts.generic && !opts.assume_verified && verify_op(ctx, ir, root).is_err()
}

fn outermost(ir: &Ir, mut op: OpId) -> OpId {
    while let Some(parent) = ir.parent_op(op) {
        op = parent;
    }
    op
}

/// Verifies `op` and everything nested in it.
pub fn verify_op(ctx: &Context, ir: &Ir, op: OpId) -> Result<(), Vec<Diagnostic>> {
    crate::verifier::verify(ctx, ir, op)
}

/// MLIR's `op->emitError(message)` for a pass: an error at `op`'s location with the note "see
/// current operation: <op in generic form>", the op the error is about. The pass manager keeps
/// the note only when it prints ops on diagnostics (`PassManagerConfig::print_op_on_diagnostic`);
/// it attaches no op of its own to a pass's errors, so an error built with
/// `Diagnostic::error(loc, ..)` (MLIR's `emitError(loc)`) has no such note.
pub fn op_error(ctx: &Context, ir: &Ir, op: OpId, message: impl Into<String>) -> Diagnostic {
    crate::verifier::with_current_op_note(ctx, ir, op, Diagnostic::error(ir.loc(op), message))
}

/// Whether `note` is a "see current operation" note.
pub fn is_current_op_note(note: &Diagnostic) -> bool {
    note.message.starts_with("see current operation:")
}
