//! `softmax`, `log_softmax` and `cross_entropy` on the GPU (semantics: `crate::ops::softmax`,
//! `crate::ops::cross_entropy`). One block per slice (a softmax slice over `dims`, or a row of
//! logits), 256 threads: a block-wide maximum (NaN propagating), a block-wide sum of
//! `exp(x - max)`, then the outputs. Warp reductions with shuffles, one shared slot per warp.
//! bf16/f16/f32 accumulate in `float` (bf16/f16 widened exactly, each result rounded once to
//! the element type, to nearest even); f64 in `double`.

use super::module::{Module, launch};
use crate::cuda::api::RawStream;
use crate::cuda::gpu::Gpu;
use crate::cuda::kernels::{MAX_DIMS, dtype_code};
use crate::cuda::memory::CudaBuf;
use crate::error::{RtError, RtResult};
use crate::ops::Params;

/// Threads per block.
const THREADS: u32 = 256;
/// At most this many blocks; each loops over slices.
const MAX_BLOCKS: i64 = 65535;

/// Parameters of `fuser_softmax`: `shape`/`strides` list the kept axes first (`nkept`), then
/// the softmax axes; input and output are dense with the same strides.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SoftmaxParams {
    pub x: u64,
    pub y: u64,
    pub n_out: i64,
    pub n_red: i64,
    pub shape: [i64; MAX_DIMS],
    pub strides: [i64; MAX_DIMS],
    pub nd: i32,
    pub nkept: i32,
    pub dtype: i32,
    pub log: i32,
}

/// Parameters of `fuser_cross_entropy`: dense logits `[n, v]`, labels `[n]` (i64), loss `[n]`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CrossEntropyParams {
    pub logits: u64,
    pub labels: u64,
    pub loss: u64,
    pub n: i64,
    pub v: i64,
    pub ignore_index: i64,
    pub dtype: i32,
    /// The loss's element type (any float).
    pub out_dtype: i32,
}

/// Parameters of `fuser_ce_parts` (`logits [n, v]` whose first column is global column
/// `col0`, labels, maxima, `parts [n, 2]`; one block per row) and `fuser_ce_finish` (`parts`,
/// labels, maxima, `loss [n]`, `vocab`, `ignore_index`; one thread per row).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CePhaseParams {
    pub a: u64,
    pub labels: u64,
    pub max: u64,
    pub out: u64,
    pub n: i64,
    pub v: i64,
    pub col0: i64,
    pub vocab: i64,
    pub ignore_index: i64,
    pub dtype: i32,
    /// The element type of `out` (the parts: at least f32; the loss: any float).
    pub out_dtype: i32,
    /// The element type of `max` (the logits').
    pub max_dtype: i32,
    pub pad: i32,
}

/// The softmax parameters of a dense tensor of `shape` over `dims`.
pub fn softmax_params(shape: &[usize], dims: &[usize]) -> RtResult<SoftmaxParams> {
    if shape.len() > MAX_DIMS {
        return Err(RtError::new(format!("softmax: at most {MAX_DIMS} dimensions, got {}", shape.len())));
    }
    let mut dense = vec![1i64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        dense[d] = dense[d + 1] * shape[d + 1] as i64;
    }
    let kept: Vec<usize> = (0..shape.len()).filter(|d| !dims.contains(d)).collect();
    let mut p = SoftmaxParams {
        n_out: kept.iter().map(|&d| shape[d] as i64).product(),
        n_red: dims.iter().map(|&d| shape[d] as i64).product(),
        nd: shape.len() as i32,
        nkept: kept.len() as i32,
        ..SoftmaxParams::default()
    };
    for (i, &d) in kept.iter().chain(dims).enumerate() {
        p.shape[i] = shape[d] as i64;
        p.strides[i] = dense[d];
    }
    Ok(p)
}

