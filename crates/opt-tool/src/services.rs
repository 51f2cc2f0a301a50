//! The services `fuser-opt` takes from the library crates, one function each: the dialect
//! registry, the pass registry, and the parser.

use fuser_ir::diag::SourceFile;
use fuser_ir::pass::PassRegistry;
use fuser_ir::registry::Registry;
use fuser_ir::{Context, Diagnostic, Ir, OpId};

/// The dialects `fuser-opt` knows.
pub fn dialect_registry() -> Registry {
    fuser_dialects::registry()
}

/// The passes and pipelines `fuser-opt` knows.
pub fn pass_registry() -> PassRegistry {
    let mut registry = PassRegistry::new();
    // Names are fixed at compile time and unique; a clash is a programming error caught by the
    // unit test below.
    let _ = fuser_passes::register_all(&mut registry);
    registry
}

/// Parses a source (into an implicit `builtin.module` when needed, as mlir-opt does); without
/// `implicit_module`, the source's single top-level op is the root (`--no-implicit-module`).
pub fn parse_source_with(
    ctx: &Context,
    source: &SourceFile,
    implicit_module: bool,
) -> Result<(Ir, OpId), Vec<Diagnostic>> {
    let mut ir = Ir::new();
    let op = fuser_ir::parser::parse_source_with(ctx, &mut ir, source, implicit_module)?;
    Ok((ir, op))
}

#[cfg(test)]
mod tests {
    #[test]
    fn pass_names_are_unique() {
        let mut r = fuser_ir::pass::PassRegistry::new();
        fuser_passes::register_all(&mut r).expect("pass names clash");
        assert!(r.pass("cse").is_some() && r.pass("canonicalize").is_some());
    }
}
