//! The cuda kernels of the ops lowered to `host.kernel` (docs/dev/ops.md).

pub mod norm;
