//! The fused-region kernels (`cuda::fused::run`) on GPU 0 against `fused::eval::evaluate`
//! (the cpu's semantics): every elementwise kind (CUDA's math functions; NaN, infinities,
//! signed zeros) in f32, bf16, f16 and f64; the patterns of issue 24 at sizes that take every
//! schedule: add
//! (bf16 vectorized, f32 with an odd width, a padded-row and a transposed input),
//! gelu_tanh(x + bias) with the bias an expanded view (stride 0), bias + dropout + residual at
//! an origin of a larger tensor (the mask bit-identical), softmax over 2048 to 8192 columns
//! (and with a dropout), layer_norm (4096 to 32768 columns: up to 1024 threads and 32
//! elements per thread) and rms_norm; rows of 40001 and 50000 columns (multi-pass); then the same launch again (the cache's second use). Skipped (with a
//! note) without the CUDA libraries or a GPU.
//!
//! With `FUSER_FUSED_BENCH=1` it also times the kernels at rows 2048-16384 x hidden
//! 4096-16384 in bf16 and prints each one's bandwidth (bytes read and written once) next to
//! the device's device-to-device copy bandwidth (the goal: >= 85%):
//! `FUSER_FUSED_BENCH=1 cargo test --release -p fuser-runtime --test cuda_fused_on_gpu -- --nocapture`.
//!
//! `sdpa_grad_matches_the_reference_on_the_gpu` runs both `sdpa_grad` implementations (the row
//! kernel and the GEMM-based one, `cuda::ops::grad`) against the reference, and with
//! `FUSER_SDPA_GRAD_BENCH=1` times them on the Llama-3-70B layer's shape.
#![cfg(feature = "cuda")]

mod fused_cases;

use cudarc::driver::sys;
use fused_cases as cases;
use fuser_dialects::host::ElementwiseKind as E;
use fuser_dialects::host::ReduceKind;
use fuser_runtime::buffer::contiguous_strides;
use fuser_runtime::cuda::api::{self, Event, RawStream};
use fuser_runtime::cuda::fused;
use fuser_runtime::cuda::gpu::Gpu;
use fuser_runtime::cuda::memory::CudaBuf;
use fuser_runtime::cuda::ops::grad::SdpaGradMode;
use fuser_runtime::cuda::ops::sdpa_grad_gemm::{self, run_sdpa_grad_with};
use fuser_runtime::cuda::ops::sdpa_grad_plan::Plan;
use fuser_runtime::dtype::{DType, round_to};
use fuser_runtime::fused::eval::evaluate;
use fuser_runtime::fused::{FusedGraph, Kind};
use fuser_runtime::ops::attention::{SdpaDims, SdpaOptions, sdpa};
use fuser_runtime::ops::grad::{SdpaTensors, sdpa_grad};
use fuser_runtime::ops::{Dense, Param, Params};

fn open_gpu() -> Option<Gpu> {
    if let Err(e) = api::load_libraries() {
        eprintln!("skipped: {}", e.message);
        return None;
    }
    match api::device_count() {
        Ok(n) if n > 0 => Some(Gpu::open(0).expect("open GPU 0")),
        _ => {
            eprintln!("skipped: no GPU");
            None
        }
    }
}

/// A deterministic generator of values in [-2, 2).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 4.0 - 2.0
    }
}

fn upload(gpu: &Gpu, s: RawStream, dtype: DType, values: &[f64]) -> CudaBuf {
    let buf = gpu.new_buf(dtype, &[values.len()]).unwrap();
    let size = dtype.size();
    let mut bytes = vec![0u8; values.len() * size];
    for (chunk, &v) in bytes.chunks_exact_mut(size).zip(values) {
        dtype.write(chunk, v);
    }
    api::check(
        unsafe { sys::cuMemcpyHtoDAsync_v2(buf.addr(), bytes.as_ptr().cast(), bytes.len(), s.0) },
        "cuMemcpyHtoDAsync",
    )
    .unwrap();
    api::sync_stream(s).unwrap();
    buf
}

