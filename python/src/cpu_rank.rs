//! One rank of a run on the cpu backend, in this process (one process per rank, as torchrun
//! starts them): `CpuRank` joins the run through the store and rank 0's communication hub of
//! the cpu backend's multi-process runs (`fuser_runtime::procs::ProcessRank`: RANK,
//! WORLD_SIZE, MASTER_ADDR and the store port and token of
//! `fuser_runtime::process::ProcessEnv`; a single process without RANK is rank 0 of 1) and
//! runs a `CpuProgram` (a module lowered and prepared once) on the caller's tensors.
//!
//! Tensors cross as DLPack capsules of host memory (`torch.utils.dlpack.to_dlpack` of CPU
//! tensors), checked against the program's local (per-rank) shape and element type, dense
//! row-major. Inputs are used in place (zero copy) as the rank's arguments: each becomes a
//! buffer over the tensor's memory that holds the capsule's tensor until it is dropped
//! (`Buffer::borrowed`); an input whose memory overlaps an earlier one's (a tensor passed twice)
//! is copied instead, so that no two argument buffers share bytes. Results are copied into the caller's output tensors (the runtime
//! allocates its results itself). The run is complete when `run` returns. Needs no GPU and no
//! CUDA (not behind the `cuda` feature).
//!
//! The rank lives until `close` (fuser.torch calls it when the process exits): see
//! `ProcessRank` for leaving the run, and `fail`, which tells the other ranks that this
//! process failed outside a run.

use crate::dlpack::{Borrowed, KDL_CPU, TensorDesc, describe, take_all};
use crate::errors;
use crate::execute::Fail;
use crate::prepared::Placement;
use fuser_runtime::buffer::{Buffer, View};
use fuser_runtime::dtype::DType;
use fuser_runtime::process::ProcessEnv;
use fuser_runtime::procs::rank::{copy_view_into, view_of_bytes};
use fuser_runtime::procs::{Fault, ProcessRank};
use pyo3::prelude::*;
use std::time::Duration;

/// What the ranks of a fuser.torch cpu run present when they join (a process of another
/// kind, e.g. `fuser-run`, is refused by name).
const KIND: &str = "fuser.torch cpu rank";

crate::prepared::prepared_program!(
    /// A module lowered for the cpu backend and prepared once; runs on a `CpuRank`.
    CpuProgram
);

/// This process's rank of a cpu run (see the module docs).
#[pyclass(module = "fuser._fuser", frozen)]
pub struct CpuRank {
    inner: ProcessRank,
    #[pyo3(get)]
    rank: usize,
    #[pyo3(get)]
    world: usize,
}

fn join(timeout: Duration) -> Result<ProcessRank, String> {
    let var = |k: &str| std::env::var(k).ok();
    let env = ProcessEnv::from_env(var).map_err(|e| e.message)?;
    let fault = Fault::from_env(var).map_err(|e| e.message)?;
    ProcessRank::join(env.as_ref(), timeout, KIND, fault).map_err(|e| e.to_string())
}

