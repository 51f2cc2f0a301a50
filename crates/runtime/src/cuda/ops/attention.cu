// fusion.sdpa on the GPU: flash-attention-style kernels, compiled with NVRTC (no includes: every
// name used here is an NVRTC built-in): one on CUDA cores (SIMT, first below), then two on
// tensor cores (the first version, FUSER_SDPA_KERNEL=v1, and the FlashAttention-2-style one,
// the default; cuda/ops/attention.rs chooses).
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

// ---- Inline PTX: every asm of this file is in the helpers below. The host test
// (tests/cuda_attention_on_host.rs) defines FUSER_HOST_SHIM and replaces them with emulations
// (conversions in plain C++, mma/ldmatrix as exchanges between the lanes of a warp, cp.async as
// a copy with commit/wait doing nothing). ----
#ifndef FUSER_HOST_SHIM
__device__ float sdpa_f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ unsigned short sdpa_float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
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

// ldmatrix.sync.aligned.m8n8.x4.shared.b16: lane i gives the address of row i % 8 of matrix
// i / 8 (16 bytes, 16-byte aligned, shared memory); register j of lane l receives the pair at
// row l / 4, columns 2 (l % 4) + {0, 1} of matrix j (.trans: rows 2 (l % 4) + {0, 1}, column
// l / 4, i.e. the pair of the transposed matrix).
__device__ void sdpa_ldsm_x4(unsigned* r, const unsigned short* p) {
#if __CUDA_ARCH__ >= 800
  const unsigned a = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
#else
  __trap();
#endif
}
__device__ void sdpa_ldsm_x4_trans(unsigned* r, const unsigned short* p) {
#if __CUDA_ARCH__ >= 800
  const unsigned a = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
#else
  __trap();
#endif
}
// cp.async.cg.shared.global of 16 bytes (both addresses 16-byte aligned); `valid` false writes
// 16 zero bytes without reading `src`.
__device__ void sdpa_cp_async16(unsigned short* dst, const void* src, bool valid) {
#if __CUDA_ARCH__ >= 800
  const unsigned a = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(a), "l"(src), "r"(valid ? 16 : 0) : "memory");
#else
  __trap();
#endif
}
__device__ void sdpa_cp_async_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
// Waits until at most N committed groups of this thread are pending.
template <int N> __device__ void sdpa_cp_async_wait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}
// 2^x (ex2.approx.ftz: subnormal results flush to 0; 2^-inf = 0).
__device__ float sdpa_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
// lo and hi rounded (to nearest even) to bf16 / f16 and packed, lo in the low 16 bits.
__device__ unsigned sdpa_pack_bf16x2(float lo, float hi) {
#if __CUDA_ARCH__ >= 800
  unsigned d;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo));
  return d;
#else
  __trap();
  return 0;
#endif
}
__device__ unsigned sdpa_pack_f16x2(float lo, float hi) {
#if __CUDA_ARCH__ >= 800
  unsigned d;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo));
  return d;
#else
  __trap();
  return 0;
#endif
}
#endif  // FUSER_HOST_SHIM

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

// ---- Tensor cores, FlashAttention-2 style: the default for bf16/f16 (FUSER_SDPA_KERNEL=v1
// selects the kernel above) ----
//
// grid (H, ceil(S / 128), B), 8 warps; block y computes query block ceil(S / 128) - 1 - y (the
// blocks with the most keys to attend under a causal mask are scheduled first); warp w owns
// query rows 16 w .. 16 w + 15 of the block, its Q fragments in registers (loaded once).
// Key/value tiles of 64 rows stream global -> shared with 16-byte cp.async, double buffered:
// the copy of tile i + 1 runs while tile i is computed, one barrier per tile. Shared rows are
// padded (sdpa_fa_stride) so that the 8 row addresses of an ldmatrix fall on distinct banks.
// S = Q Kᵀ: B fragments of K by ldmatrix.x4 (2 n-tiles of 8 keys x one k-step of 16 per
// instruction); P V: B fragments of V by ldmatrix.x4.trans straight from V's row-major tile
// (no transpose pass). Online softmax on the fragments in log2 units (scale * log2 e folded
// into the scores, ex2.approx), row max and sum over the 4 lanes of a row by shuffles (the sum
// once at the end); P rounded to the input type (cvt.rn.bf16x2/f16x2) as the A operand of P V.
// Causal: tiles past the block's last query are never loaded, a warp skips tiles past its last
// row, and the mask is evaluated only on tiles that cross a warp's diagonal or the end of the
// keys. A NaN score makes its row NaN (out and lse); a row with no key gives out 0, lse -inf.
// Kernels: fuser_sdpa_fa_{bf16,f16} for any D (multiple of 16) and Dv (multiple of 8) up to
// 128, and _d64/_d128 for D = Dv = 64/128 with their loop bounds fixed at compile time (the
// K/V loads, ldmatrix and mma of a tile then interleave without branches).
#define SDPA_FA_BQ 128
#define SDPA_FA_BK 64
#define SDPA_FA_THREADS 256
#define SDPA_FA_MAX_D 128

