//! The semantics of the named kernels (`host.kernel`, docs/dev/ops.md): each op as a function
//! on dense row-major tensors, evaluated in `f64` (integers exactly), which the reference runs
//! on global tensors and the cpu backend on each rank's local piece; the cuda backend's
//! kernels (`cuda/ops/`) are checked against the same functions.
//!
//! Layers, lowest first: `dense` (the tensors), `params` (a kernel's parameters, decoded from
//! the fusion op's properties), the op files, `registry` (the table of every op).

pub mod attention;
pub mod cross_entropy;
pub mod dense;
pub mod grad;
pub mod lookup;
pub mod norm;
pub mod params;
pub mod philox;
pub mod reduce;
pub mod registry;
pub mod slicing;
pub mod softmax;

pub use dense::{Dense, Vals};
pub use params::{Param, Params};
pub use registry::{ALL, Call, OpImpl, lookup, run};