/// `softmax` (`log = false`) or `log_softmax` of dense `inputs[0]` into dense `outputs[0]`.
pub fn run_softmax(
    gpu: &Gpu,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    stream: RawStream,
    log: bool,
) -> RtResult<()> {
    let (x, y) = match (inputs, outputs) {
        ([x], [y]) => (x, y),
        _ => return Err(RtError::new("softmax: expects one input and one output")),
    };
    let dims: Vec<usize> = params.ints("dims")?.into_iter().map(|d| d.max(0) as usize).collect();
    let mut p = softmax_params(&x.shape, &dims)?;
    if p.n_out == 0 || p.n_red == 0 {
        return Ok(());
    }
    p.x = x.addr();
    p.y = y.addr();
    p.dtype = dtype_code(x.dtype);
    p.log = log as i32;
    let f = Module::get(gpu, "softmax", SOURCE)?.func("fuser_softmax")?;
    launch(f, (p.n_out.min(MAX_BLOCKS) as u32, 1, 1), (THREADS, 1, 1), 0, &mut p, stream)
}

/// `cross_entropy` of dense logits and labels into the dense loss.
pub fn run_cross_entropy(
    gpu: &Gpu,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    stream: RawStream,
) -> RtResult<()> {
    let (logits, labels, loss) = match (inputs, outputs) {
        ([l, t], [o]) => (l, t, o),
        _ => return Err(RtError::new("cross_entropy: expects logits, labels and one output")),
    };
    let [n, v] = logits.shape[..] else { return Err(RtError::new("cross_entropy: logits must be [N, V]")) };
    let ignore_index = crate::ops::cross_entropy::ignore_index(params).map_err(RtError::new)?;
    let mut p = CrossEntropyParams {
        logits: logits.addr(),
        labels: labels.addr(),
        loss: loss.addr(),
        n: n as i64,
        v: v as i64,
        ignore_index,
        dtype: dtype_code(logits.dtype),
        out_dtype: dtype_code(loss.dtype),
    };
    if n == 0 {
        return Ok(());
    }
    let f = Module::get(gpu, "softmax", SOURCE)?.func("fuser_cross_entropy")?;
    launch(f, ((n as i64).min(MAX_BLOCKS) as u32, 1, 1), (THREADS, 1, 1), 0, &mut p, stream)
}

/// `cross_entropy_parts` (vocab-parallel phase 2): `origin[1]` is the global column of the
/// local logits.
pub fn run_ce_parts(
    gpu: &Gpu,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    let ([logits, labels, max], [parts]) = (inputs, outputs) else {
        return Err(RtError::new("cross_entropy_parts: expects logits, labels, maxima and one output"));
    };
    let [n, v] = logits.shape[..] else { return Err(RtError::new("cross_entropy_parts: logits must be [N, V]")) };
    let mut p = CePhaseParams {
        a: logits.addr(),
        labels: labels.addr(),
        max: max.addr(),
        out: parts.addr(),
        n: n as i64,
        v: v as i64,
        col0: origin.get(1).copied().unwrap_or(0) as i64,
        dtype: dtype_code(logits.dtype),
        out_dtype: dtype_code(parts.dtype),
        max_dtype: dtype_code(max.dtype),
        ..CePhaseParams::default()
    };
    if n == 0 {
        return Ok(());
    }
    let f = Module::get(gpu, "softmax", SOURCE)?.func("fuser_ce_parts")?;
    launch(f, ((n as i64).min(MAX_BLOCKS) as u32, 1, 1), (THREADS, 1, 1), 0, &mut p, stream)
}

