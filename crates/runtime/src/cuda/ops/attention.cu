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

// ---- Tensor cores: bf16/f16 inputs, D and Dv multiples of 16 up to 128, sm_80 or newer ----
//
// mma.sync.aligned.m16n8k16 (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point
// type"; g = lane >> 2, t = lane % 4): A (16 x 16, row) register r holds the element pair at
// row g + 8 (r & 1), columns 2t + 8 (r >> 1) + {0, 1}; B (16 x 8, col) register r holds rows
// 2t + 8 r + {0, 1} of column g; C/D (16 x 8, f32) element r is at row g + 8 (r >> 1), column
// 2t + (r & 1). The lower-indexed element of a pair is in the low 16 bits.
//
// grid (ceil(S / 64), H, B), 4 warps; warp w owns query rows 16 w .. 16 w + 15 of the block:
// its Q fragments stay in registers; per tile of 64 keys, S = Q Kᵀ (8 n-tiles of 8 keys, f32),
// scaled and masked, the online softmax on the fragments (row max and sums over the 4 lanes of
// a row through shuffles), P rounded to the input type and reused as the A operand of P V (the
// C layout of two n-tiles is the A layout of one k-step), V transposed in shared memory so that
// its B fragments are pairs of consecutive keys. The row sum l is kept per lane (the rescaling
// factor is uniform over a row's lanes) and reduced once at the end.
#define SDPA_MMA_BQ 64
#define SDPA_MMA_BK 64
#define SDPA_MMA_THREADS 128
#define SDPA_MMA_MAX_D 128

__device__ void sdpa_mma_bf16(float* d, const unsigned* a, unsigned b0, unsigned b1) {
#if __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  __trap();  // never launched below sm_80 (uses_tensor_cores); keeps the module loadable there
#endif
}
__device__ void sdpa_mma_f16(float* d, const unsigned* a, unsigned b0, unsigned b1) {
#if __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  __trap();  // never launched below sm_80 (uses_tensor_cores); keeps the module loadable there
#endif
}

template <bool BF> __device__ unsigned sdpa_pack(float lo, float hi) {
  unsigned short l = BF ? sdpa_float_to_bf16(lo) : sdpa_float_to_f16(lo);
  unsigned short h = BF ? sdpa_float_to_bf16(hi) : sdpa_float_to_f16(hi);
  return (unsigned)l | ((unsigned)h << 16);
}