fn download(s: RawStream, buf: &CudaBuf) -> Vec<f64> {
    api::sync_stream(s).unwrap();
    assert!(buf.is_contiguous());
    let size = buf.dtype.size();
    let mut bytes = vec![0u8; buf.bytes()];
    api::check(unsafe { sys::cuMemcpyDtoH_v2(bytes.as_mut_ptr().cast(), buf.addr(), bytes.len()) }, "cuMemcpyDtoH")
        .unwrap();
    bytes.chunks_exact(size).map(|c| buf.dtype.read(c)).collect()
}

/// An input: a storage of random values and the view of it the region reads.
struct In {
    buf: CudaBuf,
    dense: Dense,
}

/// A random input of `shape` seen through `strides` at `offset` of its storage.
fn input(
    gpu: &Gpu,
    s: RawStream,
    rng: &mut Rng,
    dtype: DType,
    shape: &[usize],
    strides: &[usize],
    offset: usize,
) -> In {
    let reach: usize = shape.iter().zip(strides).map(|(e, st)| e.saturating_sub(1) * st).sum();
    let storage: Vec<f64> = (0..offset + reach + 1).map(|_| round_to(dtype, rng.next())).collect();
    let whole = upload(gpu, s, dtype, &storage);
    let buf = whole.relayout(offset, shape.to_vec(), strides.to_vec()).unwrap();
    let n: usize = shape.iter().product();
    let vals = (0..n)
        .map(|mut i| {
            let mut off = offset;
            for d in (0..shape.len()).rev() {
                off += (i % shape[d]) * strides[d];
                i /= shape[d];
            }
            storage[off]
        })
        .collect();
    In { buf, dense: Dense::from_f64(dtype, shape.to_vec(), vals) }
}

fn dense_input(gpu: &Gpu, s: RawStream, rng: &mut Rng, dtype: DType, shape: &[usize]) -> In {
    let mut strides = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    input(gpu, s, rng, dtype, shape, &strides, 0)
}

fn int_input(gpu: &Gpu, s: RawStream, dtype: DType, v: i64) -> In {
    let whole = gpu.new_buf(dtype, &[1]).unwrap();
    let mut bytes = vec![0u8; dtype.size()];
    dtype.write_int(&mut bytes, v);
    api::check(
        unsafe { sys::cuMemcpyHtoDAsync_v2(whole.addr(), bytes.as_ptr().cast(), bytes.len(), s.0) },
        "cuMemcpyHtoDAsync",
    )
    .unwrap();
    api::sync_stream(s).unwrap();
    In { buf: whole.relayout(0, vec![], vec![]).unwrap(), dense: Dense::from_i64(dtype, vec![], vec![v]) }
}

fn outputs_of(gpu: &Gpu, g: &FusedGraph) -> Vec<CudaBuf> {
    g.outputs.iter().map(|&o| gpu.new_buf(g.nodes[o].dtype, g.shape_of(g.nodes[o].kind)).unwrap()).collect()
}

const BF16_TOL: (f64, f64) = (1.0 / 64.0, 1e-6);

/// Runs `g` twice (a compile, then the cache) and compares both results with the evaluation.
fn check(gpu: &Gpu, name: &str, g: &FusedGraph, ins: &[In], origin: &[usize], tols: &[(f64, f64)]) {
    let s = gpu.stream(0).unwrap();
    let bufs: Vec<CudaBuf> = ins.iter().map(|i| i.buf.clone()).collect();
    let dense: Vec<Dense> = ins.iter().map(|i| i.dense.clone()).collect();
    let want = evaluate(g, &dense, origin).unwrap();
    for round in 0..2 {
        let outs = outputs_of(gpu, g);
        fused::run(gpu, g, &bufs, &outs, origin, s).unwrap_or_else(|e| panic!("{name}: {}", e.message));
        for (k, (out, w)) in outs.iter().zip(&want).enumerate() {
            let got = download(s, out);
            let (rtol, atol) = tols[k];
            let bad: Vec<(usize, f64, f64)> = got
                .iter()
                .zip(w)
                .enumerate()
                .filter(|(_, (g, w))| {
                    let close = if rtol == 0.0 && atol == 0.0 {
                        g.to_bits() == w.to_bits()
                    } else {
                        g == w || (*g - *w).abs() <= rtol * w.abs() + atol
                    };
                    !((g.is_nan() && w.is_nan()) || close)
                })
                .map(|(i, (g, w))| (i, *g, *w))
                .collect();
            assert!(
                bad.is_empty(),
                "{name} (run {round}) output {k}: {} of {} differ, first (index, got, want): {:?}",
                bad.len(),
                got.len(),
                &bad[..bad.len().min(8)]
            );
        }
    }
    eprintln!("ok: {name}");
}