/// `cross_entropy_finish` (vocab-parallel phase 3).
pub fn run_ce_finish(
    gpu: &Gpu,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    stream: RawStream,
) -> RtResult<()> {
    let ([parts, labels, max], [loss]) = (inputs, outputs) else {
        return Err(RtError::new("cross_entropy_finish: expects parts, labels, maxima and one output"));
    };
    let mut p = CePhaseParams {
        a: parts.addr(),
        labels: labels.addr(),
        max: max.addr(),
        out: loss.addr(),
        n: labels.numel() as i64,
        vocab: params.int("vocab")?,
        ignore_index: crate::ops::cross_entropy::ignore_index(params).map_err(RtError::new)?,
        dtype: dtype_code(parts.dtype),
        out_dtype: dtype_code(loss.dtype),
        max_dtype: dtype_code(max.dtype),
        ..CePhaseParams::default()
    };
    phase(gpu, "fuser_ce_finish", &mut p, stream)
}

fn phase(gpu: &Gpu, name: &str, p: &mut CePhaseParams, stream: RawStream) -> RtResult<()> {
    if p.n == 0 {
        return Ok(());
    }
    let f = Module::get(gpu, "softmax", SOURCE)?.func(name)?;
    let blocks = (p.n as u64).div_ceil(THREADS as u64).min(MAX_BLOCKS as u64) as u32;
    launch(f, (blocks, 1, 1), (THREADS, 1, 1), 0, p, stream)
}

/// The CUDA C source (dtype codes as `cuda::kernels::dtype_code`: 0 bf16, 1 f16, 2 f32, 3 f64).
pub const SOURCE: &str = r#"
#define MAX_DIMS 8
struct SoftmaxParams { unsigned long long x; unsigned long long y; long long n_out; long long n_red; long long shape[MAX_DIMS]; long long strides[MAX_DIMS]; int nd; int nkept; int dtype; int log; };
struct CePhaseParams { unsigned long long a; unsigned long long labels; unsigned long long max; unsigned long long out; long long n; long long v; long long col0; long long vocab; long long ignore_index; int dtype; int out_dtype; int max_dtype; int pad; };
struct CrossEntropyParams { unsigned long long logits; unsigned long long labels; unsigned long long loss; long long n; long long v; long long ignore_index; int dtype; int out_dtype; };

__device__ float sm_bf16_to_float(unsigned short h) { return __uint_as_float(((unsigned)h) << 16); }
__device__ unsigned short sm_float_to_bf16(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
__device__ float sm_f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ unsigned short sm_float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }

template <typename T> __device__ T sm_load(unsigned long long p, int t, long long i) {
  switch (t) {
    case 0: return (T)sm_bf16_to_float(((const unsigned short*)p)[i]);
    case 1: return (T)sm_f16_to_float(((const unsigned short*)p)[i]);
    case 2: return (T)((const float*)p)[i];
    default: return (T)((const double*)p)[i];
  }
}
template <typename T> __device__ void sm_store(unsigned long long p, int t, long long i, T v) {
  switch (t) {
    case 0: ((unsigned short*)p)[i] = sm_float_to_bf16((float)v); break;
    case 1: ((unsigned short*)p)[i] = sm_float_to_f16((float)v); break;
    case 2: ((float*)p)[i] = (float)v; break;
    default: ((double*)p)[i] = (double)v; break;
  }
}
__device__ float sm_exp(float v) { return expf(v); }
__device__ double sm_exp(double v) { return exp(v); }
__device__ float sm_log(float v) { return logf(v); }
__device__ double sm_log(double v) { return log(v); }
__device__ float sm_inf(float) { return __uint_as_float(0x7f800000u); }
__device__ double sm_inf(double) { return __longlong_as_double(0x7ff0000000000000LL); }
__device__ float sm_nan(float) { return __uint_as_float(0x7fc00000u); }
__device__ double sm_nan(double) { return __longlong_as_double(0x7ff8000000000000LL); }
// NaN-propagating maximum.
template <typename T> __device__ T sm_max(T a, T b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); }

