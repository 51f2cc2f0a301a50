//! `sdpa` on the GPU: launches one of the two flash-attention kernels of `attention.cu` (its
//! comments have the designs). Neither materializes the `S x Skv` scores (memory is linear in
//! the sequences); both stream keys and values through shared memory with an online softmax,
//! skip the key tiles a causal block never attends and map query heads to their key/value
//! head (grouped-query attention).
//!
//! - Tensor cores (`fuser_sdpa_mma_bf16`/`_f16`, [`uses_tensor_cores`]): bf16/f16 inputs, `D` a
//!   multiple of 16 and `Dv` of 8, both at most 128, compute capability 8.0 or newer. Blocks of
//!   64 queries (4 warps of 16 rows), key tiles of 64; `Q Kᵀ` and `P V` on
//!   `mma.sync.m16n8k16` with f32 accumulation, `P` rounded to the input type for `P V` (as
//!   flash-attention does). Expected performance on an H200: well above the SIMT kernel, but
//!   below flash-attention 2/3 (no `ldmatrix`/`cp.async` pipelining, no wgmma, V transposed
//!   through shared memory with bank conflicts): on the order of 100 TFLOP/s for long
//!   sequences, unmeasured.
//! - SIMT (`fuser_sdpa_f32`/`_f64`): everything else (f32, f64, other head dimensions up to
//!   256, older GPUs). 16 query rows per block, 8 lanes per row; f32 accumulation (f64 for
//!   f64). On the order of 10 TFLOP/s on an H200, unmeasured.

use super::module::{Module, launch};
use crate::cuda::api::RawStream;
use crate::cuda::gpu::Gpu;
use crate::cuda::memory::CudaBuf;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::ops::Params;
use crate::ops::attention::{SdpaDims, sdpa_scale};

/// The CUDA C source (NVRTC, no includes).
pub const SOURCE: &str = include_str!("attention.cu");

/// Lanes per query row, query rows per block, threads per block, elements of `D`/`Dv` per lane
/// (as `SDPA_TPQ`, `SDPA_BQ`, `SDPA_THREADS`, `SDPA_MAX_PER_LANE` in the source).
const TPQ: usize = 8;
const BQ: usize = 16;
const THREADS: u32 = (TPQ * BQ) as u32;
const MAX_PER_LANE: usize = 32;
/// Dynamic shared memory per block.
const SHARED_BYTES: usize = 48 * 1024;
/// The tensor-core kernel: queries per block, keys per tile, threads, the largest `D`/`Dv`
/// (as `SDPA_MMA_BQ`, `SDPA_MMA_BK`, `SDPA_MMA_THREADS`, `SDPA_MMA_MAX_D` in the source).
const MMA_BQ: usize = 64;
const MMA_BK: usize = 64;
const MMA_THREADS: u32 = 128;
const MMA_MAX_D: usize = 128;

/// Whether the tensor-core kernel runs this call: bf16/f16, `D % 16 == 0`, `Dv % 8 == 0`,
/// both in `1..=128`, compute capability 8.0 or newer, and `k`/`v` 4-byte aligned (their
/// element pairs are read as 32-bit words).
pub fn uses_tensor_cores(dims: &SdpaDims, dtype: DType, capability: (i32, i32), kv_aligned: bool) -> bool {
    matches!(dtype, DType::BF16 | DType::F16)
        && dims.d.is_multiple_of(16)
        && dims.dv.is_multiple_of(8)
        && (1..=MMA_MAX_D).contains(&dims.d)
        && (1..=MMA_MAX_D).contains(&dims.dv)
        && capability >= (8, 0)
        && kv_aligned
}

/// Dynamic shared memory of the tensor-core kernel: K tile rows padded by 8 elements, the
/// transposed V tile's rows padded by 8 keys, 2-byte elements.
pub fn mma_shared_bytes(dims: &SdpaDims) -> usize {
    2 * (MMA_BK * (dims.d + 8) + dims.dv * (MMA_BK + 8))
}

/// The parameters of `fuser_sdpa_f32`/`fuser_sdpa_f64`, field for field as `SdpaParams` in
/// the source (8-byte fields first).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SdpaParams {
    pub q: u64,
    pub k: u64,
    pub v: u64,
    pub out: u64,
    pub lse: u64,
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
    pub block_k: i32,
}

/// Keys per shared-memory tile: `block_k (D + Dv + BQ)` accumulation-type values fit in
/// [`SHARED_BYTES`], at most 64.
pub fn block_k(dims: &SdpaDims, acc_bytes: usize) -> usize {
    (SHARED_BYTES / (acc_bytes * (dims.d + dims.dv + BQ))).clamp(1, 64)
}

fn int(what: &str, x: usize) -> RtResult<i32> {
    i32::try_from(x).map_err(|_| RtError::new(format!("sdpa on cuda: {what} = {x} does not fit the kernel's int")))
}

