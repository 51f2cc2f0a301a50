//! The device kernels of the CUDA backend that are not GEMMs: strided copy (with element type
//! conversion), elementwise arithmetic and sums over dimensions. One CUDA C source, compiled
//! once per process with NVRTC for the device's architecture, loaded once per device.
//!
//! Every kernel takes one parameter struct by value ([`EwParams`], [`SumParams`]): up to
//! [`MAX_DIMS`] dimensions, per operand a device address, an element type code and strides in
//! elements. The numeric rules are those of `numerics.rs` (docs/dev/runtime.md, "Numeric
//! semantics"): float arithmetic runs in `double` (the kernels are memory bound; bf16/f16 are
//! widened exactly and every result is rounded once when stored, to nearest even, overflowing
//! to infinity: the correctly rounded result, as the cpu backend's); integer outputs compute
//! in 64-bit integers wrapping through unsigned types (no signed overflow in C) and keep the
//! element width's low bits; division truncates toward zero with `x / 0 = -1`; float ->
//! integer truncates and saturates with NaN 0 (explicit clamping); `i1` (code 8, one byte)
//! stores `x != 0` (NaN gives 1). The math kinds (`exp` ... `gelu_tanh`, `pow`) compute in
//! `double` with CUDA's libdevice functions (`erf`, `tanh`, `pow`: within 2 ulp of `double`)
//! and round once when stored, so a bf16/f16/f32 result is the correctly rounded value in all
//! but the rarest ties, well inside the check's tolerances; comparisons compute in the
//! operands' type and store 0/1; `where` copies the selected value. `fuser_sum` also computes
//! `host.reduce` (max/min, mean, two-pass variance in `double`). Sums of floats accumulate in
//! `double`, of integers in wrapping 64-bit integers; integer GEMMs (`fuser_int_gemm`, one
//! thread per output element) likewise. The layout of the structs here and in the
//! source must agree field for field (`#[repr(C)]`, 8-byte fields first).

use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use fuser_dialects::host::{ElementwiseKind, ReduceKind};

/// The most dimensions a kernel operand may have.
pub const MAX_DIMS: usize = 8;

/// One strided operand.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Operand {
    pub ptr: u64,
    pub strides: [i64; MAX_DIMS],
    pub dtype: i32,
    pub pad: i32,
}

/// Parameters of `fuser_elementwise`: `out = op(a, b)` over `shape` (`b` unused for unary
/// ops; `op` 0 is a copy of `a`); `where` is `out = a ? b : c` (`c` unused by the others).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct EwParams {
    pub n: i64,
    pub shape: [i64; MAX_DIMS],
    pub out: Operand,
    pub a: Operand,
    pub b: Operand,
    pub c: Operand,
    pub nd: i32,
    pub op: i32,
}

/// Parameters of `fuser_fill`: every element of `out` over `shape` set to `ival` (an integer
/// value, `is_int` 1) or `fval` (a float, rounded once by the store).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct FillParams {
    pub n: i64,
    pub shape: [i64; MAX_DIMS],
    pub out: Operand,
    pub fval: f64,
    pub ival: i64,
    pub nd: i32,
    pub is_int: i32,
}

/// Parameters of `fuser_copy_vec`: a same-type copy between two strided views whose innermost
/// runs are contiguous, moved in `width`-byte words (16, 8 or 4): `n` words over `shape` (the
/// last dimension counts the words of one run), strides in **bytes** (see [`copy_vec_params`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CopyVecParams {
    pub n: i64,
    pub shape: [i64; MAX_DIMS],
    pub src_strides: [i64; MAX_DIMS],
    pub dst_strides: [i64; MAX_DIMS],
    pub src: u64,
    pub dst: u64,
    pub nd: i32,
    pub width: i32,
}

