// The backward pass's kernels (cuda::ops::grad): sdpa_grad, embedding_grad, one_hot, and the
// helpers that zero and round their accumulation buffers. Semantics: crate::ops::grad.
// NVRTC, no includes. Element type codes as cuda/kernels.rs: 0 bf16, 1 f16, 2 f32, 3 f64;
// id types by their byte width (4: i32, 8: i64).
//
// sdpa_grad (one thread per query row, grid-stride): recomputes the row's probabilities from
// lse, accumulates dq in registers/local memory (at most SDPA_GRAD_MAX_D values) and adds its
// contributions to dk and dv with atomics into accumulation buffers (float, or double for f64):
// the order of those additions, hence the last bits of dk and dv, varies between runs. No
// shared memory, no tiles: a correct kernel, not a fast one (flash-attention's backward tiles
// keys and queries through shared memory and runs the products on tensor cores). The
// GEMM-based sdpa_grad (FUSER_SDPA_GRAD=gemm) runs its products in cuBLAS and only its
// elementwise steps here (fuser_sdpa_grad_{delta,probs,ds}_*, below).

#define SDPA_GRAD_MAX_D 256

struct SdpaGradParams { unsigned long long q; unsigned long long k; unsigned long long v; unsigned long long out;
  unsigned long long lse; unsigned long long dout; unsigned long long dq; unsigned long long dk_acc;
  unsigned long long dv_acc; long long query_offset; double scale; int dtype; int b; int h; int hkv; int s; int skv; int d; int dv; int causal; };
struct SdpaGradEwParams { unsigned long long scores; unsigned long long probs; unsigned long long lse;
  unsigned long long delta; unsigned long long out; unsigned long long dout; long long query_offset; double scale;
  long long first; long long count; int dtype; int h; int hkv; int s; int skv; int dv; int g; int heads; int causal; };
struct EmbeddingGradParams { unsigned long long ids; unsigned long long g; unsigned long long acc;
  long long n_ids; long long width; long long rows; long long first_row; int id_bytes; int dtype; int acc_double; };
struct OneHotParams { unsigned long long labels; unsigned long long out; long long n_labels; long long classes;
  long long first_class; int id_bytes; int dtype; };
struct AccParams { unsigned long long acc; unsigned long long out; long long n; int dtype; int acc_double; };

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
__device__ long long load_id(unsigned long long ptr, int bytes, long long i) {
  return bytes == 4 ? (long long)((const int*)ptr)[i] : ((const long long*)ptr)[i];
}

__device__ float acc_exp(float x) { return expf(x); }
__device__ double acc_exp(double x) { return exp(x); }

