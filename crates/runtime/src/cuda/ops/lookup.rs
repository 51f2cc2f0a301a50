//! `embedding` and `dropout` on the GPU (semantics: `crate::ops::lookup`, `crate::ops::philox`).
//!
//! - `fuser_embedding`: one thread per output element copies the element of its id's row, or
//!   writes zero bits (`+0`, integer `0`) when the row is not held (an id outside the table's
//!   rows `[first_row, first_row + rows)`): values are copied bit for bit, any element type.
//! - `fuser_dropout`: each thread takes 4 consecutive local elements per step of a grid-stride
//!   loop, computes each one's global row-major index `g` from the piece's origin and draws
//!   word `g mod 4` of Philox4x32-10 at `(seed, offset + floor(g / 4))` (the same rounds as
//!   `ops::philox`, written out below); one call serves every element of the same aligned
//!   group of 4 (a new call only when the group changes: one call per 4 elements when the
//!   piece's rows are aligned, at most 2 otherwise). It keeps the element when
//!   `draw / 2^32 >= p` and stores `x * scale` (in `double`, rounded once to the element type
//!   as `kernels.rs` does) or `+0`. The masks are bit-identical to the reference's, whatever
//!   the sharding.
//!
//! The parameter structs match the source's field for field (`#[repr(C)]`, 8-byte fields
//! first).

use super::module::{Module, launch};
use crate::cuda::api::RawStream;
use crate::cuda::gpu::Gpu;
use crate::cuda::kernels::{MAX_DIMS, dtype_code, launch_dims};
use crate::cuda::memory::CudaBuf;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::ops::Params;
use crate::ops::lookup::{dropout_scale, row_major_strides};

/// Parameters of `fuser_embedding` (device addresses and extents).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct EmbeddingParams {
    pub table: u64,
    pub ids: u64,
    pub out: u64,
    pub rows: i64,
    pub width: i64,
    pub n_ids: i64,
    pub first_row: i64,
    pub elem_bytes: i32,
    pub id_bytes: i32,
}

/// Parameters of `fuser_dropout`: the local piece's `shape`, its `origin` in the global
/// tensor and the global tensor's row-major strides `gstrides`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DropoutParams {
    pub x: u64,
    pub out: u64,
    pub seed: u64,
    pub offset: u64,
    pub n: i64,
    pub shape: [i64; MAX_DIMS],
    pub origin: [i64; MAX_DIMS],
    pub gstrides: [i64; MAX_DIMS],
    pub p: f64,
    pub scale: f64,
    pub nd: i32,
    pub dtype: i32,
}

const KEY: &str = "lookup";

/// Launches `fuser_embedding` on dense `[table, ids]` into the dense output; `origin[0]` is the
/// table's first global row.
pub fn run_embedding(
    gpu: &Gpu,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    let (table, ids, out) = (&inputs[0], &inputs[1], &outputs[0]);
    let mut p = EmbeddingParams {
        table: table.addr(),
        ids: ids.addr(),
        out: out.addr(),
        rows: table.shape[0] as i64,
        width: table.shape[1] as i64,
        n_ids: ids.numel() as i64,
        first_row: origin.first().copied().unwrap_or(0) as i64,
        elem_bytes: table.dtype.size() as i32,
        id_bytes: ids.dtype.size() as i32,
    };
    let n = p.n_ids * p.width;
    if n == 0 {
        return Ok(());
    }
    let f = Module::get(gpu, KEY, SOURCE)?.func("fuser_embedding")?;
    let (blocks, threads) = launch_dims(n);
    launch(f, (blocks, 1, 1), (threads, 1, 1), 0, &mut p, stream)
}