/// The word copy of `src` into `dst` (same element type and shape), when both views' innermost
/// runs are contiguous and the run, the addresses and every stride are multiples of 4 bytes or
/// more (a permutation of the heads of a `[S, H, D]` tensor: runs of `D` elements); `None`
/// when the element-by-element kernel must do it. Dimensions of extent 1 are dropped and
/// neighbours contiguous in both views merged, so the kernel divides as little as possible.
pub fn copy_vec_params(
    shape: &[usize],
    src_strides: &[usize],
    dst_strides: &[usize],
    elem_bytes: usize,
    src: u64,
    dst: u64,
) -> Option<CopyVecParams> {
    // (extent, src stride, dst stride) in elements, outermost first, extents above 1.
    let mut dims: Vec<(usize, usize, usize)> = Vec::new();
    for ((&e, &ss), &ds) in shape.iter().zip(src_strides).zip(dst_strides) {
        if e == 0 {
            return None;
        }
        if e == 1 {
            continue;
        }
        match dims.last_mut() {
            Some(last) if last.1 == ss * e && last.2 == ds * e => *last = (last.0 * e, ss, ds),
            _ => dims.push((e, ss, ds)),
        }
    }
    let &(inner, si, di) = dims.last()?;
    if si != 1 || di != 1 {
        return None;
    }
    let run = inner * elem_bytes;
    let width = [16usize, 8, 4].into_iter().find(|&w| {
        run % w == 0
            && src % w as u64 == 0
            && dst % w as u64 == 0
            && dims.iter().rev().skip(1).all(|&(_, s, d)| (s * elem_bytes) % w == 0 && (d * elem_bytes) % w == 0)
    })?;
    if dims.len() > MAX_DIMS {
        return None;
    }
    let mut p = CopyVecParams { src, dst, nd: dims.len() as i32, width: width as i32, ..Default::default() };
    let last = dims.len() - 1;
    for (d, &(e, s, t)) in dims.iter().enumerate() {
        let (e, s, t) = if d == last { (run / width, width, width) } else { (e, s * elem_bytes, t * elem_bytes) };
        p.shape[d] = i64::try_from(e).ok()?;
        p.src_strides[d] = i64::try_from(s).ok()?;
        p.dst_strides[d] = i64::try_from(t).ok()?;
    }
    p.n = p.shape[..dims.len()].iter().product();
    Some(p)
}

/// Parameters of `fuser_sum`: `out[kept] = reduction over reduced of input` (`kind`: see
/// [`reduce_code`]; `count` divides a mean, `correction` a variance). `shape`/`in_strides` list
/// the kept dimensions first (`nkept` of them), then the reduced ones; `out_strides` has the
/// kept ones only.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SumParams {
    pub n_out: i64,
    pub n_red: i64,
    pub shape: [i64; MAX_DIMS],
    pub input: Operand,
    pub out: Operand,
    pub count: f64,
    pub correction: i64,
    pub nd: i32,
    pub nkept: i32,
    pub kind: i32,
    /// `fuser_sum_tiled`'s layout ([`SUM_COLUMNS`] or [`SUM_ROWS`]); `fuser_sum` ignores it.
    pub mode: i32,
}

/// `fuser_sum_tiled` with a block's x threads on 32 consecutive outputs and its y threads
/// splitting the reduction (the innermost kept axis is contiguous: column sums).
pub const SUM_COLUMNS: i32 = 1;
/// `fuser_sum_tiled` with a block's y threads on 32 outputs and each output's reduction split
/// over the 32 x threads of a warp (contiguous reduced elements: row sums).
pub const SUM_ROWS: i32 = 2;

/// The `kind` code of `fuser_sum`: 0 sum, 1 max, 2 min, 3 mean, 4 var (with the count or
/// correction it needs).
pub fn reduce_code(kind: Option<ReduceKind>) -> (i32, f64, i64) {
    match kind {
        None => (0, 0.0, 0),
        Some(ReduceKind::Max) => (1, 0.0, 0),
        Some(ReduceKind::Min) => (2, 0.0, 0),
        Some(ReduceKind::Mean { count }) => (3, count as f64, 0),
        Some(ReduceKind::Var { correction }) => (4, 0.0, correction),
    }
}

/// Which kernel reduces: `None` for `fuser_sum` (one thread per output: variances, and
/// reductions shorter than [`TILED_MIN`]), else `fuser_sum_tiled`'s mode: [`SUM_COLUMNS`] when the
/// innermost kept axis is contiguous and the innermost reduced one is not (`in_strides` lists
/// the kept axes' input strides first, `nkept` of them), [`SUM_ROWS`] otherwise.
pub fn sum_layout(kind_code: i32, n_red: i64, in_strides: &[usize], nkept: usize) -> Option<i32> {
    if kind_code == 4 || n_red < TILED_MIN {
        return None;
    }
    let inner_kept = nkept.checked_sub(1).map(|k| in_strides[k]);
    let inner_red = in_strides.last().copied();
    Some(if inner_kept == Some(1) && inner_red != Some(1) { SUM_COLUMNS } else { SUM_ROWS })
}

/// The shortest reduction `fuser_sum_tiled` takes (shorter ones: one thread per output).
pub const TILED_MIN: i64 = 64;

/// Parameters of `fuser_int_gemm`: `c (+)= a · b` on integer matrices (`a` is `m x k`, `b`
/// `k x n`, `c` `m x n`; each operand's `strides[0]`/`strides[1]` are its row/column strides),
/// wrapping (cuBLAS has no wrapping integer GEMM). One thread per element of `c`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct IntGemmParams {
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub a: Operand,
    pub b: Operand,
    pub c: Operand,
    pub accumulate: i32,
    pub pad: i32,
}

