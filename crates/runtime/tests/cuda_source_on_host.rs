//! The CUDA C of the cuda backend's kernels (`cuda::kernels::SOURCE`), compiled for the host
//! with a C++ compiler and a few shims (CUDA's intrinsics, one thread per grid), run on
//! buffers of chosen values: the numeric rules of `numerics.rs` (wrapping, truncating
//! division, saturating casts, f16 overflow, single rounding, NaN-propagating max, integer sums
//! and GEMMs, the math kinds, ordered comparisons into `i1`, `where`, casts to and from `i1`,
//! fills) hold in the GPU source on machines without a GPU. The f16 conversions use the
//! compiler's `_Float16` (round to nearest even, like `cvt.rn.f16.f32`). Skipped (with a note)
//! when no `c++` with `_Float16` is found; `benches/gpu/numerics.sh` checks the real thing.
#![cfg(feature = "cuda")]

mod support;

const SHIM: &str = r#"
#include <cmath>
#include <math.h>
using std::signbit;
#include <cstring>
#include <cstdint>
#include <cstdio>
#define __device__
#define __global__
#define __shared__ static
struct D3{unsigned x, y, z;}; D3 blockDim{1,1,1}, gridDim{1,1,1}, blockIdx{0,0,0}, threadIdx{0,0,0};
static void __syncthreads(){}
static float __uint_as_float(unsigned u){float f; memcpy(&f,&u,4); return f;}
static unsigned __float_as_uint(float f){unsigned u; memcpy(&u,&f,4); return u;}
static float __double2float_rz(double v){ float f=(float)v; if (std::isfinite(v) && std::fabs((double)f)>std::fabs(v)) f=std::nextafter(f,0.0f); return f;}
static float __ll2float_rz(long long v){ float f=(float)v; if (std::fabs((double)f)>std::fabs((double)v)) f=std::nextafter(f,0.0f); return f;}
static float __ll2float_rn(long long v){return (float)v;}
static double __ll2double_rn(long long v){return (double)v;}
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };

"#;

