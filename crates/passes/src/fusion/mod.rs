//! Passes over fusion (tensor-level) programs: sharding propagation, resharding decomposition
//! and the lowering to host programs. See docs/dev/lowering.md for the rules.
//!
//! Layering: [`axes`] (per-op axis maps) is used by the passes; passes do not import each other.

pub mod axes;
pub mod propagate;
pub mod to_host;