// The body of sdpa_grad with accumulation type Acc (float, or double for f64 inputs).
template <typename Acc> __device__ void sdpa_grad_rows(const SdpaGradParams& p) {
  long long rows = (long long)p.b * p.h * p.s;
  int group = p.hkv > 0 ? p.h / p.hkv : 1;
  Acc* dk = (Acc*)p.dk_acc;
  Acc* dv = (Acc*)p.dv_acc;
  Acc dq[SDPA_GRAD_MAX_D];
  for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; row < rows; row += (long long)gridDim.x * blockDim.x) {
    long long i = row % p.s, bh = row / p.s;
    long long hi = bh % p.h, bi = bh / p.h;
    long long kv_base = (bi * p.hkv + hi / group) * (long long)p.skv;
    for (int e = 0; e < p.d; e++) dq[e] = (Acc)0;
    Acc l = (Acc)((const float*)p.lse)[row];
    // A row whose lse is -inf attended no key: it contributes nothing (dq = 0).
    if (l != -(Acc)__int_as_float(0x7f800000)) {
      Acc delta = 0;
      for (int e = 0; e < p.dv; e++)
        delta += (Acc)load_float(p.dout, p.dtype, row * p.dv + e) * (Acc)load_float(p.out, p.dtype, row * p.dv + e);
      // Causal: keys j <= the global query index (query_offset: the first local query's).
      long long last = p.query_offset + i + 1;
      long long n = p.causal ? (last < p.skv ? last : p.skv) : p.skv;
      for (long long j = 0; j < n; j++) {
        long long kr = (kv_base + j) * p.d, vr = (kv_base + j) * p.dv;
        Acc dot = 0;
        for (int e = 0; e < p.d; e++) dot += (Acc)load_float(p.q, p.dtype, row * p.d + e) * (Acc)load_float(p.k, p.dtype, kr + e);
        Acc pr = acc_exp((Acc)p.scale * dot - l);
        Acc dp = 0;
        for (int e = 0; e < p.dv; e++) dp += (Acc)load_float(p.dout, p.dtype, row * p.dv + e) * (Acc)load_float(p.v, p.dtype, vr + e);
        Acc ds = pr * (dp - delta);
        for (int e = 0; e < p.dv; e++) atomicAdd(&dv[vr + e], pr * (Acc)load_float(p.dout, p.dtype, row * p.dv + e));
        for (int e = 0; e < p.d; e++) {
          dq[e] += ds * (Acc)load_float(p.k, p.dtype, kr + e);
          atomicAdd(&dk[kr + e], (Acc)p.scale * ds * (Acc)load_float(p.q, p.dtype, row * p.d + e));
        }
      }
    }
    for (int e = 0; e < p.d; e++) store_float(p.dq, p.dtype, row * p.d + e, (double)((Acc)p.scale * dq[e]));
  }
}

extern "C" __global__ void fuser_sdpa_grad_f32(SdpaGradParams p) { sdpa_grad_rows<float>(p); }
extern "C" __global__ void fuser_sdpa_grad_f64(SdpaGradParams p) { sdpa_grad_rows<double>(p); }

// The GEMM-based sdpa_grad's elementwise steps (cuda/ops/sdpa_grad_plan.rs has the plan; the
// GEMMs run in cuBLAS). Acc is the accumulation type (float; double for f64 inputs): delta and
// the scores scratch hold Acc, the probs scratch holds the element type (dtype).
//
// delta: one thread per row of [B, H, S] (count rows): delta[row] = sum_e dout * out.
template <typename Acc> __device__ void sdpa_grad_delta(const SdpaGradEwParams& p) {
  for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; row < p.count; row += (long long)gridDim.x * blockDim.x) {
    Acc sum = 0;
    for (int e = 0; e < p.dv; e++)
      sum += (Acc)load_float(p.dout, p.dtype, row * p.dv + e) * (Acc)load_float(p.out, p.dtype, row * p.dv + e);
    ((Acc*)p.delta)[row] = sum;
  }
}

// probs and ds run one block per row r of the chunk's scratch ([pair][head][i][Skv]: the
// pairs from p.first, their query heads p.g .. p.g + p.heads; grid-stride over the rows), the
// block's threads over the keys j (coalesced; the index arithmetic once per row).
// sdpa_grad_row: the row of [B, H, S] (lse, delta) of scratch row r.
__device__ long long sdpa_grad_row(const SdpaGradEwParams& p, long long r) {
  long long hs = (long long)p.heads * p.s;
  long long pair = p.first + r / hs, rem = r % hs;
  long long head = p.g + rem / p.s, i = rem % p.s;
  long long group = p.h / p.hkv, bi = pair / p.hkv, kh = pair % p.hkv;
  return (bi * p.h + kh * group + head) * p.s + i;
}

// probs: P = exp(scale * scores - lse), 0 where the key is masked (causal: j > query_offset
// + i) or the row attended nothing (lse = -inf); stored in the element type.
template <typename Acc> __device__ void sdpa_grad_probs(const SdpaGradEwParams& p) {
  for (long long r = blockIdx.x; r < p.count * p.heads * p.s; r += gridDim.x) {
    long long row = sdpa_grad_row(p, r), i = r % p.s;
    Acc l = (Acc)((const float*)p.lse)[row];
    bool dead = l == -(Acc)__int_as_float(0x7f800000);
    // The last key the row attends.
    long long last = p.causal ? p.query_offset + i : (long long)p.skv;
    const Acc* sc = (const Acc*)p.scores + r * p.skv;
    for (long long j = threadIdx.x; j < p.skv; j += blockDim.x) {
      Acc pr = 0;
      if (!dead && j <= last) pr = acc_exp((Acc)p.scale * sc[j] - l);
      store_float(p.probs, p.dtype, r * p.skv + j, (double)pr);
    }
  }
}

