//! Fused regions (`host.fused`, docs/dev/fusion.md): `graph.rs`, the primitive-node graph every
//! evaluator shares; `decode.rs`, a region body to its graph (softmax, norms, mean and var
//! expanded into primitives); `eval.rs`, the cpu backend's evaluation (rows in parallel, every
//! node rounded to its type). The cuda backend compiles the same graph (`cuda/fused/`).

pub mod decode;
pub mod eval;
pub mod graph;

pub use graph::{FusedGraph, Input, Kind, Node, NodeId, NodeOp, ReduceOp};
