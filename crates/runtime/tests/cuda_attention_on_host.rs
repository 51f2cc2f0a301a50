//! The CUDA C of the `sdpa` kernels (`src/cuda/ops/attention.cu`), compiled for the host with
//! a C++ compiler and shims that run every block of the grid as real threads
//! (`__syncthreads`/`__syncwarp` are a barrier of the block, `__shfl_xor_sync` an exchange
//! through memory between two barriers; all calls of these in the kernel are block-uniform).
//! The source's inline PTX is confined to helpers under `#ifndef FUSER_HOST_SHIM`, which the
//! shims replace: `mma.sync.m16n8k16` and `ldmatrix` (x4, .trans) as exchanges of fragments
//! between the lanes of a warp, decoded with the PTX ISA's layouts; `cp.async` as a checked
//! 16-byte copy (alignment, bounds of the launch's shared memory) with commit/wait doing
//! nothing. Shapes exercise partial key tiles, grouped-query heads, the causal mask with a query
//! offset, D not a multiple of the lanes per query, large scores, an empty key sequence, D = 64
//! and 128 on the tensor-core kernels, and every element type; results are compared with
//! `fuser_runtime::ops::attention::sdpa`.
//! Skipped (with a note) when no `c++` with `_Float16` is found; the device runs the real
//! thing (the cuda backend's `sdpa` against `fuser-run --check`).

mod support;

use fuser_runtime::dtype::{DType, round_to};
use fuser_runtime::ops::attention::{SdpaDims, SdpaOptions, sdpa};
use std::fmt::Write as _;

const SOURCE: &str = include_str!("../src/cuda/ops/attention.cu");

const SHIM: &str = r#"
#define FUSER_HOST_SHIM
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <mutex>
#include <condition_variable>
#include <vector>
#define __device__
#define __global__
#define __shared__
#define __launch_bounds__(...)
struct D3 { unsigned x, y, z; };
thread_local D3 threadIdx{0, 0, 0};
D3 blockIdx{0, 0, 0};
D3 gridDim{1, 1, 1};
static void shim_check(bool ok, const char* what) { if (!ok) { fprintf(stderr, "shim: %s\n", what); abort(); } }
static float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
static double __longlong_as_double(unsigned long long i) { double d; memcpy(&d, &i, 8); return d; }
struct Barrier {
  std::mutex mu; std::condition_variable cv; int n = 0, waiting = 0; long gen = 0;
  void wait() {
    std::unique_lock<std::mutex> g(mu);
    long my = gen;
    if (++waiting == n) { waiting = 0; gen++; cv.notify_all(); return; }
    cv.wait(g, [&] { return gen != my; });
  }
};
static Barrier block_barrier;
static Barrier warp_barrier[32];
static void warp_wait() { warp_barrier[threadIdx.x / 32].wait(); }
static void __syncthreads() { block_barrier.wait(); }
static void __syncwarp() { warp_wait(); }
static double shfl_slots[1024];
template <typename T> static T __shfl_xor_sync(unsigned, T v, int off, int width) {
  unsigned t = threadIdx.x;
  shfl_slots[t] = (double)v;
  warp_wait();
  unsigned src = (t & ~(unsigned)(width - 1)) | ((t ^ off) & (width - 1));
  T r = (T)shfl_slots[src];
  warp_wait();
  return r;
}
"#;

