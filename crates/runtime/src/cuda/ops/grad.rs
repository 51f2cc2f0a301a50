//! `sdpa_grad`, `embedding_grad` and `one_hot` on the GPU (semantics: `crate::ops::grad`; the
//! kernels and their designs are in `grad.cu`).
//!
//! - `sdpa_grad`, two implementations, chosen by the environment variable `FUSER_SDPA_GRAD`
//!   ([`SdpaGradMode`]; a run with any other value fails) in `sdpa_grad_gemm::run_sdpa_grad`:
//!   - `rows`: `fuser_sdpa_grad_f32` (bf16, f16, f32 inputs; f32
//!     accumulation) or `_f64`, one thread per query row; `dk` and `dv` are summed with atomics
//!     into accumulation buffers (the f32/f64 outputs themselves, zeroed first, or f32 scratch
//!     for bf16/f16) and rounded once to the element type by `fuser_acc_store`. `D` at most 256.
//!     Correct, not fast: 878 ms per call at the Llama-3-70B layer's attention (seq 2048, 64
//!     heads, 8 kv heads, D 128, causal, bf16) on an H200.
//!   - `gemm` (the default, unset): attention's "math" backward as strided-batched cuBLAS GEMMs and three
//!     elementwise kernels, in chunks of (batch, kv head) pairs (a pair's query heads as the
//!     rows of one product) bounded by a 1 GiB scratch (`sdpa_grad_plan.rs` has the plan and
//!     the derivation of its column-major GEMMs, `sdpa_grad_gemm.rs` runs it); P and dS are
//!     rounded to the element type before their products (as FlashAttention-2), `dk`/`dv`
//!     accumulate in f32 (f64 for f64). Any `D`; deterministic; the causal mask is applied to
//!     P, not used to skip work (the products cost twice the causal triangle's). Checked
//!     against the reference on an H200 (`tests/cuda_fused_on_gpu.rs`) and 2.93 ms at the
//!     Llama-3-70B shape above (300x the row kernel; 117 TFLOP/s counting the full square);
//!     empty extents (no keys, no queries) run the row kernel.
//! - `embedding_grad`: `fuser_embedding_grad`, one thread per element of `g`, atomics into the
//!   accumulation buffer (as for `dk`), then `fuser_acc_store`.
//! - `one_hot`: `fuser_one_hot`, one thread per output element (exact).
//!
//! The atomics make the summation order of `dk`, `dv` and the table gradient vary between
//! runs (the last bits may differ); the check's tolerance covers it. The parameter structs
//! match the source's field for field (`#[repr(C)]`, 8-byte fields first).

use super::module::{Module, launch};
use crate::cuda::api::RawStream;
use crate::cuda::gpu::Gpu;
use crate::cuda::kernels::{dtype_code, launch_dims};
use crate::cuda::memory::CudaBuf;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::ops::Params;
use crate::ops::attention::SdpaDims;

/// The CUDA C source (NVRTC, no includes).
pub const SOURCE: &str = include_str!("grad.cu");

pub(super) const KEY: &str = "grad";

/// The largest head dimension `D` of `sdpa_grad` (as `SDPA_GRAD_MAX_D` in the source).
pub const MAX_D: usize = 256;

/// Parameters of `fuser_sdpa_grad_f32`/`_f64`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SdpaGradParams {
    pub q: u64,
    pub k: u64,
    pub v: u64,
    pub out: u64,
    pub lse: u64,
    pub dout: u64,
    pub dq: u64,
    pub dk_acc: u64,
    pub dv_acc: u64,
    pub query_offset: i64,
    pub scale: f64,
    pub dtype: i32,
    pub b: i32,
    pub h: i32,
    pub hkv: i32,
    pub s: i32,
    pub skv: i32,
    pub d: i32,
    pub dv: i32,
    pub causal: i32,
}

/// Parameters of `fuser_embedding_grad`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct EmbeddingGradParams {
    pub ids: u64,
    pub g: u64,
    pub acc: u64,
    pub n_ids: i64,
    pub width: i64,
    pub rows: i64,
    pub first_row: i64,
    pub id_bytes: i32,
    pub dtype: i32,
    pub acc_double: i32,
}

/// Parameters of `fuser_one_hot`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct OneHotParams {
    pub labels: u64,
    pub out: u64,
    pub n_labels: i64,
    pub classes: i64,
    pub first_class: i64,
    pub id_bytes: i32,
    pub dtype: i32,
}

/// Parameters of `fuser_acc_zero` and `fuser_acc_store`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct AccParams {
    pub acc: u64,
    pub out: u64,
    pub n: i64,
    pub dtype: i32,
    pub acc_double: i32,
}