// ds: dS = P * (dP - delta[row]) with dP in the scores scratch; in place over P.
template <typename Acc> __device__ void sdpa_grad_ds(const SdpaGradEwParams& p) {
  for (long long r = blockIdx.x; r < p.count * p.heads * p.s; r += gridDim.x) {
    Acc delta = ((const Acc*)p.delta)[sdpa_grad_row(p, r)];
    const Acc* dp = (const Acc*)p.scores + r * p.skv;
    for (long long j = threadIdx.x; j < p.skv; j += blockDim.x) {
      Acc pr = (Acc)load_float(p.probs, p.dtype, r * p.skv + j);
      store_float(p.probs, p.dtype, r * p.skv + j, (double)(pr * (dp[j] - delta)));
    }
  }
}

extern "C" __global__ void fuser_sdpa_grad_delta_f32(SdpaGradEwParams p) { sdpa_grad_delta<float>(p); }
extern "C" __global__ void fuser_sdpa_grad_delta_f64(SdpaGradEwParams p) { sdpa_grad_delta<double>(p); }
extern "C" __global__ void fuser_sdpa_grad_probs_f32(SdpaGradEwParams p) { sdpa_grad_probs<float>(p); }
extern "C" __global__ void fuser_sdpa_grad_probs_f64(SdpaGradEwParams p) { sdpa_grad_probs<double>(p); }
extern "C" __global__ void fuser_sdpa_grad_ds_f32(SdpaGradEwParams p) { sdpa_grad_ds<float>(p); }
extern "C" __global__ void fuser_sdpa_grad_ds_f64(SdpaGradEwParams p) { sdpa_grad_ds<double>(p); }

// embedding_grad: one thread per element of g; the elements whose id is a held row are added
// into the accumulation buffer (rows x width, float or double) with atomics.
extern "C" __global__ void fuser_embedding_grad(EmbeddingGradParams p) {
  long long total = p.n_ids * p.width;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
    long long k = i / p.width, e = i % p.width;
    long long id = load_id(p.ids, p.id_bytes, k);
    // first_row >= 0, so id - first_row cannot overflow once id >= first_row.
    if (id < p.first_row || id - p.first_row >= p.rows) continue;
    long long dst = (id - p.first_row) * p.width + e;
    double x = load_float(p.g, p.dtype, i);
    if (p.acc_double) atomicAdd(&((double*)p.acc)[dst], x);
    else atomicAdd(&((float*)p.acc)[dst], (float)x);
  }
}

// one_hot: one thread per output element; exact 1 or 0 in the element type.
extern "C" __global__ void fuser_one_hot(OneHotParams p) {
  long long total = p.n_labels * p.classes;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
    long long k = i / p.classes, c = i % p.classes;
    long long label = load_id(p.labels, p.id_bytes, k);
    store_float(p.out, p.dtype, i, label >= p.first_class && label - p.first_class == c ? 1.0 : 0.0);
  }
}

// Zeroes n accumulation values (float, or double).
extern "C" __global__ void fuser_acc_zero(AccParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    if (p.acc_double) ((double*)p.acc)[i] = 0.0; else ((float*)p.acc)[i] = 0.0f;
  }
}

// Rounds n accumulation values once to the output's element type.
extern "C" __global__ void fuser_acc_store(AccParams p) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += (long long)gridDim.x * blockDim.x) {
    double v = p.acc_double ? ((const double*)p.acc)[i] : (double)((const float*)p.acc)[i];
    store_float(p.out, p.dtype, i, v);
  }
}