#[test]
fn fused_kernels_match_the_cpu_on_the_gpu() {
    let Some(gpu) = open_gpu() else { return };
    let s = gpu.stream(0).unwrap();
    let r = &mut Rng(11);
    let (bf, f32t) = (DType::BF16, DType::F32);

    let (m, n) = (1024, 4096);
    let ins = [dense_input(&gpu, s, r, bf, &[m, n]), dense_input(&gpu, s, r, bf, &[m, n])];
    check(&gpu, "add bf16", &cases::add(bf, &[m, n]), &ins, &[], &[(0.0, 0.0)]);
    let ins = [dense_input(&gpu, s, r, f32t, &[5, 13]), dense_input(&gpu, s, r, f32t, &[5, 13])];
    check(&gpu, "add f32 odd width", &cases::add(f32t, &[5, 13]), &ins, &[], &[(0.0, 0.0)]);
    let ins = [input(&gpu, s, r, bf, &[33, 24], &[27, 1], 3), input(&gpu, s, r, bf, &[33, 24], &[1, 33], 0)];
    check(&gpu, "add bf16 padded + transposed", &cases::add(bf, &[33, 24]), &ins, &[], &[(0.0, 0.0)]);

    // Every elementwise kind with CUDA's math functions, NaN, infinities and signed zeros.
    for (t, tol) in
        [(f32t, (1e-5, 1e-6)), (bf, BF16_TOL), (DType::F16, (1.0 / 512.0, 1e-6)), (DType::F64, (1e-13, 1e-300))]
    {
        let (m, n) = (64, 256);
        let specials = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1.0, -1.0];
        let mut xs: Vec<f64> = (0..m * n).map(|_| round_to(t, r.next())).collect();
        let mut ys: Vec<f64> = (0..m * n).map(|_| round_to(t, r.next())).collect();
        for (i, &v) in specials.iter().enumerate() {
            xs[3 * i] = v;
            ys[3 * i + 1] = v;
        }
        ys[30..40].copy_from_slice(&xs[30..40]);
        (xs[40], ys[40], xs[41], ys[41]) = (0.0, -0.0, -0.0, 0.0);
        let full = |v: &[f64]| In {
            buf: upload(&gpu, s, t, v).relayout(0, vec![m, n], vec![n, 1]).unwrap(),
            dense: Dense::from_f64(t, vec![m, n], v.to_vec()),
        };
        let sc = round_to(t, 0.75);
        let scalar = In {
            buf: upload(&gpu, s, t, &[sc]).relayout(0, vec![], vec![]).unwrap(),
            dense: Dense::from_f64(t, vec![], vec![sc]),
        };
        // Selections, signs and comparisons bit for bit (the sign of a zero too).
        let exact = |k: &E| {
            matches!(
                k,
                E::Max | E::Min | E::Neg | E::Abs | E::Cast | E::Where | E::Eq | E::Ne | E::Lt | E::Le | E::Gt | E::Ge
            )
        };
        let tols: Vec<(f64, f64)> =
            E::ALL.iter().map(|k| if exact(k) { (0.0, 0.0) } else { tol }).chain([tol, tol]).collect();
        let g = cases::every_elementwise(t, m, n);
        check(&gpu, &format!("every elementwise kind {}", t.name()), &g, &[full(&xs), full(&ys), scalar], &[], &tols);
    }

    let (m, n) = (2048, 4096);
    let ins = [dense_input(&gpu, s, r, bf, &[m, n]), input(&gpu, s, r, bf, &[m, n], &[0, 1], 0)];
    check(&gpu, "gelu_tanh(x + bias)", &cases::gelu_bias(bf, m, n), &ins, &[], &[BF16_TOL]);

    let g = cases::bias_dropout_residual(bf, m, n, 0.1, &[2 * m, n]);
    let ins = [
        dense_input(&gpu, s, r, bf, &[m, n]),
        input(&gpu, s, r, bf, &[m, n], &[0, 1], 0),
        dense_input(&gpu, s, r, bf, &[m, n]),
        int_input(&gpu, s, DType::I64, 0x5eed_0000_1234),
        int_input(&gpu, s, DType::I64, 1 << 33),
    ];
    check(&gpu, "bias + dropout + residual", &g, &ins, &[m, 0], &[BF16_TOL, (0.0, 0.0)]);

    for cols in [2048, 4096, 8192, 1000] {
        let ins = [dense_input(&gpu, s, r, bf, &[512, cols])];
        check(
            &gpu,
            &format!("softmax bf16 x{cols}"),
            &cases::softmax(bf, 512, cols, false),
            &ins,
            &[],
            &[BF16_TOL, (0.0, 0.0)],
        );
    }
    let ins = [
        dense_input(&gpu, s, r, bf, &[256, 4096]),
        int_input(&gpu, s, DType::I64, 42),
        int_input(&gpu, s, DType::I32, 7),
    ];
    check(
        &gpu,
        "softmax + dropout",
        &cases::softmax(bf, 256, 4096, true),
        &ins,
        &[256, 0],
        &[BF16_TOL, (0.0, 0.0), BF16_TOL],
    );

    for (t, cols) in [(bf, 4096), (bf, 16384), (bf, 32768), (f32t, 1000), (f32t, 37)] {
        let rows = 128;
        let ins = [
            dense_input(&gpu, s, r, t, &[rows, cols]),
            dense_input(&gpu, s, r, t, &[cols]),
            dense_input(&gpu, s, r, t, &[cols]),
        ];
        let ytol = if t == bf { BF16_TOL } else { (1e-4, 1e-5) };
        check(
            &gpu,
            &format!("layer_norm {} x{cols}", t.name()),
            &cases::layer_norm(t, rows, cols),
            &ins,
            &[],
            &[ytol, (1e-5, 1e-6), (1e-4, 1e-6)],
        );
    }
    for cols in [4096, 8192] {
        let ins = [dense_input(&gpu, s, r, bf, &[256, cols]), dense_input(&gpu, s, r, bf, &[cols])];
        check(
            &gpu,
            &format!("rms_norm bf16 x{cols}"),
            &cases::rms_norm(bf, 256, cols),
            &ins,
            &[],
            &[BF16_TOL, (1e-5, 1e-6)],
        );
    }
    // Rows too long to hold in registers: passes over chunks (with a dropout, an odd width).
    let ins = [
        dense_input(&gpu, s, r, bf, &[16, 50000]),
        int_input(&gpu, s, DType::I64, 3),
        int_input(&gpu, s, DType::I32, 9),
    ];
    check(
        &gpu,
        "softmax + dropout x50000 (multi-pass)",
        &cases::softmax(bf, 16, 50000, true),
        &ins,
        &[16, 0],
        &[BF16_TOL, (0.0, 0.0), BF16_TOL],
    );
    let (rows, cols) = (8, 40001);
    let ins = [
        dense_input(&gpu, s, r, f32t, &[rows, cols]),
        dense_input(&gpu, s, r, f32t, &[cols]),
        dense_input(&gpu, s, r, f32t, &[cols]),
    ];
    check(
        &gpu,
        "layer_norm f32 x40001 (multi-pass)",
        &cases::layer_norm(f32t, rows, cols),
        &ins,
        &[],
        &[(1e-4, 1e-5), (1e-5, 1e-6), (1e-4, 1e-6)],
    );

    if std::env::var("FUSER_FUSED_BENCH").is_ok_and(|v| v == "1") {
        bench(&gpu, s);
    }
}