/// The element type code shared with the source.
pub fn dtype_code(d: DType) -> i32 {
    match d {
        DType::BF16 => 0,
        DType::F16 => 1,
        DType::F32 => 2,
        DType::F64 => 3,
        DType::I8 => 4,
        DType::I16 => 5,
        DType::I32 => 6,
        DType::I64 => 7,
        DType::I1 => 8,
    }
}

/// The op code of an elementwise kind (0 is a plain copy/convert).
pub fn op_code(k: ElementwiseKind) -> i32 {
    match k {
        ElementwiseKind::Cast => 0,
        ElementwiseKind::Add => 1,
        ElementwiseKind::Sub => 2,
        ElementwiseKind::Mul => 3,
        ElementwiseKind::Div => 4,
        ElementwiseKind::Max => 5,
        ElementwiseKind::Min => 6,
        ElementwiseKind::Neg => 7,
        ElementwiseKind::Exp => 8,
        ElementwiseKind::Log => 9,
        ElementwiseKind::Tanh => 10,
        ElementwiseKind::Erf => 11,
        ElementwiseKind::Sqrt => 12,
        ElementwiseKind::Rsqrt => 13,
        ElementwiseKind::Sigmoid => 14,
        ElementwiseKind::Abs => 15,
        ElementwiseKind::Reciprocal => 16,
        ElementwiseKind::Silu => 17,
        ElementwiseKind::Gelu => 18,
        ElementwiseKind::GeluTanh => 19,
        ElementwiseKind::Pow => 20,
        ElementwiseKind::Eq => 21,
        ElementwiseKind::Ne => 22,
        ElementwiseKind::Lt => 23,
        ElementwiseKind::Le => 24,
        ElementwiseKind::Gt => 25,
        ElementwiseKind::Ge => 26,
        ElementwiseKind::Where => 27,
    }
}

/// Fills an operand from a base address (already offset to element 0), a type and strides.
pub fn operand(ptr: u64, dtype: DType, strides: &[usize]) -> RtResult<Operand> {
    if strides.len() > MAX_DIMS {
        return Err(RtError::new(format!(
            "the cuda kernels take at most {MAX_DIMS} dimensions, got {}",
            strides.len()
        )));
    }
    let mut o = Operand { ptr, dtype: dtype_code(dtype), ..Operand::default() };
    for (d, &s) in strides.iter().enumerate() {
        o.strides[d] = s as i64;
    }
    Ok(o)
}

/// Threads per block and the grid for `n` elements (grid-stride loops cover the rest).
pub fn launch_dims(n: i64) -> (u32, u32) {
    let threads = 256u32;
    let blocks = ((n.max(1) as u64).div_ceil(threads as u64)).min(65535 * 8) as u32;
    (blocks.max(1), threads)
}

/// The CUDA C source of the kernels.
pub const SOURCE: &str = r#"
#define MAX_DIMS 8
struct Operand { unsigned long long ptr; long long strides[MAX_DIMS]; int dtype; int pad; };
struct EwParams { long long n; long long shape[MAX_DIMS]; Operand out; Operand a; Operand b; Operand c; int nd; int op; };
struct FillParams { long long n; long long shape[MAX_DIMS]; Operand out; double fval; long long ival; int nd; int is_int; };
struct CopyVecParams { long long n; long long shape[MAX_DIMS]; long long src_strides[MAX_DIMS]; long long dst_strides[MAX_DIMS];
  unsigned long long src, dst; int nd; int width; };
struct SumParams { long long n_out; long long n_red; long long shape[MAX_DIMS]; Operand input; Operand out; double count; long long correction; int nd; int nkept; int kind; int mode; };
struct IntGemmParams { long long m; long long n; long long k; Operand a; Operand b; Operand c; int accumulate; int pad; };