fn int(what: &str, x: usize) -> RtResult<i32> {
    i32::try_from(x).map_err(|_| RtError::new(format!("sdpa_grad on cuda: {what} = {x} does not fit the kernel's int")))
}

/// Runs `name` of the grad module over `n` elements with one thread each (grid-stride).
pub(super) fn run_flat<P>(gpu: &Gpu, name: &str, n: i64, params: &mut P, stream: RawStream) -> RtResult<()> {
    if n == 0 {
        return Ok(());
    }
    let f = Module::get(gpu, KEY, SOURCE)?.func(name)?;
    let (blocks, threads) = launch_dims(n);
    launch(f, (blocks, 1, 1), (threads, 1, 1), 0, params, stream)
}

/// An accumulation buffer for `out`: `out` itself when it is f32 or f64, else f32 scratch;
/// zeroed on `stream`. Returns it and whether it is `out`.
fn accumulator(gpu: &Gpu, out: &CudaBuf, stream: RawStream) -> RtResult<(CudaBuf, bool)> {
    let (acc, is_out) = match out.dtype {
        DType::F32 | DType::F64 => (out.clone(), true),
        _ => (gpu.new_buf(DType::F32, &out.shape)?, false),
    };
    let mut p = AccParams {
        acc: acc.addr(),
        n: acc.numel() as i64,
        acc_double: (acc.dtype == DType::F64) as i32,
        ..AccParams::default()
    };
    run_flat(gpu, "fuser_acc_zero", p.n, &mut p, stream)?;
    Ok((acc, is_out))
}

/// Rounds `acc` into `out` once (nothing to do when they are the same buffer).
pub(super) fn store(gpu: &Gpu, acc: &CudaBuf, is_out: bool, out: &CudaBuf, stream: RawStream) -> RtResult<()> {
    if is_out {
        return Ok(());
    }
    let mut p = AccParams {
        acc: acc.addr(),
        out: out.addr(),
        n: out.numel() as i64,
        dtype: dtype_code(out.dtype),
        acc_double: (acc.dtype == DType::F64) as i32,
    };
    run_flat(gpu, "fuser_acc_store", p.n, &mut p, stream)
}

/// The implementation of `sdpa_grad` on the GPU (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SdpaGradMode {
    /// One thread per query row, atomics (`fuser_sdpa_grad_f32`/`_f64`).
    Rows,
    /// Strided-batched cuBLAS GEMMs (`sdpa_grad_gemm.rs`).
    Gemm,
}

impl SdpaGradMode {
    /// `FUSER_SDPA_GRAD`: unset, empty or `gemm` → `Gemm`, `rows` → `Rows`, else an error.
    pub fn from_env() -> RtResult<SdpaGradMode> {
        static MODE: std::sync::OnceLock<Result<SdpaGradMode, String>> = std::sync::OnceLock::new();
        MODE.get_or_init(|| SdpaGradMode::parse(&std::env::var("FUSER_SDPA_GRAD").unwrap_or_default()))
            .clone()
            .map_err(RtError::new)
    }

    /// The mode a value of `FUSER_SDPA_GRAD` names.
    pub fn parse(value: &str) -> Result<SdpaGradMode, String> {
        match value {
            "rows" => Ok(SdpaGradMode::Rows),
            "" | "gemm" => Ok(SdpaGradMode::Gemm),
            other => Err(format!("FUSER_SDPA_GRAD must be `rows` or `gemm`, got `{other}`")),
        }
    }
}

