//! The cuda kernels of `fusion.layer_norm` and `fusion.rms_norm` (semantics: `ops/norm.rs`).
//!
//! One block per row (a grid-stride loop over rows), [`THREADS`] threads striding over the
//! row's `cols` elements (dense, row-major: the runtime hands kernels dense buffers). The
//! statistics accumulate in `float` for bf16/f16/f32 inputs and in `double` for f64 (torch's
//! `opmath`), reduced across the block through shared memory (a tree, so the block size is a
//! power of two). The variance is the corrected two-pass one of the reference: a pass for the
//! mean, a pass for `Σd` and `Σd²` of the deviations `d = x - mean` (the row is re-read from
//! L1/L2, not from registers, so any row length works), then `var = (Σd² - (Σd)²/n) / n`. The
//! third pass writes `y = (x - mean) · rstd · w + b` rounded once to the element type
//! (bf16/f16 to nearest even from the `float` value). rms_norm skips the mean (it is 0), so
//! `Σd²` is `Σx²`. Thread 0 writes the row's `mean` / `rstd` (`f32`, or `f64` for f64 inputs)
//! when those outputs exist.
//!
//! Vectorized loads: for bf16/f16/f32 rows whose length is a multiple of 4, with every buffer
//! aligned to 4 elements ([`vectorizable`]), a thread reads and writes 4 elements at a time
//! (one 16-byte access of 4 floats, or one 8-byte access of 4 halves) and the block has a thread per 4 elements; otherwise
//! one element at a time. A row is read three times (twice for rms_norm), from cache after the
//! first pass.

use super::module::{Module, launch};
use crate::cuda::api::RawStream;
use crate::cuda::gpu::Gpu;
use crate::cuda::kernels::dtype_code;
use crate::cuda::memory::CudaBuf;
use crate::error::{RtError, RtResult};
use crate::ops::Params;
use crate::ops::norm::NormSpec;

/// Threads per block (a power of two: the shared-memory reduction halves it).
pub const THREADS: u32 = 256;

/// The most blocks a launch uses (rows beyond it are taken by the grid-stride loop).
pub const MAX_BLOCKS: u32 = 65535;

/// Parameters of `fuser_norm_f32` / `fuser_norm_f64`: device addresses (0 when the operand or
/// output is absent), the row count and length, `eps`, the element type code of `x`, `w`, `b`
/// and `y` (`cuda::kernels::dtype_code`: 0 bf16, 1 f16, 2 f32, 3 f64) and whether it is
/// rms_norm. 8-byte fields first, field for field as the source's `NormParams`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct NormParams {
    pub x: u64,
    pub w: u64,
    pub b: u64,
    pub y: u64,
    pub mean: u64,
    pub rstd: u64,
    pub rows: i64,
    pub cols: i64,
    pub eps: f64,
    pub dtype: i32,
    pub rms: i32,
    /// 1: the 4-elements-at-a-time path ([`vectorizable`]).
    pub vec: i32,
    pub pad: i32,
}

/// Whether a norm over rows of `cols` elements of type `dtype` may load and store 4 elements
/// at a time: not f64, `cols` a multiple of 4 and every address (0: absent) aligned to 4
/// elements (rows then start aligned too).
pub fn vectorizable(dtype: crate::dtype::DType, cols: usize, addrs: &[u64]) -> bool {
    let bytes = 4 * dtype.size() as u64;
    dtype != crate::dtype::DType::F64 && cols.is_multiple_of(4) && addrs.iter().all(|&a| a.is_multiple_of(bytes))
}

/// Threads for rows of `cols` elements: [`THREADS`], or the smallest power of two (at least a
/// warp) covering a short row.
pub fn block_threads(cols: usize) -> u32 {
    (cols.max(1).next_power_of_two() as u32).clamp(32, THREADS)
}