/// The dropout parameters of a dense piece of `shape` at `origin` of a `global` tensor.
pub fn dropout_params(
    shape: &[usize],
    origin: &[usize],
    global: &[usize],
    p: f64,
    dtype: DType,
) -> RtResult<DropoutParams> {
    let nd = shape.len();
    if nd > MAX_DIMS || origin.len() != nd || global.len() != nd {
        return Err(RtError::new(format!(
            "dropout: a piece of rank {nd} (at most {MAX_DIMS}) needs an origin and a global shape of that rank"
        )));
    }
    let mut params = DropoutParams {
        n: shape.iter().product::<usize>() as i64,
        p,
        scale: dropout_scale(p),
        nd: nd as i32,
        dtype: dtype_code(dtype),
        ..DropoutParams::default()
    };
    for (a, s) in row_major_strides(global).into_iter().enumerate() {
        params.shape[a] = shape[a] as i64;
        params.origin[a] = origin[a] as i64;
        params.gstrides[a] = s as i64;
    }
    Ok(params)
}

/// Launches `fuser_dropout` on dense `[x, seed, offset]` into the dense output, a piece at
/// `origin` of a tensor of `global_shape`.
pub fn run_dropout(
    gpu: &Gpu,
    params: &Params,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    global_shape: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    let (x, out) = (&inputs[0], &outputs[0]);
    let p = params.float("p")?;
    let mut kp = dropout_params(&x.shape, origin, global_shape, p, x.dtype)?;
    kp.x = x.addr();
    kp.out = out.addr();
    kp.seed = inputs[1].addr();
    kp.offset = inputs[2].addr();
    if kp.n == 0 {
        return Ok(());
    }
    let f = Module::get(gpu, KEY, SOURCE)?.func("fuser_dropout")?;
    // Four elements per thread and step.
    let (blocks, threads) = launch_dims((kp.n + 3) / 4);
    launch(f, (blocks, 1, 1), (threads, 1, 1), 0, &mut kp, stream)
}