template <bool BF> __device__ void sdpa_mma_body(const SdpaParams& p) {
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane >> 2, t = lane & 3;
  const int bi = blockIdx.z, hi = blockIdx.y;
  const long long first = (long long)blockIdx.x * SDPA_MMA_BQ;
  const long long w0 = first + warp * 16;  // the warp's first local query
  const int hg = hi / (p.h / p.hkv);
  const long long qbase = ((long long)bi * p.h + hi) * p.s;  // row index of local query 0
  const long long kv0 = ((long long)bi * p.hkv + hg) * p.skv;
  const int ks_stride = p.d + 8, vt_stride = SDPA_MMA_BK + 8;
  unsigned short* ks = (unsigned short*)sdpa_smem;
  unsigned short* vt = ks + SDPA_MMA_BK * ks_stride;
  const unsigned short* qg = (const unsigned short*)p.q;
  const unsigned* kg = (const unsigned*)p.k;
  const unsigned* vg = (const unsigned*)p.v;
  const float scale = (float)p.scale, neg_inf = sdpa_neg_inf<float>();
  const int nks = p.d / 16, nvt = p.dv / 8;

  // Q fragments (rows w0 + g and w0 + g + 8; zeros past S).
  unsigned qa[SDPA_MMA_MAX_D / 16][4];
#pragma unroll
  for (int k = 0; k < SDPA_MMA_MAX_D / 16; k++)
#pragma unroll
    for (int r = 0; r < 4; r++) {
      const long long row = w0 + g + 8 * (r & 1);
      const int col = 16 * k + 2 * t + 8 * (r >> 1);
      unsigned v = 0;
      if (k < nks && row < p.s) {
        const unsigned short* e = qg + (qbase + row) * p.d + col;
        v = (unsigned)e[0] | ((unsigned)e[1] << 16);
      }
      qa[k][r] = v;
    }
  float o[SDPA_MMA_MAX_D / 8][4];
#pragma unroll
  for (int n = 0; n < SDPA_MMA_MAX_D / 8; n++)
#pragma unroll
    for (int r = 0; r < 4; r++) o[n][r] = 0.0f;
  float m[2] = {neg_inf, neg_inf}, l[2] = {0.0f, 0.0f};
  // Global query index of the warp's rows g and g + 8 (keys j <= it are attended).
  const long long qi[2] = {p.query_offset + w0 + g, p.query_offset + w0 + g + 8};

  long long n_block = p.skv;
  if (p.causal) {
    const long long last = (first + SDPA_MMA_BQ < (long long)p.s ? first + SDPA_MMA_BQ : (long long)p.s) - 1;
    const long long nb = p.query_offset + last + 1;
    n_block = nb < n_block ? nb : n_block;
  }
  const long long w_last = (w0 + 15 < (long long)p.s ? w0 + 15 : (long long)p.s - 1);
  for (long long t0 = 0; t0 < n_block; t0 += SDPA_MMA_BK) {
    const int tk = (int)(n_block - t0 < SDPA_MMA_BK ? n_block - t0 : SDPA_MMA_BK);
    __syncthreads();  // the previous tile is consumed
    // K rows as they are (pairs of elements), V transposed; rows past tk are zeros.
    const int kp = p.d / 2, vp = p.dv / 2;
    for (int x = tid; x < SDPA_MMA_BK * kp; x += SDPA_MMA_THREADS) {
      const int j = x / kp, c = 2 * (x % kp);
      const unsigned v = j < tk ? kg[((kv0 + t0 + j) * p.d + c) / 2] : 0u;
      *(unsigned*)(ks + j * ks_stride + c) = v;
    }
    for (int x = tid; x < SDPA_MMA_BK * vp; x += SDPA_MMA_THREADS) {
      const int j = x / vp, c = 2 * (x % vp);
      const unsigned v = j < tk ? vg[((kv0 + t0 + j) * p.dv + c) / 2] : 0u;
      vt[c * vt_stride + j] = (unsigned short)(v & 0xffffu);
      vt[(c + 1) * vt_stride + j] = (unsigned short)(v >> 16);
    }
    __syncthreads();
    // Warps past S, or whose rows all precede the tile (causal), have nothing to do.
    if (w0 >= p.s || (p.causal && p.query_offset + w_last < t0)) continue;
    float s[SDPA_MMA_BK / 8][4];
#pragma unroll
    for (int n = 0; n < SDPA_MMA_BK / 8; n++) {
#pragma unroll
      for (int r = 0; r < 4; r++) s[n][r] = 0.0f;
#pragma unroll
      for (int k = 0; k < SDPA_MMA_MAX_D / 16; k++) {
        if (k < nks) {
          const unsigned short* kr = ks + (n * 8 + g) * ks_stride + 16 * k + 2 * t;
          const unsigned b0 = *(const unsigned*)kr, b1 = *(const unsigned*)(kr + 8);
          if (BF) sdpa_mma_bf16(s[n], qa[k], b0, b1); else sdpa_mma_f16(s[n], qa[k], b0, b1);
        }
      }
    }
    float mt[2] = {neg_inf, neg_inf};
#pragma unroll
    for (int n = 0; n < SDPA_MMA_BK / 8; n++)
#pragma unroll
      for (int r = 0; r < 4; r++) {
        const long long j = t0 + n * 8 + 2 * t + (r & 1);
        const bool keep = j < t0 + tk && (!p.causal || j <= qi[r >> 1]);
        s[n][r] = keep ? s[n][r] * scale : neg_inf;
        mt[r >> 1] = sdpa_max(mt[r >> 1], s[n][r]);
      }
    float alpha[2], mn[2];
#pragma unroll
    for (int h = 0; h < 2; h++) {
      mt[h] = sdpa_max(mt[h], __shfl_xor_sync(0xffffffffu, mt[h], 1, 32));
      mt[h] = sdpa_max(mt[h], __shfl_xor_sync(0xffffffffu, mt[h], 2, 32));
      mn[h] = sdpa_max(m[h], mt[h]);
      alpha[h] = mn[h] == neg_inf ? 1.0f : sdpa_exp(m[h] - mn[h]);
      l[h] *= alpha[h];
      m[h] = mn[h];
    }
#pragma unroll
    for (int n = 0; n < SDPA_MMA_BK / 8; n++)
#pragma unroll
      for (int r = 0; r < 4; r++) {
        const float pr = mn[r >> 1] == neg_inf ? 0.0f : sdpa_exp(s[n][r] - mn[r >> 1]);
        l[r >> 1] += pr;
        s[n][r] = pr;
      }
#pragma unroll
    for (int n = 0; n < SDPA_MMA_MAX_D / 8; n++)
#pragma unroll
      for (int r = 0; r < 4; r++) o[n][r] *= alpha[r >> 1];
#pragma unroll
    for (int kk = 0; kk < SDPA_MMA_BK / 16; kk++) {
      const unsigned a[4] = {sdpa_pack<BF>(s[2 * kk][0], s[2 * kk][1]), sdpa_pack<BF>(s[2 * kk][2], s[2 * kk][3]),
                             sdpa_pack<BF>(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                             sdpa_pack<BF>(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
      for (int n = 0; n < SDPA_MMA_MAX_D / 8; n++) {
        if (n < nvt) {
          const unsigned short* vr = vt + (n * 8 + g) * vt_stride + 16 * kk + 2 * t;
          const unsigned b0 = *(const unsigned*)vr, b1 = *(const unsigned*)(vr + 8);
          if (BF) sdpa_mma_bf16(o[n], a, b0, b1); else sdpa_mma_f16(o[n], a, b0, b1);
        }
      }
    }
  }
  if (w0 >= p.s) return;
#pragma unroll
  for (int h = 0; h < 2; h++) {
    l[h] += __shfl_xor_sync(0xffffffffu, l[h], 1, 32);
    l[h] += __shfl_xor_sync(0xffffffffu, l[h], 2, 32);
  }
#pragma unroll
  for (int h = 0; h < 2; h++) {
    const long long row = w0 + g + 8 * h;
    if (row >= p.s) continue;
    const bool empty = m[h] == neg_inf;
#pragma unroll
    for (int n = 0; n < SDPA_MMA_MAX_D / 8; n++) {
      if (n < nvt) {
        const long long at = (qbase + row) * p.dv + n * 8 + 2 * t;
        sdpa_store<float>(p.out, p.dtype, at, empty ? 0.0f : o[n][2 * h] / l[h]);
        sdpa_store<float>(p.out, p.dtype, at + 1, empty ? 0.0f : o[n][2 * h + 1] / l[h]);
      }
    }
    if (p.lse != 0 && t == 0) ((float*)p.lse)[qbase + row] = empty ? neg_inf : m[h] + sdpa_log(l[h]);
  }
}

extern "C" __global__ void fuser_sdpa_mma_bf16(const SdpaParams p) { sdpa_mma_body<true>(p); }
extern "C" __global__ void fuser_sdpa_mma_f16(const SdpaParams p) { sdpa_mma_body<false>(p); }
