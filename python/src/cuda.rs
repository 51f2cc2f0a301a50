//! One rank of a run on the cuda backend, in this process (one process per rank, as torchrun
//! starts them): `CudaRank` joins the run (RANK, WORLD_SIZE, MASTER_ADDR and the store port and
//! token of `fuser_runtime::process::ProcessEnv`; a single process without RANK is rank 0 of
//! 1) and runs a `CudaProgram` (a module lowered and prepared once) on the caller's tensors.
//!
//! Tensors cross as DLPack capsules (`torch.utils.dlpack.to_dlpack`): inputs are used in place
//! (zero copy) as the rank's arguments; the results (which the runtime allocates itself) are
//! either copied into the caller's tensors (`run`) or handed out as they are (`run_returning`:
//! capsules owning the runtime's buffers). Before the run the rank waits for the caller's
//! stream (torch's current stream), and the run ends with the rank's streams synchronized, so
//! the outputs are complete when `run` returns. Every capsule is checked against the
//! program's local (per-rank) shape and element type, on this rank's GPU, dense row-major.

use crate::dlpack::{KDL_CUDA, TensorDesc, describe, take_all};
use crate::errors;
use crate::execute::Fail;
use crate::prepared::Placement;
use fuser_runtime::cuda::CudaBackend;
use fuser_runtime::cuda::api::RawStream;
use fuser_runtime::cuda::memory::CudaBuf;
use fuser_runtime::dtype::DType;
use fuser_runtime::exec::run_program;
use fuser_runtime::process::ProcessEnv;
use fuser_runtime::store::{Store, StoreConfig};
use pyo3::prelude::*;
use std::sync::Arc;
use std::time::Duration;

crate::prepared::prepared_program!(
    /// A module lowered for the cuda backend and prepared once; runs on a `CudaRank`.
    CudaProgram
);

/// This process's rank of a cuda run (see the module docs).
#[pyclass(module = "fuser._fuser", frozen)]
pub struct CudaRank {
    backend: CudaBackend,
    #[pyo3(get)]
    rank: usize,
    #[pyo3(get)]
    world: usize,
    #[pyo3(get)]
    device: usize,
}

fn join(device: usize, timeout: Duration) -> Result<(CudaBackend, usize, usize), String> {
    match ProcessEnv::from_env(|k| std::env::var(k).ok()).map_err(|e| e.message)? {
        None => Ok((CudaBackend::on_devices(&[device], timeout).map_err(|e| e.message)?, 0, 1)),
        Some(env) => {
            let store = Store::connect(&StoreConfig {
                addr: env.master.clone(),
                rank: env.rank,
                world: env.world,
                token: env.token.clone(),
                timeout: timeout.max(Duration::from_secs(120)),
                log: Arc::new(|line| eprintln!("fuser: rank 0 {line}")),
            })
            .map_err(|e| e.message)?;
            let backend = CudaBackend::for_process(env.rank, env.world, device, Arc::new(store), timeout)
                .map_err(|e| e.message)?;
            Ok((backend, env.rank, env.world))
        }
    }
}

impl CudaRank {
    /// Runs `p` on the inputs `ins` (borrowed in place) after the caller's `stream`. With
    /// `outs`, the results are copied into those tensors and nothing is returned; without,
    /// the results are returned as the runtime's buffers, each its own block (a result that
    /// is an argument, or the same buffer as an earlier result, is copied into a new one).
    fn run_inner(
        &self,
        p: &CudaProgram,
        ins: &[TensorDesc],
        outs: Option<&[TensorDesc]>,
        stream: usize,
    ) -> Result<Vec<CudaBuf>, Fail> {
        let gpu =
            Placement { kind: KDL_CUDA, ordinal: Some(self.device as i32), name: format!("cuda:{}", self.device) };
        p.check_call((self.rank, self.world), &gpu, ins, outs)?;
        let fail = |e: fuser_runtime::RtError| p.run_failure(e);
        let bufs = ins
            .iter()
            .map(|d| self.backend.borrowed_buf(self.rank, d.ptr, d.dtype.unwrap_or(DType::F32), &d.shape))
            .collect::<Result<Vec<_>, _>>()
            .map_err(fail)?;
        self.backend.wait_external(self.rank, RawStream(stream as *mut _)).map_err(fail)?;
        let results = run_program(&p.prog, &self.backend, self.rank, &bufs).map_err(fail)?;
        // A result may be an argument itself, or the same buffer as another result: those are
        // copied but not released (or handed out).
        let mut taken: Vec<u64> = bufs.iter().map(|b| b.mem.ptr).collect();
        let Some(outs) = outs else {
            let mut owned = Vec::with_capacity(results.len());
            for r in results {
                // A capsule describes a dense tensor (as `copy_out` needs one for `run`).
                if !r.is_contiguous() {
                    return Err(fail(fuser_runtime::RtError::new(
                        "a strided result cannot be returned as a dense tensor",
                    )));
                }
                let fresh = !taken.contains(&r.mem.ptr);
                taken.push(r.mem.ptr);
                owned.push(if fresh { r } else { self.backend.copy_to_new(self.rank, &r).map_err(fail)? });
            }
            return Ok(owned);
        };
        for (r, d) in results.iter().zip(outs) {
            let bytes = d.shape.iter().product::<usize>() * d.dtype.map_or(0, DType::size);
            let release = !taken.contains(&r.mem.ptr);
            self.backend.copy_out(self.rank, r, d.ptr, bytes, release).map_err(fail)?;
            taken.push(r.mem.ptr);
        }
        Ok(Vec::new())
    }
}