/// `mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}` for the host: every lane of the warp
/// publishes its fragments, then computes its 4 elements of D from the whole A and B, decoded
/// with the PTX ISA's fragment layout ("Matrix Fragments for mma.m16n8k16 with floating point
/// type"), independently of the kernel's own use of it.
const MMA_EMULATION: &str = r#"
struct MmaSlot { unsigned a[4]; unsigned b[2]; };
static MmaSlot mma_slots[1024];
static float mma_half(unsigned reg, int hi, bool bf) {
  unsigned short h = hi ? (unsigned short)(reg >> 16) : (unsigned short)(reg & 0xffffu);
  if (bf) { unsigned u = ((unsigned)h) << 16; float f; memcpy(&f, &u, 4); return f; }
  _Float16 x; memcpy(&x, &h, 2); return (float)x;
}
static void mma_emulated(float* d, const unsigned* a, unsigned b0, unsigned b1, bool bf) {
  unsigned tid = threadIdx.x, base = tid & ~31u;
  for (int r = 0; r < 4; r++) mma_slots[tid].a[r] = a[r];
  mma_slots[tid].b[0] = b0; mma_slots[tid].b[1] = b1;
  warp_wait();
  int lane = tid & 31, g = lane >> 2, t = lane & 3;
  float acc[4];
  for (int r = 0; r < 4; r++) {
    // D element r: row g + 8 (r >= 2), column 2t + (r & 1).
    int row = g + 8 * (r >> 1), col = 2 * t + (r & 1);
    double sum = 0;
    for (int k = 0; k < 16; k++) {
      // A(row, k): lane 4 (row % 8) + (k % 8) / 2, elements a0..a7 = registers 0..3 by
      // (row < 8, k < 8), (row >= 8, k < 8), (row < 8, k >= 8), (row >= 8, k >= 8).
      unsigned ra = mma_slots[base + 4 * (row % 8) + (k % 8) / 2].a[(row >= 8) + 2 * (k >= 8)];
      // B(k, col): lane 4 col + (k % 8) / 2, register k >= 8.
      unsigned rb = mma_slots[base + 4 * col + (k % 8) / 2].b[k >= 8];
      sum += (double)mma_half(ra, k & 1, bf) * (double)mma_half(rb, k & 1, bf);
    }
    acc[r] = (float)sum;
  }
  warp_wait();
  for (int r = 0; r < 4; r++) d[r] += acc[r];
}
__device__ void sdpa_mma_bf16(float* d, const unsigned* a, unsigned b0, unsigned b1) { mma_emulated(d, a, b0, b1, true); }
__device__ void sdpa_mma_f16(float* d, const unsigned* a, unsigned b0, unsigned b1) { mma_emulated(d, a, b0, b1, false); }
"#;