/// Milliseconds per call of `f`, over `iters` calls after a warm-up.
fn time(s: RawStream, iters: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..3 {
        f();
    }
    let a = Event::record_timed(s).unwrap();
    for _ in 0..iters {
        f();
    }
    let b = Event::record_timed(s).unwrap();
    api::sync_stream(s).unwrap();
    Event::elapsed_ms(&a, &b).unwrap() as f64 / iters as f64
}

/// Bandwidth of each pattern in bf16 next to a device-to-device copy's.
fn bench(gpu: &Gpu, s: RawStream) {
    let bytes = 1usize << 30;
    let (x, y) = (gpu.new_buf(DType::I8, &[bytes]).unwrap(), gpu.new_buf(DType::I8, &[bytes]).unwrap());
    let ms = time(s, 20, || {
        api::check(unsafe { sys::cuMemcpyDtoDAsync_v2(y.addr(), x.addr(), bytes, s.0) }, "cuMemcpyDtoDAsync").unwrap()
    });
    let copy = 2.0 * bytes as f64 / ms / 1e6;
    eprintln!("copy: {copy:.0} GB/s (read + write)");
    drop((x, y));
    let bf = DType::BF16;
    for rows in [2048, 16384] {
        for hidden in [4096, 8192, 16384] {
            let (m, n) = (rows, hidden);
            let mut runs: Vec<(String, FusedGraph, Vec<CudaBuf>, Vec<usize>)> = Vec::new();
            let x = || gpu.new_buf(bf, &[m, n]).unwrap();
            let col = |len| gpu.new_buf(bf, &[len]).unwrap();
            let bias = col(n).relayout(0, vec![m, n], vec![0, 1]).unwrap();
            runs.push(("add".into(), cases::add(bf, &[m, n]), vec![x(), x()], vec![]));
            runs.push(("gelu(x+bias)".into(), cases::gelu_bias(bf, m, n), vec![x(), bias.clone()], vec![]));
            let seed = int_input(gpu, s, DType::I64, 1).buf;
            let off = int_input(gpu, s, DType::I64, 0).buf;
            runs.push((
                "bias+dropout+residual".into(),
                cases::bias_dropout_residual(bf, m, n, 0.1, &[m, n]),
                vec![x(), bias.clone(), x(), seed, off],
                vec![0, 0],
            ));
            runs.push(("layer_norm".into(), cases::layer_norm(bf, m, n), vec![x(), col(n), col(n)], vec![]));
            runs.push(("rms_norm".into(), cases::rms_norm(bf, m, n), vec![x(), col(n)], vec![]));
            if n <= 8192 {
                runs.push(("softmax".into(), cases::softmax(bf, m, n, false), vec![x()], vec![]));
            }
            for (name, g, ins, origin) in runs {
                let outs = outputs_of(gpu, &g);
                let ms = time(s, 20, || fused::run(gpu, &g, &ins, &outs, &origin, s).unwrap());
                // Bytes: the full inputs that are not broadcast views, and the first full
                // output (bias+dropout+residual also writes its dropout, not counted: the
                // pattern's result is the sum; the norms' statistics are small).
                let moved: usize = g
                    .inputs
                    .iter()
                    .zip(&ins)
                    .filter(|(i, b)| i.kind == Kind::Full && !b.strides.contains(&0))
                    .map(|(_, b)| b.bytes())
                    .sum::<usize>()
                    + outs
                        .iter()
                        .zip(&g.outputs)
                        .filter(|(_, o)| g.nodes[**o].kind == Kind::Full)
                        .map(|(b, _)| b.bytes())
                        .next()
                        .unwrap_or(0);
                let gbs = moved as f64 / ms / 1e6;
                eprintln!("{name:>22} {m:>5} x {n:>5}: {ms:.4} ms {gbs:.0} GB/s = {:.0}% of copy", 100.0 * gbs / copy);
            }
        }
    }
}