__device__ float bf16_to_float(unsigned short h) { return __uint_as_float(((unsigned)h) << 16); }
__device__ unsigned short float_to_bf16(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
__device__ float f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ unsigned short float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
// double -> float rounded to odd: rounding that to f16/bf16 (to nearest even) then equals one
// rounding of the double (f32 keeps more than 11 + 2 bits), as the cpu backend's half crate does.
__device__ float to_float_odd(double v) {
  float f = __double2float_rz(v);
  if ((double)f != v) f = __uint_as_float(__float_as_uint(f) | 1u);
  return f;
}
__device__ float ll_to_float_odd(long long v) {
  float f = __ll2float_rz(v);
  if ((long long)f != v) f = __uint_as_float(__float_as_uint(f) | 1u);
  return f;
}
__device__ bool is_int(int t) { return t >= 4; }

__device__ double load(const Operand& o, long long off) {
  switch (o.dtype) {
    case 0: return (double)bf16_to_float(((const unsigned short*)o.ptr)[off]);
    case 1: return (double)f16_to_float(((const unsigned short*)o.ptr)[off]);
    case 2: return (double)((const float*)o.ptr)[off];
    case 3: return ((const double*)o.ptr)[off];
    case 4: return (double)((const signed char*)o.ptr)[off];
    case 5: return (double)((const short*)o.ptr)[off];
    case 6: return (double)((const int*)o.ptr)[off];
    case 8: return ((const unsigned char*)o.ptr)[off] != 0 ? 1.0 : 0.0;
    default: return (double)((const long long*)o.ptr)[off];
  }
}
// Float -> integer of type t: truncated toward zero, saturated at the type's range, NaN 0
// (Rust's `as`, fusion.cast's rule).
__device__ long long float_to_int(double v, int t) {
  if (v != v) return 0;
  double lo, hi;
  switch (t) {
    case 4: lo = -128.0; hi = 127.0; break;
    case 5: lo = -32768.0; hi = 32767.0; break;
    case 6: lo = -2147483648.0; hi = 2147483647.0; break;
    default:
      if (v >= 9223372036854775808.0) return 0x7fffffffffffffffLL;
      if (v < -9223372036854775808.0) return (long long)(1ULL << 63);
      return (long long)v;
  }
  v = trunc(v);
  v = v < lo ? lo : (v > hi ? hi : v);
  return (long long)v;
}
// An integer element, exactly (a float source converts as a cast to i64).
__device__ long long load_int(const Operand& o, long long off) {
  switch (o.dtype) {
    case 4: return (long long)((const signed char*)o.ptr)[off];
    case 5: return (long long)((const short*)o.ptr)[off];
    case 6: return (long long)((const int*)o.ptr)[off];
    case 7: return ((const long long*)o.ptr)[off];
    case 8: return ((const unsigned char*)o.ptr)[off] != 0 ? 1LL : 0LL;
    default: return float_to_int(load(o, off), 7);
  }
}
// Stores a double: floats round to nearest even once (overflow to infinity), integers truncate
// and saturate.
__device__ void store(const Operand& o, long long off, double v) {
  switch (o.dtype) {
    case 0: ((unsigned short*)o.ptr)[off] = float_to_bf16(to_float_odd(v)); break;
    case 1: ((unsigned short*)o.ptr)[off] = float_to_f16(to_float_odd(v)); break;
    case 2: ((float*)o.ptr)[off] = (float)v; break;
    case 3: ((double*)o.ptr)[off] = v; break;
    case 4: ((signed char*)o.ptr)[off] = (signed char)float_to_int(v, 4); break;
    case 5: ((short*)o.ptr)[off] = (short)float_to_int(v, 5); break;
    case 6: ((int*)o.ptr)[off] = (int)float_to_int(v, 6); break;
    // i1: v != 0 (NaN != 0 holds: NaN gives 1, as torch's bool()).
    case 8: ((unsigned char*)o.ptr)[off] = (v != 0.0) ? 1 : 0; break;
    default: ((long long*)o.ptr)[off] = float_to_int(v, 7); break;
  }
}
// Stores an integer: integer types keep its low bits (two's complement wrapping, through
// unsigned types: no signed overflow), floats round to nearest even once.
__device__ void store_int(const Operand& o, long long off, long long v) {
  switch (o.dtype) {
    case 0: ((unsigned short*)o.ptr)[off] = float_to_bf16(ll_to_float_odd(v)); break;
    case 1: ((unsigned short*)o.ptr)[off] = float_to_f16(ll_to_float_odd(v)); break;
    case 2: ((float*)o.ptr)[off] = __ll2float_rn(v); break;
    case 3: ((double*)o.ptr)[off] = __ll2double_rn(v); break;
    case 4: ((unsigned char*)o.ptr)[off] = (unsigned char)(unsigned long long)v; break;
    case 5: ((unsigned short*)o.ptr)[off] = (unsigned short)(unsigned long long)v; break;
    case 6: ((unsigned int*)o.ptr)[off] = (unsigned int)(unsigned long long)v; break;
    case 8: ((unsigned char*)o.ptr)[off] = v != 0 ? 1 : 0; break;
    default: ((unsigned long long*)o.ptr)[off] = (unsigned long long)v; break;
  }
}
// Float arithmetic in double (each result rounded once to the element type by `store`); max
// and min propagate NaN.
__device__ double apply(int op, double x, double y) {
  switch (op) {
    case 1: return x + y;
    case 2: return x - y;
    case 3: return x * y;
    case 4: return x / y;
    // NaN propagates; +0 is larger than -0 (torch.maximum).
    case 5: return (x != x || y != y) ? (x + y) : (x == y ? (signbit(x) ? y : x) : (x > y ? x : y));
    case 6: return (x != x || y != y) ? (x + y) : (x == y ? (signbit(x) ? x : y) : (x < y ? x : y));
    case 7: return -x;
    case 8: return exp(x);
    case 9: return log(x);
    case 10: return tanh(x);
    case 11: return erf(x);
    case 12: return sqrt(x);
    case 13: return 1.0 / sqrt(x);
    case 14: return 1.0 / (1.0 + exp(-x));
    case 15: return fabs(x);
    case 16: return 1.0 / x;
    case 17: return x / (1.0 + exp(-x));
    case 18: return x * 0.5 * (1.0 + erf(x * 0.7071067811865476));
    case 19: return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    case 20: return pow(x, y);
    default: return x;
  }
}
__device__ bool is_compare(int op) { return op >= 21 && op <= 26; }
// Ordered comparisons (NaN: false, but `ne` true), as C's operators.
__device__ bool compare(int op, double x, double y) {
  switch (op) {
    case 21: return x == y;
    case 22: return x != y;
    case 23: return x < y;
    case 24: return x <= y;
    case 25: return x > y;
    default: return x >= y;
  }
}
__device__ bool compare_int(int op, long long x, long long y) {
  switch (op) {
    case 21: return x == y;
    case 22: return x != y;
    case 23: return x < y;
    case 24: return x <= y;
    case 25: return x > y;
    default: return x >= y;
  }
}
// Integer arithmetic on sign-extended values, wrapping through unsigned types (the store keeps
// the element width's low bits); division truncates toward zero, x / 0 = -1, MIN / -1 = MIN.
__device__ long long apply_int(int op, long long x, long long y) {
  unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
  switch (op) {
    case 1: return (long long)(ux + uy);
    case 2: return (long long)(ux - uy);
    case 3: return (long long)(ux * uy);
    case 4: return y == 0 ? -1LL : (y == -1 ? (long long)(0ULL - ux) : x / y);
    case 5: return x > y ? x : y;
    case 6: return x < y ? x : y;
    case 7: return (long long)(0ULL - ux);
    case 15: return x < 0 ? (long long)(0ULL - ux) : x;
    default: return x;
  }
}

extern "C" __global__ void fuser_elementwise(EwParams p) {
  long long step = (long long)blockDim.x * gridDim.x;
  bool binary = (p.op >= 1 && p.op <= 6) || p.op == 20;
  bool ternary = p.op == 27;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += step) {
    long long rest = i, oo = 0, oa = 0, ob = 0, oc = 0;
    for (int d = p.nd - 1; d >= 0; --d) {
      long long c = rest % p.shape[d];
      rest /= p.shape[d];
      oo += c * p.out.strides[d];
      oa += c * p.a.strides[d];
      ob += c * p.b.strides[d];
      if (ternary) oc += c * p.c.strides[d];
    }
    if (p.op == 0) {
      // A cast or copy: one conversion from the source value (integers exactly).
      if (is_int(p.a.dtype)) store_int(p.out, oo, load_int(p.a, oa));
      else store(p.out, oo, load(p.a, oa));
    } else if (ternary) {
      // where: the selected value, copied exactly.
      bool cond = load_int(p.a, oa) != 0;
      if (is_int(p.out.dtype)) store_int(p.out, oo, cond ? load_int(p.b, ob) : load_int(p.c, oc));
      else store(p.out, oo, cond ? load(p.b, ob) : load(p.c, oc));
    } else if (is_compare(p.op)) {
      // In the operands' type; the i1 output holds 0 or 1.
      bool r = is_int(p.a.dtype) ? compare_int(p.op, load_int(p.a, oa), load_int(p.b, ob))
                                 : compare(p.op, load(p.a, oa), load(p.b, ob));
      store_int(p.out, oo, r ? 1 : 0);
    } else if (is_int(p.out.dtype)) {
      long long x = load_int(p.a, oa);
      long long y = binary ? load_int(p.b, ob) : 0;
      store_int(p.out, oo, apply_int(p.op, x, y));
    } else {
      double x = load(p.a, oa);
      double y = binary ? load(p.b, ob) : 0.0;
      store(p.out, oo, apply(p.op, x, y));
    }
  }
}

