//! The device kernels of the CUDA backend that are not GEMMs: strided copy (with element type
//! conversion), elementwise arithmetic and sums over dimensions. One CUDA C source, compiled
//! once per process with NVRTC for the device's architecture, loaded once per device.
//!
//! Every kernel takes one parameter struct by value ([`EwParams`], [`SumParams`]): up to
//! [`MAX_DIMS`] dimensions, per operand a device address, an element type code and strides in
//! elements. Arithmetic runs in `double` (the kernels are memory bound; bf16/f16 are widened
//! exactly and rounded once when stored, to nearest even). The layout of the structs here and
//! in the source must agree field for field (`#[repr(C)]`, 8-byte fields first).

use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use fuser_dialects::host::ElementwiseKind;

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
/// ops; `op` 0 is a copy of `a`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct EwParams {
    pub n: i64,
    pub shape: [i64; MAX_DIMS],
    pub out: Operand,
    pub a: Operand,
    pub b: Operand,
    pub nd: i32,
    pub op: i32,
}

/// Parameters of `fuser_sum`: `out[kept] (+)= sum over reduced of input`. `shape`/`in_strides`
/// list the kept dimensions first (`nkept` of them), then the reduced ones; `out_strides` has
/// the kept ones only.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SumParams {
    pub n_out: i64,
    pub n_red: i64,
    pub shape: [i64; MAX_DIMS],
    pub input: Operand,
    pub out: Operand,
    pub nd: i32,
    pub nkept: i32,
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
struct EwParams { long long n; long long shape[MAX_DIMS]; Operand out; Operand a; Operand b; int nd; int op; };
struct SumParams { long long n_out; long long n_red; long long shape[MAX_DIMS]; Operand input; Operand out; int nd; int nkept; };

__device__ float bf16_to_float(unsigned short h) { return __uint_as_float(((unsigned)h) << 16); }
__device__ unsigned short float_to_bf16(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
__device__ float f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ unsigned short float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }

__device__ double load(const Operand& o, long long off) {
  switch (o.dtype) {
    case 0: return (double)bf16_to_float(((const unsigned short*)o.ptr)[off]);
    case 1: return (double)f16_to_float(((const unsigned short*)o.ptr)[off]);
    case 2: return (double)((const float*)o.ptr)[off];
    case 3: return ((const double*)o.ptr)[off];
    case 4: return (double)((const signed char*)o.ptr)[off];
    case 5: return (double)((const short*)o.ptr)[off];
    case 6: return (double)((const int*)o.ptr)[off];
    default: return (double)((const long long*)o.ptr)[off];
  }
}
__device__ void store(const Operand& o, long long off, double v) {
  switch (o.dtype) {
    case 0: ((unsigned short*)o.ptr)[off] = float_to_bf16((float)v); break;
    case 1: ((unsigned short*)o.ptr)[off] = float_to_f16((float)v); break;
    case 2: ((float*)o.ptr)[off] = (float)v; break;
    case 3: ((double*)o.ptr)[off] = v; break;
    case 4: ((signed char*)o.ptr)[off] = (signed char)llrint(v); break;
    case 5: ((short*)o.ptr)[off] = (short)llrint(v); break;
    case 6: ((int*)o.ptr)[off] = (int)llrint(v); break;
    default: ((long long*)o.ptr)[off] = llrint(v); break;
  }
}
__device__ double apply(int op, double x, double y) {
  switch (op) {
    case 1: return x + y;
    case 2: return x - y;
    case 3: return x * y;
    case 4: return x / y;
    case 5: return x > y ? x : y;
    case 6: return x < y ? x : y;
    case 7: return -x;
    default: return x;
  }
}

extern "C" __global__ void fuser_elementwise(EwParams p) {
  long long step = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += step) {
    long long rest = i, oo = 0, oa = 0, ob = 0;
    for (int d = p.nd - 1; d >= 0; --d) {
      long long c = rest % p.shape[d];
      rest /= p.shape[d];
      oo += c * p.out.strides[d];
      oa += c * p.a.strides[d];
      ob += c * p.b.strides[d];
    }
    double x = load(p.a, oa);
    double y = (p.op >= 1 && p.op <= 6) ? load(p.b, ob) : 0.0;
    store(p.out, oo, apply(p.op, x, y));
  }
}

extern "C" __global__ void fuser_sum(SumParams p) {
  long long step = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < p.n_out; i += step) {
    long long rest = i, oi = 0, oo = 0;
    for (int d = p.nkept - 1; d >= 0; --d) {
      long long c = rest % p.shape[d];
      rest /= p.shape[d];
      oi += c * p.input.strides[d];
      oo += c * p.out.strides[d];
    }
    double acc = 0.0;
    for (long long r = 0; r < p.n_red; ++r) {
      long long rr = r, off = oi;
      for (int d = p.nd - 1; d >= p.nkept; --d) {
        long long c = rr % p.shape[d];
        rr /= p.shape[d];
        off += c * p.input.strides[d];
      }
      acc += load(p.input, off);
    }
    store(p.out, oo, acc);
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
        assert_eq!(std::mem::size_of::<EwParams>(), 8 + 8 * MAX_DIMS + 3 * std::mem::size_of::<Operand>() + 8);
        assert_eq!(std::mem::size_of::<SumParams>(), 16 + 8 * MAX_DIMS + 2 * std::mem::size_of::<Operand>() + 8);
    }

    #[test]
    fn operands_reject_too_many_dimensions() {
        assert!(operand(0, DType::F32, &[1; MAX_DIMS + 1]).is_err());
        let o = operand(16, DType::BF16, &[4, 1]).unwrap();
        assert_eq!((o.ptr, o.dtype, o.strides[0], o.strides[1]), (16, 0, 4, 1));
    }

    #[test]
    fn launch_covers_small_and_large_sizes() {
        assert_eq!(launch_dims(0), (1, 256));
        assert_eq!(launch_dims(257), (2, 256));
        assert_eq!(launch_dims(1 << 40).0, 65535 * 8);
    }
}
