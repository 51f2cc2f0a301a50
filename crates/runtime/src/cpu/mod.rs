//! The embedded CPU backend, beside `cuda/` and layered the same way (lowest first, each file
//! one concern):
//!
//! ```text
//! race.rs      the race checker: vector clocks over streams
//! streams.rs   streams: ordered task queues, each run by its own worker thread; events
//! kernels.rs   the compute kernels on strided views (copy, matmul, linear, elementwise, sum)
//! named.rs     the named kernels (host.kernel) through their semantics in crate::ops
//! comm/        the in-process communicator: collectives and p2p between the ranks' threads
//!              (also what the multi-process hub of `crate::procs` replays posts on)
//! backend.rs   CpuBackend: the Backend implementation (N ranks as threads of one process)
//! ```

pub mod backend;
pub mod comm;
pub mod kernels;
pub mod named;
pub mod race;
pub mod streams;

pub use backend::CpuBackend;