extern "C" __global__ void fuser_fill(FillParams p) {
  long long step = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += step) {
    long long rest = i, oo = 0;
    for (int d = p.nd - 1; d >= 0; --d) {
      long long c = rest % p.shape[d];
      rest /= p.shape[d];
      oo += c * p.out.strides[d];
    }
    if (p.is_int) store_int(p.out, oo, p.ival);
    else store(p.out, oo, p.fval);
  }
}

// A same-type strided copy in words of 16, 8 or 4 bytes (see copy_vec_params): one index
// decomposition per word instead of per element, and no conversion.
template <typename W> __device__ void copy_words(const CopyVecParams& p) {
  long long step = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += step) {
    long long rest = i, so = 0, dof = 0;
    for (int d = p.nd - 1; d >= 0; --d) {
      long long c = rest % p.shape[d];
      rest /= p.shape[d];
      so += c * p.src_strides[d];
      dof += c * p.dst_strides[d];
    }
    *(W*)(p.dst + dof) = *(const W*)(p.src + so);
  }
}
extern "C" __global__ void fuser_copy_vec(CopyVecParams p) {
  if (p.width == 16) copy_words<uint4>(p);
  else if (p.width == 8) copy_words<uint2>(p);
  else copy_words<unsigned>(p);
}