/// The other helpers of the source's `#ifndef FUSER_HOST_SHIM` part, for the host:
/// `ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16` (every lane publishes its row address,
/// then reads its pairs from the 4 matrices per the PTX ISA: lane l, register j = the pair at
/// row l / 4, columns 2 (l % 4) + {0, 1} of matrix j, or with .trans rows 2 (l % 4) + {0, 1},
/// column l / 4), `cp.async` as an immediate 16-byte copy (zeros when not valid), the f16
/// conversions through `_Float16`. Row addresses and copies are checked: 16-byte aligned, inside
/// the dynamic shared memory of the launch (`smem_bytes`).
const HELPER_EMULATION: &str = r#"
extern double sdpa_smem[];
static size_t smem_bytes = 0;
static void shim_in_smem(const void* p, size_t n, const char* what) {
  const char* base = (const char*)sdpa_smem;
  const char* c = (const char*)p;
  shim_check(c >= base && c + n <= base + smem_bytes, what);
  shim_check(((uintptr_t)p) % 16 == 0, what);
}
static const unsigned short* ldsm_slots[1024];
static void ldsm_emulated(unsigned* r, const unsigned short* p, bool trans) {
  unsigned tid = threadIdx.x, base = tid & ~31u;
  shim_in_smem(p, 16, "ldmatrix row address outside shared memory or not 16-byte aligned");
  ldsm_slots[tid] = p;
  warp_wait();
  int lane = tid & 31, g = lane >> 2, t = lane & 3;
  for (int j = 0; j < 4; j++) {
    unsigned short lo, hi;
    if (!trans) {
      const unsigned short* row = ldsm_slots[base + 8 * j + g];
      lo = row[2 * t]; hi = row[2 * t + 1];
    } else {
      lo = ldsm_slots[base + 8 * j + 2 * t][g]; hi = ldsm_slots[base + 8 * j + 2 * t + 1][g];
    }
    r[j] = (unsigned)lo | ((unsigned)hi << 16);
  }
  warp_wait();
}
__device__ void sdpa_ldsm_x4(unsigned* r, const unsigned short* p) { ldsm_emulated(r, p, false); }
__device__ void sdpa_ldsm_x4_trans(unsigned* r, const unsigned short* p) { ldsm_emulated(r, p, true); }
__device__ void sdpa_cp_async16(unsigned short* dst, const void* src, bool valid) {
  shim_in_smem(dst, 16, "cp.async destination outside shared memory or not 16-byte aligned");
  if (valid) { shim_check(((uintptr_t)src) % 16 == 0, "cp.async source not 16-byte aligned"); memcpy(dst, src, 16); }
  else memset(dst, 0, 16);
}
__device__ void sdpa_cp_async_commit() {}
template <int N> __device__ void sdpa_cp_async_wait() {}
__device__ float sdpa_f16_to_float(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
__device__ unsigned short sdpa_float_to_f16(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }
__device__ float sdpa_exp2(float x) { return exp2f(x); }
__device__ unsigned short sdpa_float_to_bf16(float f);
__device__ unsigned sdpa_pack_bf16x2(float lo, float hi) { return sdpa_float_to_bf16(lo) | ((unsigned)sdpa_float_to_bf16(hi) << 16); }
__device__ unsigned sdpa_pack_f16x2(float lo, float hi) { return sdpa_float_to_f16(lo) | ((unsigned)sdpa_float_to_f16(hi) << 16); }
"#;

/// The helpers that the shims define (the functions of the source's `#ifndef FUSER_HOST_SHIM`
/// part must be these).
const SHIMMED: [&str; 12] = [
    "sdpa_f16_to_float",
    "sdpa_float_to_f16",
    "sdpa_mma_bf16",
    "sdpa_mma_f16",
    "sdpa_ldsm_x4",
    "sdpa_ldsm_x4_trans",
    "sdpa_cp_async16",
    "sdpa_cp_async_commit",
    "sdpa_cp_async_wait",
    "sdpa_exp2",
    "sdpa_pack_bf16x2",
    "sdpa_pack_f16x2",
];

const MAIN: &str = r#"
alignas(16) double sdpa_smem[1 << 16];
template <typename K> static void launch(K kernel, SdpaParams p, D3 grid, int threads, size_t shared) {
  shim_check(shared <= sizeof(sdpa_smem), "shared memory of the launch");
  smem_bytes = shared;
  gridDim = grid;
  block_barrier.n = threads;
  for (auto& w : warp_barrier) w.n = 32;
  for (unsigned z = 0; z < grid.z; z++)
    for (unsigned y = 0; y < grid.y; y++)
      for (unsigned x = 0; x < grid.x; x++) {
        blockIdx = D3{x, y, z};
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < (unsigned)threads; t++)
          ts.emplace_back([=] { threadIdx = D3{t, 0, 0}; kernel(p); });
        for (auto& t : ts) t.join();
      }
}
static unsigned blocks(int s, int bq) { return (unsigned)((s + bq - 1) / bq); }
// kernel: 0 SIMT, 1 the first tensor-core kernel, 2 the FA2-style one (as attention.rs launches them).
static void run_case(int id, int kernel, SdpaParams p, void* q, void* k, void* v, size_t out_bytes) {
  std::vector<unsigned char> out(out_bytes + 8);
  std::vector<float> lse((size_t)p.b * p.h * p.s + 1);
  p.q = (unsigned long long)q; p.k = (unsigned long long)k; p.v = (unsigned long long)v;
  p.out = (unsigned long long)out.data(); p.lse = (unsigned long long)lse.data();
  const size_t all = sizeof(sdpa_smem);
  if (kernel == 2) {
    const size_t shared = 2 * 2 * SDPA_FA_BK * (size_t)(sdpa_fa_stride(p.d) + sdpa_fa_stride(p.dv));
    // As attention.rs's fa_kernel: D = Dv = 64 and 128 have their own kernels.
    auto k = p.dtype == 0 ? fuser_sdpa_fa_bf16 : fuser_sdpa_fa_f16;
    if (p.d == 64 && p.dv == 64) k = p.dtype == 0 ? fuser_sdpa_fa_bf16_d64 : fuser_sdpa_fa_f16_d64;
    if (p.d == 128 && p.dv == 128) k = p.dtype == 0 ? fuser_sdpa_fa_bf16_d128 : fuser_sdpa_fa_f16_d128;
    launch(k, p, D3{(unsigned)p.h, blocks(p.s, SDPA_FA_BQ), (unsigned)p.b}, SDPA_FA_THREADS, shared);
  } else if (kernel == 1) {
    launch(p.dtype == 0 ? fuser_sdpa_mma_bf16 : fuser_sdpa_mma_f16, p, D3{blocks(p.s, SDPA_MMA_BQ), (unsigned)p.h, (unsigned)p.b},
           SDPA_MMA_THREADS, all);
  } else {
    D3 grid{blocks(p.s, SDPA_BQ), (unsigned)p.h, (unsigned)p.b};
    if (p.dtype == 3) launch(fuser_sdpa_f64, p, grid, SDPA_THREADS, all);
    else launch(fuser_sdpa_f32, p, grid, SDPA_THREADS, all);
  }
  long long n = (long long)p.b * p.h * p.s;
  printf("case %d out", id);
  for (long long i = 0; i < n * p.dv; i++) {
    double x;
    if (p.dtype == 0) x = sdpa_bf16_to_float(((unsigned short*)out.data())[i]);
    else if (p.dtype == 1) { _Float16 h; memcpy(&h, out.data() + 2 * i, 2); x = (double)h; }
    else if (p.dtype == 2) x = ((float*)out.data())[i];
    else x = ((double*)out.data())[i];
    printf(" %.17g", x);
  }
  printf("\ncase %d lse", id);
  for (long long i = 0; i < n; i++) printf(" %.9g", (double)lse[i]);
  printf("\n");
}
"#;

