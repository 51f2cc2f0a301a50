//! One rank of a run on the cuda backend, in this process (one process per rank, as torchrun
//! starts them): `CudaRank` joins the run (RANK, WORLD_SIZE, MASTER_ADDR and the store port and
//! token of `fuser_runtime::process::ProcessEnv`; a single process without RANK is rank 0 of
//! 1) and runs a `CudaProgram` (a module lowered and prepared once) on the caller's tensors.
//!
//! Tensors cross as DLPack capsules (`torch.utils.dlpack.to_dlpack`): inputs are used in place
//! (zero copy) as the rank's arguments, outputs are copied into the caller's tensors (the
//! runtime allocates its results itself). Before the run the rank waits for the caller's
//! stream (torch's current stream), and the run ends with the rank's streams synchronized, so
//! the outputs are complete when `run` returns. Every capsule is checked against the
//! program's local (per-rank) shape and element type, on this rank's GPU, dense row-major.

use crate::compiler::Module;
use crate::errors::{self, Diagnostic, Sources};
use crate::execute::{self, Fail};
use fuser_ir::{Context, Ir, OpId};
use fuser_runtime::cuda::CudaBackend;
use fuser_runtime::cuda::api::RawStream;
use fuser_runtime::dtype::DType;
use fuser_runtime::exec::{Program, prepare, run_program};
use fuser_runtime::process::ProcessEnv;
use fuser_runtime::store::{Store, StoreConfig};
use pyo3::prelude::*;
use std::ffi::c_void;
use std::sync::Arc;
use std::time::Duration;

#[repr(C)]
struct DLDevice {
    device_type: i32,
    device_id: i32,
}

#[repr(C)]
struct DLDataType {
    code: u8,
    bits: u8,
    lanes: u16,
}

#[repr(C)]
struct DLTensor {
    data: *mut c_void,
    device: DLDevice,
    ndim: i32,
    dtype: DLDataType,
    shape: *const i64,
    strides: *const i64,
    byte_offset: u64,
}

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

const KDL_CUDA: i32 = 2;

/// A DLPack tensor taken from its capsule: the capsule is marked used, and the producer's
/// deleter runs when this is dropped (after the run).
struct Borrowed {
    managed: *mut DLManagedTensor,
}

impl Drop for Borrowed {
    fn drop(&mut self) {
        // SAFETY: `managed` came from a `dltensor` capsule we marked used: we own it now.
        unsafe {
            if let Some(d) = (*self.managed).deleter {
                d(self.managed);
            }
        }
    }
}

/// What a capsule holds: device address, shape, element type, GPU.
struct TensorDesc {
    ptr: u64,
    shape: Vec<usize>,
    dtype: Option<DType>,
    device: (i32, i32),
    dense: bool,
}

fn take_capsule(obj: &Bound<'_, PyAny>) -> Result<Borrowed, String> {
    let name = c"dltensor";
    // SAFETY: plain CPython capsule calls on a live object, under the GIL.
    unsafe {
        let raw = obj.as_ptr();
        if pyo3::ffi::PyCapsule_IsValid(raw, name.as_ptr()) != 1 {
            return Err("expected a DLPack capsule (torch.utils.dlpack.to_dlpack(t)) not yet consumed".into());
        }
        let p = pyo3::ffi::PyCapsule_GetPointer(raw, name.as_ptr()) as *mut DLManagedTensor;
        if p.is_null() || pyo3::ffi::PyCapsule_SetName(raw, c"used_dltensor".as_ptr()) != 0 {
            pyo3::ffi::PyErr_Clear();
            return Err("cannot take the DLPack capsule".into());
        }
        Ok(Borrowed { managed: p })
    }
}

