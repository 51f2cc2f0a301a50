//! `sdpa` on the GPU: launches one of the flash-attention kernels of `attention.cu` (its
//! comments have the designs). None materializes the `S x Skv` scores (memory is linear in the
//! sequences); all stream keys and values through shared memory with an online softmax, skip
//! the key tiles a causal block never attends and map query heads to their key/value head
//! (grouped-query attention).
//!
//! - Tensor cores, FlashAttention-2 style (`fuser_sdpa_fa_bf16`/`_f16`, [`uses_fast_kernel`],
//!   the default): bf16/f16 inputs, `D` a multiple of 16 and `Dv` of 8, both at most 128,
//!   compute capability 8.0 or newer, `k` and `v` 16-byte aligned. Blocks of 128 queries (8
//!   warps of 16 rows, Q fragments in registers), key/value tiles of 64 rows loaded with 16-byte
//!   `cp.async` into a double buffer (tile `i + 1` in flight while tile `i` is computed, one
//!   barrier per tile), padded shared rows (no bank conflicts), `ldmatrix` for K's fragments and
//!   `ldmatrix.trans` for V's (no transpose pass), `mma.sync.m16n8k16` with f32 accumulation,
//!   online softmax in log2 units with `ex2.approx`, the causal mask evaluated only on tiles that
//!   cross a warp's diagonal, query blocks scheduled longest first (grid `(H, S / 128, B)`).
//!   Shared memory: [`fa_shared_bytes`] (69.6 KB at `D = Dv = 128`, above the
//!   default 48 KB: [`launch`] opts in). `D = Dv = 64` and `D = Dv = 128` have their own
//!   kernels ([`fa_kernel`]: loop bounds known at compile time, so `ldmatrix` and `mma`
//!   interleave); for sm_90, ptxas 13 gives the `D = 128` one 227 registers per thread, no
//!   spills (one block of 8 warps per SM), the `D = 64` one 128 (two blocks per SM, 12 bytes
//!   spilled). **Unmeasured** (written and tested without a GPU, on the host emulation of
//!   `tests/cuda_attention_on_host.rs`): it is meant to close most of the gap to
//!   flash-attention 2 (the first kernel measured ~26-32 TFLOP/s on an H200 on the GPT-3 and
//!   Llama-3-70B layers, torch about 10x faster); it has no wgmma/TMA (the Hopper-only paths
//!   of flash-attention 3), so expect it below FA3.
//! - Tensor cores, the first version (`fuser_sdpa_mma_bf16`/`_f16`, [`uses_tensor_cores`]):
//!   selected with `FUSER_SDPA_KERNEL=v1` (to compare), and where the FA2-style kernel does not
//!   apply but this one does (`k`/`v` only 4-byte aligned). Blocks of 64 queries (4 warps of 16
//!   rows), key tiles of 64; `Q Kᵀ` and `P V` on `mma.sync.m16n8k16`, `P` rounded to the input
//!   type for `P V`; no `ldmatrix`/`cp.async`, V transposed through shared memory with bank
//!   conflicts. Measured on an H200: 3.93 ms (~26 TFLOP/s) for GPT-3 175B's layer attention
//!   (H = 96, S = 2048, D = 128, causal), 8.70 ms (~32 TFLOP/s) for Llama-3-70B's (H = 64,
//!   Hkv = 8, S = 4096).
//! - SIMT (`fuser_sdpa_f32`/`_f64`): everything else (f32, f64, other head dimensions up to
//!   256, older GPUs). 16 query rows per block, 8 lanes per row; f32 accumulation (f64 for
//!   f64). On the order of 10 TFLOP/s on an H200, unmeasured.
//!
//! `FUSER_SDPA_KERNEL` (read once per process): unset or `v2` = the FA2-style kernel where it
//! applies, `v1` = the first tensor-core kernel instead; any other value is an error of the
//! `sdpa` call. `FUSER_SDPA_VERBOSE=1` prints one line per launch on stderr: the kernel, its
//! grid and shared memory, the shapes.

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
/// The FA2-style kernel: queries per block, keys per tile, threads, the largest `D`/`Dv` (as
/// `SDPA_FA_BQ`, `SDPA_FA_BK`, `SDPA_FA_THREADS`, `SDPA_FA_MAX_D` in the source).
const FA_BQ: usize = 128;
const FA_BK: usize = 64;
const FA_THREADS: u32 = 256;
const FA_MAX_D: usize = 128;

/// Which tensor-core kernel `FUSER_SDPA_KERNEL` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SdpaKernel {
    /// `v2` (or unset): the FlashAttention-2-style kernel where it applies.
    V2,
    /// `v1`: the first tensor-core kernel.
    V1,
}

