//! The GEMM-contention microbenchmark behind `fuser-contention` (docs/dev/copy-engine.md,
//! "Measuring the mechanism"): how much a transfer of known size on another stream slows a
//! bf16 GEMM, per kind of transfer.
//!
//! Per kind: the transfer alone (`T_x`), the GEMM alone (`T_g`), both started together on two
//! streams (`T_both`, first start to last end). The ratio `T_both / max(T_g, T_x)` is 1.0 for
//! perfect overlap and `(T_g + T_x) / max(...)` (2.0 at equal times) for none (the CSV also
//! gives its inverse, the overlap efficiency `max(T_g, T_x) / T_both`); the transfer's
//! size is chosen so that `T_x ≈ T_g` (the hardest case for overlap). Each time is the mean of
//! `reps` back-to-back repetitions, the median of `trials` such measurements.
//!
//! Kinds: `ce_d2d` (`cuMemcpyAsync` device to device), `ce_d2d_overlap` (`cuMemcpyBatchAsync`
//! with `CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE`, the driver's hint to use a copy engine),
//! `ce_d2h_pinned` / `ce_h2d_pinned` (to / from pinned host memory), `sm_copy` (the runtime's
//! elementwise copy kernel) and `sm_reduce` (an elementwise `a + b` kernel reading two buffers
//! and writing one: the memory pattern of an NCCL-like reduction step), and `ce_peer`
//! (`cuMemcpyAsync` to GPU `device + 1` over NVLink with peer access; only where that GPU
//! exists).

use super::api::{self, Event, RawStream};
use super::gpu::Gpu;
use super::memory::CudaBuf;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use cudarc::driver::sys;
use fuser_dialects::host::ElementwiseKind;

/// One measured row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub kind: &'static str,
    pub bytes: usize,
    pub t_gemm_ms: f64,
    pub t_transfer_ms: f64,
    pub t_both_ms: f64,
    pub t_gemm_in_both_ms: f64,
}

impl Row {
    /// `T_both / max(T_g, T_x)`.
    pub fn ratio(&self) -> f64 {
        self.t_both_ms / self.t_gemm_ms.max(self.t_transfer_ms)
    }

    pub const CSV_HEADER: &'static str =
        "kind,bytes,t_gemm_ms,t_transfer_ms,t_both_ms,t_gemm_in_both_ms,ratio,efficiency,gemm_slowdown,transfer_gbps";

    pub fn csv(&self) -> String {
        format!(
            "{},{},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.1}",
            self.kind,
            self.bytes,
            self.t_gemm_ms,
            self.t_transfer_ms,
            self.t_both_ms,
            self.t_gemm_in_both_ms,
            self.ratio(),
            1.0 / self.ratio(),
            self.t_gemm_in_both_ms / self.t_gemm_ms,
            self.bytes as f64 / self.t_transfer_ms / 1e6
        )
    }
}

/// Bytes of a transfer lasting about `target_ms` when `probe_bytes` took `probe_ms`, a
/// multiple of 2 MiB within `[2 MiB, cap]`.
pub fn sized_for(target_ms: f64, probe_bytes: usize, probe_ms: f64, cap: usize) -> usize {
    const MIB2: usize = 2 << 20;
    let want = probe_bytes as f64 * target_ms / probe_ms.max(1e-6);
    ((want as usize / MIB2).max(1) * MIB2).min(cap / MIB2 * MIB2)
}

/// The median of `v` (sorted in place).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The benchmark's settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub reps: usize,
    pub trials: usize,
    /// Only these kinds (all when empty).
    pub kinds: Vec<String>,
}

/// A transfer of one kind, ready to enqueue.
struct Transfer {
    kind: &'static str,
    src: u64,
    dst: u64,
    bytes: usize,
    /// For the SM kernels: the views.
    views: Option<(CudaBuf, CudaBuf, CudaBuf)>,
}