/// Which kernel of the source a case runs.
#[derive(Clone, Copy, PartialEq)]
enum Kernel {
    Simt,
    /// The first tensor-core kernel (`FUSER_SDPA_KERNEL=v1`).
    Mma,
    /// The FlashAttention-2-style tensor-core kernel (the default).
    Fa,
}

struct Case {
    kernel: Kernel,
    dtype: DType,
    dims: SdpaDims,
    causal: bool,
    scale: Option<f64>,
    query_offset: usize,
    block_k: usize,
    amplitude: f64,
}

fn values(n: usize, seed: u64, amplitude: f64, dtype: DType) -> Vec<f64> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            round_to(dtype, (((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0) * amplitude)
        })
        .collect()
}

/// A C array of the raw elements of `vals` in `dtype`, after `lead` zeros, 16-byte aligned.
fn c_array(name: &str, dtype: DType, vals: &[f64], lead: usize) -> String {
    let (ty, items): (&str, Vec<String>) = match dtype {
        DType::BF16 | DType::F16 => (
            "unsigned short",
            vals.iter()
                .map(|&v| {
                    let mut b = [0u8; 8];
                    dtype.write(&mut b, v);
                    format!("{}", u16::from_le_bytes([b[0], b[1]]))
                })
                .collect(),
        ),
        DType::F32 => ("float", vals.iter().map(|v| format!("{:e}f", *v as f32)).collect()),
        _ => ("double", vals.iter().map(|v| format!("{v:e}")).collect()),
    };
    format!("alignas(16) static {ty} {name}[] = {{{}{}}};\n", "0, ".repeat(lead), items.join(", "))
}

fn code(d: DType) -> i32 {
    match d {
        DType::BF16 => 0,
        DType::F16 => 1,
        DType::F32 => 2,
        _ => 3,
    }
}

