//! Multi-process runs of the cpu backend: one process per rank (`fuser-run --launch
//! --backend cpu`), so that the process paths (rendezvous, results gathered by rank 0, ranks
//! that exit, crash or never start) are exercised without a GPU.
//!
//! The ranks' communicators meet in a hub served by rank 0 ([`hub`]), over TCP (so the same
//! works across machines, and a run leaves no shared memory segment, socket file or handle
//! behind): each process's [`crate::cpu::comm::Communicator`] hands its posts to its [`link`],
//! the hub replays them on an in-process communicator of all ranks, so collectives, send/recv
//! with NCCL's and CUDA IPC get/put's blocking rules, groups, `share_handles` and every
//! mismatch message are those of a single-process run. [`run`] is the rank's whole run;
//! [`rank`] a rank that lives as long as its process and runs any number of programs on the
//! caller's pieces (fuser.torch's cpu ranks under torchrun).
//!
//! Layering: `frame` → `msg`, `fingerprint` → `fault`, `outbox` → `hub`, `link` → `run` → `rank`.

pub mod fault;
pub mod fingerprint;
pub mod frame;
pub mod hub;
pub mod link;
pub mod msg;
pub mod outbox;
pub mod rank;
pub mod run;

pub use fault::{FAULT_VAR, Fault};
pub use fingerprint::Fingerprint;
pub use rank::ProcessRank;
pub use run::run_cpu_process;

#[cfg(test)]
mod tests;