const MAIN: &str = r#"Operand op(void* p, int t, long long s0, long long s1=0){ Operand o{}; o.ptr=(unsigned long long)p; o.dtype=t; o.strides[0]=s0; o.strides[1]=s1; return o; }
double rd(const Operand& o, long long i){ return load(o,i); }
void ew(int opc, Operand out, Operand a, Operand b, long long n){ EwParams p{}; p.n=n; p.shape[0]=n; p.nd=1; p.out=out; p.a=a; p.b=b; p.op=opc; fuser_elementwise(p); }
void ew3(int opc, Operand out, Operand a, Operand b, Operand c, long long n){ EwParams p{}; p.n=n; p.shape[0]=n; p.nd=1; p.out=out; p.a=a; p.b=b; p.c=c; p.op=opc; fuser_elementwise(p); }
int main(){
  // cast f32 -> i32 and i8
  float x[6]={2.5f,-2.5f,2.9f,NAN,1e10f,-1e10f}; int yi[6]; signed char yb[6];
  ew(0, op(yi,6,1), op(x,2,1), op(x,2,1), 6); ew(0, op(yb,4,1), op(x,2,1), op(x,2,1), 6);
  printf("cast_i32"); for(int i=0;i<6;i++) printf(" %d", yi[i]); printf("\n");
  printf("cast_i8"); for(int i=0;i<6;i++) printf(" %d", yb[i]); printf("\n");
  int a[6]={7,-7,7,5,(int)0x80000000,1}, b[6]={2,2,-2,0,-1,3}, q[6];
  ew(4, op(q,6,1), op(a,6,1), op(b,6,1), 6);
  printf("div_i32"); for(int i=0;i<6;i++) printf(" %d", q[i]); printf("\n");
  signed char c[4]={100,-128,127,-100}, d[4]={100,-1,1,-100}, s[4], m[4], ng[4];
  ew(1, op(s,4,1), op(c,4,1), op(d,4,1), 4); ew(3, op(m,4,1), op(c,4,1), op(d,4,1), 4); ew(7, op(ng,4,1), op(c,4,1), op(c,4,1), 4);
  printf("add_i8"); for(int i=0;i<4;i++) printf(" %d", s[i]); printf("\n");
  printf("mul_i8"); for(int i=0;i<4;i++) printf(" %d", m[i]); printf("\n");
  printf("neg_i8"); for(int i=0;i<4;i++) printf(" %d", ng[i]); printf("\n");
  long long e[2]={4294967297LL, (long long)0x8000000000000000ULL}, f[2]={4294967295LL,-1}, g[2], h2[2];
  ew(3, op(g,7,1), op(e,7,1), op(f,7,1), 2); ew(4, op(h2,7,1), op(e,7,1), op(f,7,1), 2);
  printf("mul_i64 %lld %lld div_i64 %lld %lld\n", g[0], g[1], h2[0], h2[1]);
  // f16 300*300 and cast f32->f16
  unsigned short ha[3], hb[3], hp[3]; float hv[3]={300,-300,0.5}, hw[3]={300,300,0.25};
  ew(0, op(ha,1,1), op(hv,2,1), op(hv,2,1), 3); ew(0, op(hb,1,1), op(hw,2,1), op(hw,2,1), 3);
  ew(3, op(hp,1,1), op(ha,1,1), op(hb,1,1), 3);
  printf("mul_f16 %g %g %g\n", rd(op(hp,1,1),0), rd(op(hp,1,1),1), rd(op(hp,1,1),2));
  float big[4]={70000,65519,65520,-1e6}; unsigned short hc[4];
  ew(0, op(hc,1,1), op(big,2,1), op(big,2,1), 4);
  printf("cast_f16 %g %g %g %g\n", rd(op(hc,1,1),0), rd(op(hc,1,1),1), rd(op(hc,1,1),2), rd(op(hc,1,1),3));
  double dv[2]={1.0004882812509095, -1.0004882812509095}; unsigned short dh[2];
  ew(0, op(dh,1,1), op(dv,3,1), op(dv,3,1), 2);
  printf("f64_f16 %.10g %.10g\n", rd(op(dh,1,1),0), rd(op(dh,1,1),1));
  int iv[2]={16842753,-16842753}; unsigned short bh[2];
  ew(0, op(bh,0,1), op(iv,6,1), op(iv,6,1), 2);
  printf("i32_bf16 %.10g %.10g\n", rd(op(bh,0,1),0), rd(op(bh,0,1),1));
  float nn[2]={NAN,1}, one[2]={1,NAN}, mx[2];
  ew(5, op(mx,2,1), op(nn,2,1), op(one,2,1), 2);
  printf("max_nan %g %g\n", mx[0], mx[1]);
  // the math kinds (8..20) on f32, computed in double, rounded once
  float one1[1]={1.0f}, zero1[1]={0.0f}, mz[1]={-0.0f}, ninf[1]={-INFINITY}, two[1]={2.0f}, ten[1]={10.0f}, r1[1];
  printf("math_f32");
  for (int k=8; k<=19; k++) { ew(k, op(r1,2,1), op(one1,2,1), op(one1,2,1), 1); printf(" %.9g", r1[0]); }
  printf("\n");
  ew(14, op(r1,2,1), op(zero1,2,1), op(zero1,2,1), 1); printf("sigmoid0 %g", r1[0]);
  ew(13, op(r1,2,1), op(mz,2,1), op(mz,2,1), 1); printf(" rsqrt_m0 %g", r1[0]);
  ew(17, op(r1,2,1), op(ninf,2,1), op(ninf,2,1), 1); printf(" silu_minf %s", std::isnan(r1[0]) ? "nan" : "number");
  ew(20, op(r1,2,1), op(two,2,1), op(ten,2,1), 1); printf(" pow %g\n", r1[0]);
  unsigned short bx[1], be[1]; float bsrc[1]={1.0f};
  ew(0, op(bx,0,1), op(bsrc,2,1), op(bsrc,2,1), 1); ew(8, op(be,0,1), op(bx,0,1), op(bx,0,1), 1);
  printf("exp_bf16 %g\n", rd(op(be,0,1),0));
  signed char ab[3]={-128,-5,7}, ar[3];
  ew(15, op(ar,4,1), op(ab,4,1), op(ab,4,1), 3);
  printf("abs_i8 %d %d %d\n", ar[0], ar[1], ar[2]);
  // comparisons into i1 (code 8): ordered, NaN false but ne true
  float ca[3]={NAN,1,-0.0f}, cb[3]={1,NAN,0}; unsigned char cr[3];
  printf("cmp");
  for (int k=21; k<=26; k++) { ew(k, op(cr,8,1), op(ca,2,1), op(cb,2,1), 3); printf(" %d%d%d", cr[0], cr[1], cr[2]); }
  int ia[2]={-5,3}, ib[2]={3,3}; unsigned char ir2[2];
  ew(23, op(ir2,8,1), op(ia,6,1), op(ib,6,1), 2); printf(" lt_i32 %d%d\n", ir2[0], ir2[1]);
  // where: i1 condition, exact copy of the selected value
  unsigned char wc[2]={1,0}; float wb[2]={NAN,2}, wd[2]={3,4}, wr[2];
  ew3(27, op(wr,2,1), op(wc,8,1), op(wb,2,1), op(wd,2,1), 2);
  long long lb[2]={-9,8}, ld[2]={7,(long long)0x8000000000000000ULL}, lr[2];
  ew3(27, op(lr,7,1), op(wc,8,1), op(lb,7,1), op(ld,7,1), 2);
  printf("where %g %g %lld %lld\n", wr[0], wr[1], lr[0], lr[1]);
  // casts to and from i1
  float bv[4]={NAN,-0.0f,0.25f,-3}; unsigned char b1[4]; int bi[3]={0,-1,256}; unsigned char b2[3]; float bf[4];
  ew(0, op(b1,8,1), op(bv,2,1), op(bv,2,1), 4); ew(0, op(b2,8,1), op(bi,6,1), op(bi,6,1), 3); ew(0, op(bf,2,1), op(b1,8,1), op(b1,8,1), 4);
  printf("to_i1 %d%d%d%d %d%d%d from_i1 %g %g\n", b1[0], b1[1], b1[2], b1[3], b2[0], b2[1], b2[2], bf[0], bf[1]);
  // max/min of signed zeros
  float z0[1]={0.0f}, zm[1]={-0.0f}, zr[2];
  ew(5, op(zr,2,1), op(z0,2,1), op(zm,2,1), 1); ew(6, op(zr+1,2,1), op(z0,2,1), op(zm,2,1), 1);
  printf("max_min_zero %g %g\n", zr[0], zr[1]);
  // fill: a float rounded once (bf16), an integer wrapped (i8), an i1
  unsigned short fb[2]; signed char fi[2]; unsigned char fl[2];
  FillParams fp{}; fp.n=2; fp.shape[0]=2; fp.nd=1; fp.out=op(fb,0,1); fp.fval=1.00390625; fuser_fill(fp);
  fp.out=op(fi,4,1); fp.is_int=1; fp.ival=200; fuser_fill(fp);
  fp.out=op(fl,8,1); fp.ival=-2; fuser_fill(fp);
  printf("fill %g %d %d\n", rd(op(fb,0,1),1), fi[1], fl[1]);
  // sum i8 over 4 rows of 4x2
  signed char sm[8]={100,100,100,100,100,100,100,-1}; signed char so[2];
  SumParams sp{}; sp.n_out=2; sp.n_red=4; sp.nd=2; sp.nkept=1; sp.shape[0]=2; sp.shape[1]=4;
  sp.input=op(sm,4,1,2); sp.out=op(so,4,1); fuser_sum(sp);
  printf("sum_i8 %d %d\n", so[0], so[1]);
  // host.reduce through fuser_sum: rows of a 2x4 f32 (the second with a NaN), max/min/mean/var
  float rv[8]={1,5,2,0, NAN,-1,7,3}; float ro[2];
  SumParams rp{}; rp.n_out=2; rp.n_red=4; rp.nd=2; rp.nkept=1; rp.shape[0]=2; rp.shape[1]=4;
  rp.input=op(rv,2,4,1); rp.out=op(ro,2,1);
  rp.kind=1; fuser_sum(rp); printf("max_f32 %g %g", ro[0], ro[1]);
  rp.kind=2; fuser_sum(rp); printf(" min_f32 %g %g", ro[0], ro[1]);
  rp.kind=3; rp.count=8; fuser_sum(rp); printf(" mean_f32 %g", ro[0]);
  rp.kind=4; rp.correction=1; fuser_sum(rp); printf(" var_f32 %.6g", ro[0]);
  float bigv[4]={1e6f+1,1e6f+3,1e6f+5,1e6f+7}; float bo[1];
  SumParams bp{}; bp.n_out=1; bp.n_red=4; bp.nd=1; bp.nkept=0; bp.shape[0]=4; bp.input=op(bigv,2,1); bp.out=op(bo,2,1);
  bp.kind=4; bp.correction=0; fuser_sum(bp); printf(" var_big %g", bo[0]);
  long long li[4]={-5, 9, (long long)0x8000000000000000ULL, 3}; long long lo[1];
  SumParams ip{}; ip.n_out=1; ip.n_red=4; ip.nd=1; ip.nkept=0; ip.shape[0]=4; ip.input=op(li,7,1); ip.out=op(lo,7,1);
  ip.kind=1; fuser_sum(ip); printf(" max_i64 %lld", lo[0]); ip.kind=2; fuser_sum(ip); printf(" min_i64 %lld\n", lo[0]);
  // the same through fuser_sum_tiled (one thread: one slot, one lane), both modes
  rp.kind=1; rp.mode=2; fuser_sum_tiled(rp); printf("tiled max_f32 %g %g", ro[0], ro[1]);
  rp.kind=2; rp.mode=1; fuser_sum_tiled(rp); printf(" min_f32 %g %g", ro[0], ro[1]);
  rp.kind=3; rp.count=8; fuser_sum_tiled(rp); printf(" mean_f32 %g", ro[0]);
  sp.mode=1; so[0]=so[1]=0; fuser_sum_tiled(sp); printf(" sum_i8 %d %d", so[0], so[1]);
  ip.kind=1; ip.mode=2; fuser_sum_tiled(ip); printf(" max_i64 %lld\n", lo[0]);
  // int gemm i8: [1x2]*[2x1] with 100*2 + 100*2 = 400 -> -112, accumulate adds 1
  signed char ga[2]={100,100}, gb[2]={2,2}, gc[1]={1};
  IntGemmParams gp{}; gp.m=1; gp.n=1; gp.k=2; gp.a=op(ga,4,2,1); gp.b=op(gb,4,1,1); gp.c=op(gc,4,1,1); gp.accumulate=1;
  fuser_int_gemm(gp); printf("gemm_i8 %d\n", gc[0]);
  // word copy: the heads of a [3 (s), 4 (h), 8 (d)] u16 tensor permuted to [4, 3, 8] in 16-byte
  // words (the parameters copy_vec_params gives), then the same with 4-byte words of 2 elements
  alignas(16) unsigned short cs[96], cd[96], ce[96];
  for (int i = 0; i < 96; i++) { cs[i] = (unsigned short)(i * 7 + 1); cd[i] = 0; ce[i] = 0; }
  CopyVecParams cv{}; cv.nd = 3; cv.width = 16; cv.src = (unsigned long long)cs; cv.dst = (unsigned long long)cd;
  cv.shape[0] = 4; cv.shape[1] = 3; cv.shape[2] = 1; cv.n = 12;
  cv.src_strides[0] = 16; cv.src_strides[1] = 64; cv.src_strides[2] = 16;
  cv.dst_strides[0] = 48; cv.dst_strides[1] = 16; cv.dst_strides[2] = 16;
  fuser_copy_vec(cv);
  cv.width = 4; cv.dst = (unsigned long long)ce; cv.shape[2] = 4; cv.n = 48; cv.src_strides[2] = 4; cv.dst_strides[2] = 4;
  fuser_copy_vec(cv);
  int bad = 0;
  for (int h = 0; h < 4; h++) for (int t = 0; t < 3; t++) for (int d = 0; d < 8; d++) {
    unsigned short want = cs[t * 32 + h * 8 + d];
    bad += cd[h * 24 + t * 8 + d] != want; bad += ce[h * 24 + t * 8 + d] != want;
  }
  printf("copy_vec_bad %d\n", bad);
  return 0;
}
"#;

