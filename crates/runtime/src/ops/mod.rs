//! Each op's semantics as a function on dense row-major values, evaluated in `f64` (integers
//! exactly) and rounded by the caller to the output element type once: what the reference, the
//! cpu backend and the tests of the cuda kernels compute (docs/dev/ops.md).

pub mod reduce;