/// Runs the benchmark on GPU `device`.
pub fn run(device: usize, cfg: &Config) -> RtResult<Vec<Row>> {
    api::load_libraries()?;
    let gpu = Gpu::open(device)?;
    gpu.bind()?;
    let (sg, sx) = (gpu.stream(0)?, gpu.stream(1)?);
    let a = gpu.new_buf(DType::BF16, &[cfg.m, cfg.k])?;
    let b = gpu.new_buf(DType::BF16, &[cfg.k, cfg.n])?;
    let c = gpu.new_buf(DType::BF16, &[cfg.m, cfg.n])?;
    // bf16 0.5 and 0.25 (no NaN or zero pattern: data-dependent power stays realistic enough).
    memset16(&a, 0x3f00)?;
    memset16(&b, 0x3e80)?;
    let gemm = |s: RawStream| gpu.matmul(&a, &b, &c, false, s);
    for _ in 0..3 {
        gemm(sg)?;
    }
    api::sync_stream(sg)?;
    let t_gemm = measure(cfg, || timed(sg, cfg.reps, || gemm(sg)))?;
    eprintln!(
        "fuser-contention: GEMM {}x{}x{} bf16: {t_gemm:.3} ms ({:.0} TFLOP/s)",
        cfg.m,
        cfg.n,
        cfg.k,
        2.0 * (cfg.m * cfg.n * cfg.k) as f64 / t_gemm / 1e9
    );
    let peer = open_peer(&gpu, device)?;
    let mut rows = Vec::new();
    for kind in ["ce_d2d", "ce_d2d_overlap", "ce_d2h_pinned", "ce_h2d_pinned", "ce_peer", "sm_copy", "sm_reduce"] {
        if !cfg.kinds.is_empty() && !cfg.kinds.iter().any(|k| k == kind) {
            continue;
        }
        if kind == "ce_peer" && peer.is_none() {
            eprintln!("fuser-contention: ce_peer: skipped (no GPU {} with peer access)", device + 1);
            continue;
        }
        match measure_kind(&gpu, peer.as_ref(), cfg, kind, t_gemm, &gemm, sg, sx) {
            Ok(row) => {
                println!("{}", row.csv());
                rows.push(row);
            }
            Err(e) => eprintln!("fuser-contention: {kind}: {e}"),
        }
    }
    Ok(rows)
}

/// GPU `device + 1` with peer access both ways, when it exists (`gpu` bound again after).
fn open_peer(gpu: &Gpu, device: usize) -> RtResult<Option<Gpu>> {
    if api::device_count()? <= device + 1 {
        return Ok(None);
    }
    let peer = Gpu::open(device + 1)?;
    let access = gpu.dev.enable_peer_access(&peer.dev).and_then(|_| peer.dev.enable_peer_access(&gpu.dev));
    gpu.bind()?;
    match access {
        Ok(()) => Ok(Some(peer)),
        Err(e) => {
            eprintln!("fuser-contention: ce_peer: {}", e.message);
            Ok(None)
        }
    }
}

fn memset16(buf: &CudaBuf, value: u16) -> RtResult<()> {
    api::check(unsafe { sys::cuMemsetD16_v2(buf.addr(), value, buf.numel()) }, "cuMemsetD16")?;
    api::check(unsafe { sys::cuCtxSynchronize() }, "cuCtxSynchronize")
}

/// The median over `cfg.trials` of `f`.
fn measure(cfg: &Config, mut f: impl FnMut() -> RtResult<f64>) -> RtResult<f64> {
    let mut v = (0..cfg.trials.max(1)).map(|_| f()).collect::<RtResult<Vec<_>>>()?;
    Ok(median(&mut v))
}

/// Mean ms of `reps` back-to-back runs of `enqueue` on `s`.
fn timed(s: RawStream, reps: usize, mut enqueue: impl FnMut() -> RtResult<()>) -> RtResult<f64> {
    let start = Event::record_timed(s)?;
    for _ in 0..reps {
        enqueue()?;
    }
    let end = Event::record_timed(s)?;
    api::sync_stream(s)?;
    Ok(f64::from(Event::elapsed_ms(&start, &end)?) / reps as f64)
}