const EXPECTED: &str = "\
cast_i32 2 -2 2 0 2147483647 -2147483648
cast_i8 2 -2 2 0 127 -128
div_i32 3 -3 -3 -1 -2147483648 0
add_i8 -56 127 -128 56
mul_i8 16 -128 127 16
neg_i8 -100 -128 -127 100
mul_i64 -1 -9223372036854775808 div_i64 1 -9223372036854775808
mul_f16 inf -inf 0.125
cast_f16 inf 65504 inf -inf
f64_f16 1.000976562 -1.000976562
i32_bf16 16908288 -16908288
max_nan nan nan
math_f32 2.71828175 0 0.761594176 0.842700779 1 1 0.731058598 1 1 0.731058598 0.841344774 0.841192007
sigmoid0 0.5 rsqrt_m0 -inf silu_minf nan pow 1024
exp_bf16 2.71875
abs_i8 -128 5 7
cmp 001 110 000 001 000 001 lt_i32 10
where nan 4 -9 -9223372036854775808
to_i1 1011 011 from_i1 1 0
max_min_zero 0 -0
fill 1 -56 1
sum_i8 -112 43
max_f32 5 nan min_f32 0 nan mean_f32 1 var_f32 4.66667 var_big 5 max_i64 9 min_i64 -9223372036854775808
tiled max_f32 5 nan min_f32 0 nan mean_f32 1 sum_i8 -112 43 max_i64 9
gemm_i8 -111
copy_vec_bad 0
";

