//! fuser-passes: transformations and the pass registry.
//!
//! Generic passes: [`canonicalize`], [`cse`], [`dce`], [`symbol_dce`]. Each is a plain function
//! over an op (the pass anchor) plus an options struct. Host-program passes live in [`host`]
//! (stream assignment, deallocation, allocation hoisting, `licm`), one file per pass with its
//! metadata next to it. Named pipelines (`tp-default`, `tp-host`) are in [`pipelines`].

pub mod canonicalize;
pub mod comm;
pub mod comm_verify;
pub mod cse;
pub mod dce;
pub mod doc;
pub mod fusion;
pub mod host;
pub mod pipelines;
pub mod registration;
pub mod symbol_dce;

pub use registration::register_all;

#[cfg(test)]
pub(crate) mod testutil;