impl SdpaKernel {
    /// The kernel named by a value of `FUSER_SDPA_KERNEL` (`None`: unset).
    pub fn parse(value: Option<&str>) -> Result<SdpaKernel, String> {
        match value {
            None | Some("v2") => Ok(SdpaKernel::V2),
            Some("v1") => Ok(SdpaKernel::V1),
            Some(other) => Err(format!("FUSER_SDPA_KERNEL = '{other}': expected v1 or v2")),
        }
    }

    /// `FUSER_SDPA_KERNEL` of this process (read once).
    pub fn from_env() -> RtResult<SdpaKernel> {
        static KERNEL: std::sync::OnceLock<Result<SdpaKernel, String>> = std::sync::OnceLock::new();
        KERNEL
            .get_or_init(|| SdpaKernel::parse(std::env::var("FUSER_SDPA_KERNEL").ok().as_deref()))
            .clone()
            .map_err(RtError::new)
    }
}

/// Whether the FA2-style kernel runs this call: bf16/f16, `D % 16 == 0`, `Dv % 8 == 0`, both
/// in `1..=128`, compute capability 8.0 or newer, and `k`/`v` 16-byte aligned (their rows are
/// copied in 16-byte pieces).
pub fn uses_fast_kernel(dims: &SdpaDims, dtype: DType, capability: (i32, i32), kv_aligned16: bool) -> bool {
    matches!(dtype, DType::BF16 | DType::F16)
        && dims.d.is_multiple_of(16)
        && dims.dv.is_multiple_of(8)
        && (1..=FA_MAX_D).contains(&dims.d)
        && (1..=FA_MAX_D).contains(&dims.dv)
        && capability >= (8, 0)
        && kv_aligned16
}

/// The FA2-style kernel for `dims` and `dtype` (bf16/f16): the ones compiled for `D = Dv = 64`
/// and `D = Dv = 128` (loop bounds known at compile time), else the general one.
pub fn fa_kernel(dims: &SdpaDims, dtype: DType) -> &'static str {
    let bf = dtype == DType::BF16;
    match (dims.d, dims.dv, bf) {
        (64, 64, true) => "fuser_sdpa_fa_bf16_d64",
        (64, 64, false) => "fuser_sdpa_fa_f16_d64",
        (128, 128, true) => "fuser_sdpa_fa_bf16_d128",
        (128, 128, false) => "fuser_sdpa_fa_f16_d128",
        (_, _, true) => "fuser_sdpa_fa_bf16",
        (_, _, false) => "fuser_sdpa_fa_f16",
    }
}

/// Whether `FUSER_SDPA_VERBOSE=1` asks for one line per launch on stderr (the kernel, its
/// grid and shared memory, the shapes): how to see which kernel a program's `sdpa` runs.
fn verbose() -> bool {
    static VERBOSE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *VERBOSE.get_or_init(|| std::env::var_os("FUSER_SDPA_VERBOSE").is_some_and(|v| v == "1"))
}

/// Shared row stride (elements) of the FA2-style kernel's tiles with rows of `n` elements (as
/// `sdpa_fa_stride` in the source).
fn fa_stride(n: usize) -> usize {
    if n.is_multiple_of(16) { n + 8 } else { n }
}