/// One `sdpa_grad` case on the GPU: random inputs (the forward's `out` and `lse` from the
/// reference), every `mode`'s `(dq, dk, dv)` against `fuser_runtime::ops::grad::sdpa_grad`;
/// the error is measured against the largest reference value of each output.
fn sdpa_grad_case(gpu: &Gpu, s: RawStream, dims: SdpaDims, causal: bool, offset: usize, dt: DType, seed: u64) {
    let mut rng = Rng(seed);
    let mut vals = |n: usize| -> Vec<f64> { (0..n).map(|_| round_to(dt, rng.next())).collect() };
    let d = dims;
    let (q, k, v) = (vals(d.b * d.h * d.s * d.d), vals(d.b * d.hkv * d.skv * d.d), vals(d.b * d.hkv * d.skv * d.dv));
    let dout = vals(d.b * d.h * d.s * d.dv);
    let scale = d.default_scale();
    let (out, lse) = sdpa(&q, &k, &v, &d, &SdpaOptions { causal, scale, query_offset: offset });
    let out: Vec<f64> = out.iter().map(|&x| round_to(dt, x)).collect();
    let mut lse: Vec<f64> = lse.iter().map(|&x| round_to(DType::F32, x)).collect();
    // A row that attended nothing (contributes nothing; its dq is 0).
    lse[1] = f64::NEG_INFINITY;
    let t = SdpaTensors { q: &q, k: &k, v: &v, out: &out, dout: &dout };
    let want = sdpa_grad(&t, &lse, &d, causal, scale, offset);
    let up = |dtype, x: &[f64], shape: &[usize]| {
        let b = upload(gpu, s, dtype, x);
        CudaBuf { shape: shape.to_vec(), strides: contiguous_strides(shape), ..b }
    };
    let (qs, ks, vs, os) =
        ([d.b, d.h, d.s, d.d], [d.b, d.hkv, d.skv, d.d], [d.b, d.hkv, d.skv, d.dv], [d.b, d.h, d.s, d.dv]);
    let inputs = [
        up(dt, &q, &qs),
        up(dt, &k, &ks),
        up(dt, &v, &vs),
        up(dt, &out, &os),
        up(DType::F32, &lse, &[d.b, d.h, d.s]),
        up(dt, &dout, &os),
    ];
    let mut entries = vec![("scale".to_string(), Param::Float(scale))];
    if causal {
        entries.push(("causal".into(), Param::Flag));
    }
    let params = Params::new(entries);
    let tol = match dt {
        DType::F64 => 1e-12,
        DType::F32 => 1e-4,
        _ => 2e-2,
    };
    // The row kernel, the GEMMs, and the GEMMs with a plan of one pair and one head per step
    // (the offsets of every chunk and head range, the accumulation over the ranges).
    let small = Plan::new(&d, causal, scale, offset, dt, 1).unwrap();
    for (mode, tiny) in [(SdpaGradMode::Rows, false), (SdpaGradMode::Gemm, false), (SdpaGradMode::Gemm, true)] {
        let outputs = [gpu.new_buf(dt, &qs).unwrap(), gpu.new_buf(dt, &ks).unwrap(), gpu.new_buf(dt, &vs).unwrap()];
        if tiny {
            let [q, k, v, o, l, g] = &inputs;
            let [dq, dk, dv] = &outputs;
            sdpa_grad_gemm::run(gpu, &small, [q, k, v, o, l, g], [dq, dk, dv], s).unwrap();
        } else {
            run_sdpa_grad_with(gpu, &params, &inputs, &outputs, &[0, 0, offset, 0], s, mode).unwrap();
        }
        for ((name, buf), w) in ["dq", "dk", "dv"].iter().zip(&outputs).zip([&want.0, &want.1, &want.2]) {
            let got = download(s, buf);
            let top = w.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            let err = got.iter().zip(w.iter()).fold(0.0f64, |m, (g, x)| m.max((g - x).abs()));
            assert!(
                err <= tol * top.max(1e-6),
                "sdpa_grad {mode:?} (one head per step: {tiny}) {dims:?} causal {causal} offset {offset} {}: {name} max \
                 error {err} (largest {top})",
                dt.name()
            );
        }
    }
}

