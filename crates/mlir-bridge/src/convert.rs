//! Whole-op conversion between melior and fuser through the generic text with debug info.
//! Both printers produce the same bytes for the same IR, so a conversion is lossless: the
//! tests check that MLIR's text of a module and fuser's text of its conversion are
//! byte-identical, in both directions.

use crate::error::BridgeError;
use crate::text::{generic_text, parse_module};
use fuser_ir::diag::{SourceFile, SourceMgr, render};
use fuser_ir::{Context as FuserContext, Ir, OpId};
use melior::ir::{Module, OperationRef};

/// The buffer name of text crossing from MLIR (every op carries its own location).
const FROM_MLIR: &str = "<mlir>";

/// `op` (usually a module's op) as a fuser IR; the returned op is the top-level op. The
/// fuser context should allow unregistered ops unless every op of `op` is known to fuser.
pub fn to_fuser(ctx: &FuserContext, op: OperationRef<'_, '_>) -> Result<(Ir, OpId), BridgeError> {
    let text = generic_text(&op)?;
    let source = SourceFile::new(FROM_MLIR, text.into());
    let mut ir = Ir::new();
    match fuser_ir::parser::parse_source_all(ctx, &mut ir, &source) {
        Ok(root) => Ok((ir, root)),
        Err(diags) => {
            let mut sources = SourceMgr::new();
            sources.add(source);
            let rendered = diags.iter().map(|d| render(ctx, &sources, d)).collect();
            Err(BridgeError::with_diagnostics("fuser could not parse the MLIR op", rendered))
        }
    }
}

/// fuser's `op` (printed as the top-level op) as a module of `context`, which must allow
/// unregistered dialects for fuser's own ops.
pub fn to_mlir<'c>(
    context: &'c melior::Context,
    ctx: &FuserContext,
    ir: &Ir,
    op: OpId,
) -> Result<Module<'c>, BridgeError> {
    parse_module(context, &fuser_mlir_text::runner::generic_text(ctx, ir, op))
}
