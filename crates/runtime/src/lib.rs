//! fuser-runtime: executes host programs on N ranks (the embedded CPU backend simulates them
//! as threads of one process) and evaluates fusion programs unsharded as the reference of
//! `fuser-run --check`. docs/dev/runtime.md has the design: module map, the backend
//! interface, and the semantics the tests rely on.
//!
//! Layering (lower never imports higher; `tests/layering.rs` checks it): `error`, `dtype` and
//! `numerics`, `layout` → `buffer`, `tensor` → the executor (`exec`) → the backends side by side, `cpu`
//! (streams, race checker, kernels, the in-process communicator) and `cuda` → `reference` →
//! `procs` (one process per rank on the cpu backend) → the driver.

pub mod buffer;
pub mod cpu;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod driver;
pub mod dtype;
pub mod error;
pub mod exec;
pub mod fused;
pub mod gemm_lib;
pub mod layout;
pub mod numerics;
pub mod ops;
pub mod origin;
pub mod partial;
pub mod precision;
pub mod process;
pub mod procs;
pub mod reference;
pub mod rng;
pub mod store;
pub mod tensor;
pub mod trace;
pub mod watchdog;

pub use error::{OpKey, RtError, RtResult};