#[test]
fn the_kernel_source_follows_the_numeric_rules_on_the_host() {
    let source = fuser_runtime::cuda::kernels::SOURCE
        .replace(
            r#"__device__ float f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }"#,
            "__device__ float f16_to_float(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }",
        )
        .replace(
            r#"__device__ unsigned short float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }"#,
            "__device__ unsigned short float_to_f16(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }",
        );
    assert!(!source.contains("asm("), "the f16 conversions of the source changed: update the shims here");
    let Some(out) = support::compile_and_run("cuda-host", "kernel source", "c++17", &format!("{SHIM}{source}{MAIN}"))
    else {
        return;
    };
    assert_eq!(String::from_utf8_lossy(&out.stdout), EXPECTED);
}

const SOFTMAX_SHIM: &str = r#"
#include <cmath>
#include <cstring>
#include <cstdio>
#define __device__
#define __global__
#define __shared__
struct D3{unsigned x;}; D3 blockDim{1}, gridDim{1}, blockIdx{0}, threadIdx{0};
static float __uint_as_float(unsigned u){float f; memcpy(&f,&u,4); return f;}
static unsigned __float_as_uint(float f){unsigned u; memcpy(&u,&f,4); return u;}
static double __longlong_as_double(long long v){double d; memcpy(&d,&v,8); return d;}
static void __syncthreads(){}
"#;

