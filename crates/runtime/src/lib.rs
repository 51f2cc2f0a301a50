//! fuser-runtime: the executor of host programs.
//!
//! Nothing lives here yet. The executor, the CPU multi-rank backend and the CUDA backend come
//! with the runtime issue; until then this crate is an empty member of the workspace so that the
//! dependency direction `ir <- dialects <- passes <- runtime <- opt-tool` is fixed from the start.
