//! Op semantics on dense tensors (placeholder module until the shared skeleton lands).

pub mod attention;