/// Launches `sdpa` on dense `inputs` (`q, k, v`) into dense `outputs` (`out`, optional
/// `lse`); `origin` is result 0's (the causal mask's global query offset).
pub fn run_sdpa(
    gpu: &Gpu,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    let [q, k, v] = inputs else { return Err(RtError::new("sdpa expects 3 inputs")) };
    let dims = SdpaDims::of_shapes(&q.shape, &k.shape, &v.shape).map_err(RtError::new)?;
    if dims.d > TPQ * MAX_PER_LANE || dims.dv > TPQ * MAX_PER_LANE {
        return Err(RtError::new(format!(
            "sdpa on cuda: head dimensions D = {} and Dv = {} must be at most {}",
            dims.d,
            dims.dv,
            TPQ * MAX_PER_LANE
        )));
    }
    let (out, lse) = match outputs {
        [o] => (o, 0),
        [o, l] => (o, l.addr()),
        _ => return Err(RtError::new("sdpa expects 1 or 2 outputs")),
    };
    let numel = dims.b * dims.h * dims.s;
    if numel == 0 || dims.dv == 0 && lse == 0 {
        return Ok(());
    }
    let aligned = k.addr() % 4 == 0 && v.addr() % 4 == 0;
    let mma = uses_tensor_cores(&dims, q.dtype, gpu.dev.capability, aligned);
    let (func, acc_bytes) = match q.dtype {
        DType::BF16 if mma => ("fuser_sdpa_mma_bf16", 2),
        DType::F16 if mma => ("fuser_sdpa_mma_f16", 2),
        DType::F64 => ("fuser_sdpa_f64", 8),
        _ => ("fuser_sdpa_f32", 4),
    };
    let bk = if mma { MMA_BK } else { block_k(&dims, acc_bytes) };
    let mut p = SdpaParams {
        q: q.addr(),
        k: k.addr(),
        v: v.addr(),
        out: out.addr(),
        lse,
        query_offset: origin.get(2).copied().unwrap_or(0) as i64,
        scale: sdpa_scale(params, &dims)?,
        dtype: crate::cuda::kernels::dtype_code(q.dtype),
        b: int("B", dims.b)?,
        h: int("H", dims.h)?,
        hkv: int("Hkv", dims.hkv)?,
        s: int("S", dims.s)?,
        skv: int("Skv", dims.skv)?,
        d: int("D", dims.d)?,
        dv: int("Dv", dims.dv)?,
        causal: params.flag("causal") as i32,
        block_k: int("block_k", bk)?,
    };
    let (bq, threads, shared) = if mma {
        (MMA_BQ, MMA_THREADS, mma_shared_bytes(&dims))
    } else {
        (BQ, THREADS, bk * (dims.d + dims.dv + BQ) * acc_bytes)
    };
    let grid_x = u32::try_from(dims.s.div_ceil(bq)).map_err(|_| RtError::new("sdpa on cuda: S too large"))?;
    if dims.h > 65535 || dims.b > 65535 {
        return Err(RtError::new(format!("sdpa on cuda: B = {} and H = {} must be at most 65535", dims.b, dims.h)));
    }
    let module = Module::get(gpu, "attention", SOURCE)?;
    let grid = (grid_x, dims.h as u32, dims.b as u32);
    launch(module.func(func)?, grid, (threads, 1, 1), shared as u32, &mut p, stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_fit_in_shared_memory() {
        let d = |d, dv| SdpaDims { b: 1, h: 1, hkv: 1, s: 1, skv: 1, d, dv };
        assert_eq!(block_k(&d(64, 64), 4), 64);
        for (dims, acc) in [(d(128, 128), 4), (d(256, 256), 4), (d(256, 256), 8), (d(1, 1), 8)] {
            let bk = block_k(&dims, acc);
            assert!(bk >= 1 && bk * (dims.d + dims.dv + BQ) * acc <= SHARED_BYTES, "{dims:?}: {bk}");
        }
        assert_eq!(std::mem::size_of::<SdpaParams>(), 96);
        assert!(mma_shared_bytes(&d(128, 128)) <= SHARED_BYTES);
    }

    #[test]
    fn tensor_cores_take_what_they_can() {
        let d = |d, dv| SdpaDims { b: 1, h: 1, hkv: 1, s: 1, skv: 1, d, dv };
        assert!(uses_tensor_cores(&d(64, 64), DType::BF16, (9, 0), true));
        assert!(uses_tensor_cores(&d(128, 8), DType::F16, (8, 0), true));
        assert!(!uses_tensor_cores(&d(64, 64), DType::F32, (9, 0), true));
        assert!(!uses_tensor_cores(&d(40, 64), DType::BF16, (9, 0), true));
        assert!(!uses_tensor_cores(&d(64, 12), DType::BF16, (9, 0), true));
        assert!(!uses_tensor_cores(&d(256, 64), DType::BF16, (9, 0), true));
        assert!(!uses_tensor_cores(&d(64, 64), DType::BF16, (7, 5), true));
        assert!(!uses_tensor_cores(&d(64, 64), DType::BF16, (9, 0), false));
    }

    #[test]
    fn the_source_agrees_with_the_launch_constants() {
        let consts = [
            ("SDPA_TPQ", TPQ),
            ("SDPA_BQ", BQ),
            ("SDPA_MAX_PER_LANE", MAX_PER_LANE),
            ("SDPA_MMA_BQ", MMA_BQ),
            ("SDPA_MMA_BK", MMA_BK),
            ("SDPA_MMA_THREADS", MMA_THREADS as usize),
            ("SDPA_MMA_MAX_D", MMA_MAX_D),
        ];
        for (name, v) in consts {
            assert!(SOURCE.contains(&format!("#define {name} {v}\n")), "{name} differs from the source");
        }
    }
}
