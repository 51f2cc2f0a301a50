//! Argument descriptions of op definitions: [`ArgDef`] (a described operand, result, attribute
//! or region, for docs and `--help`) and [`ArgKind`] (single, optional or variadic).
//!
//! Layer: lowest of the definitions (plain data, no imports), so that the declared structure
//! of `declare.rs`, which sits below `registry.rs`, can use [`ArgKind`]. Re-exported as
//! `registry::{ArgDef, ArgKind}`.

/// A described operand, result, attribute or region (for docs and generic checks).
#[derive(Clone, Copy, Debug)]
pub struct ArgDef {
    pub name: &'static str,
    /// Human-readable constraint, e.g. "signless integer or index".
    pub constraint: &'static str,
    pub kind: ArgKind,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ArgKind {
    Single,
    Optional,
    Variadic,
}