#[allow(clippy::too_many_arguments)]
fn measure_kind(
    gpu: &Gpu,
    peer: Option<&Gpu>,
    cfg: &Config,
    kind: &'static str,
    t_gemm: f64,
    gemm: &dyn Fn(RawStream) -> RtResult<()>,
    sg: RawStream,
    sx: RawStream,
) -> RtResult<Row> {
    let host = kind.contains("pinned");
    let cap = if host { 2 << 30 } else { 8 << 30 };
    let probe = make(gpu, peer, kind, 256 << 20)?;
    for _ in 0..2 {
        enqueue(gpu, &probe, sx)?;
    }
    let t_probe = timed(sx, 3, || enqueue(gpu, &probe, sx))?;
    drop(probe);
    let x = make(gpu, peer, kind, sized_for(t_gemm, 256 << 20, t_probe, cap))?;
    enqueue(gpu, &x, sx)?;
    let t_transfer = measure(cfg, || timed(sx, cfg.reps, || enqueue(gpu, &x, sx)))?;
    let t_gemm_now = measure(cfg, || timed(sg, cfg.reps, || gemm(sg)))?;
    let mut both = Vec::new();
    let mut gemm_in_both = Vec::new();
    for _ in 0..cfg.trials.max(1) {
        let start = Event::record_timed(sg)?;
        start.wait_on(sx)?;
        for _ in 0..cfg.reps {
            enqueue(gpu, &x, sx)?;
            gemm(sg)?;
        }
        let (end_g, end_x) = (Event::record_timed(sg)?, Event::record_timed(sx)?);
        api::sync_stream(sg)?;
        api::sync_stream(sx)?;
        let (g, t) = (Event::elapsed_ms(&start, &end_g)?, Event::elapsed_ms(&start, &end_x)?);
        both.push(f64::from(g.max(t)) / cfg.reps as f64);
        gemm_in_both.push(f64::from(g) / cfg.reps as f64);
    }
    let row = Row {
        kind,
        bytes: x.bytes,
        t_gemm_ms: t_gemm_now,
        t_transfer_ms: t_transfer,
        t_both_ms: median(&mut both),
        t_gemm_in_both_ms: median(&mut gemm_in_both),
    };
    free(&x);
    Ok(row)
}

/// Buffers for a transfer of `bytes` of `kind` (`peer`: the second GPU of `ce_peer`).
fn make(gpu: &Gpu, peer: Option<&Gpu>, kind: &'static str, bytes: usize) -> RtResult<Transfer> {
    let dev = |n: usize| gpu.new_buf(DType::BF16, &[n / 2]);
    let pinned = |n: usize| -> RtResult<u64> {
        let mut p = std::ptr::null_mut();
        api::check(unsafe { sys::cuMemHostAlloc(&mut p, n, 0) }, "cuMemHostAlloc")?;
        Ok(p as u64)
    };
    Ok(match kind {
        "ce_d2d" | "ce_d2d_overlap" => {
            let (s, d) = (dev(bytes)?, dev(bytes)?);
            Transfer { kind, src: s.addr(), dst: d.addr(), bytes, views: Some((s, d.clone(), d)) }
        }
        "ce_peer" => {
            let peer = peer.ok_or_else(|| RtError::new("no peer GPU"))?;
            let s = dev(bytes)?;
            peer.bind()?;
            let d = peer.new_buf(DType::BF16, &[bytes / 2]);
            gpu.bind()?;
            let d = d?;
            Transfer { kind, src: s.addr(), dst: d.addr(), bytes, views: Some((s, d.clone(), d)) }
        }
        "ce_d2h_pinned" => {
            let s = dev(bytes)?;
            Transfer { kind, src: s.addr(), dst: pinned(bytes)?, bytes, views: Some((s.clone(), s.clone(), s)) }
        }
        "ce_h2d_pinned" => {
            let d = dev(bytes)?;
            Transfer { kind, src: pinned(bytes)?, dst: d.addr(), bytes, views: Some((d.clone(), d.clone(), d)) }
        }
        "sm_copy" | "sm_reduce" => {
            // `bytes` is what the kernel moves: a copy reads and writes bytes/2 each, the
            // reduction reads two thirds and writes one.
            let n = if kind == "sm_copy" { bytes / 2 } else { bytes / 3 };
            let n = n / 2 * 2;
            let (a, b, o) = (dev(n)?, dev(n)?, dev(n)?);
            Transfer {
                kind,
                src: a.addr(),
                dst: o.addr(),
                bytes: if kind == "sm_copy" { 2 * n } else { 3 * n },
                views: Some((a, b, o)),
            }
        }
        other => return Err(RtError::new(format!("unknown transfer kind '{other}'"))),
    })
}

