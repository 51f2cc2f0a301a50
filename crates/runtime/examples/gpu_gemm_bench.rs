//! GEMM timing of the cuda backend's two GEMM libraries on one GPU (`benches/gpu/gemm.sh`
//! calls it; torch's numbers come from `benches/gpu/gemm_torch.py` on the same shapes).
//!
//! Usage: `gpu_gemm_bench [--iters N] [--rounds R] MxNxK...` (bf16). For every shape, round
//! and library (`cublas`: cublasGemmEx, `cublaslt`: cublasLtMatmul with the heuristic's first
//! algorithm, `auto`: the faster of both measured once per problem, during the warmup; odd
//! rounds run them in the other order, so that clock drift shows as a difference between
//! rounds) it times, with CUDA events around `N` back-to-back calls on one stream after 3
//! warmup calls (`FUSER_GEMM_VERBOSE=1` prints `auto`'s choices):
//! - `matmul`: `c[M,N] = a[M,K] · b[K,N]` (`Gpu::matmul`);
//! - `linear`: `y[M,N] = x[M,K] · w[N,K]ᵀ` (`Gpu::linear` without bias);
//! - `linear_bias`: the same plus `bias[N]` (cuBLASLt: its epilogue; cuBLAS: a second kernel);
//! - `linear_bias_gelu`: `gelu_tanh(x·wᵀ + bias)` (`host.linear ... epilogue = gelu_tanh`);
//! - `linear_residual`: `x·wᵀ + bias + r[M,N]` (`host.linear ... residual %r`).
//!
//! It also checks that both libraries give the same `linear_bias` result on a small shape.
//! Prints CSV: `impl,op,m,n,k,mean_us,tflops,round`.

#[cfg(feature = "cuda")]
fn main() {
    if let Err(e) = bench::run() {
        eprintln!("gpu_gemm_bench: error: {}", e.message);
        std::process::exit(1);
    }
}

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("gpu_gemm_bench: built without the `cuda` feature");
    std::process::exit(1);
}

#[cfg(feature = "cuda")]
mod bench {
    use fuser_dialects::host::LinearEpilogue;
    use fuser_runtime::cuda::api::{self, Event};
    use fuser_runtime::cuda::gpu::{GemmLib, Gpu, Tail};
    use fuser_runtime::cuda::memory::CudaBuf;
    use fuser_runtime::dtype::DType;
    use fuser_runtime::{RtError, RtResult};

    fn parse_shape(s: &str) -> RtResult<(usize, usize, usize)> {
        let v: Vec<usize> = s.split('x').filter_map(|p| p.parse().ok()).collect();
        match v[..] {
            [m, n, k] => Ok((m, n, k)),
            _ => Err(RtError::new(format!("bad shape '{s}' (expected MxNxK)"))),
        }
    }