extern "C" __global__ void fuser_int_gemm(IntGemmParams p) {
  long long step = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.m * p.n; i += step) {
    long long row = i / p.n, col = i % p.n;
    long long oc = row * p.c.strides[0] + col * p.c.strides[1];
    unsigned long long acc = p.accumulate ? (unsigned long long)load_int(p.c, oc) : 0ULL;
    for (long long kk = 0; kk < p.k; ++kk) {
      unsigned long long x = (unsigned long long)load_int(p.a, row * p.a.strides[0] + kk * p.a.strides[1]);
      unsigned long long y = (unsigned long long)load_int(p.b, kk * p.b.strides[0] + col * p.b.strides[1]);
      acc += x * y;
    }
    store_int(p.c, oc, (long long)acc);
  }
}

// The input offset of reduced element r of the slice starting at `base`.
__device__ long long reduced_offset(const SumParams& p, long long base, long long r) {
  if (p.nd - p.nkept == 1) return base + r * p.input.strides[p.nd - 1];
  long long off = base;
  for (int d = p.nd - 1; d >= p.nkept; --d) {
    long long c = r % p.shape[d];
    r /= p.shape[d];
    off += c * p.input.strides[d];
  }
  return off;
}
// One thread per output element. kind 0: sum (floats in double, integers wrapping); 1/2: max/min
// (NaN propagates, integers exact); 3: mean (the double sum divided by `count`); 4: variance,
// two-pass in double (the mean, then the squared deviations) divided by max(0, n - correction).
extern "C" __global__ void fuser_sum(SumParams p) {
  long long step = (long long)blockDim.x * gridDim.x;
  bool ints = is_int(p.out.dtype);
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n_out; i += step) {
    long long rest = i, oi = 0, oo = 0;
    for (int d = p.nkept - 1; d >= 0; --d) {
      long long c = rest % p.shape[d];
      rest /= p.shape[d];
      oi += c * p.input.strides[d];
      oo += c * p.out.strides[d];
    }
    if (p.kind == 1 || p.kind == 2) {
      if (p.n_red == 0) continue;  // no identity: the verifiers refuse a max over an empty axis
      if (ints) {
        long long best = load_int(p.input, reduced_offset(p, oi, 0));
        for (long long r = 1; r < p.n_red; ++r) {
          long long v = load_int(p.input, reduced_offset(p, oi, r));
          best = p.kind == 1 ? (v > best ? v : best) : (v < best ? v : best);
        }
        store_int(p.out, oo, best);
      } else {
        double best = load(p.input, reduced_offset(p, oi, 0));
        for (long long r = 1; r < p.n_red; ++r) best = apply(p.kind == 1 ? 5 : 6, best, load(p.input, reduced_offset(p, oi, r)));
        store(p.out, oo, best);
      }
      continue;
    }
    double acc = 0.0;
    unsigned long long iacc = 0;
    for (long long r = 0; r < p.n_red; ++r) {
      long long off = reduced_offset(p, oi, r);
      if (ints) iacc += (unsigned long long)load_int(p.input, off);
      else acc += load(p.input, off);
    }
    if (p.kind == 4) {
      double mean = acc / (double)p.n_red, dev = 0.0;
      for (long long r = 0; r < p.n_red; ++r) {
        double x = load(p.input, reduced_offset(p, oi, r)) - mean;
        dev += x * x;
      }
      double divisor = (double)p.n_red - (double)p.correction;
      store(p.out, oo, dev / (divisor > 0.0 ? divisor : 0.0));
    } else if (p.kind == 3) store(p.out, oo, acc / p.count);
    else if (ints) store_int(p.out, oo, (long long)iacc);
    else store(p.out, oo, acc);
  }
}