// The value of lane `lane ^ off` (`identity` is what an absent lane would contribute; the
// host test of this source runs one thread and returns it).
template <typename T> __device__ T sm_shfl(T v, int off, T identity) {
  (void)identity;
  return __shfl_xor_sync(0xffffffffu, v, off);
}
// Block-wide reduction (max when `is_max`, else sum) of one value per thread; every thread
// gets the result. `slots` holds one value per warp.
template <typename T> __device__ T block_reduce(T v, bool is_max, T* slots) {
  for (int off = 16; off > 0; off >>= 1) {
    T o = sm_shfl(v, off, is_max ? -sm_inf((T)0) : (T)0);
    v = is_max ? sm_max(v, o) : v + o;
  }
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32, nwarps = (blockDim.x + 31) / 32;
  __syncthreads();
  if (lane == 0) slots[warp] = v;
  __syncthreads();
  if (warp == 0) {
    T w = lane < nwarps ? slots[lane] : (is_max ? slots[0] : (T)0);
    for (int off = 16; off > 0; off >>= 1) {
      T o = sm_shfl(w, off, is_max ? -sm_inf((T)0) : (T)0);
      w = is_max ? sm_max(w, o) : w + o;
    }
    if (lane == 0) slots[0] = w;
  }
  __syncthreads();
  return slots[0];
}

template <typename T> __device__ void softmax_slices(const SoftmaxParams& p, T* slots) {
  for (long long s = blockIdx.x; s < p.n_out; s += gridDim.x) {
    long long rest = s, base = 0;
    for (int d = p.nkept - 1; d >= 0; --d) { base += (rest % p.shape[d]) * p.strides[d]; rest /= p.shape[d]; }
    T m = -sm_inf((T)0);
    for (long long r = threadIdx.x; r < p.n_red; r += blockDim.x) {
      long long rr = r, off = base;
      for (int d = p.nd - 1; d >= p.nkept; --d) { off += (rr % p.shape[d]) * p.strides[d]; rr /= p.shape[d]; }
      m = sm_max(m, sm_load<T>(p.x, p.dtype, off));
    }
    m = block_reduce(m, true, slots);
    T sum = 0;
    for (long long r = threadIdx.x; r < p.n_red; r += blockDim.x) {
      long long rr = r, off = base;
      for (int d = p.nd - 1; d >= p.nkept; --d) { off += (rr % p.shape[d]) * p.strides[d]; rr /= p.shape[d]; }
      sum += sm_exp(sm_load<T>(p.x, p.dtype, off) - m);
    }
    sum = block_reduce(sum, false, slots);
    T lse = sm_log(sum);
    for (long long r = threadIdx.x; r < p.n_red; r += blockDim.x) {
      long long rr = r, off = base;
      for (int d = p.nd - 1; d >= p.nkept; --d) { off += (rr % p.shape[d]) * p.strides[d]; rr /= p.shape[d]; }
      T x = sm_load<T>(p.x, p.dtype, off) - m;
      sm_store<T>(p.y, p.dtype, off, p.log ? x - lse : sm_exp(x) / sum);
    }
  }
}

extern "C" __global__ void fuser_softmax(SoftmaxParams p) {
  __shared__ double slots[32];
  if (p.dtype == 3) softmax_slices<double>(p, slots);
  else softmax_slices<float>(p, (float*)slots);
}

template <typename T> __device__ void cross_entropy_rows(const CrossEntropyParams& p, T* slots) {
  for (long long row = blockIdx.x; row < p.n; row += gridDim.x) {
    long long label = ((const long long*)p.labels)[row];
    if (label == p.ignore_index || label < 0 || label >= p.v) {
      if (threadIdx.x == 0) sm_store<T>(p.loss, p.out_dtype, row, label == p.ignore_index ? (T)0 : sm_nan((T)0));
      continue;
    }
    long long base = row * p.v;
    T m = -sm_inf((T)0);
    for (long long j = threadIdx.x; j < p.v; j += blockDim.x) m = sm_max(m, sm_load<T>(p.logits, p.dtype, base + j));
    m = block_reduce(m, true, slots);
    T sum = 0;
    for (long long j = threadIdx.x; j < p.v; j += blockDim.x) sum += sm_exp(sm_load<T>(p.logits, p.dtype, base + j) - m);
    sum = block_reduce(sum, false, slots);
    // log(sum) - (x[label] - m): both terms small, so large logits lose no precision.
    if (threadIdx.x == 0) sm_store<T>(p.loss, p.out_dtype, row, sm_log(sum) - (sm_load<T>(p.logits, p.dtype, base + label) - m));
  }
}