/// `sdpa_grad` on the GPU, both implementations (`FUSER_SDPA_GRAD=rows` and `gemm`, the
/// default) against the reference: grouped-query heads, the causal mask with a query offset,
/// `Skv != S`, `Dv != D`, bf16, f16, f32, f64, and B 1 H 8 Hkv 2 S 512 D 64 bf16. With
/// `FUSER_SDPA_GRAD_BENCH=1` it then times both on the Llama-3-70B layer's shape (B 1, H 64,
/// Hkv 8, S 2048, D 128, causal, bf16):
/// `FUSER_SDPA_GRAD_BENCH=1 cargo test --release -p fuser-runtime --test cuda_fused_on_gpu sdpa_grad -- --nocapture`.
#[test]
fn sdpa_grad_matches_the_reference_on_the_gpu() {
    let Some(gpu) = open_gpu() else { return };
    gpu.bind().unwrap();
    let s = gpu.stream(0).unwrap();
    let dims = |b, h, hkv, s, skv, d, dv| SdpaDims { b, h, hkv, s, skv, d, dv };
    sdpa_grad_case(&gpu, s, dims(2, 4, 2, 6, 5, 6, 4), true, 0, DType::F32, 1);
    sdpa_grad_case(&gpu, s, dims(1, 8, 2, 33, 70, 16, 24), true, 37, DType::F32, 2);
    sdpa_grad_case(&gpu, s, dims(2, 4, 1, 40, 40, 32, 32), false, 0, DType::BF16, 3);
    sdpa_grad_case(&gpu, s, dims(1, 6, 3, 64, 64, 64, 64), true, 0, DType::F16, 4);
    sdpa_grad_case(&gpu, s, dims(1, 2, 2, 9, 13, 5, 7), true, 4, DType::F64, 5);
    sdpa_grad_case(&gpu, s, dims(1, 8, 2, 512, 512, 64, 64), true, 0, DType::BF16, 6);
    if std::env::var("FUSER_SDPA_GRAD_BENCH").is_ok_and(|v| v == "1") {
        let d = dims(1, 64, 8, 2048, 2048, 128, 128);
        let bf = DType::BF16;
        // Zeros (lse too: P = 1 where not masked): the timing does not depend on the values.
        let buf = |shape: &[usize], dt: DType| {
            let b = gpu.new_buf(dt, shape).unwrap();
            api::check(unsafe { sys::cuMemsetD8Async(b.addr(), 0, b.bytes(), s.0) }, "cuMemsetD8Async").unwrap();
            b
        };
        let (qs, ks, os) = ([d.b, d.h, d.s, d.d], [d.b, d.hkv, d.skv, d.d], [d.b, d.h, d.s, d.dv]);
        let lse = buf(&[d.b, d.h, d.s], DType::F32);
        let inputs = [buf(&qs, bf), buf(&ks, bf), buf(&ks, bf), buf(&os, bf), lse, buf(&os, bf)];
        let outputs = [buf(&qs, bf), buf(&ks, bf), buf(&ks, bf)];
        let params = Params::new(vec![("causal".into(), Param::Flag)]);
        for (mode, iters) in [(SdpaGradMode::Rows, 2), (SdpaGradMode::Gemm, 10)] {
            let run = || run_sdpa_grad_with(&gpu, &params, &inputs, &outputs, &[0; 4], s, mode).unwrap();
            run();
            // Each call timed alone after a synchronization (which makes the scratch the last
            // call dropped reusable, as between a program's iterations).
            let mut ms = 0.0;
            for _ in 0..iters {
                gpu.synchronize_all(std::time::Instant::now() + std::time::Duration::from_secs(60)).unwrap();
                let a = Event::record_timed(s).unwrap();
                run();
                let b = Event::record_timed(s).unwrap();
                api::sync_stream(s).unwrap();
                ms += Event::elapsed_ms(&a, &b).unwrap() as f64 / iters as f64;
            }
            // The products: 5 of 2 * S * Skv * D each per head (the causal half not skipped).
            let tflops = 5.0 * 2.0 * (d.h * d.s * d.skv * d.d) as f64 / ms / 1e9;
            eprintln!("sdpa_grad {mode:?} B1 H64 Hkv8 S2048 D128 causal bf16: {ms:.3} ms ({tflops:.1} TFLOP/s dense)");
        }
    }
}