/// Whether the tensor `d`, `what` #`i`, fits the program's local type `want` on rank `rank`.
/// An input's capsule, handed to the buffer over its memory (dropped, from any thread, with
/// the buffer: DLPack deleters may be called without the GIL).
struct Guard(#[allow(dead_code)] Borrowed);

// SAFETY: the DLPack contract lets the consumer release the tensor from any thread.
unsafe impl Send for Guard {}

/// The bytes of a described host tensor (`d` checked: dense, of a known element type).
fn nbytes(d: &TensorDesc) -> usize {
    d.shape.iter().product::<usize>() * d.dtype.map_or(0, DType::size)
}

impl CpuRank {
    fn run_inner(&self, p: &CpuProgram, ins: (Vec<Guard>, &[TensorDesc]), outs: &[TensorDesc]) -> Result<(), Fail> {
        let (guards, ins) = ins;
        let cpu = Placement { kind: KDL_CPU, ordinal: None, name: "the cpu (a CPU tensor)".into() };
        p.check_call((self.rank, self.world), &cpu, ins, Some(outs))?;
        let fail = |e: fuser_runtime::RtError| p.run_failure(e);
        let mut held: Vec<(usize, usize)> = Vec::new();
        let args = ins
            .iter()
            .zip(guards)
            .map(|(d, guard)| {
                let dtype = d.dtype.unwrap_or(DType::F32);
                let (start, n) = (d.ptr as usize, nbytes(d));
                if n > 0 && held.iter().any(|&(s, e)| start < e && s < start + n) {
                    // The memory of an earlier input (a tensor passed twice, or views of one):
                    // a copy, so that no two argument buffers share bytes.
                    // SAFETY: as below; read before the run, while the capsule is alive.
                    let bytes = unsafe { std::slice::from_raw_parts(d.ptr as *const u8, n) };
                    return view_of_bytes(dtype, &d.shape, bytes);
                }
                held.push((start, start + n));
                // SAFETY: a dense host tensor of `numel` elements of `dtype` at `ptr` (checked
                // above), kept alive by its capsule, which the buffer holds; the caller does not
                // touch it during the run, and no other argument buffer covers it.
                let numel = d.shape.iter().product();
                let buffer = unsafe { Buffer::borrowed(dtype, numel, d.ptr as *mut u8, Box::new(guard)) };
                View::whole(buffer, &d.shape)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(fail)?;
        let results = self.inner.run(&p.prog, &args).map_err(fail)?;
        if results.len() != outs.len() {
            return Err(p.error(format!(
                "the function returned {} values, its signature {}",
                results.len(),
                outs.len()
            )));
        }
        for (r, d) in results.iter().zip(outs) {
            let n = nbytes(d);
            if n == 0 {
                continue;
            }
            // SAFETY: as above, and the caller's output tensors are distinct fresh tensors.
            let out = unsafe { std::slice::from_raw_parts_mut(d.ptr as *mut u8, n) };
            copy_view_into(r, out).map_err(fail)?;
        }
        Ok(())
    }
}

#[pymethods]
impl CpuRank {
    /// Joins the run as the rank of the environment (RANK, WORLD_SIZE, ...; rank 0 of 1
    /// without RANK) within `timeout_s`, also the deadline of every wait of its runs.
    #[new]
    #[pyo3(signature = (timeout_s = 60.0))]
    fn new(py: Python<'_>, timeout_s: f64) -> PyResult<CpuRank> {
        let timeout = crate::execute::timeout(py, "timeout", timeout_s, &Vec::new())?;
        match py.detach(|| join(timeout)) {
            Ok(inner) => Ok(CpuRank { rank: inner.rank(), world: inner.world(), inner }),
            Err(m) => Err(errors::raise(py, vec![errors::located(None, &m, &Vec::new())])),
        }
    }

    /// Runs `program` on this rank: `inputs` and `outputs` are DLPack capsules of this
    /// rank's pieces, CPU tensors (outputs are written).
    fn run(
        &self,
        py: Python<'_>,
        program: &CpuProgram,
        inputs: Vec<Bound<'_, PyAny>>,
        outputs: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let ins = take_all(&inputs, &program.sources).map_err(|d| errors::raise(py, d))?;
        let outs = take_all(&outputs, &program.sources).map_err(|d| errors::raise(py, d))?;
        let (in_descs, out_descs): (Vec<TensorDesc>, Vec<TensorDesc>) =
            (ins.iter().map(describe).collect(), outs.iter().map(describe).collect());
        let guards: Vec<Guard> = ins.into_iter().map(Guard).collect();
        let result = py.detach(|| self.run_inner(program, (guards, &in_descs), &out_descs));
        // The outputs' deleters run now, after the run (the inputs' went with their buffers).
        drop(outs);
        result.map_err(|d| errors::raise(py, d))
    }

    /// This process failed outside a run (`message`, e.g. an uncaught exception): the other
    /// ranks' runs fail at once with it, naming this rank; so do this rank's later runs.
    fn fail(&self, message: &str) {
        self.inner.fail(message);
    }

    /// Why the run was aborted (by this rank or another), if it was.
    fn aborted(&self) -> Option<String> {
        self.inner.aborted().map(|e| e.to_string())
    }

    /// Leaves the run (a second call does nothing): a rank other than 0 tells rank 0 and
    /// goes; rank 0, which serves the run's hub, waits (at most the timeout) until every other
    /// rank left, and raises naming those that did not.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| self.inner.close())
            .map_err(|e| errors::raise(py, vec![errors::located(None, &e.to_string(), &Vec::new())]))
    }
}
