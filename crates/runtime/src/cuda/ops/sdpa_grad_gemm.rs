//! `sdpa_grad` on the GPU: [`run_sdpa_grad`] chooses the implementation ([`SdpaGradMode`],
//! `FUSER_SDPA_GRAD`; the module docs of [`super::grad`]) and [`run`] is the GEMM-based one,
//! which walks the [`Plan`] of [`super::sdpa_grad_plan`]: its GEMMs through
//! `cublasGemmStridedBatchedEx` (bf16/f16 operands with f32 results and `CUBLAS_COMPUTE_32F`,
//! f32 in f32, f64 in f64), its elementwise steps through the
//! `fuser_sdpa_grad_{delta,probs,ds}_*` kernels of `grad.cu`. Deterministic (no atomics).
//! Scratch: `delta`, the chunk's scores (accumulation type) and probabilities (element type),
//! at most [`WORKSPACE_BYTES`] for those two unless one query head needs more, and f32
//! accumulators for bf16/f16 `dk`, `dv`; returned to the allocator on the stream at the end
//! (reusable once the stream has passed the last kernel).

use super::grad::{KEY, SOURCE, SdpaGradMode, run_flat, run_sdpa_grad_rows, store};
use super::module::{Module, launch};
use super::sdpa_grad_plan::{Gemm, Plan, PlanBuf, Step, WORKSPACE_BYTES};
use crate::cuda::api::RawStream;
use crate::cuda::gpu::Gpu;
use crate::cuda::kernels::dtype_code;
use crate::cuda::memory::CudaBuf;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::ops::Params;
use crate::ops::attention::SdpaDims;
use cudarc::cublas::sys as cb;

/// Parameters of `fuser_sdpa_grad_{delta,probs,ds}_*` (as `SdpaGradEwParams` in the source).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SdpaGradEwParams {
    pub scores: u64,
    pub probs: u64,
    pub lse: u64,
    pub delta: u64,
    pub out: u64,
    pub dout: u64,
    pub query_offset: i64,
    pub scale: f64,
    pub first: i64,
    pub count: i64,
    pub dtype: i32,
    pub h: i32,
    pub hkv: i32,
    pub s: i32,
    pub skv: i32,
    pub dv: i32,
    pub g: i32,
    pub heads: i32,
    pub causal: i32,
}

/// The device buffers of a plan.
struct Bufs<'a> {
    q: &'a CudaBuf,
    k: &'a CudaBuf,
    v: &'a CudaBuf,
    out: &'a CudaBuf,
    lse: &'a CudaBuf,
    dout: &'a CudaBuf,
    dq: &'a CudaBuf,
    dk_acc: CudaBuf,
    dv_acc: CudaBuf,
    delta: CudaBuf,
    scores: CudaBuf,
    probs: CudaBuf,
}

impl Bufs<'_> {
    fn get(&self, b: PlanBuf) -> &CudaBuf {
        match b {
            PlanBuf::Q => self.q,
            PlanBuf::K => self.k,
            PlanBuf::V => self.v,
            PlanBuf::Out => self.out,
            PlanBuf::Lse => self.lse,
            PlanBuf::Dout => self.dout,
            PlanBuf::Dq => self.dq,
            PlanBuf::DkAcc => &self.dk_acc,
            PlanBuf::DvAcc => &self.dv_acc,
            PlanBuf::Delta => &self.delta,
            PlanBuf::Scores => &self.scores,
            PlanBuf::Probs => &self.probs,
        }
    }

    /// The address of element `offset` of `b`.
    fn addr(&self, b: PlanBuf, offset: usize) -> u64 {
        let buf = self.get(b);
        buf.addr() + (offset * buf.dtype.size()) as u64
    }
}

fn data_type(t: DType) -> RtResult<cb::cudaDataType> {
    use cb::cudaDataType::{CUDA_R_16BF, CUDA_R_16F, CUDA_R_32F, CUDA_R_64F};
    Ok(match t {
        DType::BF16 => CUDA_R_16BF,
        DType::F16 => CUDA_R_16F,
        DType::F32 => CUDA_R_32F,
        DType::F64 => CUDA_R_64F,
        other => return Err(RtError::new(format!("sdpa_grad (gemm): no cuBLAS type for {}", other.name()))),
    })
}

fn int(what: &str, x: usize) -> RtResult<i32> {
    i32::try_from(x).map_err(|_| RtError::new(format!("sdpa_grad (gemm): {what} = {x} does not fit an int")))
}