#[test]
fn the_attention_kernel_matches_the_reference_on_the_host() {
    let d = |b, h, hkv, s, skv, d, dv| SdpaDims { b, h, hkv, s, skv, d, dv };
    let case = |dtype, dims, causal, scale, query_offset, block_k, amplitude| Case {
        kernel: Kernel::Simt,
        dtype,
        dims,
        causal,
        scale,
        query_offset,
        block_k,
        amplitude,
    };
    let cases = [
        // Partial key tiles (37 = 4 x 8 + 5), GQA 4 over 2, two query blocks (20 = 16 + 4).
        case(DType::F32, d(1, 4, 2, 20, 37, 16, 8), false, Some(0.3), 0, 8, 1.0),
        // Causal with a query offset (the second half of a split sequence), skipped tiles.
        case(DType::F32, d(1, 4, 2, 20, 37, 16, 8), true, None, 5, 8, 1.0),
        // bf16, D not a multiple of 8, multi-query, causal at offset 0, more queries than keys.
        case(DType::BF16, d(2, 2, 1, 17, 11, 40, 24), true, None, 0, 4, 1.0),
        // f16, one tile.
        case(DType::F16, d(1, 2, 2, 3, 5, 8, 8), false, None, 0, 64, 1.0),
        // f64 accumulates in double.
        case(DType::F64, d(1, 2, 2, 5, 9, 4, 3), true, Some(0.5), 1, 4, 1.0),
        // Large scores: stable.
        case(DType::F32, d(1, 1, 1, 4, 12, 8, 4), false, Some(1.0), 0, 5, 300.0),
        // No keys: out 0, lse -inf.
        case(DType::F32, d(1, 2, 1, 3, 0, 4, 4), false, None, 0, 8, 1.0),
        // Tensor cores: two query blocks (70 = 64 + 6: idle warps), 3 key tiles (150 = 2 x 64
        // + 22: a partial one), GQA, causal with an offset (skipped warps and tiles), D != Dv.
        Case { kernel: Kernel::Mma, ..case(DType::BF16, d(1, 4, 2, 70, 150, 32, 16), true, None, 40, 0, 1.0) },
        Case { kernel: Kernel::Mma, ..case(DType::F16, d(2, 2, 1, 20, 37, 16, 48), false, Some(0.2), 0, 0, 1.0) },
        Case { kernel: Kernel::Mma, ..case(DType::F16, d(1, 1, 1, 33, 90, 128, 128), true, None, 0, 0, 1.0) },
        // Large scores on tensor cores.
        Case { kernel: Kernel::Mma, ..case(DType::BF16, d(1, 1, 1, 16, 20, 16, 16), false, Some(1.0), 0, 0, 40.0) },
        // The FA2-style kernel: the same shapes (one query block of 128 with idle warps; 3 key
        // tiles, the last partial; GQA; causal with an offset; D != Dv; Dv = 48 = 3 pairs of
        // n-tiles).
        Case { kernel: Kernel::Fa, ..case(DType::BF16, d(1, 4, 2, 70, 150, 32, 16), true, None, 40, 0, 1.0) },
        Case { kernel: Kernel::Fa, ..case(DType::F16, d(2, 2, 1, 20, 37, 16, 48), false, Some(0.2), 0, 0, 1.0) },
        Case { kernel: Kernel::Fa, ..case(DType::F16, d(1, 1, 1, 33, 90, 128, 128), true, None, 0, 0, 1.0) },
        Case { kernel: Kernel::Fa, ..case(DType::BF16, d(1, 1, 1, 16, 20, 16, 16), false, Some(1.0), 0, 0, 40.0) },
        // D = 128: two query blocks (130 = 128 + 2, scheduled in reverse), 4 key tiles (200 =
        // 3 x 64 + 8), causal at offset 70: full tiles without the mask, diagonal tiles with it,
        // tiles a warp skips, and tiles past the block's last query never loaded.
        Case { kernel: Kernel::Fa, ..case(DType::BF16, d(1, 2, 1, 130, 200, 128, 128), true, None, 70, 0, 1.0) },
        // D = 64 with Dv = 24 (an odd number of n-tiles, unpadded V rows), multi-query, causal at
        // offset 0 with fewer keys than queries, two batches.
        Case { kernel: Kernel::Fa, ..case(DType::F16, d(2, 2, 1, 17, 11, 64, 24), true, None, 0, 0, 1.0) },
        // D = 64 = Dv, not causal, GQA, keys exactly two tiles.
        Case { kernel: Kernel::Fa, ..case(DType::BF16, d(1, 4, 2, 40, 128, 64, 64), false, None, 0, 0, 1.0) },
        // Dv = 8 (one n-tile: ldmatrix's matrices 2 and 3 must stay inside the tile), 3 key
        // tiles (both buffers), causal at offset 66 (the last query attends all 130 keys).
        Case { kernel: Kernel::Fa, ..case(DType::F16, d(1, 2, 1, 64, 130, 16, 8), true, None, 66, 0, 1.0) },
        // No keys: out 0, lse -inf.
        Case { kernel: Kernel::Fa, ..case(DType::BF16, d(1, 2, 1, 3, 0, 16, 8), true, None, 0, 0, 1.0) },
    ];
    let mut arrays = String::new();
    let mut calls = String::from("int main() {\n");
    let mut expected = Vec::new();
    for (id, c) in cases.iter().enumerate() {
        let SdpaDims { b, h, hkv, s, skv, d, dv } = c.dims;
        let q = values(b * h * s * d, 3 * id as u64 + 1, c.amplitude, c.dtype);
        let k = values(b * hkv * skv * d, 3 * id as u64 + 2, 1.0, c.dtype);
        let v = values(b * hkv * skv * dv, 3 * id as u64 + 3, 1.0, c.dtype);
        let scale = c.scale.unwrap_or(c.dims.default_scale());
        let opt = SdpaOptions { causal: c.causal, scale, query_offset: c.query_offset };
        let (out, lse) = sdpa(&q, &k, &v, &c.dims, &opt);
        expected.push((out.iter().map(|&x| round_to(c.dtype, x)).collect::<Vec<_>>(), lse));
        // The FA2-style kernel copies 16-byte pieces: its operands are 16-byte aligned (8
        // leading elements); the others start one element in (only element-aligned).
        let lead = if c.kernel == Kernel::Fa { 8 } else { 1 };
        arrays += &c_array(&format!("q{id}"), c.dtype, &q, lead);
        arrays += &c_array(&format!("k{id}"), c.dtype, &k, lead);
        arrays += &c_array(&format!("v{id}"), c.dtype, &v, lead);
        let _ = writeln!(
            calls,
            "  {{ SdpaParams p{{}}; p.dtype={}; p.b={b}; p.h={h}; p.hkv={hkv}; p.s={s}; p.skv={skv}; p.d={d}; \
             p.dv={dv}; p.causal={}; p.block_k={}; p.scale={scale:e}; p.query_offset={}; \
             run_case({id}, {}, p, q{id} + {lead}, k{id} + {lead}, v{id} + {lead}, {}); }}",
            code(c.dtype),
            c.causal as i32,
            c.block_k,
            c.query_offset,
            c.kernel as i32,
            b * h * s * dv * c.dtype.size(),
        );
    }
    calls += "  return 0;\n}\n";
    // The inline PTX is confined to the helpers of the FUSER_HOST_SHIM part, which the shims
    // define (checked both ways, so that a new asm helper needs a shim here).
    let (shim_at, shim_end) = (
        SOURCE.find("#ifndef FUSER_HOST_SHIM\n").expect("the FUSER_HOST_SHIM part of the source"),
        SOURCE.find("#endif  // FUSER_HOST_SHIM\n").expect("the end of the FUSER_HOST_SHIM part"),
    );
    let outside = format!("{}{}", &SOURCE[..shim_at], &SOURCE[shim_end..]);
    assert!(!outside.contains("asm("), "inline PTX outside the FUSER_HOST_SHIM part of the source");
    let shimmed_part = &SOURCE[shim_at..shim_end];
    let defined: Vec<&str> = shimmed_part
        .lines()
        .filter(|l| l.contains("__device__ ") && l.contains('('))
        .map(|l| {
            let head = &l[..l.find('(').unwrap()];
            head.rsplit(' ').next().unwrap()
        })
        .collect();
    assert_eq!(defined, SHIMMED, "the helpers of the FUSER_HOST_SHIM part changed: update the shims here");
    let source = SOURCE;
    let Some(out) = support::compile_and_run(
        "cuda-attention",
        "attention source",
        "c++17",
        &format!("{SHIM}{MMA_EMULATION}{HELPER_EMULATION}{source}{MAIN}{arrays}{calls}"),
    ) else {
        return;
    };
    assert!(out.status.success(), "the host run failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    for (id, (c, (want_out, want_lse))) in cases.iter().zip(&expected).enumerate() {
        let mut read = |what: &str| -> Vec<f64> {
            let line = lines.next().unwrap_or_else(|| panic!("case {id}: no {what} line"));
            let prefix = format!("case {id} {what}");
            let rest = line.strip_prefix(&prefix).unwrap_or_else(|| panic!("case {id}: unexpected line {line}"));
            rest.split_whitespace().map(|t| t.parse::<f64>().unwrap()).collect()
        };
        let (got_out, got_lse) = (read("out"), read("lse"));
        // bf16/f16: the kernel rounds an f32 result, the reference an f64 one: one unit apart
        // at most. f32 and f64 accumulate in their own precision.
        let tol = match c.dtype {
            DType::BF16 => 1.0 / 128.0,
            DType::F16 => 1.0 / 1024.0,
            DType::F32 => 2e-6,
            _ => 1e-13,
        };
        assert_eq!(got_out.len(), want_out.len(), "case {id}: out length");
        for (i, (g, w)) in got_out.iter().zip(want_out).enumerate() {
            assert!((g - w).abs() <= tol * w.abs().max(1.0), "case {id}: out[{i}] = {g}, reference {w}");
        }
        assert_eq!(got_lse.len(), want_lse.len(), "case {id}: lse length");
        for (i, (g, w)) in got_lse.iter().zip(want_lse).enumerate() {
            let ok = if w.is_infinite() { g == w } else { (g - w).abs() <= 2e-6 * w.abs().max(1.0) };
            assert!(ok, "case {id}: lse[{i}] = {g}, reference {w}");
        }
    }
}

