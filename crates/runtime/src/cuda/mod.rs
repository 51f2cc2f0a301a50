//! The `cuda` backend: real GPUs through cudarc's dynamically loaded bindings (it builds, and
//! its unit tests run, on machines without CUDA; a run asks for the libraries and fails with a
//! clear error where there are none).
//!
//! Layers, lowest first: `api` (driver calls, events, streams), `kernels` (the NVRTC source and
//! its parameter structs, no CUDA calls), `memory` (caching allocator, strided views), `gpu`
//! (one GPU: streams, cuBLAS, kernel launches), `cublaslt` (cuBLASLt GEMMs with cached plans),
//! `graph` (capture and replay of a rank's iteration), `nccl` (communicators), `ipc` (CUDA IPC
//! transfers in a process), `ipc_procs` (between processes), `copy_engine` (allgather, allreduce and reduce_scatter as
//! copy-engine copies over either), `tracer` (timing events per op), `ops` (the named kernels of `host.kernel`, one
//! NVRTC module per family), `contention` (the
//! GEMM-contention microbenchmark of `fuser-contention`), `backend` (the [`crate::exec::Backend`] implementation).

pub mod api;
pub mod backend;
pub mod contention;
pub mod copy_engine;
pub mod cublaslt;
pub mod external;
pub mod fused;
pub mod gpu;
pub mod graph;
pub mod ipc;
pub mod ipc_procs;
pub mod kernels;
pub mod memory;
pub mod nccl;
pub mod ops;
pub mod tracer;

pub use backend::{CudaBackend, probe};