extern "C" __global__ void fuser_cross_entropy(CrossEntropyParams p) {
  __shared__ double slots[32];
  if (p.dtype == 3) cross_entropy_rows<double>(p, slots);
  else cross_entropy_rows<float>(p, (float*)slots);
}

// Vocab-parallel phase 2, one block per row (the threads stride over the row, coalesced, and
// sum with block_reduce): [sum_j exp(x_j - max), x[label] or 0].
template <typename T> __device__ void ce_parts_rows(const CePhaseParams& p, T* slots) {
  for (long long row = blockIdx.x; row < p.n; row += gridDim.x) {
    T m = sm_load<T>(p.max, p.max_dtype, row), sum = 0;
    for (long long j = threadIdx.x; j < p.v; j += blockDim.x) sum += sm_exp(sm_load<T>(p.a, p.dtype, row * p.v + j) - m);
    sum = block_reduce(sum, false, slots);
    if (threadIdx.x == 0) {
      long long j = ((const long long*)p.labels)[row] - p.col0;
      sm_store<T>(p.out, p.out_dtype, 2 * row, sum);
      sm_store<T>(p.out, p.out_dtype, 2 * row + 1, j >= 0 && j < p.v ? sm_load<T>(p.a, p.dtype, row * p.v + j) : (T)0);
    }
  }
}
extern "C" __global__ void fuser_ce_parts(CePhaseParams p) {
  __shared__ double slots[32];
  if (p.dtype == 3) ce_parts_rows<double>(p, slots);
  else ce_parts_rows<float>(p, (float*)slots);
}

// Vocab-parallel phase 3: ln(parts0) - (parts1 - max); ignore_index 0, out of range NaN.
template <typename T> __device__ void ce_finish_rows(const CePhaseParams& p) {
  long long step = (long long)blockDim.x * gridDim.x;
  for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; row < p.n; row += step) {
    long long label = ((const long long*)p.labels)[row];
    T loss;
    if (label == p.ignore_index) loss = (T)0;
    else if (label < 0 || label >= p.vocab) loss = sm_nan((T)0);
    else loss = sm_log(sm_load<T>(p.a, p.dtype, 2 * row)) - (sm_load<T>(p.a, p.dtype, 2 * row + 1) - sm_load<T>(p.max, p.max_dtype, row));
    sm_store<T>(p.out, p.out_dtype, row, loss);
  }
}
extern "C" __global__ void fuser_ce_finish(CePhaseParams p) {
  if (p.dtype == 3) ce_finish_rows<double>(p);
  else ce_finish_rows<float>(p);
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_and_slice_order() {
        assert_eq!(std::mem::size_of::<SoftmaxParams>(), 8 * 4 + 16 * MAX_DIMS + 16);
        assert_eq!(std::mem::size_of::<CrossEntropyParams>(), 8 * 6 + 8);
        assert_eq!(std::mem::size_of::<CePhaseParams>(), 8 * 9 + 16);
        // [2, 3, 4] over axes 0 and 2: the kept axis 1 first (stride 4), then 0 (12), 2 (1).
        let p = softmax_params(&[2, 3, 4], &[0, 2]).unwrap();
        assert_eq!((p.n_out, p.n_red, p.nd, p.nkept), (3, 8, 3, 1));
        assert_eq!(&p.shape[..3], &[3, 2, 4]);
        assert_eq!(&p.strides[..3], &[4, 12, 1]);
    }
}