/// `values` (row-major `shape`) reduced over `dims` on the host, in order: sums and means in
/// f64 (integers wrapping in i64), max/min NaN-propagating (`None`: sum).
fn reduce_on_host(values: &[f64], shape: &[usize], dims: &[usize], kind: Option<ReduceKind>, ints: bool) -> Vec<f64> {
    let kept: Vec<usize> = (0..shape.len()).filter(|d| !dims.contains(d)).collect();
    let n_out: usize = kept.iter().map(|&d| shape[d]).product();
    let mut parts: Vec<Vec<f64>> = vec![Vec::new(); n_out];
    for (i, &v) in values.iter().enumerate() {
        let (mut rest, mut idx) = (i, vec![0; shape.len()]);
        for d in (0..shape.len()).rev() {
            idx[d] = rest % shape[d];
            rest /= shape[d];
        }
        let o = kept.iter().fold(0, |o, &d| o * shape[d] + idx[d]);
        parts[o].push(v);
    }
    parts
        .iter()
        .map(|xs| match kind {
            Some(ReduceKind::Max) if xs.iter().any(|x| x.is_nan()) => f64::NAN,
            Some(ReduceKind::Min) if xs.iter().any(|x| x.is_nan()) => f64::NAN,
            Some(ReduceKind::Max) => xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            Some(ReduceKind::Min) => xs.iter().copied().fold(f64::INFINITY, f64::min),
            Some(ReduceKind::Mean { count }) => xs.iter().sum::<f64>() / count as f64,
            _ if ints => xs.iter().fold(0i64, |a, &x| a.wrapping_add(x as i64)) as f64,
            _ => xs.iter().sum(),
        })
        .collect()
}

