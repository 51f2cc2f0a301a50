//! The CUDA C of the norm kernels (`cuda::ops::norm::SOURCE`) compiled for the host with a C++
//! compiler and shims (CUDA's intrinsics; a block's threads as host threads with a barrier for
//! `__syncthreads`, the blocks one after the other, so the shared-memory tree reduction and the
//! grid-stride loop over rows run as on the device), run on chosen rows and compared with `fuser_runtime::ops::norm`, the reference semantics:
//! layer_norm with weight and bias, mean and rstd in f32 and f64, rms_norm in bf16 and f16
//! (rounded once), a large-mean row (catastrophic cancellation), NaN and infinity. Skipped
//! (with a note) when no `c++` with `_Float16` is found.
#![cfg(feature = "cuda")]

mod support;

use fuser_runtime::ops::norm::{layer_norm, rms_norm};

const SHIM: &str = r#"
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <barrier>
#include <thread>
#include <vector>
#define __device__
#define __global__
#define __shared__
#define __align__(n) __attribute__((aligned(n)))
struct D3{unsigned x;}; D3 blockDim{1}, gridDim{1}, blockIdx{0}; thread_local D3 threadIdx{0};
static std::barrier<>* block_barrier = nullptr;
static void __syncthreads() { block_barrier->arrive_and_wait(); }
// Runs f as `blocks` blocks of `threads` threads (blocks in turn, a block's threads at once).
template <class F> static void launch(unsigned blocks, unsigned threads, F f) {
  gridDim.x = blocks; blockDim.x = threads;
  for (unsigned b = 0; b < blocks; ++b) {
    blockIdx.x = b;
    std::barrier<> bar(threads); block_barrier = &bar;
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < threads; ++t) ts.emplace_back([&, t] { threadIdx.x = t; f(); });
    for (auto& t : ts) t.join();
  }
}
static float __uint_as_float(unsigned u){float f; memcpy(&f,&u,4); return f;}
static unsigned __float_as_uint(float f){unsigned u; memcpy(&u,&f,4); return u;}
"#;

const MAIN: &str = r#"
__attribute__((aligned(8))) unsigned char norm_smem[64];
static unsigned short h16(float f){ _Float16 x=(_Float16)f; unsigned short h; memcpy(&h,&x,2); return h; }
static unsigned short b16(float f){ return float_to_bf16(f); }
NormParams np(void* x, void* w, void* b, void* y, void* m, void* r, long long rows, long long cols, double eps, int t, int rms, int vec = 0){
  NormParams p{}; p.vec=vec; p.x=(unsigned long long)x; p.w=(unsigned long long)w; p.b=(unsigned long long)b; p.y=(unsigned long long)y;
  p.mean=(unsigned long long)m; p.rstd=(unsigned long long)r; p.rows=rows; p.cols=cols; p.eps=eps; p.dtype=t; p.rms=rms; return p; }