/// The device functions of Philox4x32-10 (`philox4x32_10`, `philox_words`, `philox_word`), shared by the
/// dropout kernel below and the fused kernels (`cuda/fused/codegen.rs`).
macro_rules! philox_source {
    () => {
        r#"// Philox4x32-10 (Random123): ctr and key in place, ctr holds the output.
__device__ void philox4x32_10(unsigned ctr[4], unsigned key[2]) {
  unsigned k0 = key[0], k1 = key[1];
  for (int r = 0; r < 10; r++) {
    if (r > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    unsigned long long p0 = (unsigned long long)0xD2511F53u * ctr[0];
    unsigned long long p1 = (unsigned long long)0xCD9E8D57u * ctr[2];
    unsigned hi0 = (unsigned)(p0 >> 32), lo0 = (unsigned)p0;
    unsigned hi1 = (unsigned)(p1 >> 32), lo1 = (unsigned)p1;
    unsigned n0 = hi1 ^ ctr[1] ^ k0, n2 = hi0 ^ ctr[3] ^ k1;
    ctr[0] = n0; ctr[1] = lo1; ctr[2] = n2; ctr[3] = lo0;
  }
}
// The four words of one call: the element with global index g takes word g % 4 of the call at
// counter c = offset + g / 4.
struct PhiloxWords { unsigned w0, w1, w2, w3; };
// Philox4x32-10 for key (lo32(seed), hi32(seed)) and counter (lo32(c), hi32(c), 0, 0).
__device__ PhiloxWords philox_words(unsigned long long seed, unsigned long long c) {
  unsigned ctr[4] = { (unsigned)c, (unsigned)(c >> 32), 0u, 0u };
  unsigned key[2] = { (unsigned)seed, (unsigned)(seed >> 32) };
  philox4x32_10(ctr, key);
  PhiloxWords w = { ctr[0], ctr[1], ctr[2], ctr[3] };
  return w;
}
// Word k (0..3) of w, by selects (no local-memory array).
__device__ unsigned philox_word(PhiloxWords w, unsigned k) {
  return k == 0u ? w.w0 : k == 1u ? w.w1 : k == 2u ? w.w2 : w.w3;
}

"#
    };
}

/// The text of `philox_source!` (the Philox device functions).
pub const PHILOX_SOURCE: &str = philox_source!();

/// The CUDA C source of the lookup kernels.
pub const SOURCE: &str = concat!(
    r#"
#define MAX_DIMS 8
struct EmbeddingParams { unsigned long long table; unsigned long long ids; unsigned long long out;
  long long rows; long long width; long long n_ids; long long first_row; int elem_bytes; int id_bytes; };
struct DropoutParams { unsigned long long x; unsigned long long out; unsigned long long seed; unsigned long long offset;
  long long n; long long shape[MAX_DIMS]; long long origin[MAX_DIMS]; long long gstrides[MAX_DIMS];
  double p; double scale; int nd; int dtype; };

__device__ float bf16_to_float(unsigned short h) { return __uint_as_float(((unsigned)h) << 16); }
__device__ unsigned short float_to_bf16(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
__device__ float f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ unsigned short float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
// double -> float rounded to odd, so that rounding it to f16/bf16 is one rounding of the double.
__device__ float to_float_odd(double v) {
  float f = __double2float_rz(v);
  if ((double)f != v) f = __uint_as_float(__float_as_uint(f) | 1u);
  return f;
}

"#,
    philox_source!(),
    r#"extern "C" __global__ void fuser_embedding(EmbeddingParams p) {
  long long total = p.n_ids * p.width;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
    long long k = i / p.width, e = i % p.width;
    long long id = p.id_bytes == 4 ? (long long)((const int*)p.ids)[k] : ((const long long*)p.ids)[k];
    // first_row >= 0, so id - first_row cannot overflow once id >= first_row.
    bool held = id >= p.first_row && id - p.first_row < p.rows;
    long long src = held ? (id - p.first_row) * p.width + e : 0;
    switch (p.elem_bytes) {
      case 1: ((unsigned char*)p.out)[i] = held ? ((const unsigned char*)p.table)[src] : 0; break;
      case 2: ((unsigned short*)p.out)[i] = held ? ((const unsigned short*)p.table)[src] : 0; break;
      case 4: ((unsigned*)p.out)[i] = held ? ((const unsigned*)p.table)[src] : 0u; break;
      default: ((unsigned long long*)p.out)[i] = held ? ((const unsigned long long*)p.table)[src] : 0ull; break;
    }
  }
}

__device__ double load_float(unsigned long long ptr, int dtype, long long i) {
  switch (dtype) {
    case 0: return (double)bf16_to_float(((const unsigned short*)ptr)[i]);
    case 1: return (double)f16_to_float(((const unsigned short*)ptr)[i]);
    case 2: return (double)((const float*)ptr)[i];
    default: return ((const double*)ptr)[i];
  }
}
__device__ void store_float(unsigned long long ptr, int dtype, long long i, double v) {
  switch (dtype) {
    case 0: ((unsigned short*)ptr)[i] = float_to_bf16(to_float_odd(v)); break;
    case 1: ((unsigned short*)ptr)[i] = float_to_f16(to_float_odd(v)); break;
    case 2: ((float*)ptr)[i] = (float)v; break;
    default: ((double*)ptr)[i] = v; break;
  }
}

extern "C" __global__ void fuser_dropout(DropoutParams p) {
  unsigned long long seed = (unsigned long long)*(const long long*)p.seed;
  unsigned long long offset = (unsigned long long)*(const long long*)p.offset;
  // Each thread takes local elements i0 .. i0 + 4; one Philox call per aligned group of 4
  // global indices (q = g / 4), made again only when the group changes.
  for (long long i0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 4; i0 < p.n;
       i0 += (long long)gridDim.x * blockDim.x * 4) {
    unsigned long long q_held = 0;
    bool held = false;
    PhiloxWords w = { 0u, 0u, 0u, 0u };
    for (long long i = i0; i < i0 + 4 && i < p.n; i++) {
      // The global row-major index of local element i.
      long long rest = i, g = 0;
      for (int a = p.nd - 1; a >= 0; a--) {
        long long idx = rest % p.shape[a];
        rest /= p.shape[a];
        g += (p.origin[a] + idx) * p.gstrides[a];
      }
      unsigned long long q = (unsigned long long)g >> 2;
      if (!held || q != q_held) { w = philox_words(seed, offset + q); q_held = q; held = true; }
      double u = (double)philox_word(w, (unsigned)g & 3u) / 4294967296.0;
      double y = u >= p.p ? load_float(p.x, p.dtype, i) * p.scale : 0.0;
      store_float(p.out, p.dtype, i, y);
    }
  }
}
"#
);
