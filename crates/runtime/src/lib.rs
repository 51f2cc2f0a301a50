//! fuser-runtime: executes host programs on N ranks (the embedded CPU backend simulates them
//! as threads of one process) and evaluates fusion programs unsharded as the reference of
//! `fuser-run --check`. docs/dev/runtime.md has the design: module map, the backend
//! interface, and the semantics the tests rely on.
//!
//! Layering (lower never imports higher): `error`, `dtype` and `numerics`, `layout` → `buffer`, `tensor` →
//! kernels, communication, streams → the executor (`exec`) and the backends (`exec::cpu`,
//! `cuda`) → `reference`, `trace` → the driver.

pub mod buffer;
pub mod comm;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod driver;
pub mod dtype;
pub mod error;
pub mod exec;
pub mod gemm_lib;
pub mod kernels;
pub mod layout;
pub mod numerics;
pub mod origin;
pub mod partial;
pub mod process;
pub mod procs;
pub mod race;
pub mod reference;
pub mod rng;
pub mod store;
pub mod streams;
pub mod tensor;
pub mod trace;
pub mod watchdog;

pub use error::{OpKey, RtError, RtResult};