int main(){
  // layer_norm f32, 2 rows of 5, weight and bias, statistics.
  float x[10]={1,2,3,4,5, -1,0.5f,2,7,-3}, w[5]={1,0.5f,2,-1,1}, b[5]={0,1,0,-1,0.25f}, y[10], m[2], r[2];
  launch(1, 4, [&] { fuser_norm_f32(np(x,w,b,y,m,r,2,5,1e-5,2,0)); });
  printf("ln_f32"); for(int i=0;i<10;i++) printf(" %.17g", y[i]); printf(" |"); for(int i=0;i<2;i++) printf(" %.17g %.17g", m[i], r[i]); printf("\n");
  // f64 with a large mean: 1e8 + {1,2,3,4}, no weight.
  double xd[4]={1e8+1,1e8+2,1e8+3,1e8+4}, yd[4], md[1], rd[1];
  launch(2, 2, [&] { fuser_norm_f64(np(xd,0,0,yd,md,rd,1,4,0.0,3,0)); });
  printf("ln_f64"); for(int i=0;i<4;i++) printf(" %.17g", yd[i]); printf(" | %.17g %.17g\n", md[0], rd[0]);
  // f32 with a large mean: 1e4 + {0.25, 0.5, 0.75, 1}.
  float xl[4]={10000.25f,10000.5f,10000.75f,10001.0f}, yl[4];
  launch(1, 8, [&] { fuser_norm_f32(np(xl,0,0,yl,0,0,1,4,0.0,2,0)); });
  printf("ln_big"); for(int i=0;i<4;i++) printf(" %.17g", yl[i]); printf("\n");
  // rms_norm bf16 with weight and rstd; f16 without.
  float xs[6]={1,-2,3, 0.5f,0.25f,-4}, ws[3]={1,2,0.5f};
  unsigned short xb[6], wb[3], yb[6], xh[6], yh[6]; float rs[2];
  for(int i=0;i<6;i++){ xb[i]=b16(xs[i]); xh[i]=h16(xs[i]); } for(int i=0;i<3;i++) wb[i]=b16(ws[i]);
  launch(2, 4, [&] { fuser_norm_f32(np(xb,wb,0,yb,0,rs,2,3,1e-6,0,1)); });
  printf("rms_bf16"); for(int i=0;i<6;i++) printf(" %.17g", bf16_to_float(yb[i])); printf(" | %.17g %.17g\n", rs[0], rs[1]);
  launch(1, 1, [&] { fuser_norm_f32(np(xh,0,0,yh,0,0,2,3,1e-6,1,1)); });
  printf("rms_f16"); for(int i=0;i<6;i++) printf(" %.17g", f16_to_float(yh[i])); printf("\n");
  // The 4-at-a-time path: 3 rows of 8, f32 with weight and bias and bf16 rms_norm with weight;
  // the same rows through the scalar path must give the same values.
  alignas(16) float xv[24], wv[8], bv[8], yv[24], ys[24], mv[3], rv[3];
  for(int i=0;i<24;i++) xv[i]=(float)((i*7)%11)-5.0f+0.125f*i; for(int i=0;i<8;i++){ wv[i]=0.5f+0.25f*i; bv[i]=(float)i-3.0f; }
  launch(2, 2, [&] { fuser_norm_f32(np(xv,wv,bv,yv,mv,rv,3,8,1e-5,2,0,1)); });
  launch(2, 4, [&] { fuser_norm_f32(np(xv,wv,bv,ys,0,0,3,8,1e-5,2,0,0)); });
  printf("vec_f32"); for(int i=0;i<24;i++) printf(" %.17g", yv[i]); printf(" |"); for(int i=0;i<3;i++) printf(" %.17g %.17g", mv[i], rv[i]); printf("\n");
  printf("scalar_f32"); for(int i=0;i<24;i++) printf(" %.17g", ys[i]); printf("\n");
  alignas(16) unsigned short xbv[24], wbv[8], ybv[24]; float rbv[3];
  for(int i=0;i<24;i++) xbv[i]=b16(xv[i]); for(int i=0;i<8;i++) wbv[i]=b16(wv[i]);
  launch(1, 2, [&] { fuser_norm_f32(np(xbv,wbv,0,ybv,0,rbv,3,8,1e-6,0,1,1)); });
  printf("vec_bf16"); for(int i=0;i<24;i++) printf(" %.17g", bf16_to_float(ybv[i])); printf(" |"); for(int i=0;i<3;i++) printf(" %.17g", rbv[i]); printf("\n");
  // NaN and infinity rows.
  float xn[6]={1,NAN,3, 1,INFINITY,3}, yn[6], yr[6];
  launch(2, 4, [&] { fuser_norm_f32(np(xn,0,0,yn,0,0,2,3,1e-5,2,0)); });
  launch(2, 4, [&] { fuser_norm_f32(np(xn,0,0,yr,0,0,2,3,1e-5,2,1)); });
  printf("nan_ln"); for(int i=0;i<6;i++) printf(" %g", yn[i]); printf("\n");
  printf("nan_rms"); for(int i=0;i<6;i++) printf(" %g", yr[i]); printf("\n");
  return 0;
}
"#;

fn parse_line(out: &str, tag: &str) -> Vec<f64> {
    let line =
        out.lines().find(|l| l.split_whitespace().next() == Some(tag)).unwrap_or_else(|| panic!("no {tag} in {out}"));
    line.split_whitespace().skip(1).filter(|t| *t != "|").map(|t| t.parse::<f64>().unwrap()).collect()
}

