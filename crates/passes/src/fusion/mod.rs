//! Passes over fusion (tensor-level) programs: sharding propagation, resharding decomposition
//! and the lowering to host programs. See docs/dev/lowering.md for the rules.
//!
//! Layering: [`axes`] (per-op axis maps) and [`resharding`] (device-layout comparison) are used
//! by the passes; `decompose` reuses `propagate::natural_sharding`, nothing imports `decompose`.

pub mod autodiff;
pub mod axes;
pub mod decompose;
pub mod propagate;
pub mod resharding;
pub mod stream_chunks;
pub mod to_host;
pub mod vocab_parallel;