fn describe(b: &Borrowed) -> TensorDesc {
    // SAFETY: a valid DLManagedTensor (DLPack's contract) owned by `b`.
    let t = unsafe { &(*b.managed).dl_tensor };
    let ndim = t.ndim.max(0) as usize;
    let shape: Vec<i64> =
        if ndim == 0 { Vec::new() } else { unsafe { std::slice::from_raw_parts(t.shape, ndim) }.to_vec() };
    let dense = if t.strides.is_null() {
        true
    } else {
        let strides = unsafe { std::slice::from_raw_parts(t.strides, ndim) };
        let mut expect = 1i64;
        let mut ok = true;
        for (d, s) in shape.iter().zip(strides).rev() {
            ok &= *d <= 1 || *s == expect;
            expect *= *d;
        }
        ok
    };
    let dtype = match (t.dtype.code, t.dtype.bits, t.dtype.lanes) {
        (2, 64, 1) => Some(DType::F64),
        (2, 32, 1) => Some(DType::F32),
        (2, 16, 1) => Some(DType::F16),
        (4, 16, 1) => Some(DType::BF16),
        (0, 64, 1) => Some(DType::I64),
        (0, 32, 1) => Some(DType::I32),
        (0, 16, 1) => Some(DType::I16),
        (0, 8, 1) => Some(DType::I8),
        // kDLBool: one byte per element, 0 or 1 (torch.bool), as the runtime's i1.
        (6, 8, 1) => Some(DType::I1),
        _ => None,
    };
    TensorDesc {
        ptr: t.data as u64 + t.byte_offset,
        shape: shape.iter().map(|&d| d.max(0) as usize).collect(),
        dtype,
        device: (t.device.device_type, t.device.device_id),
        dense,
    }
}

/// A local (per-rank) shape and element type.
type Local = (Vec<usize>, DType);

/// A module lowered for the cuda backend and prepared once; runs on a `CudaRank`.
#[pyclass(module = "fuser._fuser", frozen)]
pub struct CudaProgram {
    ctx: Context,
    #[allow(dead_code)]
    ir: Ir,
    prog: Program,
    sources: Sources,
    /// Local (per-rank) shapes and element types of the arguments and results.
    args: Vec<Local>,
    results: Vec<Local>,
    /// The devices of the program's meshes (the ranks it needs).
    ranks: usize,
}

fn local_types(ctx: &Context, ir: &Ir, func: OpId) -> Result<(Vec<Local>, Vec<Local>), String> {
    let (ins, outs) = fuser_dialects::func::signature(ctx, ir, func).ok_or("the function has no signature")?;
    let one = |t| -> Result<Local, String> {
        let b =
            fuser_dialects::host::types::BufferType::of(ctx, t).ok_or("an argument or result is not a host buffer")?;
        let shape = b
            .shape
            .iter()
            .map(|&d| usize::try_from(d).map_err(|_| "dynamic shapes are not supported".to_string()))
            .collect::<Result<_, _>>()?;
        Ok((shape, DType::of(ctx, b.elem).map_err(|e| e.message)?))
    };
    Ok((
        ins.iter().map(|&t| one(t)).collect::<Result<_, _>>()?,
        outs.iter().map(|&t| one(t)).collect::<Result<_, _>>()?,
    ))
}

fn prepare_program(module: &Module, pipeline: &str) -> Result<CudaProgram, Fail> {
    let sources = module.sources.clone();
    let (text, lowered) = execute::lowered_texts(module, pipeline)?;
    let ctx = Context::new(fuser_dialects::registry());
    let parsed = execute::parse(&ctx, &sources, lowered.as_deref().unwrap_or(&text))?;
    let ranks = execute::default_ranks(&ctx, &execute::parse(&ctx, &sources, &text)?);
    let func = execute::function(&ctx, &sources, &parsed)?;
    let prog =
        prepare(&ctx, &parsed.ir, func).map_err(|(loc, m)| vec![execute::diagnostic(&ctx, &sources, Some(loc), &m)])?;
    let (args, results) = local_types(&ctx, &parsed.ir, func)
        .map_err(|m| vec![execute::diagnostic(&ctx, &sources, Some(parsed.ir.loc(func)), &m)])?;
    Ok(CudaProgram { ctx, ir: parsed.ir, prog, sources, args, results, ranks })
}

#[pymethods]
impl CudaProgram {
    /// Lowers `module` by `pipeline` (when fusion-level) and prepares it.
    #[new]
    #[pyo3(signature = (module, pipeline = "builtin.module(tp-default)"))]
    fn new(py: Python<'_>, module: &Module, pipeline: &str) -> PyResult<CudaProgram> {
        py.detach(|| prepare_program(module, pipeline)).map_err(|d| errors::raise(py, d))
    }

    /// The local (per-rank) shape and element type name of every argument.
    fn arg_types(&self) -> Vec<(Vec<usize>, &'static str)> {
        self.args.iter().map(|(s, d)| (s.clone(), d.name())).collect()
    }