fn free(x: &Transfer) {
    unsafe {
        if x.kind == "ce_d2h_pinned" {
            let _ = sys::cuMemFreeHost(x.dst as *mut std::ffi::c_void);
        }
        if x.kind == "ce_h2d_pinned" {
            let _ = sys::cuMemFreeHost(x.src as *mut std::ffi::c_void);
        }
    }
}

fn enqueue(gpu: &Gpu, x: &Transfer, s: RawStream) -> RtResult<()> {
    let views = x.views.as_ref().ok_or_else(|| RtError::new("transfer without buffers"))?;
    match x.kind {
        "sm_copy" => gpu.elementwise(ElementwiseKind::Cast, std::slice::from_ref(&views.0), &views.2, s),
        "sm_reduce" => gpu.elementwise(ElementwiseKind::Add, &[views.0.clone(), views.1.clone()], &views.2, s),
        "ce_d2d_overlap" => batch_copy_prefer_overlap(x.dst, x.src, x.bytes, gpu.dev.ordinal, s),
        _ => api::copy_async(x.dst, x.src, x.bytes, s),
    }
}

/// One `cuMemcpyBatchAsync` (CUDA 13 signature) with the hint to overlap with compute.
pub fn batch_copy_prefer_overlap(dst: u64, src: u64, bytes: usize, device: i32, s: RawStream) -> RtResult<()> {
    let loc = sys::CUmemLocation { type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE, id: device };
    let mut attrs = sys::CUmemcpyAttributes {
        srcAccessOrder: sys::CUmemcpySrcAccessOrder::CU_MEMCPY_SRC_ACCESS_ORDER_STREAM,
        srcLocHint: loc,
        dstLocHint: loc,
        flags: sys::CUmemcpyFlags::CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE as u32,
    };
    let (mut d, mut sr, mut n, mut idx) = (dst, src, bytes, 0usize);
    api::check(
        unsafe { sys::cuMemcpyBatchAsync_v2(&mut d, &mut sr, &mut n, 1, &mut attrs, &mut idx, 1, s.0) },
        "cuMemcpyBatchAsync",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_probe_and_stay_in_bounds() {
        let mib = 1 << 20;
        assert_eq!(sized_for(4.0, 256 * mib, 1.0, 8 << 30), 1024 * mib);
        assert_eq!(sized_for(100.0, 256 * mib, 1.0, 8 << 30), 8 << 30);
        assert_eq!(sized_for(0.0001, 256 * mib, 1.0, 8 << 30), 2 * mib);
    }

    #[test]
    fn ratio_is_one_for_perfect_overlap_and_two_for_none() {
        let mut r =
            Row { kind: "x", bytes: 1, t_gemm_ms: 3.0, t_transfer_ms: 3.0, t_both_ms: 3.0, t_gemm_in_both_ms: 3.0 };
        assert_eq!(r.ratio(), 1.0);
        r.t_both_ms = 6.0;
        assert_eq!(r.ratio(), 2.0);
        assert!(r.csv().starts_with("x,1,3.000,3.000,6.000,3.000,2.000,0.500,1.000,"));
        assert_eq!(Row::CSV_HEADER.split(',').count(), r.csv().split(',').count());
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
    }
}