/// Dynamic shared memory of the FA2-style kernel: two K tiles and two V tiles of 64 padded
/// rows, 2-byte elements.
pub fn fa_shared_bytes(dims: &SdpaDims) -> usize {
    2 * 2 * FA_BK * (fa_stride(dims.d) + fa_stride(dims.dv))
}

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
    let aligned16 = k.addr() % 16 == 0 && v.addr() % 16 == 0;
    let fast =
        SdpaKernel::from_env()? == SdpaKernel::V2 && uses_fast_kernel(&dims, q.dtype, gpu.dev.capability, aligned16);
    let mma = !fast && uses_tensor_cores(&dims, q.dtype, gpu.dev.capability, aligned);
    let (func, acc_bytes) = match q.dtype {
        DType::BF16 | DType::F16 if fast => (fa_kernel(&dims, q.dtype), 2),
        DType::BF16 if mma => ("fuser_sdpa_mma_bf16", 2),
        DType::F16 if mma => ("fuser_sdpa_mma_f16", 2),
        DType::F64 => ("fuser_sdpa_f64", 8),
        _ => ("fuser_sdpa_f32", 4),
    };
    let bk = if fast {
        FA_BK
    } else if mma {
        MMA_BK
    } else {
        block_k(&dims, acc_bytes)
    };
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
    let (bq, threads, shared) = if fast {
        (FA_BQ, FA_THREADS, fa_shared_bytes(&dims))
    } else if mma {
        (MMA_BQ, MMA_THREADS, mma_shared_bytes(&dims))
    } else {
        (BQ, THREADS, bk * (dims.d + dims.dv + BQ) * acc_bytes)
    };
    let blocks = dims.s.div_ceil(bq);
    if dims.h > 65535 || dims.b > 65535 || fast && blocks > 65535 {
        return Err(RtError::new(format!(
            "sdpa on cuda: B = {} and H = {} must be at most 65535, and S = {} at most {}",
            dims.b,
            dims.h,
            dims.s,
            65535 * bq
        )));
    }
    let grid_x = u32::try_from(blocks).map_err(|_| RtError::new("sdpa on cuda: S too large"))?;
    // The FA2-style kernel: heads fastest, query blocks (reversed in the kernel) next.
    let grid = if fast { (dims.h as u32, grid_x, dims.b as u32) } else { (grid_x, dims.h as u32, dims.b as u32) };
    if verbose() {
        eprintln!(
            "sdpa on cuda: {func} grid {grid:?} block {threads} shared {shared} B for B = {} H = {} Hkv = {} S = {} \
             Skv = {} D = {} Dv = {} causal = {}",
            dims.b, dims.h, dims.hkv, dims.s, dims.skv, dims.d, dims.dv, p.causal
        );
    }
    let module = Module::get(gpu, "attention", SOURCE)?;
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
        // Above the default 48 KB (launch opts in), within an sm_80's 163 KB.
        assert_eq!(fa_shared_bytes(&d(128, 128)), 4 * 64 * 136 * 2);
        assert!(fa_shared_bytes(&d(128, 128)) <= 160 * 1024);
        assert_eq!(fa_shared_bytes(&d(64, 24)), 4 * 64 * (72 + 24));
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
    fn the_fast_kernel_takes_what_it_can() {
        let d = |d, dv| SdpaDims { b: 1, h: 1, hkv: 1, s: 1, skv: 1, d, dv };
        assert!(uses_fast_kernel(&d(128, 128), DType::BF16, (9, 0), true));
        assert!(uses_fast_kernel(&d(16, 8), DType::F16, (8, 0), true));
        assert!(!uses_fast_kernel(&d(64, 64), DType::F32, (9, 0), true));
        assert!(!uses_fast_kernel(&d(40, 64), DType::BF16, (9, 0), true));
        assert!(!uses_fast_kernel(&d(64, 12), DType::BF16, (9, 0), true));
        assert!(!uses_fast_kernel(&d(256, 64), DType::BF16, (9, 0), true));
        assert!(!uses_fast_kernel(&d(64, 64), DType::BF16, (7, 5), true));
        assert!(!uses_fast_kernel(&d(64, 64), DType::BF16, (9, 0), false));
    }

    #[test]
    fn head_dimensions_64_and_128_have_their_own_kernels() {
        let d = |d, dv| SdpaDims { b: 1, h: 1, hkv: 1, s: 1, skv: 1, d, dv };
        assert_eq!(fa_kernel(&d(128, 128), DType::BF16), "fuser_sdpa_fa_bf16_d128");
        assert_eq!(fa_kernel(&d(64, 64), DType::F16), "fuser_sdpa_fa_f16_d64");
        assert_eq!(fa_kernel(&d(64, 128), DType::BF16), "fuser_sdpa_fa_bf16");
        assert_eq!(fa_kernel(&d(32, 32), DType::F16), "fuser_sdpa_fa_f16");
        for dims in [d(128, 128), d(64, 64), d(16, 8)] {
            for dtype in [DType::BF16, DType::F16] {
                let name = fa_kernel(&dims, dtype);
                assert!(SOURCE.contains(&format!("SDPA_FA_KERNEL({name}, ")), "{name} is not in the source");
            }
        }
    }

    #[test]
    fn the_kernel_choice_parses() {
        assert_eq!(SdpaKernel::parse(None), Ok(SdpaKernel::V2));
        assert_eq!(SdpaKernel::parse(Some("v2")), Ok(SdpaKernel::V2));
        assert_eq!(SdpaKernel::parse(Some("v1")), Ok(SdpaKernel::V1));
        assert!(SdpaKernel::parse(Some("fast")).unwrap_err().contains("expected v1 or v2"));
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
            ("SDPA_FA_BQ", FA_BQ),
            ("SDPA_FA_BK", FA_BK),
            ("SDPA_FA_THREADS", FA_THREADS as usize),
            ("SDPA_FA_MAX_D", FA_MAX_D),
        ];
        for (name, v) in consts {
            assert!(SOURCE.contains(&format!("#define {name} {v}\n")), "{name} differs from the source");
        }
        assert!(SOURCE.contains("int sdpa_fa_stride(int n) { return n % 16 == 0 ? n + 8 : n; }"), "fa_stride differs");
    }
}