// Partial results of fuser_sum_tiled: `f` (floats, in double) or `i` (integers; sums wrap),
// `has` false while no element has been seen (max/min have no identity).
struct SumPart { double f; long long i; int has; };
__device__ SumPart sum_combine(int kind, bool ints, SumPart a, SumPart b) {
  if (!b.has) return a;
  if (!a.has) return b;
  if (kind == 1 || kind == 2) {
    if (ints) a.i = kind == 1 ? (b.i > a.i ? b.i : a.i) : (b.i < a.i ? b.i : a.i);
    else a.f = apply(kind == 1 ? 5 : 6, a.f, b.f);
  } else {
    a.f += b.f;
    a.i = (long long)((unsigned long long)a.i + (unsigned long long)b.i);
  }
  return a;
}
// Sum, max, min or mean (kinds 0-3; the variance stays with fuser_sum) with the reduction
// spread over threads, for long reductions. A block holds 32 output slots of `lanes` threads
// each: SUM_COLUMNS puts the slots on threadIdx.x (consecutive outputs, coalesced when the
// innermost kept axis is contiguous) and the lanes on threadIdx.y; SUM_ROWS the slots on
// threadIdx.y and the lanes on threadIdx.x (a warp reads 32 consecutive reduced elements).
// Lane l takes reduced elements l, l + lanes, ...; the lanes' partials combine in a fixed tree
// in shared memory, so the result does not depend on timing (floats sum in double as in
// fuser_sum, in another order; integer sums wrap, max/min propagate NaN).
extern "C" __global__ void fuser_sum_tiled(SumParams p) {
  __shared__ double sf[32][33];
  __shared__ long long si[32][33];
  __shared__ int sh[32][33];
  bool cols = p.mode == 1;
  int slot = cols ? threadIdx.x : threadIdx.y, lane = cols ? threadIdx.y : threadIdx.x;
  int slots = cols ? blockDim.x : blockDim.y, lanes = cols ? blockDim.y : blockDim.x;
  bool ints = is_int(p.out.dtype);
  for (long long tile = blockIdx.x; tile * slots < p.n_out; tile += gridDim.x) {
    long long i = tile * slots + slot, oi = 0, oo = 0;
    SumPart acc = {0.0, 0, 0};
    if (i < p.n_out) {
      long long rest = i;
      for (int d = p.nkept - 1; d >= 0; --d) {
        long long c = rest % p.shape[d];
        rest /= p.shape[d];
        oi += c * p.input.strides[d];
        oo += c * p.out.strides[d];
      }
      for (long long r = lane; r < p.n_red; r += lanes) {
        long long off = reduced_offset(p, oi, r);
        SumPart v = {0.0, 0, 1};
        if (ints) v.i = load_int(p.input, off); else v.f = load(p.input, off);
        acc = sum_combine(p.kind, ints, acc, v);
      }
    }
    sf[lane][slot] = acc.f; si[lane][slot] = acc.i; sh[lane][slot] = acc.has;
    __syncthreads();
    for (int s = lanes / 2; s > 0; s >>= 1) {
      if (lane < s) {
        SumPart a = {sf[lane][slot], si[lane][slot], sh[lane][slot]};
        SumPart b = {sf[lane + s][slot], si[lane + s][slot], sh[lane + s][slot]};
        a = sum_combine(p.kind, ints, a, b);
        sf[lane][slot] = a.f; si[lane][slot] = a.i; sh[lane][slot] = a.has;
      }
      __syncthreads();
    }
    if (lane == 0 && i < p.n_out) {
      SumPart a = {sf[0][slot], si[0][slot], sh[0][slot]};
      // max/min of nothing: no identity (the verifiers refuse it); a sum of nothing is 0.
      if (!((p.kind == 1 || p.kind == 2) && !a.has)) {
        if (p.kind == 3) store(p.out, oo, a.f / p.count);
        else if (ints) store_int(p.out, oo, a.i);
        else store(p.out, oo, a.f);
      }
    }
    __syncthreads();
  }
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_layouts_match_the_source() {
        // 8-byte fields first, then the two ints: no padding holes the C compiler would fill
        // differently.
        assert_eq!(std::mem::size_of::<Operand>(), 8 + 8 * MAX_DIMS + 8);
        assert_eq!(std::mem::size_of::<SumParams>(), 16 + 8 * MAX_DIMS + 2 * std::mem::size_of::<Operand>() + 16 + 16);
        assert_eq!(std::mem::size_of::<EwParams>(), 8 + 8 * MAX_DIMS + 4 * std::mem::size_of::<Operand>() + 8);
        assert_eq!(std::mem::size_of::<FillParams>(), 8 + 8 * MAX_DIMS + std::mem::size_of::<Operand>() + 24);
        assert_eq!(std::mem::size_of::<IntGemmParams>(), 24 + 3 * std::mem::size_of::<Operand>() + 8);
    }

    #[test]
    fn operands_reject_too_many_dimensions() {
        assert!(operand(0, DType::F32, &[1; MAX_DIMS + 1]).is_err());
        let o = operand(16, DType::BF16, &[4, 1]).unwrap();
        assert_eq!((o.ptr, o.dtype, o.strides[0], o.strides[1]), (16, 0, 4, 1));
    }

    #[test]
    fn long_reductions_pick_the_coalesced_layout() {
        // [2048, 4096] over rows (kept axis 1 first, stride 1; reduced axis 0, stride 4096).
        assert_eq!(sum_layout(0, 2048, &[1, 4096], 1), Some(SUM_COLUMNS));
        // The same over columns: the reduced axis is contiguous.
        assert_eq!(sum_layout(0, 4096, &[4096, 1], 1), Some(SUM_ROWS));
        // Everything into one value, and max/min/mean alike.
        assert_eq!(sum_layout(1, 100, &[1], 0), Some(SUM_ROWS));
        assert_eq!(sum_layout(3, 100, &[1, 100], 1), Some(SUM_COLUMNS));
        // Variances and short reductions stay one thread per output.
        assert_eq!(sum_layout(4, 2048, &[1, 4096], 1), None);
        assert_eq!(sum_layout(0, TILED_MIN - 1, &[1, 4096], 1), None);
    }

    #[test]
    fn launch_covers_small_and_large_sizes() {
        assert_eq!(launch_dims(0), (1, 256));
        assert_eq!(launch_dims(257), (2, 256));
        assert_eq!(launch_dims(1 << 40).0, 65535 * 8);
    }
}