/// The row kernel's `sdpa_grad` on dense `[q, k, v, out, lse, dout]` into dense
/// `[dq, dk, dv]`; `origin` is `dq`'s (the causal mask's global query offset).
/// (`sdpa_grad_gemm::run_sdpa_grad` chooses between this and the GEMMs.)
pub fn run_sdpa_grad_rows(
    gpu: &Gpu,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    let [q, k, v, out, lse, dout] = inputs else { return Err(RtError::new("sdpa_grad expects 6 inputs")) };
    let [dq, dk, dv] = outputs else { return Err(RtError::new("sdpa_grad expects 3 outputs")) };
    let dims = SdpaDims::of_shapes(&q.shape, &k.shape, &v.shape).map_err(RtError::new)?;
    if dims.d > MAX_D {
        return Err(RtError::new(format!(
            "sdpa_grad on cuda: the head dimension D = {} must be at most {MAX_D}",
            dims.d
        )));
    }
    let (dk_acc, dk_is_out) = accumulator(gpu, dk, stream)?;
    let (dv_acc, dv_is_out) = accumulator(gpu, dv, stream)?;
    let mut p = SdpaGradParams {
        q: q.addr(),
        k: k.addr(),
        v: v.addr(),
        out: out.addr(),
        lse: lse.addr(),
        dout: dout.addr(),
        dq: dq.addr(),
        dk_acc: dk_acc.addr(),
        dv_acc: dv_acc.addr(),
        query_offset: origin.get(2).copied().unwrap_or(0) as i64,
        scale: params.float_or("scale", dims.default_scale())?,
        dtype: dtype_code(q.dtype),
        b: int("B", dims.b)?,
        h: int("H", dims.h)?,
        hkv: int("Hkv", dims.hkv)?,
        s: int("S", dims.s)?,
        skv: int("Skv", dims.skv)?,
        d: int("D", dims.d)?,
        dv: int("Dv", dims.dv)?,
        causal: params.flag("causal") as i32,
    };
    let func = if q.dtype == DType::F64 { "fuser_sdpa_grad_f64" } else { "fuser_sdpa_grad_f32" };
    run_flat(gpu, func, (dims.b * dims.h * dims.s) as i64, &mut p, stream)?;
    store(gpu, &dk_acc, dk_is_out, dk, stream)?;
    store(gpu, &dv_acc, dv_is_out, dv, stream)
}

/// Launches `embedding_grad` on dense `[ids, g]` into the dense table piece whose first row is
/// global row `origin[0]`.
pub fn run_embedding_grad(
    gpu: &Gpu,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    let ([ids, g], [out]) = (inputs, outputs) else {
        return Err(RtError::new("embedding_grad expects ids and grad, and one output"));
    };
    let [rows, width] = out.shape[..] else { return Err(RtError::new("embedding_grad: the output must be [rows, E]")) };
    let (acc, is_out) = accumulator(gpu, out, stream)?;
    let mut p = EmbeddingGradParams {
        ids: ids.addr(),
        g: g.addr(),
        acc: acc.addr(),
        n_ids: ids.numel() as i64,
        width: width as i64,
        rows: rows as i64,
        first_row: origin.first().copied().unwrap_or(0) as i64,
        id_bytes: ids.dtype.size() as i32,
        dtype: dtype_code(g.dtype),
        acc_double: (acc.dtype == DType::F64) as i32,
    };
    run_flat(gpu, "fuser_embedding_grad", p.n_ids * p.width, &mut p, stream)?;
    store(gpu, &acc, is_out, out, stream)
}

/// Launches `one_hot` on dense labels into the dense output whose first class is global class
/// `origin[last]`.
pub fn run_one_hot(
    gpu: &Gpu,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    let ([labels], [out]) = (inputs, outputs) else {
        return Err(RtError::new("one_hot expects labels and one output"));
    };
    let mut p = OneHotParams {
        labels: labels.addr(),
        out: out.addr(),
        n_labels: labels.numel() as i64,
        classes: out.shape.last().copied().unwrap_or(0) as i64,
        first_class: origin.last().copied().unwrap_or(0) as i64,
        id_bytes: labels.dtype.size() as i32,
        dtype: dtype_code(out.dtype),
    };
    run_flat(gpu, "fuser_one_hot", p.n_labels * p.classes, &mut p, stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_agrees_with_the_launch_constants_and_structs() {
        assert!(SOURCE.contains(&format!("#define SDPA_GRAD_MAX_D {MAX_D}\n")));
        // 9 addresses, the offset and a double, then 9 ints (padded to 8 bytes).
        assert_eq!(std::mem::size_of::<SdpaGradParams>(), 11 * 8 + 9 * 4 + 4);
        assert_eq!(std::mem::size_of::<EmbeddingGradParams>(), 7 * 8 + 3 * 4 + 4);
        assert_eq!(std::mem::size_of::<OneHotParams>(), 5 * 8 + 2 * 4);
        assert_eq!(std::mem::size_of::<AccParams>(), 3 * 8 + 2 * 4);
        for name in ["fuser_sdpa_grad_f32", "fuser_sdpa_grad_f64", "fuser_embedding_grad", "fuser_one_hot"] {
            assert!(SOURCE.contains(&format!("__global__ void {name}(")), "{name} is not in the source");
        }
    }

    #[test]
    fn the_sdpa_grad_mode_parses() {
        assert_eq!(SdpaGradMode::parse(""), Ok(SdpaGradMode::Gemm));
        assert_eq!(SdpaGradMode::parse("rows"), Ok(SdpaGradMode::Rows));
        assert_eq!(SdpaGradMode::parse("gemm"), Ok(SdpaGradMode::Gemm));
        assert!(SdpaGradMode::parse("flash").unwrap_err().contains("FUSER_SDPA_GRAD"));
    }
}