const SOFTMAX_MAIN: &str = r#"
int main(){
  // softmax over the rows of [2, 3] f32, one with large logits; log_softmax in f64; bf16
  float x[6]={1000,1001,1000, 0,0,NAN}; float y[6];
  SoftmaxParams p{}; p.x=(unsigned long long)x; p.y=(unsigned long long)y; p.n_out=2; p.n_red=3; p.nd=2; p.nkept=1;
  p.shape[0]=2; p.shape[1]=3; p.strides[0]=3; p.strides[1]=1; p.dtype=2; p.log=0; fuser_softmax(p);
  printf("softmax %.6f %.6f %.6f %g\n", y[0], y[1], y[2], y[3]);
  double xd[3]={1,2,3}, yd[3];
  SoftmaxParams q{}; q.x=(unsigned long long)xd; q.y=(unsigned long long)yd; q.n_out=1; q.n_red=3; q.nd=1; q.nkept=0;
  q.shape[0]=3; q.strides[0]=1; q.dtype=3; q.log=1; fuser_softmax(q);
  printf("log_softmax %.12f %.12f\n", yd[0], yd[2]);
  // columns of [2, 2] (softmax over axis 0): kept axis 1 (stride 1), then axis 0 (stride 2)
  float c[4]={0,0,0,5}; float cy[4];
  SoftmaxParams r{}; r.x=(unsigned long long)c; r.y=(unsigned long long)cy; r.n_out=2; r.n_red=2; r.nd=2; r.nkept=1;
  r.shape[0]=2; r.shape[1]=2; r.strides[0]=1; r.strides[1]=2; r.dtype=2; fuser_softmax(r);
  printf("columns %.6f %.6f %.6f %.6f\n", cy[0], cy[1], cy[2], cy[3]);
  // cross-entropy: rows [1000, 1000] label 1, ignored, out of range, [0, 0, 0] padded
  float lg[6]={1000,1000, 1,2, 3,4}; long long lb[3]={1,-100,2}; float ls[3];
  CrossEntropyParams e{}; e.logits=(unsigned long long)lg; e.labels=(unsigned long long)lb; e.loss=(unsigned long long)ls;
  e.n=3; e.v=2; e.ignore_index=-100; e.dtype=2; e.out_dtype=2; fuser_cross_entropy(e);
  printf("cross_entropy %.6f %g %g\n", ls[0], ls[1], ls[2]);
  // vocab-parallel: the logits' two halves of columns, parts summed, then finished
  float half0[4]={1000,1000, 1,2}, half1[4]={1000,1000, 3,4}, mx[2]={1000,4}, pa[4], pb[4], ps[4]; double lv[2]; long long lab[2]={3,-100};
  CePhaseParams q0{}; q0.a=(unsigned long long)half0; q0.labels=(unsigned long long)lab; q0.max=(unsigned long long)mx; q0.out=(unsigned long long)pa;
  q0.n=2; q0.v=2; q0.col0=0; q0.dtype=2; q0.out_dtype=2; q0.max_dtype=2; fuser_ce_parts(q0);
  CePhaseParams q1=q0; q1.a=(unsigned long long)half1; q1.out=(unsigned long long)pb; q1.col0=2; fuser_ce_parts(q1);
  for(int i=0;i<4;i++) ps[i]=pa[i]+pb[i];
  CePhaseParams f{}; f.a=(unsigned long long)ps; f.labels=(unsigned long long)lab; f.max=(unsigned long long)mx; f.out=(unsigned long long)lv;
  f.n=2; f.vocab=4; f.ignore_index=-100; f.dtype=2; f.out_dtype=3; f.max_dtype=2; fuser_ce_finish(f);
  printf("vocab_parallel %.6f %g\n", lv[0], lv[1]);
  return 0;
}
"#;