/// One `cublasGemmStridedBatchedEx` of the plan.
fn gemm(gpu: &Gpu, bufs: &Bufs<'_>, g: &Gemm, stream: RawStream) -> RtResult<()> {
    let (ab, c) = (data_type(g.ab_type)?, data_type(g.c_type)?);
    let f64_compute = g.ab_type == DType::F64;
    let compute = if f64_compute {
        cb::cublasComputeType_t::CUBLAS_COMPUTE_64F
    } else {
        cb::cublasComputeType_t::CUBLAS_COMPUTE_32F
    };
    let (alpha32, beta32, alpha64, beta64) = (g.alpha as f32, g.beta as f32, g.alpha, g.beta);
    let (alpha, beta): (*const std::ffi::c_void, *const std::ffi::c_void) = if f64_compute {
        ((&alpha64 as *const f64).cast(), (&beta64 as *const f64).cast())
    } else {
        ((&alpha32 as *const f32).cast(), (&beta32 as *const f32).cast())
    };
    let op = |t: bool| if t { cb::cublasOperation_t::CUBLAS_OP_T } else { cb::cublasOperation_t::CUBLAS_OP_N };
    let (m, n, k) = (int("m", g.m)?, int("n", g.n)?, int("k", g.k)?);
    let (lda, ldb, ldc) = (int("lda", g.a.ld)?, int("ldb", g.b.ld)?, int("ldc", g.c.ld)?);
    let batch = int("batch", g.batch)?;
    gpu.with_cublas(stream, |handle| unsafe {
        cudarc::cublas::result::gemm_strided_batched_ex(
            handle,
            op(g.trans_a),
            op(g.trans_b),
            m,
            n,
            k,
            alpha,
            bufs.addr(g.a.buf, g.a.offset) as *const std::ffi::c_void,
            ab,
            lda,
            g.a.stride as i64,
            bufs.addr(g.b.buf, g.b.offset) as *const std::ffi::c_void,
            ab,
            ldb,
            g.b.stride as i64,
            beta,
            bufs.addr(g.c.buf, g.c.offset) as *mut std::ffi::c_void,
            c,
            ldc,
            g.c.stride as i64,
            batch,
            compute,
            cb::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
        )
        .map_err(|err| {
            RtError::new(format!(
                "cuda: cublasGemmStridedBatchedEx ({}x{}x{} x{}, column-major) failed: {err:?}",
                g.m, g.n, g.k, g.batch
            ))
        })
    })
}

/// Launches `sdpa_grad` on dense `[q, k, v, out, lse, dout]` into dense `[dq, dk, dv]`;
/// `origin` is `dq`'s (the causal mask's global query offset). The implementation is
/// `FUSER_SDPA_GRAD`'s ([`SdpaGradMode::from_env`]).
pub fn run_sdpa_grad(
    gpu: &Gpu,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    run_sdpa_grad_with(gpu, params, inputs, outputs, origin, stream, SdpaGradMode::from_env()?)
}

/// [`run_sdpa_grad`] with the implementation given (`Gemm` runs the row kernel where the
/// plan does not apply: an empty extent).
pub fn run_sdpa_grad_with(
    gpu: &Gpu,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    stream: RawStream,
    mode: SdpaGradMode,
) -> RtResult<()> {
    let ([q, k, v, out, lse, dout], [dq, dk, dv]) = (inputs, outputs) else {
        return Err(RtError::new("sdpa_grad expects 6 inputs and 3 outputs"));
    };
    let dims = SdpaDims::of_shapes(&q.shape, &k.shape, &v.shape).map_err(RtError::new)?;
    if mode == SdpaGradMode::Rows || !Plan::applies(&dims, q.dtype) {
        return run_sdpa_grad_rows(gpu, params, inputs, outputs, origin, stream);
    }
    let scale = params.float_or("scale", dims.default_scale())?;
    let query_offset = origin.get(2).copied().unwrap_or(0);
    let plan =
        Plan::new(&dims, params.flag("causal"), scale, query_offset, q.dtype, WORKSPACE_BYTES).map_err(RtError::new)?;
    run(gpu, &plan, [q, k, v, out, lse, dout], [dq, dk, dv], stream)
}