    /// A bf16 buffer of pseudo-random values, about N(0, 1) like torch.randn (the GPU draws
    /// more power, and runs slower, on random operands than on a constant: both sides of the
    /// comparison get the same kind). One 4 Mi-value block is drawn on the host and tiled.
    fn random(gpu: &Gpu, shape: &[usize], seed: u64) -> RtResult<CudaBuf> {
        const BLOCK: usize = 1 << 22;
        let b = gpu.new_buf(DType::BF16, shape)?;
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f32 / (1u64 << 53) as f32
        };
        // The sum of 12 uniforms minus 6: mean 0, variance 1.
        let block: Vec<u16> = (0..BLOCK.min(b.numel()))
            .map(|_| half::bf16::from_f32((0..12).map(|_| uniform()).sum::<f32>() - 6.0).to_bits())
            .collect();
        let mut done = 0;
        while done < b.numel() {
            let len = block.len().min(b.numel() - done);
            let dst = b.addr() + (done * 2) as u64;
            api::check(
                unsafe { cudarc::driver::sys::cuMemcpyHtoD_v2(dst, block.as_ptr().cast(), len * 2) },
                "cuMemcpyHtoD",
            )?;
            done += len;
        }
        Ok(b)
    }

    pub fn run() -> RtResult<()> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut iters = 20usize;
        let mut rounds = 2usize;
        let mut shapes = Vec::new();
        let mut i = 0;
        while i < args.len() {
            if args[i] == "--iters" {
                iters = args.get(i + 1).and_then(|v| v.parse().ok()).ok_or_else(|| RtError::new("--iters N"))?;
                i += 2;
                continue;
            }
            if args[i] == "--rounds" {
                rounds = args.get(i + 1).and_then(|v| v.parse().ok()).ok_or_else(|| RtError::new("--rounds R"))?;
                i += 2;
                continue;
            }
            shapes.push(parse_shape(&args[i])?);
            i += 1;
        }
        api::load_libraries()?;
        let mut gpu = Gpu::open(0)?;
        gpu.bind()?;
        let s = gpu.stream(0)?;
        same_results(&mut gpu, s)?;
        println!("impl,op,m,n,k,mean_us,tflops,round");
        for &(m, n, k) in &shapes {
            let a = random(&gpu, &[m, k], 1)?;
            let b = random(&gpu, &[k, n], 2)?;
            let w = random(&gpu, &[n, k], 3)?;
            let bias = random(&gpu, &[n], 4)?;
            let r = random(&gpu, &[m, n], 5)?;
            let c = gpu.new_buf(DType::BF16, &[m, n])?;
            for (round, lib) in (0..rounds).flat_map(|r| {
                let libs = if r % 2 == 0 {
                    [GemmLib::Cublas, GemmLib::CublasLt, GemmLib::Auto]
                } else {
                    [GemmLib::Auto, GemmLib::CublasLt, GemmLib::Cublas]
                };
                libs.map(|l| (r, l))
            }) {
                gpu.gemm_lib = lib;
                for op in ["matmul", "linear", "linear_bias", "linear_bias_gelu", "linear_residual"] {
                    let call = |g: &Gpu| match op {
                        "matmul" => g.matmul(&a, &b, &c, false, s),
                        "linear" => g.linear(&a, &w, None, &c, false, s),
                        "linear_bias" => g.linear(&a, &w, Some(&bias), &c, false, s),
                        "linear_bias_gelu" => {
                            let tail = Tail { bias: Some(&bias), residual: None, act: Some(LinearEpilogue::GeluTanh) };
                            g.linear_with(&a, &w, &c, false, tail, s)
                        }
                        _ => {
                            let tail = Tail { bias: Some(&bias), residual: Some(&r), act: None };
                            g.linear_with(&a, &w, &c, false, tail, s)
                        }
                    };
                    for _ in 0..3 {
                        call(&gpu)?;
                    }
                    let start = Event::record_timed(s)?;
                    for _ in 0..iters {
                        call(&gpu)?;
                    }
                    let end = Event::record_timed(s)?;
                    api::sync_stream(s)?;
                    let us = f64::from(Event::elapsed_ms(&start, &end)?) * 1e3 / iters as f64;
                    let tflops = 2.0 * (m * n * k) as f64 / (us * 1e-6) / 1e12;
                    println!("fuser-{},{op},{m},{n},{k},{us:.2},{tflops:.1},{round}", lib.name());
                }
            }
        }
        Ok(())
    }

    /// cuBLASLt's fused bias and cuBLAS's GEMM + add agree (up to bf16 rounding of the
    /// unfused intermediate) on a small linear with distinct values.
    fn same_results(gpu: &mut Gpu, s: api::RawStream) -> RtResult<()> {
        let (m, n, k) = (96, 80, 64);
        let upload = |shape: &[usize], f: &dyn Fn(usize) -> f32| -> RtResult<CudaBuf> {
            let b = gpu.new_buf(DType::BF16, shape)?;
            let bits: Vec<u16> = (0..b.numel()).map(|i| half::bf16::from_f32(f(i)).to_bits()).collect();
            api::check(
                unsafe { cudarc::driver::sys::cuMemcpyHtoD_v2(b.addr(), bits.as_ptr().cast(), bits.len() * 2) },
                "cuMemcpyHtoD",
            )?;
            Ok(b)
        };
        let x = upload(&[m, k], &|i| ((i * 7) % 13) as f32 * 0.125 - 0.75)?;
        let w = upload(&[n, k], &|i| ((i * 5) % 11) as f32 * 0.0625 - 0.3)?;
        let bias = upload(&[n], &|i| i as f32 * 0.5 - 10.0)?;
        let mut results = Vec::new();
        for lib in [GemmLib::Cublas, GemmLib::CublasLt] {
            gpu.gemm_lib = lib;
            let y = gpu.new_buf(DType::BF16, &[m, n])?;
            gpu.linear(&x, &w, Some(&bias), &y, false, s)?;
            api::sync_stream(s)?;
            let mut bits = vec![0u16; m * n];
            api::check(
                unsafe { cudarc::driver::sys::cuMemcpyDtoH_v2(bits.as_mut_ptr().cast(), y.addr(), bits.len() * 2) },
                "cuMemcpyDtoH",
            )?;
            results.push(bits.into_iter().map(|b| half::bf16::from_bits(b).to_f32()).collect::<Vec<f32>>());
        }
        let worst =
            results[0].iter().zip(&results[1]).map(|(a, b)| (a - b).abs() / (1.0 + b.abs())).fold(0f32, f32::max);
        eprintln!("gpu_gemm_bench: cublas vs cublaslt linear_bias {m}x{n}x{k}: max rel diff {worst:.2e}");
        if worst > 2e-2 {
            return Err(RtError::new(format!("cublas and cublaslt disagree: max rel diff {worst}")));
        }
        Ok(())
    }
}