#[test]
fn the_softmax_source_is_stable_on_the_host() {
    let source = fuser_runtime::cuda::ops::softmax::SOURCE
        .replace(
            r#"__device__ float sm_f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }"#,
            "__device__ float sm_f16_to_float(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }",
        )
        .replace(
            r#"__device__ unsigned short sm_float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }"#,
            "__device__ unsigned short sm_float_to_f16(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }",
        );
    // One thread per block: the other lanes of a shuffle are absent and contribute the identity.
    let source = source.replace("return __shfl_xor_sync(0xffffffffu, v, off);", "return identity;");
    assert!(!source.contains("asm(") && !source.contains("__shfl"), "the source changed: update the shims here");
    let Some(out) = support::compile_and_run(
        "cuda-softmax",
        "softmax source",
        "c++17",
        &format!("{SOFTMAX_SHIM}{source}{SOFTMAX_MAIN}"),
    ) else {
        return;
    };
    let e = std::f64::consts::E;
    let (a, b) = (1.0 / (2.0 + e), e / (2.0 + e));
    let ls = |k: f64| k - (1f64.exp() + 2f64.exp() + 3f64.exp()).ln();
    let expected = format!(
        "softmax {a:.6} {b:.6} {a:.6} nan\nlog_softmax {:.12} {:.12}\ncolumns 0.500000 {:.6} 0.500000 {:.6}\ncross_entropy {:.6} 0 nan\nvocab_parallel {:.6} 0\n",
        ls(1.0),
        ls(3.0),
        1.0 / (1.0 + 5f64.exp()),
        5f64.exp() / (1.0 + 5f64.exp()),
        std::f64::consts::LN_2,
        4f64.ln()
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}