/// The GEMM-based `sdpa_grad`: `plan` (built for these buffers' extents and element type) on
/// dense `[q, k, v, out, lse, dout]` into dense `[dq, dk, dv]`.
pub fn run(gpu: &Gpu, plan: &Plan, inputs: [&CudaBuf; 6], outputs: [&CudaBuf; 3], stream: RawStream) -> RtResult<()> {
    let [q, k, v, out, lse, dout] = inputs;
    let [dq, dk, dv] = outputs;
    let dims = &plan.dims;
    let want = [
        (plan.buf_len(PlanBuf::Q), plan.elem),
        (plan.buf_len(PlanBuf::K), plan.elem),
        (plan.buf_len(PlanBuf::V), plan.elem),
        (plan.buf_len(PlanBuf::Out), plan.elem),
        (plan.buf_len(PlanBuf::Lse), DType::F32),
        (plan.buf_len(PlanBuf::Dout), plan.elem),
        (plan.buf_len(PlanBuf::Dq), plan.elem),
        (plan.buf_len(PlanBuf::K), plan.elem),
        (plan.buf_len(PlanBuf::V), plan.elem),
    ];
    for (buf, (n, t)) in inputs.iter().chain(&outputs).zip(want) {
        if buf.numel() != n || buf.dtype != t || !buf.is_contiguous() {
            return Err(RtError::new(format!(
                "sdpa_grad (gemm): a buffer is {} {:?}, the plan wants {n} dense {} values",
                buf.dtype.name(),
                buf.shape,
                t.name()
            )));
        }
    }
    let scratch = |b: PlanBuf| gpu.new_buf(plan.buf_type(b), &[plan.buf_len(b)]);
    // The accumulators need no zeroing: the plan's first GEMM into each element has beta = 0.
    let (dk_acc, dv_acc) = if plan.acc_in_scratch() {
        (scratch(PlanBuf::DkAcc)?, scratch(PlanBuf::DvAcc)?)
    } else {
        (dk.clone(), dv.clone())
    };
    let bufs = Bufs {
        q,
        k,
        v,
        out,
        lse,
        dout,
        dq,
        dk_acc,
        dv_acc,
        delta: scratch(PlanBuf::Delta)?,
        scores: scratch(PlanBuf::Scores)?,
        probs: scratch(PlanBuf::Probs)?,
    };
    let suffix = if plan.acc == DType::F64 { "f64" } else { "f32" };
    let base = SdpaGradEwParams {
        scores: bufs.scores.addr(),
        probs: bufs.probs.addr(),
        lse: lse.addr(),
        delta: bufs.delta.addr(),
        out: out.addr(),
        dout: dout.addr(),
        query_offset: plan.query_offset as i64,
        scale: plan.scale,
        first: 0,
        count: 0,
        dtype: dtype_code(plan.elem),
        h: int("H", dims.h)?,
        hkv: int("Hkv", dims.hkv)?,
        s: int("S", dims.s)?,
        skv: int("Skv", dims.skv)?,
        dv: int("Dv", dims.dv)?,
        g: 0,
        heads: 0,
        causal: plan.causal as i32,
    };
    for step in &plan.steps {
        match *step {
            Step::Delta => {
                let rows = plan.buf_len(PlanBuf::Delta) as i64;
                let mut p = SdpaGradEwParams { count: rows, ..base };
                run_flat(gpu, &format!("fuser_sdpa_grad_delta_{suffix}"), rows, &mut p, stream)?;
            }
            Step::Probs { first, count, g, heads } | Step::Ds { first, count, g, heads } => {
                let name = if matches!(step, Step::Probs { .. }) { "probs" } else { "ds" };
                let (first, count, g, heads) = (first as i64, count as i64, g as i32, heads as i32);
                let mut p = SdpaGradEwParams { first, count, g, heads, ..base };
                // One block per row of the scratch (grid-stride), its threads over the keys.
                let f = Module::get(gpu, KEY, SOURCE)?.func(&format!("fuser_sdpa_grad_{name}_{suffix}"))?;
                let blocks = (count * heads as i64 * dims.s as i64).min(1 << 20) as u32;
                let threads = dims.skv.next_multiple_of(32).min(256) as u32;
                launch(f, (blocks, 1, 1), (threads, 1, 1), 0, &mut p, stream)?;
            }
            Step::Gemm(ref g) => gemm(gpu, &bufs, g, stream)?,
        }
    }
    let in_scratch = plan.acc_in_scratch();
    store(gpu, &bufs.dk_acc, !in_scratch, dk, stream)?;
    store(gpu, &bufs.dv_acc, !in_scratch, dv, stream)?;
    // The scratch goes back to the pool once the stream is past these kernels (not parked
    // until the next synchronization: a program calls this once per layer).
    let mut scratch_bufs = vec![&bufs.delta, &bufs.scores, &bufs.probs];
    if in_scratch {
        scratch_bufs.extend([&bufs.dk_acc, &bufs.dv_acc]);
    }
    for buf in scratch_bufs {
        gpu.alloc.free_on(&buf.mem, stream)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parameters_match_the_source() {
        // 6 addresses, the offset, a double, first and count, then 9 ints (padded to 8 bytes).
        assert_eq!(std::mem::size_of::<SdpaGradEwParams>(), 10 * 8 + 9 * 4 + 4);
        let src = super::super::grad::SOURCE;
        assert!(src.contains(
            "struct SdpaGradEwParams { unsigned long long scores; unsigned long long probs; unsigned long long lse;\n  \
             unsigned long long delta; unsigned long long out; unsigned long long dout; long long query_offset; double scale;\n  \
             long long first; long long count; int dtype; int h; int hkv; int s; int skv; int dv; int g; int heads; int causal; };"
        ));
        for kind in ["delta", "probs", "ds"] {
            for acc in ["f32", "f64"] {
                let name = format!("fuser_sdpa_grad_{kind}_{acc}");
                assert!(src.contains(&format!("__global__ void {name}(")), "{name} is not in the source");
            }
        }
    }
}