    /// The local (per-rank) shape and element type name of every result.
    fn result_types(&self) -> Vec<(Vec<usize>, &'static str)> {
        self.results.iter().map(|(s, d)| (s.clone(), d.name())).collect()
    }

    /// The number of ranks the program's meshes name.
    fn ranks(&self) -> usize {
        self.ranks
    }
}

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
    /// Whether the tensor `d`, `what` #`i`, fits the program's local type `want` on this rank.
    fn check(&self, what: &str, i: usize, d: &TensorDesc, want: &Local) -> Result<(), String> {
        let name = format!("{what} #{i}");
        if d.device != (KDL_CUDA, self.device as i32) {
            return Err(format!("{name}: on DLPack device {:?}, this rank runs on cuda:{}", d.device, self.device));
        }
        if d.dtype != Some(want.1) {
            return Err(format!(
                "{name}: element type {:?}, the program's is {}",
                d.dtype.map(DType::name),
                want.1.name()
            ));
        }
        if d.shape != want.0 {
            return Err(format!("{name}: shape {:?}, rank {} of the program takes {:?}", d.shape, self.rank, want.0));
        }
        if !d.dense {
            return Err(format!("{name}: not dense row-major (call .contiguous())"));
        }
        Ok(())
    }

    fn run_inner(&self, p: &CudaProgram, ins: &[TensorDesc], outs: &[TensorDesc], stream: usize) -> Result<(), Fail> {
        let plain = |m: String| vec![errors::located(None, &m, &p.sources)];
        if p.ranks != self.world {
            return Err(plain(format!(
                "the program's meshes name {} devices but the run has {} rank(s) (WORLD_SIZE)",
                p.ranks, self.world
            )));
        }
        if ins.len() != p.args.len() || outs.len() != p.results.len() {
            return Err(plain(format!(
                "the program takes {} inputs and {} outputs, {} and {} given",
                p.args.len(),
                p.results.len(),
                ins.len(),
                outs.len()
            )));
        }
        for (i, (d, want)) in ins.iter().zip(&p.args).enumerate() {
            self.check("input", i, d, want).map_err(plain)?;
        }
        for (i, (d, want)) in outs.iter().zip(&p.results).enumerate() {
            self.check("output", i, d, want).map_err(plain)?;
        }
        let fail = |e: fuser_runtime::RtError| {
            let loc = e.op.as_ref().map(|_| p.prog.error_loc(&e));
            vec![execute::failure(&p.ctx, &p.sources, &fuser_runtime::driver::Failure { loc, error: e })]
        };
        let bufs = ins
            .iter()
            .map(|d| self.backend.borrowed_buf(self.rank, d.ptr, d.dtype.unwrap_or(DType::F32), &d.shape))
            .collect::<Result<Vec<_>, _>>()
            .map_err(fail)?;
        self.backend.wait_external(self.rank, RawStream(stream as *mut _)).map_err(fail)?;
        let results = run_program(&p.prog, &self.backend, self.rank, &bufs).map_err(fail)?;
        // A result may be an argument itself, or the same buffer as another result: those are
        // copied but not released.
        let mut released: Vec<u64> = bufs.iter().map(|b| b.mem.ptr).collect();
        for (r, d) in results.iter().zip(outs) {
            let bytes = d.shape.iter().product::<usize>() * d.dtype.map_or(0, DType::size);
            let release = !released.contains(&r.mem.ptr);
            self.backend.copy_out(self.rank, r, d.ptr, bytes, release).map_err(fail)?;
            released.push(r.mem.ptr);
        }
        Ok(())
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
        let take = |objs: &[Bound<'_, PyAny>]| -> Result<Vec<Borrowed>, Vec<Diagnostic>> {
            objs.iter()
                .map(|o| take_capsule(o).map_err(|m| vec![errors::located(None, &m, &program.sources)]))
                .collect()
        };
        let ins = take(&inputs).map_err(|d| errors::raise(py, d))?;
        let outs = take(&outputs).map_err(|d| errors::raise(py, d))?;
        let (in_descs, out_descs): (Vec<TensorDesc>, Vec<TensorDesc>) =
            (ins.iter().map(describe).collect(), outs.iter().map(describe).collect());
        let result = py.detach(|| self.run_inner(program, &in_descs, &out_descs, stream));
        // The producers' deleters run now, after the run.
        drop(ins);
        drop(outs);
        result.map_err(|d| errors::raise(py, d))
    }
}
