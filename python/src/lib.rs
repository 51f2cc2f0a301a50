//! `fuser._fuser`: the native half of the Python package `fuser` (python/fuser/ is the other).
//!
//! - `errors.rs`: `FuserError` and its argument-error subclasses (`FuserValueError`, ...),
//!   `Diagnostic`, `Note` (diagnostics as data).
//! - `compiler.rs`: `Compiler`, `Module` over the embedding facade (`crates/fuser`).
//! - `program.rs`: `Program`, the recorded fusion program behind `fuser.FusionDefinition`.
//! - `autodiff.rs`: `autodiff`, `Gradients`: the reverse-mode derivative of a module's
//!   function as three modules (`_vjp`, `_fwd`, `_bwd`), behind `FusionDefinition.backward`.
//! - `execute.rs`: `run_cpu`, running a module on the cpu backend with global inputs.
//! - `prepared.rs`: DLPack capsules, and a module prepared once with its per-rank types (what
//!   the rank classes share).
//! - `cuda.rs`: `CudaProgram`, `CudaRank`: one rank per process on the cuda backend, torch
//!   tensors through DLPack.
//! - `cpu_rank.rs`: `CpuProgram`, `CpuRank`: one rank per process on the cpu backend, torch
//!   CPU tensors through DLPack (no GPU, no CUDA).
//!
//! Nothing here prints or exits; every failure is a `FuserError` carrying diagnostics, and
//! the facade turns panics inside the compiler into error diagnostics.

mod autodiff;
mod compiler;
mod cpu_rank;
#[cfg(feature = "cuda")]
mod cuda;
mod dlpack;
mod errors;
mod execute;
mod prepared;
mod program;

use pyo3::prelude::*;

/// The names of fuser's named pipelines (`tp-default`, ...).
#[pyfunction]
fn pipeline_names() -> Vec<&'static str> {
    let mut registry = fuser_ir::pass::PassRegistry::new();
    // fuser's own registrations are unique (the facade's Compiler::new relies on it too).
    let _ = fuser_passes::register_all(&mut registry);
    registry.pipelines().map(|p| p.name).collect()
}

#[pymodule]
fn _fuser(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FuserError", m.py().get_type::<errors::FuserError>())?;
    errors::ErrorKind::add_classes(m)?;
    m.add_function(wrap_pyfunction!(errors::argument_error, m)?)?;
    m.add_class::<errors::Diagnostic>()?;
    m.add_class::<errors::Note>()?;
    m.add_class::<compiler::Compiler>()?;
    m.add_class::<compiler::Module>()?;
    m.add_class::<program::Program>()?;
    m.add_class::<autodiff::Gradients>()?;
    m.add_function(wrap_pyfunction!(autodiff::autodiff, m)?)?;
    m.add_function(wrap_pyfunction!(autodiff::signature, m)?)?;
    m.add_function(wrap_pyfunction!(execute::run_cpu, m)?)?;
    m.add_function(wrap_pyfunction!(pipeline_names, m)?)?;
    m.add_class::<cpu_rank::CpuProgram>()?;
    m.add_class::<cpu_rank::CpuRank>()?;
    #[cfg(feature = "cuda")]
    m.add_class::<cuda::CudaProgram>()?;
    #[cfg(feature = "cuda")]
    m.add_class::<cuda::CudaRank>()?;
    Ok(())
}
