//! Op semantics on dense tensors (issue 23; the skeleton replaces this file).

pub mod lookup;
pub mod philox;
pub mod slicing;
