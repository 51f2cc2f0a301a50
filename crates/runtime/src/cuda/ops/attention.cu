// fusion.sdpa on the GPU: a flash-attention-style kernel on CUDA cores (SIMT), compiled with
// NVRTC (no includes: every name used here is an NVRTC built-in).
//
// Design (see cuda/ops/attention.rs for the launch):
// - grid (ceil(S / SDPA_BQ), H, B); one block of SDPA_THREADS threads computes SDPA_BQ query
//   rows of one (batch, head); SDPA_TPQ consecutive threads (one warp holds 4 queries) share a
//   query row: lane `l` of the row holds elements l, l + TPQ, l + 2 TPQ, ... of the query
//   (pre-multiplied by the scale) and of the output accumulator, in registers.
// - the keys and values of the row's key/value head (`h / (H / Hkv)`, grouped-query attention)
//   stream through shared memory in tiles of `block_k` rows (one contiguous range of k and v
//   each, loaded by the whole block, converted to the accumulation type); the S x Skv score
//   matrix is never materialized: per tile, each row's scores go to a BQ x block_k scratch.
// - online softmax per row: running maximum m (NaN-propagating), running sum l, the
//   accumulator rescaled by exp(m_old - m_new) once per tile; out = acc / l, lse = m + log l.
// - causal (top-left, global query index = query_offset + local index): tiles past the last
//   query of the block are skipped; inside, keys j > i are masked.
// - accumulation in f32 for bf16/f16/f32 inputs (fuser_sdpa_f32), in f64 for f64 inputs
//   (fuser_sdpa_f64); out is rounded once to its element type, lse written as f32.
// A row with no attended key, or only -inf scores, gives out 0 and lse -inf (as the reference).

#define SDPA_TPQ 8
#define SDPA_BQ 16
#define SDPA_THREADS (SDPA_TPQ * SDPA_BQ)
#define SDPA_MAX_PER_LANE 32

struct SdpaParams {
  unsigned long long q, k, v, out, lse;
  long long query_offset;
  double scale;
  int dtype, b, h, hkv, s, skv, d, dv, causal, block_k;
};

__device__ float sdpa_bf16_to_float(unsigned short h) { return __uint_as_float(((unsigned)h) << 16); }
__device__ unsigned short sdpa_float_to_bf16(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
__device__ float sdpa_f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ unsigned short sdpa_float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }

template <typename A> __device__ A sdpa_load(unsigned long long p, int dtype, long long i) {
  switch (dtype) {
    case 0: return (A)sdpa_bf16_to_float(((const unsigned short*)p)[i]);
    case 1: return (A)sdpa_f16_to_float(((const unsigned short*)p)[i]);
    case 2: return (A)((const float*)p)[i];
    default: return (A)((const double*)p)[i];
  }
}

template <typename A> __device__ void sdpa_store(unsigned long long p, int dtype, long long i, A v) {
  switch (dtype) {
    case 0: ((unsigned short*)p)[i] = sdpa_float_to_bf16((float)v); break;
    case 1: ((unsigned short*)p)[i] = sdpa_float_to_f16((float)v); break;
    case 2: ((float*)p)[i] = (float)v; break;
    default: ((double*)p)[i] = (double)v; break;
  }
}

__device__ float sdpa_exp(float x) { return expf(x); }
__device__ double sdpa_exp(double x) { return exp(x); }
__device__ float sdpa_log(float x) { return logf(x); }
__device__ double sdpa_log(double x) { return log(x); }
template <typename A> __device__ A sdpa_neg_inf();
template <> __device__ float sdpa_neg_inf<float>() { return __int_as_float((int)0xff800000); }
template <> __device__ double sdpa_neg_inf<double>() { return __longlong_as_double(0xfff0000000000000ULL); }
// The larger of a and b; NaN when either is NaN.
template <typename A> __device__ A sdpa_max(A a, A b) { return (a != a || b != b) ? (a != a ? a : b) : (a > b ? a : b); }

extern __shared__ double sdpa_smem[];

