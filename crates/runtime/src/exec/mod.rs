//! The executor of host programs: `prepare` turns a host function into a [`Program`] once,
//! `run` interprets it for one rank over a [`Backend`], `cpu` is the embedded backend that
//! runs N ranks as threads of one process.

pub mod backend;
pub mod cpu;
pub mod prepare;
pub mod run;

pub use backend::{Backend, CommOp, Kernel};
pub use cpu::CpuBackend;
pub use prepare::{Instr, Program, prepare};
pub use run::run_program;
