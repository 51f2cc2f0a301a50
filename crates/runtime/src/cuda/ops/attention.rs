//! `sdpa` on the GPU: launches the SIMT flash-attention kernel of `attention.cu` (its header
//! comment has the design). One block of `THREADS` threads per `BQ` query rows of one
//! (batch, head); keys and values stream through shared memory in tiles of `block_k` rows,
//! chosen so that a block's tiles and score scratch fit in 48 KiB. Head dimensions up to
//! `8 x 32 = 256` (`D` and `Dv`).
//!
//! Expected performance: the kernel never materializes the `S x Skv` scores (memory is linear
//! in the sequence) and reads each key/value tile once per 16 queries, but its dot products
//! run on CUDA cores in f32 (no tensor cores): on an H200 expect on the order of 10-20 TFLOP/s
//! for long sequences, an order of magnitude below flash-attention's tensor-core kernels; the
//! causal mask skips the tiles above the diagonal (about half the work).

use super::module::{Module, launch};
use super::{CudaCall, CudaImpl};
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::ops::attention::{SdpaDims, sdpa_scale};

/// The CUDA C source (NVRTC, no includes).
pub const SOURCE: &str = include_str!("attention.cu");

/// Lanes per query row, query rows per block, threads per block, elements of `D`/`Dv` per lane
/// (as `SDPA_TPQ`, `SDPA_BQ`, `SDPA_THREADS`, `SDPA_MAX_PER_LANE` in the source).
const TPQ: usize = 8;
const BQ: usize = 16;
const THREADS: u32 = (TPQ * BQ) as u32;
const MAX_PER_LANE: usize = 32;
/// Dynamic shared memory per block.
const SHARED_BYTES: usize = 48 * 1024;

/// The parameters of `fuser_sdpa_f32`/`fuser_sdpa_f64`, field for field as `SdpaParams` in
/// the source (8-byte fields first).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SdpaParams {
    pub q: u64,
    pub k: u64,
    pub v: u64,
    pub out: u64,
    pub lse: u64,
    pub query_offset: i64,
    pub scale: f64,
    pub dtype: i32,
    pub b: i32,
    pub h: i32,
    pub hkv: i32,
    pub s: i32,
    pub skv: i32,
    pub d: i32,
    pub dv: i32,
    pub causal: i32,
    pub block_k: i32,
}

pub static SDPA_CUDA: CudaImpl = CudaImpl { name: "sdpa", run: run_sdpa };

/// Keys per shared-memory tile: `block_k (D + Dv + BQ)` accumulation-type values fit in
/// [`SHARED_BYTES`], at most 64.
pub fn block_k(dims: &SdpaDims, acc_bytes: usize) -> usize {
    (SHARED_BYTES / (acc_bytes * (dims.d + dims.dv + BQ))).clamp(1, 64)
}

fn int(what: &str, x: usize) -> RtResult<i32> {
    i32::try_from(x).map_err(|_| RtError::new(format!("sdpa on cuda: {what} = {x} does not fit the kernel's int")))
}

fn run_sdpa(call: &CudaCall<'_>) -> RtResult<()> {
    let [q, k, v] = call.inputs else { return Err(RtError::new("sdpa expects 3 inputs")) };
    let dims = SdpaDims::of_shapes(&q.shape, &k.shape, &v.shape).map_err(RtError::new)?;
    if dims.d > TPQ * MAX_PER_LANE || dims.dv > TPQ * MAX_PER_LANE {
        return Err(RtError::new(format!(
            "sdpa on cuda: head dimensions D = {} and Dv = {} must be at most {}",
            dims.d,
            dims.dv,
            TPQ * MAX_PER_LANE
        )));
    }
    let (out, lse) = match call.outputs {
        [o] => (o, 0),
        [o, l] => (o, l.addr()),
        _ => return Err(RtError::new("sdpa expects 1 or 2 outputs")),
    };
    let numel = dims.b * dims.h * dims.s;
    if numel == 0 || dims.dv == 0 && lse == 0 {
        return Ok(());
    }
    let (func, acc_bytes) = if q.dtype == DType::F64 { ("fuser_sdpa_f64", 8) } else { ("fuser_sdpa_f32", 4) };
    let bk = block_k(&dims, acc_bytes);
    let mut p = SdpaParams {
        q: q.addr(),
        k: k.addr(),
        v: v.addr(),
        out: out.addr(),
        lse,
        query_offset: call.origin.get(2).copied().unwrap_or(0) as i64,
        scale: sdpa_scale(call.params, &dims)?,
        dtype: crate::cuda::kernels::dtype_code(q.dtype),
        b: int("B", dims.b)?,
        h: int("H", dims.h)?,
        hkv: int("Hkv", dims.hkv)?,
        s: int("S", dims.s)?,
        skv: int("Skv", dims.skv)?,
        d: int("D", dims.d)?,
        dv: int("Dv", dims.dv)?,
        causal: call.params.flag("causal") as i32,
        block_k: int("block_k", bk)?,
    };
    let grid_x = u32::try_from(dims.s.div_ceil(BQ)).map_err(|_| RtError::new("sdpa on cuda: S too large"))?;
    if dims.h > 65535 || dims.b > 65535 {
        return Err(RtError::new(format!("sdpa on cuda: B = {} and H = {} must be at most 65535", dims.b, dims.h)));
    }
    let shared = (bk * (dims.d + dims.dv + BQ) * acc_bytes) as u32;
    let module = Module::get(call.gpu, "attention", SOURCE)?;
    launch(module.func(func)?, (grid_x, dims.h as u32, dims.b as u32), (THREADS, 1, 1), shared, &mut p, call.stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_fit_in_shared_memory() {
        let d = |d, dv| SdpaDims { b: 1, h: 1, hkv: 1, s: 1, skv: 1, d, dv };
        assert_eq!(block_k(&d(64, 64), 4), 64);
        for (dims, acc) in [(d(128, 128), 4), (d(256, 256), 4), (d(256, 256), 8), (d(1, 1), 8)] {
            let bk = block_k(&dims, acc);
            assert!(bk >= 1 && bk * (dims.d + dims.dv + BQ) * acc <= SHARED_BYTES, "{dims:?}: {bk}");
        }
        assert_eq!(std::mem::size_of::<SdpaParams>(), 96);
    }

    #[test]
    fn the_source_agrees_with_the_launch_constants() {
        for (name, v) in [("SDPA_TPQ", TPQ), ("SDPA_BQ", BQ), ("SDPA_MAX_PER_LANE", MAX_PER_LANE)] {
            assert!(SOURCE.contains(&format!("#define {name} {v}\n")), "{name} differs from the source");
        }
    }
}