// Shared row stride (elements) of a tile with rows of n elements (n % 8 == 0): a row stride of
// 4 mod 8 words puts the 8 rows of an ldmatrix (16 bytes each) on 8 distinct groups of banks.
__device__ int sdpa_fa_stride(int n) { return n % 16 == 0 ? n + 8 : n; }

// DK > 0: a kernel for D = Dv = DK (loop bounds and tile sizes known at compile time); DK = 0:
// any D and Dv the launch allows.
template <bool BF, int DK> __device__ void sdpa_fa_body(const SdpaParams& p) {
  constexpr int MAXD = DK > 0 ? DK : SDPA_FA_MAX_D;
  const int d = DK > 0 ? DK : p.d, dv = DK > 0 ? DK : p.dv;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane >> 2, t = lane & 3;
  const int bi = blockIdx.z, hi = blockIdx.x;
  const long long first = (long long)(gridDim.y - 1 - blockIdx.y) * SDPA_FA_BQ;
  const long long w0 = first + warp * 16;  // the warp's first local query
  const long long w_last = (w0 + 15 < (long long)p.s ? w0 + 15 : (long long)p.s - 1);
  const int hg = hi / (p.h / p.hkv);
  const long long qbase = ((long long)bi * p.h + hi) * p.s;  // row index of local query 0
  const long long kv0 = ((long long)bi * p.hkv + hg) * p.skv;
  const int ksd = sdpa_fa_stride(d), vsd = sdpa_fa_stride(dv);
  unsigned short* const kbuf = (unsigned short*)sdpa_smem;  // 2 K tiles, then 2 V tiles
  unsigned short* const vbuf = kbuf + 2 * SDPA_FA_BK * ksd;
  const unsigned short* const qg = (const unsigned short*)p.q;
  const unsigned short* const kg = (const unsigned short*)p.k + kv0 * d;
  const unsigned short* const vg = (const unsigned short*)p.v + kv0 * dv;
  const float sl2 = (float)(p.scale * 1.4426950408889634), neg_inf = sdpa_neg_inf<float>();
  const int nks = d / 16, nvt = dv / 8;

  // Keys attended by the block: j < n_block.
  long long n_block = p.skv;
  if (p.causal) {
    const long long last = (first + SDPA_FA_BQ < (long long)p.s ? first + SDPA_FA_BQ : (long long)p.s) - 1;
    const long long nb = p.query_offset + last + 1;
    n_block = nb < n_block ? nb : n_block;
  }
  const int n_tiles = (int)((n_block + SDPA_FA_BK - 1) / SDPA_FA_BK);
  // Tile `it` into buffer it % 2: rows past n_block are zeros (never read from global).
  auto load_tile = [&](int it) {
    const long long t0 = (long long)it * SDPA_FA_BK;
    unsigned short* ks = kbuf + (it & 1) * SDPA_FA_BK * ksd;
    unsigned short* vs = vbuf + (it & 1) * SDPA_FA_BK * vsd;
    const int kc = d / 8, vc = dv / 8;  // 16-byte chunks per row
    for (int x = tid; x < SDPA_FA_BK * kc; x += SDPA_FA_THREADS) {
      const int j = x / kc, c = x - j * kc;
      const bool ok = t0 + j < n_block;
      sdpa_cp_async16(ks + j * ksd + 8 * c, ok ? (const void*)(kg + (t0 + j) * d + 8 * c) : (const void*)kg, ok);
    }
    for (int x = tid; x < SDPA_FA_BK * vc; x += SDPA_FA_THREADS) {
      const int j = x / vc, c = x - j * vc;
      const bool ok = t0 + j < n_block;
      sdpa_cp_async16(vs + j * vsd + 8 * c, ok ? (const void*)(vg + (t0 + j) * dv + 8 * c) : (const void*)vg, ok);
    }
  };
  if (n_tiles > 0) {
    load_tile(0);
    sdpa_cp_async_commit();
  }

  // Q fragments (rows w0 + g and w0 + g + 8; zeros past S).
  unsigned qa[MAXD / 16][4];
#pragma unroll
  for (int k = 0; k < MAXD / 16; k++)
#pragma unroll
    for (int r = 0; r < 4; r++) {
      const long long row = w0 + g + 8 * (r & 1);
      const int col = 16 * k + 2 * t + 8 * (r >> 1);
      unsigned v = 0;
      if (k < nks && row < p.s) {
        const unsigned short* e = qg + (qbase + row) * d + col;
        v = (unsigned)e[0] | ((unsigned)e[1] << 16);
      }
      qa[k][r] = v;
    }
  float o[MAXD / 8][4];
#pragma unroll
  for (int n = 0; n < MAXD / 8; n++)
#pragma unroll
    for (int r = 0; r < 4; r++) o[n][r] = 0.0f;
  // Running maxima (log2 units) and this lane's part of the row sums of rows g and g + 8.
  float m[2] = {neg_inf, neg_inf}, l[2] = {0.0f, 0.0f};
  const long long qi[2] = {p.query_offset + w0 + g, p.query_offset + w0 + g + 8};
  // ldmatrix row addresses of this lane: K (matrix lane / 8: keys + 8 (lane >= 16), columns +
  // 8 (lane / 8 odd)), V (keys + 8 (lane / 8 odd), columns + 8 (lane >= 16)).
  const int k_row = (lane & 7) + 8 * (lane >> 4), k_col = 8 * ((lane >> 3) & 1);
  const int v_row = (lane & 7) + 8 * ((lane >> 3) & 1), v_col = 8 * (lane >> 4);

  for (int it = 0; it < n_tiles; it++) {
    sdpa_cp_async_wait<0>();
    __syncthreads();  // tile it is visible to all; all are done with tile it - 1 (buffer (it + 1) % 2)
    if (it + 1 < n_tiles) {
      load_tile(it + 1);
      sdpa_cp_async_commit();
    }
    const long long t0 = (long long)it * SDPA_FA_BK;
    // Warps past S, or whose rows all precede the tile (causal), have nothing to do.
    if (w0 >= p.s || (p.causal && p.query_offset + w_last < t0)) continue;
    const unsigned short* ks = kbuf + (it & 1) * SDPA_FA_BK * ksd;
    const unsigned short* vs = vbuf + (it & 1) * SDPA_FA_BK * vsd;
    float s[SDPA_FA_BK / 8][4];
#pragma unroll
    for (int n = 0; n < SDPA_FA_BK / 8; n++)
#pragma unroll
      for (int r = 0; r < 4; r++) s[n][r] = 0.0f;
#pragma unroll
    for (int k = 0; k < MAXD / 16; k++) {
      if (k < nks) {
#pragma unroll
        for (int np = 0; np < SDPA_FA_BK / 16; np++) {
          unsigned b[4];
          sdpa_ldsm_x4(b, ks + (16 * np + k_row) * ksd + 16 * k + k_col);
          if (BF) {
            sdpa_mma_bf16(s[2 * np], qa[k], b[0], b[1]);
            sdpa_mma_bf16(s[2 * np + 1], qa[k], b[2], b[3]);
          } else {
            sdpa_mma_f16(s[2 * np], qa[k], b[0], b[1]);
            sdpa_mma_f16(s[2 * np + 1], qa[k], b[2], b[3]);
          }
        }
      }
    }
    // Scale to log2 units; mask only where the tile crosses the warp's diagonal or the keys' end:
    // key t0 + j of the tile is attended by row h when j < lim[h].
    const bool mask = t0 + SDPA_FA_BK > p.skv || (p.causal && t0 + SDPA_FA_BK - 1 > p.query_offset + w0);
    float mt[2] = {neg_inf, neg_inf};
    if (mask) {
      int lim[2];
#pragma unroll
      for (int h = 0; h < 2; h++) {
        long long e = p.skv;
        if (p.causal && qi[h] + 1 < e) e = qi[h] + 1;
        e -= t0;
        lim[h] = (int)(e < 0 ? 0 : (e > SDPA_FA_BK ? SDPA_FA_BK : e));
      }
#pragma unroll
      for (int n = 0; n < SDPA_FA_BK / 8; n++)
#pragma unroll
        for (int r = 0; r < 4; r++) {
          const int j = n * 8 + 2 * t + (r & 1);
          s[n][r] = j < lim[r >> 1] ? s[n][r] * sl2 : neg_inf;
          mt[r >> 1] = fmaxf(mt[r >> 1], s[n][r]);
        }
    } else {
#pragma unroll
      for (int n = 0; n < SDPA_FA_BK / 8; n++)
#pragma unroll
        for (int r = 0; r < 4; r++) {
          s[n][r] *= sl2;
          mt[r >> 1] = fmaxf(mt[r >> 1], s[n][r]);
        }
    }
    float mref[2];
#pragma unroll
    for (int h = 0; h < 2; h++) {
      mt[h] = fmaxf(mt[h], __shfl_xor_sync(0xffffffffu, mt[h], 1, 32));
      mt[h] = fmaxf(mt[h], __shfl_xor_sync(0xffffffffu, mt[h], 2, 32));
      const float mn = fmaxf(m[h], mt[h]);
      // Nothing attended yet: exponents relative to 0 (all terms are 0, or NaN from a NaN score).
      mref[h] = mn == neg_inf ? 0.0f : mn;
      const float alpha = sdpa_exp2(m[h] - mref[h]);
      l[h] *= alpha;
      m[h] = mn;
#pragma unroll
      for (int n = 0; n < MAXD / 8; n++) {
        o[n][2 * h] *= alpha;
        o[n][2 * h + 1] *= alpha;
      }
    }
#pragma unroll
    for (int n = 0; n < SDPA_FA_BK / 8; n++)
#pragma unroll
      for (int r = 0; r < 4; r++) {
        const float pr = sdpa_exp2(s[n][r] - mref[r >> 1]);
        l[r >> 1] += pr;
        s[n][r] = pr;
      }
#pragma unroll
    for (int kk = 0; kk < SDPA_FA_BK / 16; kk++) {
      unsigned a[4];
#pragma unroll
      for (int r = 0; r < 4; r++) {
        const float* x = s[2 * kk + (r >> 1)] + 2 * (r & 1);
        a[r] = BF ? sdpa_pack_bf16x2(x[0], x[1]) : sdpa_pack_f16x2(x[0], x[1]);
      }
#pragma unroll
      for (int np = 0; np < MAXD / 16; np++) {
        if (2 * np < nvt) {
          // An odd last n-tile: matrices 2 and 3 repeat 0 and 1 (their registers unused).
          const int col = 16 * np + (2 * np + 1 < nvt ? v_col : 0);
          unsigned b[4];
          sdpa_ldsm_x4_trans(b, vs + (16 * kk + v_row) * vsd + col);
          if (BF) sdpa_mma_bf16(o[2 * np], a, b[0], b[1]); else sdpa_mma_f16(o[2 * np], a, b[0], b[1]);
          if (2 * np + 1 < nvt) {
            if (BF) sdpa_mma_bf16(o[2 * np + 1], a, b[2], b[3]); else sdpa_mma_f16(o[2 * np + 1], a, b[2], b[3]);
          }
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
    const bool empty = m[h] == neg_inf && l[h] == 0.0f;
    const float inv = empty ? 0.0f : 1.0f / l[h];
#pragma unroll
    for (int n = 0; n < MAXD / 8; n++) {
      if (n < nvt) {
        const long long at = (qbase + row) * dv + n * 8 + 2 * t;
        sdpa_store<float>(p.out, p.dtype, at, o[n][2 * h] * inv);
        sdpa_store<float>(p.out, p.dtype, at + 1, o[n][2 * h + 1] * inv);
      }
    }
    if (p.lse != 0 && t == 0)
      ((float*)p.lse)[qbase + row] = empty ? neg_inf : m[h] * 0.6931471805599453f + sdpa_log(l[h]);
  }
}

#define SDPA_FA_KERNEL(name, BF, DK) \
  extern "C" __global__ void __launch_bounds__(SDPA_FA_THREADS) name(const SdpaParams p) { sdpa_fa_body<BF, DK>(p); }
SDPA_FA_KERNEL(fuser_sdpa_fa_bf16, true, 0)
SDPA_FA_KERNEL(fuser_sdpa_fa_f16, false, 0)
SDPA_FA_KERNEL(fuser_sdpa_fa_bf16_d64, true, 64)
SDPA_FA_KERNEL(fuser_sdpa_fa_f16_d64, false, 64)
SDPA_FA_KERNEL(fuser_sdpa_fa_bf16_d128, true, 128)
SDPA_FA_KERNEL(fuser_sdpa_fa_f16_d128, false, 128)