/// `host.reduce`/`host.sum` over long axes on the GPU (`fuser_sum_tiled`, both layouts, and
/// `fuser_sum` for short ones) against the host: column sums (the bias and norm-weight
/// gradients of a training step), row sums, reductions over two axes either way, max/min with a
/// NaN, a mean, and wrapping integer sums.
#[test]
fn long_reductions_match_the_host_on_the_gpu() {
    let Some(gpu) = open_gpu() else { return };
    gpu.bind().unwrap();
    let s = gpu.stream(0).unwrap();
    let mut rng = Rng(7);
    type Case = (DType, Vec<usize>, Vec<usize>, Option<ReduceKind>);
    let cases: Vec<Case> = vec![
        (DType::F32, vec![300, 4100], vec![0], None),
        (DType::F32, vec![300, 4100], vec![1], None),
        (DType::BF16, vec![2048, 96], vec![0], None),
        (DType::BF16, vec![3, 70, 130], vec![0, 2], None),
        (DType::F32, vec![3, 70, 130], vec![1], None),
        (DType::F32, vec![5, 7, 9, 11], vec![0, 1, 2, 3], None),
        (DType::F32, vec![100, 40], vec![0], Some(ReduceKind::Max)),
        (DType::F32, vec![40, 100], vec![1], Some(ReduceKind::Min)),
        (DType::F64, vec![90, 33], vec![0], Some(ReduceKind::Mean { count: 90 })),
        (DType::F32, vec![20, 40], vec![0], None), // short: fuser_sum
        (DType::I32, vec![700, 3], vec![0], None),
        (DType::I8, vec![5, 300], vec![1], None),
    ];
    for (n, (dt, shape, dims, kind)) in cases.iter().enumerate() {
        let count: usize = shape.iter().product();
        let ints = dt.is_int();
        let mut vals: Vec<f64> = (0..count)
            .map(|_| if ints { (rng.next() * 1e9).trunc() } else { round_to(*dt, rng.next()) })
            .map(|v| if *dt == DType::I8 { ((v as i64) as i8) as f64 } else { v })
            .collect();
        if matches!(kind, Some(ReduceKind::Max | ReduceKind::Min)) {
            vals[37] = f64::NAN; // one NaN in one output's reduction
        }
        let buf = upload(&gpu, s, *dt, &vals).relayout(0, shape.clone(), contiguous_strides(shape)).unwrap();
        let kept: Vec<usize> = (0..shape.len()).filter(|d| !dims.contains(d)).map(|d| shape[d]).collect();
        let out = gpu.new_buf(*dt, &kept).unwrap();
        match kind {
            None => gpu.sum(&buf, dims, &out, s).unwrap(),
            Some(k) => gpu.reduce(*k, &buf, dims, &out, s).unwrap(),
        }
        let got = download(s, &out);
        let want = reduce_on_host(&vals, shape, dims, *kind, ints);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            let w = if ints {
                match dt {
                    DType::I8 => ((*w as i64) as i8) as f64,
                    _ => ((*w as i64) as i32) as f64,
                }
            } else {
                round_to(*dt, *w)
            };
            let tol = if ints { 0.0 } else { 2.0 * (w.abs() * if *dt == DType::BF16 { 8e-3 } else { 1.2e-7 }) };
            assert!(
                (g.is_nan() && w.is_nan()) || (g - w).abs() <= tol,
                "case {n} {dt:?} {shape:?} over {dims:?} {kind:?}: output {i} is {g}, the host's {w}"
            );
        }
        eprintln!("long reduction case {n}: {dt:?} {shape:?} over {dims:?} {kind:?}: ok");
    }
}