/// The launch of one norm (`rms`: rms_norm, else layer_norm) on dense buffers: the parameters
/// decoded as the reference does ([`NormSpec`]), one block per row up to [`MAX_BLOCKS`]. The
/// `CudaImpl`s calling it are in `cuda/ops/mod.rs`, above this file.
pub fn run_norm(
    gpu: &Gpu,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    stream: RawStream,
    rms: bool,
) -> RtResult<()> {
    let types = |bufs: &[CudaBuf]| bufs.iter().map(|b| (b.dtype, b.shape.clone())).collect::<Vec<_>>();
    let spec = NormSpec::of(rms, params, &types(inputs), &types(outputs)).map_err(RtError::new)?;
    if spec.rows == 0 || spec.cols == 0 {
        return Ok(());
    }
    let addr = |present: bool, i: usize| if present { inputs[i].addr() } else { 0 };
    let out = |i: usize| outputs.get(i).map_or(0, |b| b.addr());
    let mut p = NormParams {
        x: inputs[0].addr(),
        w: addr(spec.has_weight, 1),
        b: addr(spec.has_bias, 1 + spec.has_weight as usize),
        y: out(0),
        mean: if rms { 0 } else { out(1) },
        rstd: if rms { out(1) } else { out(2) },
        rows: spec.rows as i64,
        cols: spec.cols as i64,
        eps: spec.eps,
        dtype: dtype_code(spec.dtype),
        rms: rms as i32,
        vec: 0,
        pad: 0,
    };
    let vec = vectorizable(spec.dtype, spec.cols, &[p.x, p.w, p.b, p.y]);
    p.vec = vec as i32;
    let module = Module::get(gpu, "norm", SOURCE)?;
    let (func, acc_bytes) = if spec.dtype == crate::dtype::DType::F64 {
        (module.func("fuser_norm_f64")?, 8)
    } else {
        (module.func("fuser_norm_f32")?, 4)
    };
    let threads = block_threads(if vec { spec.cols / 4 } else { spec.cols });
    let blocks = (spec.rows.min(MAX_BLOCKS as usize)) as u32;
    launch(func, (blocks, 1, 1), (threads, 1, 1), threads * acc_bytes, &mut p, stream)
}

/// The CUDA C source of the norm kernels.
pub const SOURCE: &str = r#"
struct NormParams {
  unsigned long long x, w, b, y, mean, rstd;
  long long rows, cols;
  double eps;
  int dtype, rms, vec, pad;
};

__device__ float bf16_to_float(unsigned short h) { return __uint_as_float(((unsigned)h) << 16); }
__device__ unsigned short float_to_bf16(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
__device__ float f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ unsigned short float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }

// Element i of a bf16/f16/f32 (float compute) or f64 (double compute) array.
template <typename Acc> __device__ Acc norm_load(int t, unsigned long long p, long long i);
template <> __device__ float norm_load<float>(int t, unsigned long long p, long long i) {
  switch (t) {
    case 0: return bf16_to_float(((const unsigned short*)p)[i]);
    case 1: return f16_to_float(((const unsigned short*)p)[i]);
    default: return ((const float*)p)[i];
  }
}
template <> __device__ double norm_load<double>(int t, unsigned long long p, long long i) {
  return ((const double*)p)[i];
}
// Stores v rounded once to the element type t.
__device__ void norm_store(int t, unsigned long long p, long long i, float v) {
  switch (t) {
    case 0: ((unsigned short*)p)[i] = float_to_bf16(v); break;
    case 1: ((unsigned short*)p)[i] = float_to_f16(v); break;
    default: ((float*)p)[i] = v; break;
  }
}
__device__ void norm_store(int t, unsigned long long p, long long i, double v) { ((double*)p)[i] = v; }
__device__ float norm_sqrt(float v) { return sqrtf(v); }
__device__ double norm_sqrt(double v) { return sqrt(v); }

extern __shared__ __align__(8) unsigned char norm_smem[];