#[pymethods]
impl CudaRank {
    /// Joins the run as the rank of the environment (RANK, WORLD_SIZE, ...; rank 0 of 1
    /// without RANK) on GPU `device` (an ordinal among the visible ones).
    #[new]
    #[pyo3(signature = (device, timeout_s = 60.0))]
    fn new(py: Python<'_>, device: usize, timeout_s: f64) -> PyResult<CudaRank> {
        let timeout = crate::execute::timeout(py, "timeout", timeout_s, &Vec::new())?;
        match py.detach(|| join(device, timeout)) {
            Ok((backend, rank, world)) => Ok(CudaRank { backend, rank, world, device }),
            Err(m) => Err(errors::raise(py, vec![errors::located(None, &m, &Vec::new())])),
        }
    }

    /// Why NCCL cannot serve this run (two of its ranks share a GPU; programs must then
    /// communicate through cuda_ipc), or None when every rank has a GPU of its own.
    #[getter]
    fn shared_gpu(&self) -> Option<String> {
        self.backend.shared_gpu()
    }

    /// Runs `program` on this rank: `inputs` and `outputs` are DLPack capsules of this
    /// rank's pieces (outputs are written); `stream` is the caller's CUDA stream handle, which
    /// the run waits for first.
    fn run(
        &self,
        py: Python<'_>,
        program: &CudaProgram,
        inputs: Vec<Bound<'_, PyAny>>,
        outputs: Vec<Bound<'_, PyAny>>,
        stream: usize,
    ) -> PyResult<()> {
        let ins = take_all(&inputs, &program.sources).map_err(|d| errors::raise(py, d))?;
        let outs = take_all(&outputs, &program.sources).map_err(|d| errors::raise(py, d))?;
        let (in_descs, out_descs): (Vec<TensorDesc>, Vec<TensorDesc>) =
            (ins.iter().map(describe).collect(), outs.iter().map(describe).collect());
        let result = py.detach(|| self.run_inner(program, &in_descs, Some(&out_descs), stream));
        // The producers' deleters run now, after the run.
        drop(ins);
        drop(outs);
        result.map(drop).map_err(|d| errors::raise(py, d))
    }

    /// Runs `program` on this rank as `run` does, but returns its results without a copy: one
    /// DLPack capsule per result (`torch.utils.dlpack.from_dlpack`), each owning the runtime's
    /// buffer, which goes back to the runtime when the consumer frees the tensor. The block
    /// is reused only by a later run, which first waits for the stream it is given: use the
    /// results on that stream (torch's current one), or synchronize first.
    fn run_returning(
        &self,
        py: Python<'_>,
        program: &CudaProgram,
        inputs: Vec<Bound<'_, PyAny>>,
        stream: usize,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let ins = take_all(&inputs, &program.sources).map_err(|d| errors::raise(py, d))?;
        let in_descs: Vec<TensorDesc> = ins.iter().map(describe).collect();
        let result = py.detach(|| self.run_inner(program, &in_descs, None, stream));
        drop(ins);
        let owned = result.map_err(|d| errors::raise(py, d))?;
        let device = (KDL_CUDA, self.device as i32);
        owned
            .into_iter()
            .map(|b| {
                let (ptr, shape, dtype) = (b.addr(), b.shape.clone(), b.dtype);
                crate::dlpack::export(py, b, ptr, &shape, dtype, device)
            })
            .collect()
    }
}