/// The source compiles with NVRTC as the cuda backend compiles it (`--std=c++17`, a virtual
/// architecture), for sm_80 and sm_90, with all ten kernels and the tensor-core, `ldmatrix` and
/// `cp.async` instructions in the PTX. Skipped (with a note) where no NVRTC library is found (set `LD_LIBRARY_PATH` to a
/// CUDA 13 `lib` folder, e.g. the `nvidia-cuda-nvrtc` wheel's, to run it without a GPU).
#[cfg(feature = "cuda")]
#[test]
fn the_attention_source_compiles_with_nvrtc() {
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        eprintln!("skipped: no NVRTC library");
        return;
    }
    assert_eq!(fuser_runtime::cuda::ops::attention::SOURCE, SOURCE);
    for arch in ["compute_80", "compute_90"] {
        let opts = cudarc::nvrtc::CompileOptions {
            options: vec![format!("--gpu-architecture={arch}"), "--std=c++17".into()],
            ..Default::default()
        };
        let ptx = cudarc::nvrtc::compile_ptx_with_opts(SOURCE, opts)
            .unwrap_or_else(|e| panic!("NVRTC ({arch}) refuses the attention source: {e}"))
            .to_src();
        let entries = [
            "fuser_sdpa_f32",
            "fuser_sdpa_f64",
            "fuser_sdpa_mma_bf16",
            "fuser_sdpa_mma_f16",
            "fuser_sdpa_fa_bf16",
            "fuser_sdpa_fa_f16",
        ];
        for entry in entries {
            assert!(ptx.contains(&format!(".entry {entry}(")), "{arch}: no entry {entry}");
        }
        for instruction in [
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
            "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
            "cp.async.cg.shared.global",
            "cp.async.wait_group",
        ] {
            assert!(ptx.contains(instruction), "{arch}: no {instruction}");
        }
    }
}