// The sum of every thread's v over the block (blockDim.x a power of two); all threads get it.
template <typename Acc> __device__ Acc norm_block_sum(Acc v) {
  Acc* sh = (Acc*)norm_smem;
  sh[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
  Acc r = sh[0];
  __syncthreads();
  return r;
}

template <typename Acc> __device__ void norm_rows(const NormParams& p) {
  const Acc n = (Acc)p.cols;
  const Acc eps = (Acc)p.eps;
  for (long long r = blockIdx.x; r < p.rows; r += gridDim.x) {
    const long long base = r * p.cols;
    Acc mean = 0;
    if (!p.rms) {
      Acc s = 0;
      for (long long j = threadIdx.x; j < p.cols; j += blockDim.x) s += norm_load<Acc>(p.dtype, p.x, base + j);
      mean = norm_block_sum<Acc>(s) / n;
    }
    Acc sd = 0, sd2 = 0;
    for (long long j = threadIdx.x; j < p.cols; j += blockDim.x) {
      Acc d = norm_load<Acc>(p.dtype, p.x, base + j) - mean;
      sd += d;
      sd2 += d * d;
    }
    sd2 = norm_block_sum<Acc>(sd2);
    Acc var;
    if (p.rms) {
      var = sd2 / n;
    } else {
      sd = norm_block_sum<Acc>(sd);
      var = (sd2 - sd * sd / n) / n;
    }
    if (var < 0) var = 0;  // rounding on a constant row; NaN stays NaN
    const Acc rstd = (Acc)1 / norm_sqrt(var + eps);
    for (long long j = threadIdx.x; j < p.cols; j += blockDim.x) {
      Acc v = (norm_load<Acc>(p.dtype, p.x, base + j) - mean) * rstd;
      if (p.w) v *= norm_load<Acc>(p.dtype, p.w, j);
      if (p.b) v += norm_load<Acc>(p.dtype, p.b, j);
      norm_store(p.dtype, p.y, base + j, v);
    }
    if (threadIdx.x == 0) {
      if (p.mean) norm_store(sizeof(Acc) == 8 ? 3 : 2, p.mean, r, mean);
      if (p.rstd) norm_store(sizeof(Acc) == 8 ? 3 : 2, p.rstd, r, rstd);
    }
  }
}

// 4 floats or 4 halves in one aligned access (own types: no dependence on CUDA's vector headers).
struct __align__(16) norm_f4 { float x, y, z, w; };
struct __align__(8) norm_u2 { unsigned x, y; };

// Elements [i, i + 4) of a bf16/f16/f32 array (i a multiple of 4, the array 4-element aligned).
__device__ void norm_load4(int t, unsigned long long p, long long i, float v[4]) {
  if (t == 2) {
    norm_f4 q = ((const norm_f4*)p)[i >> 2];
    v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
  } else {
    norm_u2 q = ((const norm_u2*)p)[i >> 2];
    unsigned short h[4] = {(unsigned short)(q.x & 0xffffu), (unsigned short)(q.x >> 16),
                           (unsigned short)(q.y & 0xffffu), (unsigned short)(q.y >> 16)};
    for (int k = 0; k < 4; ++k) v[k] = t == 0 ? bf16_to_float(h[k]) : f16_to_float(h[k]);
  }
}
__device__ void norm_store4(int t, unsigned long long p, long long i, const float v[4]) {
  if (t == 2) {
    norm_f4 q;
    q.x = v[0]; q.y = v[1]; q.z = v[2]; q.w = v[3];
    ((norm_f4*)p)[i >> 2] = q;
  } else {
    unsigned short h[4];
    for (int k = 0; k < 4; ++k) h[k] = t == 0 ? float_to_bf16(v[k]) : float_to_f16(v[k]);
    norm_u2 q;
    q.x = (unsigned)h[0] | ((unsigned)h[1] << 16);
    q.y = (unsigned)h[2] | ((unsigned)h[3] << 16);
    ((norm_u2*)p)[i >> 2] = q;
  }
}

// norm_rows<float> 4 elements at a time (p.vec: cols % 4 == 0, every array 4-element aligned).
__device__ void norm_rows_vec(const NormParams& p) {
  const float n = (float)p.cols;
  const float eps = (float)p.eps;
  const long long quads = p.cols / 4;
  float v[4], w[4], b[4];
  for (long long r = blockIdx.x; r < p.rows; r += gridDim.x) {
    const long long base = r * p.cols;
    float mean = 0;
    if (!p.rms) {
      float s = 0;
      for (long long q = threadIdx.x; q < quads; q += blockDim.x) {
        norm_load4(p.dtype, p.x, base + 4 * q, v);
        s += (v[0] + v[1]) + (v[2] + v[3]);
      }
      mean = norm_block_sum<float>(s) / n;
    }
    float sd = 0, sd2 = 0;
    for (long long q = threadIdx.x; q < quads; q += blockDim.x) {
      norm_load4(p.dtype, p.x, base + 4 * q, v);
      for (int k = 0; k < 4; ++k) {
        float d = v[k] - mean;
        sd += d;
        sd2 += d * d;
      }
    }
    sd2 = norm_block_sum<float>(sd2);
    float var;
    if (p.rms) {
      var = sd2 / n;
    } else {
      sd = norm_block_sum<float>(sd);
      var = (sd2 - sd * sd / n) / n;
    }
    if (var < 0) var = 0;
    const float rstd = 1.0f / sqrtf(var + eps);
    for (long long q = threadIdx.x; q < quads; q += blockDim.x) {
      norm_load4(p.dtype, p.x, base + 4 * q, v);
      if (p.w) norm_load4(p.dtype, p.w, 4 * q, w);
      if (p.b) norm_load4(p.dtype, p.b, 4 * q, b);
      for (int k = 0; k < 4; ++k) {
        v[k] = (v[k] - mean) * rstd;
        if (p.w) v[k] *= w[k];
        if (p.b) v[k] += b[k];
      }
      norm_store4(p.dtype, p.y, base + 4 * q, v);
    }
    if (threadIdx.x == 0) {
      if (p.mean) ((float*)p.mean)[r] = mean;
      if (p.rstd) ((float*)p.rstd)[r] = rstd;
    }
  }
}

extern "C" __global__ void fuser_norm_f32(NormParams p) {
  if (p.vec) norm_rows_vec(p);
  else norm_rows<float>(p);
}
extern "C" __global__ void fuser_norm_f64(NormParams p) { norm_rows<double>(p); }
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_layout_matches_the_source() {
        assert_eq!(std::mem::size_of::<NormParams>(), 6 * 8 + 2 * 8 + 8 + 4 * 4);
    }

    #[test]
    fn vector_path_needs_f32_or_halves_whole_quads_and_alignment() {
        use crate::dtype::DType;
        assert!(vectorizable(DType::F32, 64, &[256, 0, 0, 512]));
        assert!(vectorizable(DType::BF16, 8, &[8, 16, 24, 32]));
        assert!(!vectorizable(DType::BF16, 8, &[8, 18, 24, 32]), "weight not 8-byte aligned");
        assert!(!vectorizable(DType::F32, 66, &[256, 0, 0, 512]), "rows of 66");
        assert!(!vectorizable(DType::F32, 64, &[260, 0, 0, 512]), "x at a 4-byte offset");
        assert!(!vectorizable(DType::F64, 64, &[256, 0, 0, 512]));
    }

    #[test]
    fn block_size_is_a_power_of_two_at_most_threads() {
        assert_eq!(block_threads(0), 32);
        assert_eq!(block_threads(33), 64);
        assert_eq!(block_threads(4096), THREADS);
        for c in [1, 7, 100, 257, 1 << 20] {
            assert!(block_threads(c).is_power_of_two());
        }
    }
}
