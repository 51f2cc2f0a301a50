//! The services `fuser-opt` takes from other crates, behind one function each, with thin local
//! stand-ins until the real ones land on main: the parser and the dialect and pass registries.
//! Switching to the real implementation is a one-line change in each function.

use fuser_ir::diag::SourceFile;
use fuser_ir::pass::PassRegistry;
use fuser_ir::registry::Registry;
use fuser_ir::{Context, Diagnostic, Ir, OpId};

/// The dialects `fuser-opt` knows.
pub fn dialect_registry() -> Registry {
    Registry::new()
}

/// The passes and pipelines `fuser-opt` knows.
pub fn pass_registry() -> PassRegistry {
    PassRegistry::new()
}

/// Parses a source buffer into a top-level op (a `builtin.module`).
pub fn parse_source(ctx: &Context, source: &SourceFile) -> Result<(Ir, OpId), Vec<Diagnostic>> {
    let loc = ctx.file_loc(&source.name, source.first_line, 1);
    Err(vec![Diagnostic::error(loc, "the IR parser is not available in this build of fuser-opt")])
}