#[cfg(test)]
mod copy_vec_tests {
    use super::copy_vec_params;

    /// Emulates `fuser_copy_vec` on host memory (byte addresses relative to two slices).
    fn run(p: &super::CopyVecParams, src: &[u8], dst: &mut [u8]) {
        for i in 0..p.n {
            let (mut rest, mut so, mut dof) = (i, 0i64, 0i64);
            for d in (0..p.nd as usize).rev() {
                let c = rest % p.shape[d];
                rest /= p.shape[d];
                so += c * p.src_strides[d];
                dof += c * p.dst_strides[d];
            }
            let w = p.width as usize;
            dst[dof as usize..dof as usize + w].copy_from_slice(&src[so as usize..so as usize + w]);
        }
    }

    #[test]
    fn a_head_permutation_moves_in_16_byte_words_and_equals_the_element_copy() {
        // [S=3, H=4, D=8] bf16 viewed as [H, S, D] (a permute), into a dense [H, S, D].
        let (s, h, d) = (3usize, 4usize, 8usize);
        let src: Vec<u8> = (0..s * h * d * 2).map(|i| (i * 31 % 251) as u8).collect();
        let p = copy_vec_params(&[h, s, d], &[d, h * d, 1], &[s * d, d, 1], 2, 0, 0).unwrap();
        assert_eq!((p.width, p.nd, p.n), (16, 3, 12));
        let mut dst = vec![0u8; src.len()];
        run(&p, &src, &mut dst);
        for (hh, ss, dd) in (0..h).flat_map(|a| (0..s).flat_map(move |b| (0..d).map(move |c| (a, b, c)))) {
            let (from, to) = ((ss * h * d + hh * d + dd) * 2, (hh * s * d + ss * d + dd) * 2);
            assert_eq!(dst[to..to + 2], src[from..from + 2]);
        }
    }

    #[test]
    fn word_width_follows_runs_addresses_and_strides() {
        // Runs of 6 f16 = 12 bytes: 4-byte words; a 2-byte offset: no word copy.
        assert_eq!(copy_vec_params(&[4, 6], &[8, 1], &[6, 1], 2, 0, 0).unwrap().width, 4);
        assert!(copy_vec_params(&[4, 6], &[8, 1], &[6, 1], 2, 2, 0).is_none());
        // Innermost not contiguous in the target: a transpose, left to the element kernel.
        assert!(copy_vec_params(&[4, 8], &[8, 1], &[1, 4], 2, 0, 0).is_none());
        // Contiguous neighbours merge into one run: [2, 3, 8] dense -> one dimension of 6 words.
        let p = copy_vec_params(&[2, 3, 8], &[24, 8, 1], &[24, 8, 1], 4, 0, 0).unwrap();
        assert_eq!((p.nd, p.width, p.shape[0]), (1, 16, 12));
        // Extent-1 dimensions are dropped; an empty view is no word copy.
        assert_eq!(copy_vec_params(&[1, 4, 1, 8], &[99, 16, 7, 1], &[32, 8, 5, 1], 4, 0, 0).unwrap().nd, 2);
        assert!(copy_vec_params(&[0, 8], &[8, 1], &[8, 1], 4, 0, 0).is_none());
    }
}