fn assert_close(tag: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{tag}: {got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        let ok = (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= tol * w.abs().max(1.0);
        assert!(ok, "{tag}: {got:?} vs {want:?}");
    }
}

fn bf16(v: f64) -> f64 {
    half::bf16::from_f64(v).to_f64()
}

fn f16(v: f64) -> f64 {
    half::f16::from_f64(v).to_f64()
}

#[test]
fn the_norm_kernels_compute_the_reference_semantics_on_the_host() {
    let source = fuser_runtime::cuda::ops::norm::SOURCE
        .replace(
            r#"__device__ float f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }"#,
            "__device__ float f16_to_float(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }",
        )
        .replace(
            r#"__device__ unsigned short float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }"#,
            "__device__ unsigned short float_to_f16(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }",
        );
    assert!(!source.contains("asm("), "the f16 conversions of the source changed: update the shims here");
    let Some(out) =
        support::compile_and_run("cuda-norm-host", "norm kernel source", "c++20", &format!("{SHIM}{source}{MAIN}"))
    else {
        return;
    };
    let out = String::from_utf8_lossy(&out.stdout).to_string();

    let x = [1.0, 2.0, 3.0, 4.0, 5.0, -1.0, 0.5, 2.0, 7.0, -3.0];
    let (w, b) = ([1.0, 0.5, 2.0, -1.0, 1.0], [0.0, 1.0, 0.0, -1.0, 0.25]);
    let want = layer_norm(&x, 5, Some(&w), Some(&b), 1e-5);
    let mut stats = Vec::new();
    for i in 0..2 {
        stats.extend([want.mean[i], want.rstd[i]]);
    }
    let got = parse_line(&out, "ln_f32");
    assert_close("ln_f32 y", &got[..10], &want.y, 1e-6);
    assert_close("ln_f32 stats", &got[10..], &stats, 1e-6);

    let xd: Vec<f64> = (1..=4).map(|i| 1e8 + i as f64).collect();
    let want = layer_norm(&xd, 4, None, None, 0.0);
    let got = parse_line(&out, "ln_f64");
    assert_close("ln_f64 y", &got[..4], &want.y, 1e-12);
    assert_close("ln_f64 stats", &got[4..], &[want.mean[0], want.rstd[0]], 1e-12);

    let xl = [10000.25, 10000.5, 10000.75, 10001.0];
    let want = layer_norm(&xl, 4, None, None, 0.0);
    assert_close("ln_big", &parse_line(&out, "ln_big"), &want.y, 1e-6);

    let xs = [1.0, -2.0, 3.0, 0.5, 0.25, -4.0];
    let want = rms_norm(&xs, 3, Some(&[1.0, 2.0, 0.5]), 1e-6);
    let got = parse_line(&out, "rms_bf16");
    let rounded: Vec<f64> = want.y.iter().map(|&v| bf16(v)).collect();
    assert_close("rms_bf16 y", &got[..6], &rounded, 0.0);
    assert_close("rms_bf16 rstd", &got[6..], &want.rstd, 1e-6);
    let want = rms_norm(&xs, 3, None, 1e-6);
    let rounded: Vec<f64> = want.y.iter().map(|&v| f16(v)).collect();
    assert_close("rms_f16", &parse_line(&out, "rms_f16"), &rounded, 0.0);

    let xv: Vec<f64> = (0..24).map(|i| ((i * 7) % 11) as f64 - 5.0 + 0.125 * i as f64).collect();
    let wv: Vec<f64> = (0..8).map(|i| 0.5 + 0.25 * i as f64).collect();
    let bv: Vec<f64> = (0..8).map(|i| i as f64 - 3.0).collect();
    let want = layer_norm(&xv, 8, Some(&wv), Some(&bv), 1e-5);
    let got = parse_line(&out, "vec_f32");
    let mut stats = Vec::new();
    for i in 0..3 {
        stats.extend([want.mean[i], want.rstd[i]]);
    }
    assert_close("vec_f32 y", &got[..24], &want.y, 1e-6);
    assert_close("vec_f32 stats", &got[24..], &stats, 1e-6);
    assert_close("scalar_f32 y", &parse_line(&out, "scalar_f32"), &want.y, 1e-6);
    let xb: Vec<f64> = xv.iter().map(|&v| bf16(v)).collect();
    let wb: Vec<f64> = wv.iter().map(|&v| bf16(v)).collect();
    let want = rms_norm(&xb, 8, Some(&wb), 1e-6);
    let got = parse_line(&out, "vec_bf16");
    let rounded: Vec<f64> = want.y.iter().map(|&v| bf16(v)).collect();
    assert_close("vec_bf16 y", &got[..24], &rounded, 0.0);
    assert_close("vec_bf16 rstd", &got[24..], &want.rstd, 1e-6);

    let xn = [1.0, f64::NAN, 3.0, 1.0, f64::INFINITY, 3.0];
    assert_close("nan_ln", &parse_line(&out, "nan_ln"), &layer_norm(&xn, 3, None, None, 1e-5).y, 0.0);
    assert_close("nan_rms", &parse_line(&out, "nan_rms"), &rms_norm(&xn, 3, None, 1e-5).y, 0.0);
}
