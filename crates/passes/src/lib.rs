//! fuser-passes: transformations and the pass registry.

pub mod canonicalize;
pub mod cse;
pub mod dce;
pub mod symbol_dce;
