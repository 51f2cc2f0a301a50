//! fuser-dialects: the builtin/func/arith subset we share with MLIR, and our own dialects.

pub mod arith;
pub mod builtin;
pub mod func;
