//! Passes over host programs (`host`/`comm` ops inside `func.func`): stream assignment,
//! deallocation, allocation hoisting, loop-invariant code motion, copy forwarding, GEMM epilogue
//! fusion and fusion into `host.fused` regions. See `docs/dev/lowering.md` §6 for the rules each
//! one follows.
//!
//! Layering: [`build`] (generic op construction and IR queries) is used by the passes; no pass
//! imports another.

pub mod assign_streams;
pub mod build;
pub mod forward_copies;
pub mod fuse;
pub mod fuse_epilogue;
pub mod hoist_alloc;
pub mod insert_dealloc;
pub mod licm;

#[cfg(test)]
mod tests;