template <typename A> __device__ void sdpa_body(const SdpaParams& p) {
  const int tid = threadIdx.x;
  const int row = tid / SDPA_TPQ, lane = tid % SDPA_TPQ;
  const int bi = blockIdx.z, hi = blockIdx.y;
  const long long first = (long long)blockIdx.x * SDPA_BQ;
  const long long i = first + row;  // local query index
  const bool active = i < p.s;
  const int g = hi / (p.h / p.hkv);
  const long long qrow = ((long long)bi * p.h + hi) * p.s + i;
  const long long kv0 = ((long long)bi * p.hkv + g) * p.skv;
  const int bk = p.block_k;
  A* ks = (A*)sdpa_smem;
  A* vs = ks + (long long)bk * p.d;
  A* sc = vs + (long long)bk * p.dv;
  const A scale = (A)p.scale, neg_inf = sdpa_neg_inf<A>();

  A qv[SDPA_MAX_PER_LANE], acc[SDPA_MAX_PER_LANE];
#pragma unroll
  for (int e = 0; e < SDPA_MAX_PER_LANE; e++) {
    const int c = lane + SDPA_TPQ * e;
    qv[e] = (active && c < p.d) ? sdpa_load<A>(p.q, p.dtype, qrow * p.d + c) * scale : (A)0;
    acc[e] = (A)0;
  }
  // Keys attended by this row: j < n_row; by the block: j < n_block.
  long long n_row = p.skv, n_block = p.skv;
  if (p.causal) {
    const long long last = (first + SDPA_BQ < (long long)p.s ? first + SDPA_BQ : (long long)p.s) - 1;
    const long long nb = p.query_offset + last + 1, nr = p.query_offset + i + 1;
    n_block = nb < n_block ? nb : n_block;
    n_row = nr < n_row ? nr : n_row;
  }
  A m = neg_inf, l = (A)0;
  for (long long t0 = 0; t0 < n_block; t0 += bk) {
    const int tk = (int)(n_block - t0 < bk ? n_block - t0 : bk);
    __syncthreads();  // the previous tile is consumed
    const long long nk = (long long)tk * p.d, nv = (long long)tk * p.dv;
    for (long long x = tid; x < nk; x += SDPA_THREADS) ks[x] = sdpa_load<A>(p.k, p.dtype, (kv0 + t0) * p.d + x);
    for (long long x = tid; x < nv; x += SDPA_THREADS) vs[x] = sdpa_load<A>(p.v, p.dtype, (kv0 + t0) * p.dv + x);
    __syncthreads();
    A mt = neg_inf;
    for (int j = 0; j < tk; j++) {
      A part = (A)0;
#pragma unroll
      for (int e = 0; e < SDPA_MAX_PER_LANE; e++) {
        const int c = lane + SDPA_TPQ * e;
        if (c < p.d) part += qv[e] * ks[(long long)j * p.d + c];
      }
      for (int off = SDPA_TPQ / 2; off > 0; off /= 2) part += __shfl_xor_sync(0xffffffffu, part, off, SDPA_TPQ);
      const A s = (t0 + j < n_row) ? part : neg_inf;
      if (lane == 0) sc[row * bk + j] = s;
      mt = sdpa_max(mt, s);
    }
    __syncwarp();
    const A m_new = sdpa_max(m, mt);
    if (m_new == neg_inf) continue;  // nothing attended so far
    const A alpha = sdpa_exp(m - m_new);
    l *= alpha;
#pragma unroll
    for (int e = 0; e < SDPA_MAX_PER_LANE; e++) acc[e] *= alpha;
    for (int j = 0; j < tk; j++) {
      const A pj = sdpa_exp(sc[row * bk + j] - m_new);
      l += pj;
#pragma unroll
      for (int e = 0; e < SDPA_MAX_PER_LANE; e++) {
        const int c = lane + SDPA_TPQ * e;
        if (c < p.dv) acc[e] += pj * vs[(long long)j * p.dv + c];
      }
    }
    m = m_new;
  }
  if (!active) return;
  const bool empty = m == neg_inf;
#pragma unroll
  for (int e = 0; e < SDPA_MAX_PER_LANE; e++) {
    const int c = lane + SDPA_TPQ * e;
    if (c < p.dv) sdpa_store<A>(p.out, p.dtype, qrow * p.dv + c, empty ? (A)0 : acc[e] / l);
  }
  if (p.lse != 0 && lane == 0) ((float*)p.lse)[qrow] = (float)(empty ? neg_inf : m + sdpa_log(l));
}

extern "C" __global__ void fuser_sdpa_f32(const SdpaParams p) { sdpa_body<float>(p); }
extern "C" __global__ void fuser_sdpa_f64(const SdpaParams p) { sdpa_body<double>(p); }
