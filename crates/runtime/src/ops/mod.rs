//! The semantics of the ops lowered to `host.kernel`, on dense values (docs/dev/ops.md).

pub mod norm;
