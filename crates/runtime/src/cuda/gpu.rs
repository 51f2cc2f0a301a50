//! One GPU as the CUDA backend uses it: its context, streams, caching allocator, cuBLAS
//! handle and the NVRTC-compiled kernels of [`super::kernels`]; and the compute operations
//! on [`CudaBuf`] views (copy, elementwise, sum, GEMM), each enqueued on a stream.
//!
//! Copies use the copy engines where the layout allows (`cuMemcpyAsync` for dense views,
//! `cuMemcpy2DAsync` for rows at a pitch) and the strided kernel otherwise (also for element
//! type conversions). GEMMs go to cuBLASLt ([`super::cublaslt`]; a linear's bias as its
//! epilogue) or `cublasGemmEx` as [`GemmLib`] says (and to `cublasGemmEx` where cuBLASLt has
//! no algorithm), with fp32 accumulation for bf16/f16/f32 (f64 in f64): a row-major product `C = A·B` is issued as the column-major `Cᵀ = Bᵀ·Aᵀ`
//! when C's rows are dense, as `C = A·B` when its columns are; operands whose layout cuBLAS
//! cannot address are staged through a dense temporary.
//!
//! Invariant: every method expects this GPU's context to be current on the calling thread
//! ([`Gpu::bind`]); all work is asynchronous on the given stream.

use super::api::{self, Device, Event, RawStream};
use super::cublaslt::{self, Lt, LtGemm, Operand};
use super::kernels::{self, EwParams, IntGemmParams, SumParams};
use super::memory::{Allocator, CudaBuf};
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
pub use crate::gemm_lib::GemmLib;
use crate::gemm_lib::{ChoiceCache, Decision, GemmPath, TIMED_REPS, describe_choice};
use crate::watchdog::lock;
use cudarc::cublas::sys as cb;
use cudarc::driver::sys;
use fuser_dialects::host::{ElementwiseKind, LinearEpilogue, ReduceKind};
use std::sync::{Arc, Mutex, OnceLock};

/// A cuBLAS handle (used by one rank thread at a time, behind a mutex).
struct Cublas(cb::cublasHandle_t);
unsafe impl Send for Cublas {}

#[derive(Clone, Copy)]
struct Func(sys::CUfunction);
unsafe impl Send for Func {}
unsafe impl Sync for Func {}

/// The state of one GPU.
pub struct Gpu {
    pub dev: Device,
    pub alloc: Arc<Allocator>,
    streams: Mutex<Vec<RawStream>>,
    cublas: Mutex<Cublas>,
    /// The GEMM library (set before the first GEMM).
    pub gemm_lib: GemmLib,
    /// cuBLASLt, created at the first GEMM through it.
    lt: Mutex<Option<Lt>>,
    /// The cuBLASLt workspace of each stream that ran one of its GEMMs.
    workspaces: Mutex<Vec<(RawStream, CudaBuf)>>,
    /// The GPU model (name and compute capability, hashed): `--gemm auto`'s choices are shared
    /// by the GPUs of one model ([`choices`]).
    model: u64,
    elementwise: Func,
    sum: Func,
    sum_tiled: Func,
    int_gemm: Func,
    fill: Func,
    copy_vec: Func,
}

/// The kernels' PTX for a compute capability, compiled once per process.
/// PTX per compute capability.
type PtxCache = Mutex<Vec<((i32, i32), String)>>;

fn ptx_for(capability: (i32, i32)) -> RtResult<String> {
    static PTX: OnceLock<PtxCache> = OnceLock::new();
    let cache = PTX.get_or_init(|| Mutex::new(Vec::new()));
    if let Some((_, p)) = lock(cache).iter().find(|(c, _)| *c == capability) {
        return Ok(p.clone());
    }
    let opts = cudarc::nvrtc::CompileOptions {
        options: vec![format!("--gpu-architecture=compute_{}{}", capability.0, capability.1)],
        ..Default::default()
    };
    let ptx = cudarc::nvrtc::compile_ptx_with_opts(kernels::SOURCE, opts)
        .map_err(|e| RtError::new(format!("cuda: compiling the kernels with NVRTC failed: {e}")))?
        .to_src();
    lock(cache).push((capability, ptx.clone()));
    Ok(ptx)
}

impl Gpu {
    /// Opens GPU `ordinal`: context, main stream, cuBLAS, kernels.
    pub fn open(ordinal: usize) -> RtResult<Gpu> {
        let dev = Device::open(ordinal)?;
        dev.bind()?;
        let ptx = ptx_for(dev.capability)?;
        let image = std::ffi::CString::new(ptx).map_err(|_| RtError::new("cuda: PTX with a NUL byte"))?;
        let mut module = std::ptr::null_mut();
        api::check(unsafe { sys::cuModuleLoadData(&mut module, image.as_ptr().cast()) }, "cuModuleLoadData")?;
        let func = |name: &str| -> RtResult<Func> {
            let c = std::ffi::CString::new(name).expect("no NUL in kernel names");
            let mut f = std::ptr::null_mut();
            api::check(unsafe { sys::cuModuleGetFunction(&mut f, module, c.as_ptr()) }, "cuModuleGetFunction")?;
            Ok(Func(f))
        };
        let (elementwise, sum, int_gemm) = (func("fuser_elementwise")?, func("fuser_sum")?, func("fuser_int_gemm")?);
        let sum_tiled = func("fuser_sum_tiled")?;
        let (fill, copy_vec) = (func("fuser_fill")?, func("fuser_copy_vec")?);
        let handle = cudarc::cublas::result::create_handle()
            .map_err(|e| RtError::new(format!("cuda: cublasCreate failed: {e:?}")))?;
        let main = api::create_stream()?;
        let alloc = Allocator::new(dev.ordinal, dev.ctx);
        let model = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (&dev.name, dev.capability).hash(&mut h);
            h.finish()
        };
        Ok(Gpu {
            dev,
            alloc,
            streams: Mutex::new(vec![main]),
            cublas: Mutex::new(Cublas(handle)),
            gemm_lib: GemmLib::default(),
            lt: Mutex::new(None),
            workspaces: Mutex::new(Vec::new()),
            model,
            elementwise,
            sum,
            sum_tiled,
            int_gemm,
            fill,
            copy_vec,
        })
    }

    pub fn bind(&self) -> RtResult<()> {
        self.dev.bind()
    }

    /// Stream `index` (0 = main), created on first use.
    pub fn stream(&self, index: usize) -> RtResult<RawStream> {
        let mut s = lock(&self.streams);
        while s.len() <= index {
            s.push(api::create_stream()?);
        }
        Ok(s[index])
    }

    /// The streams created so far (index 0 the main stream).
    pub fn streams(&self) -> Vec<RawStream> {
        lock(&self.streams).clone()
    }

    /// The host waits for every stream (until `deadline`: the error then names the stuck
    /// stream); then parked memory is reusable.
    pub fn synchronize_all(&self, deadline: std::time::Instant) -> RtResult<()> {
        let streams = lock(&self.streams).clone();
        for (i, s) in streams.into_iter().enumerate() {
            api::sync_stream_until(s, deadline).map_err(|e| stuck(e, i))?;
        }
        self.alloc.reclaim_parked();
        Ok(())
    }

    /// A dense buffer of `shape` on this GPU.
    pub fn new_buf(&self, dtype: DType, shape: &[usize]) -> RtResult<CudaBuf> {
        let bytes = shape.iter().product::<usize>() * dtype.size();
        Ok(CudaBuf::whole(self.alloc.alloc(bytes)?, dtype, shape))
    }

    /// A dense copy of `v` (or `v` itself when already dense).
    pub fn dense(&self, v: &CudaBuf, stream: RawStream) -> RtResult<CudaBuf> {
        if v.is_contiguous() {
            return Ok(v.clone());
        }
        let t = self.new_buf(v.dtype, &v.shape)?;
        self.copy(v, &t, stream)?;
        Ok(t)
    }

    /// `dst = src` (shapes equal; types may differ; either may live on another GPU).
    pub fn copy(&self, src: &CudaBuf, dst: &CudaBuf, stream: RawStream) -> RtResult<()> {
        if src.shape != dst.shape {
            return Err(RtError::new(format!(
                "copy: source shape {:?} differs from target {:?}",
                src.shape, dst.shape
            )));
        }
        if src.dtype == dst.dtype {
            if src.is_contiguous() && dst.is_contiguous() {
                return api::copy_async(dst.addr(), src.addr(), src.bytes(), stream);
            }
            if let (Some((rows, w, sp)), Some((_, _, dp))) = (src.as_rows(), dst.as_rows()) {
                let e = src.dtype.size();
                return api::copy_2d_async((dst.addr(), dp * e), (src.addr(), sp * e), w * e, rows, stream);
            }
            let e = src.dtype.size();
            if let Some(mut p) =
                kernels::copy_vec_params(&src.shape, &src.strides, &dst.strides, e, src.addr(), dst.addr())
            {
                let n = p.n;
                return self.launch(self.copy_vec, &mut p, n, stream);
            }
        }
        self.elementwise(ElementwiseKind::Cast, std::slice::from_ref(src), dst, stream)
    }

    /// `output = kind(inputs...)` elementwise, on views of one shape (inputs may be
    /// broadcast views with zero strides).
    pub fn elementwise(
        &self,
        kind: ElementwiseKind,
        inputs: &[CudaBuf],
        output: &CudaBuf,
        stream: RawStream,
    ) -> RtResult<()> {
        let a = inputs.first().ok_or_else(|| RtError::new("elementwise: no input"))?;
        for i in inputs {
            if i.shape != output.shape {
                return Err(RtError::new(format!(
                    "elementwise: input shape {:?} differs from output {:?}",
                    i.shape, output.shape
                )));
            }
        }
        let b = inputs.get(1).unwrap_or(a);
        let c = inputs.get(2).unwrap_or(a);
        let n = output.numel() as i64;
        if n == 0 {
            return Ok(());
        }
        let mut p = EwParams {
            n,
            out: kernels::operand(output.addr(), output.dtype, &output.strides)?,
            a: kernels::operand(a.addr(), a.dtype, &a.strides)?,
            b: kernels::operand(b.addr(), b.dtype, &b.strides)?,
            c: kernels::operand(c.addr(), c.dtype, &c.strides)?,
            nd: output.shape.len() as i32,
            op: kernels::op_code(kind),
            ..EwParams::default()
        };
        for (d, &e) in output.shape.iter().enumerate() {
            p.shape[d] = e as i64;
        }
        self.launch(self.elementwise, &mut p, n, stream)
    }

    /// `target = value` everywhere (`host.fill`).
    pub fn fill(&self, target: &CudaBuf, value: fuser_dialects::Scalar, stream: RawStream) -> RtResult<()> {
        let n = target.numel() as i64;
        if n == 0 {
            return Ok(());
        }
        let mut p = kernels::FillParams {
            n,
            out: kernels::operand(target.addr(), target.dtype, &target.strides)?,
            nd: target.shape.len() as i32,
            ..kernels::FillParams::default()
        };
        match value {
            fuser_dialects::Scalar::Int(v) => (p.ival, p.is_int) = (v, 1),
            fuser_dialects::Scalar::Float(v) => p.fval = v,
        }
        for (d, &e) in target.shape.iter().enumerate() {
            p.shape[d] = e as i64;
        }
        self.launch(self.fill, &mut p, n, stream)
    }

    /// `output = sum of input over dims` (output holds the kept dimensions in order).
    pub fn sum(&self, input: &CudaBuf, dims: &[usize], output: &CudaBuf, stream: RawStream) -> RtResult<()> {
        self.reduction(None, input, dims, output, stream)
    }

    /// `host.reduce`: max, min, mean or var over `dims` (the `fuser_sum` kernel with a kind).
    pub fn reduce(
        &self,
        kind: ReduceKind,
        input: &CudaBuf,
        dims: &[usize],
        output: &CudaBuf,
        stream: RawStream,
    ) -> RtResult<()> {
        self.reduction(Some(kind), input, dims, output, stream)
    }

    fn reduction(
        &self,
        kind: Option<ReduceKind>,
        input: &CudaBuf,
        dims: &[usize],
        output: &CudaBuf,
        stream: RawStream,
    ) -> RtResult<()> {
        let kept: Vec<usize> = (0..input.shape.len()).filter(|d| !dims.contains(d)).collect();
        let kept_shape: Vec<usize> = kept.iter().map(|&d| input.shape[d]).collect();
        if kept_shape != output.shape {
            return Err(RtError::new(format!(
                "sum: reducing {:?} over {dims:?} gives {kept_shape:?}, the output is {:?}",
                input.shape, output.shape
            )));
        }
        let order: Vec<usize> = kept.iter().copied().chain(dims.iter().copied()).collect();
        let in_strides: Vec<usize> = order.iter().map(|&d| input.strides[d]).collect();
        let n_out = output.numel() as i64;
        if n_out == 0 {
            return Ok(());
        }
        let (code, count, correction) = kernels::reduce_code(kind);
        let mut p = SumParams {
            n_out,
            n_red: dims.iter().map(|&d| input.shape[d]).product::<usize>() as i64,
            input: kernels::operand(input.addr(), input.dtype, &in_strides)?,
            out: kernels::operand(output.addr(), output.dtype, &output.strides)?,
            nd: order.len() as i32,
            nkept: kept.len() as i32,
            kind: code,
            count,
            correction,
            ..SumParams::default()
        };
        for (i, &d) in order.iter().enumerate() {
            p.shape[i] = input.shape[d] as i64;
        }
        match kernels::sum_layout(code, p.n_red, &in_strides, kept.len()) {
            None => self.launch(self.sum, &mut p, n_out, stream),
            Some(mode) => {
                p.mode = mode;
                self.launch_sum_tiled(&mut p, stream)
            }
        }
    }

    /// `fuser_sum_tiled`: blocks of 32 x 32 threads, 32 outputs each.
    fn launch_sum_tiled(&self, p: &mut SumParams, stream: RawStream) -> RtResult<()> {
        let blocks = (p.n_out as u64).div_ceil(32).clamp(1, 65535 * 8) as u32;
        self.launch_grid(self.sum_tiled, p, blocks, (32, 32), stream)
    }

    /// One thread per element of `n` (`kernels::launch_dims`).
    fn launch<P>(&self, f: Func, params: &mut P, n: i64, stream: RawStream) -> RtResult<()> {
        let (blocks, threads) = kernels::launch_dims(n);
        self.launch_grid(f, params, blocks, (threads, 1), stream)
    }

    /// `blocks` blocks of `threads` (x, y) threads, `params` the kernel's one argument.
    fn launch_grid<P>(
        &self,
        f: Func,
        params: &mut P,
        blocks: u32,
        threads: (u32, u32),
        stream: RawStream,
    ) -> RtResult<()> {
        let mut args = [(params as *mut P).cast::<std::ffi::c_void>()];
        api::check(
            unsafe {
                sys::cuLaunchKernel(
                    f.0,
                    blocks,
                    1,
                    1,
                    threads.0,
                    threads.1,
                    1,
                    0,
                    stream.0,
                    args.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            },
            "cuLaunchKernel",
        )
    }

    /// `c (+)= a · b` over the last two dimensions, batch dimensions broadcast.
    pub fn matmul(&self, a: &CudaBuf, b: &CudaBuf, c: &CudaBuf, accumulate: bool, stream: RawStream) -> RtResult<()> {
        let (ra, rb, rc) = (a.shape.len(), b.shape.len(), c.shape.len());
        if ra < 2 || rb < 2 || rc < 2 {
            return Err(RtError::new("matmul: operands need rank >= 2"));
        }
        let (m, k, n) = (a.shape[ra - 2], a.shape[ra - 1], b.shape[rb - 1]);
        if b.shape[rb - 2] != k || c.shape[rc - 2] != m || c.shape[rc - 1] != n {
            return Err(RtError::new(format!(
                "matmul: shapes {:?} x {:?} -> {:?} do not match",
                a.shape, b.shape, c.shape
            )));
        }
        let batch_shape = &c.shape[..rc - 2];
        for (name, v, r) in [("lhs", a, ra), ("rhs", b, rb)] {
            if r > 2 && v.shape[..r - 2] != *batch_shape {
                return Err(RtError::new(format!(
                    "matmul: {name} batch {:?} differs from {batch_shape:?}",
                    &v.shape[..r - 2]
                )));
            }
        }
        let batches: usize = batch_shape.iter().product();
        for flat in 0..batches {
            let idx = unflatten(flat, batch_shape);
            let (ma, mb, mc) = (mat_at(a, &idx), mat_at(b, &idx), mat_at(c, &idx));
            self.gemm(ma, mb, mc, accumulate, Tail::default(), c, stream)?;
        }
        Ok(())
    }

    /// `y (+)= x · wᵀ (+ bias)` with `x [..., k]`, `w [n, k]`, `y [..., n]`.
    pub fn linear(
        &self,
        x: &CudaBuf,
        w: &CudaBuf,
        bias: Option<&CudaBuf>,
        y: &CudaBuf,
        accumulate: bool,
        stream: RawStream,
    ) -> RtResult<()> {
        self.linear_with(x, w, y, accumulate, Tail { bias, ..Tail::default() }, stream)
    }

    /// `y (+)= x · wᵀ` followed by `tail` (bias, residual, activation: `host.linear`'s
    /// epilogue), fused into cuBLASLt's epilogue where the chosen path is cuBLASLt and it fits,
    /// separate elementwise kernels otherwise.
    pub fn linear_with(
        &self,
        x: &CudaBuf,
        w: &CudaBuf,
        y: &CudaBuf,
        accumulate: bool,
        tail: Tail<'_>,
        stream: RawStream,
    ) -> RtResult<()> {
        let (rx, ry) = (x.shape.len(), y.shape.len());
        if rx < 1 || w.shape.len() != 2 || ry != rx {
            return Err(RtError::new(format!(
                "linear: shapes {:?}, {:?} -> {:?} do not match",
                x.shape, w.shape, y.shape
            )));
        }
        let (n, k) = (w.shape[0], w.shape[1]);
        if x.shape[rx - 1] != k || y.shape[ry - 1] != n || x.shape[..rx - 1] != y.shape[..ry - 1] {
            return Err(RtError::new(format!(
                "linear: shapes {:?}, {:?} -> {:?} do not match",
                x.shape, w.shape, y.shape
            )));
        }
        if let Some(r) = tail.residual
            && r.shape != y.shape
        {
            return Err(RtError::new(format!(
                "linear: residual shape {:?} differs from the output {:?}",
                r.shape, y.shape
            )));
        }
        if accumulate && (tail.residual.is_some() || tail.act.is_some()) {
            return Err(RtError::new("linear: 'accumulate' excludes a residual and an epilogue"));
        }
        if tail.residual.is_some() && tail.act.is_some() {
            return Err(RtError::new("linear: a residual excludes an epilogue"));
        }
        // Leading dimensions flattened into rows (through dense copies where they don't collapse).
        let x2 = self.rows_of(x, stream)?;
        let staged_y = rows_view(y).is_none();
        let y_target = if staged_y { self.dense(y, stream)? } else { y.clone() };
        let y2 = rows_view(&y_target).ok_or_else(|| RtError::new("linear: output layout"))?;
        let wt = Mat { addr: w.addr(), rows: k, cols: n, rs: w.strides[1], cs: w.strides[0], dtype: w.dtype };
        self.gemm(x2, wt, y2, accumulate, tail, &y_target, stream)?;
        if staged_y {
            self.copy(&y_target, y, stream)?;
        }
        Ok(())
    }

    /// `v [..., k]` as a matrix of rows (staging through a dense copy when needed).
    fn rows_of(&self, v: &CudaBuf, stream: RawStream) -> RtResult<Mat> {
        match rows_view(v) {
            Some(m) => Ok(m),
            None => {
                let d = self.dense(v, stream)?;
                let m = rows_view(&d).ok_or_else(|| RtError::new("a dense view that does not collapse"))?;
                // The staged copy must outlive the GEMM: its block is parked when `d` goes and
                // reused only after the next full synchronization.
                Ok(m)
            }
        }
    }

    /// One GEMM `c (+)= a · b` of logical row-major matrices with arbitrary strides, then
    /// `tail` on `out` (the view `c` is a matrix of; a linear's only matrix): fused into
    /// cuBLASLt's epilogue when the path is cuBLASLt and it fits, else separate kernels. The
    /// path: `--gemm cublas`, `cublaslt` (the heuristic's first), or `auto`'s measured choice.
    #[allow(clippy::too_many_arguments)]
    fn gemm(
        &self,
        a: Mat,
        b: Mat,
        c: Mat,
        accumulate: bool,
        tail: Tail<'_>,
        out: &CudaBuf,
        stream: RawStream,
    ) -> RtResult<()> {
        let (m, k, n) = (a.rows, a.cols, b.cols);
        if m == 0 || n == 0 {
            return Ok(());
        }
        if c.dtype.is_int() {
            // Wrapping integer GEMM (numerics.rs), one thread per element; then the tail.
            if a.dtype != c.dtype || b.dtype != c.dtype {
                let names = (a.dtype.name(), b.dtype.name(), c.dtype.name());
                return Err(RtError::new(format!(
                    "matmul on cuda needs one element type, got {}, {} -> {}",
                    names.0, names.1, names.2
                )));
            }
            let mut p = IntGemmParams {
                m: m as i64,
                n: n as i64,
                k: k as i64,
                a: kernels::operand(a.addr, a.dtype, &[a.rs, a.cs])?,
                b: kernels::operand(b.addr, b.dtype, &[b.rs, b.cs])?,
                c: kernels::operand(c.addr, c.dtype, &[c.rs, c.cs])?,
                accumulate: i32::from(accumulate),
                pad: 0,
            };
            let count = p.m * p.n;
            self.launch(self.int_gemm, &mut p, count, stream)?;
            return self.separate_tail(tail, out, stream);
        }
        let (ty, compute) = cublas_types(a.dtype, b.dtype, c.dtype)?;
        // The product written column-major: X (p×q) = Y (p×r) · Z (r×q).
        // `rows_are_columns_of_c`: X is cᵀ, so a bias per column of c is one per row of X.
        let (x, y, z, p, q, rows_are_columns_of_c) = match (c.transposed().layout(), c.layout()) {
            (Some(_), _) => (c.transposed(), b.transposed(), a.transposed(), n, m, true),
            (None, Some(_)) => (c, a, b, m, n, false),
            (None, None) => {
                return Err(RtError::new("matmul: the output view is neither row- nor column-dense"));
            }
        };
        let ldx = x.layout().ok_or_else(|| RtError::new("matmul: output layout"))?;
        // The staged operands live until the end of this function (the GEMMs are enqueued).
        let ((y_addr, opy, ldy), _staged_y) = self.operand(&y, stream)?;
        let ((z_addr, opz, ldz), _staged_z) = self.operand(&z, stream)?;
        let t = |op| op == cb::cublasOperation_t::CUBLAS_OP_T;
        let plain = LtGemm {
            p,
            q,
            k,
            a: Operand { addr: y_addr, trans: t(opy), ld: ldy },
            b: Operand { addr: z_addr, trans: t(opz), ld: ldz },
            d: (x.addr, ldx),
            dtype: c.dtype,
            accumulate,
            bias: None,
            c: None,
            gelu: false,
        };
        let fused = fused_tail(&tail, &plain, rows_are_columns_of_c);
        let call = GemmCall {
            lt: fused.unwrap_or(plain),
            lt_separate: fused.is_none() && !tail.is_empty(),
            ex: ExCall {
                ops: (opy, opz),
                pqk: (p, q, k),
                y: (y_addr, ldy),
                z: (z_addr, ldz),
                x: (x.addr, ldx),
                ty,
                compute,
                accumulate,
            },
        };
        let path = match self.gemm_lib {
            GemmLib::Cublas => GemmPath::GemmEx,
            GemmLib::CublasLt => GemmPath::Lt(0),
            GemmLib::Auto => self.auto_path(&call, tail, out, stream)?,
        };
        self.run_path(path, &call, tail, out, stream)
    }

    /// Enqueues `call` along `path` (cuBLASLt without such an algorithm falls back to
    /// `cublasGemmEx`), with the separate tail kernels the path needs.
    fn run_path(
        &self,
        path: GemmPath,
        call: &GemmCall,
        tail: Tail<'_>,
        out: &CudaBuf,
        stream: RawStream,
    ) -> RtResult<()> {
        if let GemmPath::Lt(i) = path
            && call.lt.k > 0
            && self.lt_gemm(&call.lt, i, stream)?
        {
            return if call.lt_separate { self.separate_tail(tail, out, stream) } else { Ok(()) };
        }
        self.gemm_ex(&call.ex, stream)?;
        self.separate_tail(tail, out, stream)
    }

    /// `--gemm auto`: the cached choice of `call`'s problem, or (first sight, outside a graph
    /// capture) the fastest path measured now on `stream` ([`crate::gemm_lib`]).
    fn auto_path(&self, call: &GemmCall, tail: Tail<'_>, out: &CudaBuf, stream: RawStream) -> RtResult<GemmPath> {
        let key = TuneKey {
            lt: call.lt.key(),
            accumulate: call.lt.accumulate,
            tail: (tail.bias.is_some(), tail.residual.is_some(), tail.act.is_some()),
        };
        // The timed calls accumulate into the output: it is saved first and restored after.
        let mut saved: Option<CudaBuf> = None;
        let decision = ChoiceCache::decide(
            choices(),
            &(self.model, key),
            || api::is_capturing(stream),
            || {
                if call.lt.k == 0 {
                    return Ok(0);
                }
                // No cuBLASLt library: cublasGemmEx only.
                Ok(self.lt_candidates(&call.lt, stream).unwrap_or(0))
            },
            |path| {
                if call.lt.accumulate && saved.is_none() {
                    let s = self.new_buf(out.dtype, &out.shape)?;
                    self.copy(out, &s, stream)?;
                    saved = Some(s);
                }
                self.time_path(path, call, tail, out, stream)
            },
        );
        if let Some(s) = &saved {
            self.copy(s, out, stream)?;
        }
        let decision = decision?;
        if crate::gemm_lib::verbose() {
            let problem = describe_problem(&key);
            match &decision {
                Decision::Measured { chosen, picked, timings } => {
                    let mut line = describe_choice(&problem, *chosen, timings);
                    if chosen != picked {
                        line.push_str(&format!(" (settled by another GPU first; these timings picked {picked})"));
                    }
                    eprintln!("{line} [GPU {}]", self.dev.ordinal);
                }
                Decision::Capturing => eprintln!(
                    "fuser: gemm auto: {problem}: cublasGemmEx (first seen during a CUDA graph capture: not measured)"
                ),
                Decision::Cached(_) => {}
            }
        }
        Ok(decision.path())
    }

    /// Milliseconds per call of `call` along `path`: one warm call, then [`TIMED_REPS`] calls
    /// between two timing events on `stream`, waited for. An error where the path cannot run.
    fn time_path(
        &self,
        path: GemmPath,
        call: &GemmCall,
        tail: Tail<'_>,
        out: &CudaBuf,
        stream: RawStream,
    ) -> RtResult<f32> {
        let once = || -> RtResult<()> {
            if let GemmPath::Lt(i) = path {
                if call.lt.k == 0 || !self.lt_gemm(&call.lt, i, stream)? {
                    return Err(RtError::new(format!("cublasLt has no candidate {i} for this problem")));
                }
                return if call.lt_separate { self.separate_tail(tail, out, stream) } else { Ok(()) };
            }
            self.gemm_ex(&call.ex, stream)?;
            self.separate_tail(tail, out, stream)
        };
        once()?;
        let start = Event::record_timed(stream)?;
        for _ in 0..TIMED_REPS {
            once()?;
        }
        let end = Event::record_timed(stream)?;
        api::sync_stream_until(stream, std::time::Instant::now() + MEASURE_TIMEOUT).map_err(|e| {
            if e.message == api::STREAM_TIMEOUT {
                RtError::new(format!(
                    "--gemm auto: timing {path} did not finish within {MEASURE_TIMEOUT:?}: the stream waits for work \
                     that never completes (--gemm cublas measures nothing)"
                ))
            } else {
                e
            }
        })?;
        Ok(Event::elapsed_ms(&start, &end)? / TIMED_REPS as f32)
    }

    /// `cublasGemmEx` of a column-major problem.
    fn gemm_ex(&self, e: &ExCall, stream: RawStream) -> RtResult<()> {
        let (p, q, k) = e.pqk;
        let (alpha32, beta32, alpha64, beta64) =
            (1f32, if e.accumulate { 1f32 } else { 0f32 }, 1f64, f64::from(e.accumulate));
        let (alpha, beta): (*const std::ffi::c_void, *const std::ffi::c_void) =
            if e.compute == cb::cublasComputeType_t::CUBLAS_COMPUTE_64F {
                ((&alpha64 as *const f64).cast(), (&beta64 as *const f64).cast())
            } else {
                ((&alpha32 as *const f32).cast(), (&beta32 as *const f32).cast())
            };
        let handle = lock(&self.cublas);
        unsafe {
            cudarc::cublas::result::set_stream(handle.0, stream.0 as _)
                .map_err(|err| RtError::new(format!("cuda: cublasSetStream failed: {err:?}")))?;
            cudarc::cublas::result::gemm_ex(
                handle.0,
                e.ops.0,
                e.ops.1,
                p as i32,
                q as i32,
                k as i32,
                alpha,
                e.y.0 as *const std::ffi::c_void,
                e.ty,
                e.y.1 as i32,
                e.z.0 as *const std::ffi::c_void,
                e.ty,
                e.z.1 as i32,
                beta,
                e.x.0 as *mut std::ffi::c_void,
                e.ty,
                e.x.1 as i32,
                e.compute,
                cb::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
            .map_err(|err| RtError::new(format!("cuda: cublasGemmEx ({p}x{q}x{k}, column-major) failed: {err:?}")))?;
        }
        Ok(())
    }

    /// Runs `f` with this GPU's cuBLAS handle set to `stream` (the handle's lock held meanwhile):
    /// for the kernels that call cuBLAS themselves (the GEMM-based `sdpa_grad`).
    pub fn with_cublas<R>(&self, stream: RawStream, f: impl FnOnce(cb::cublasHandle_t) -> RtResult<R>) -> RtResult<R> {
        let handle = lock(&self.cublas);
        unsafe {
            cudarc::cublas::result::set_stream(handle.0, stream.0 as _)
                .map_err(|err| RtError::new(format!("cuda: cublasSetStream failed: {err:?}")))?;
        }
        f(handle.0)
    }

    /// `tail` as elementwise kernels on `out` (the GEMM's result): the bias broadcast over the
    /// rows, the residual, then the activation.
    fn separate_tail(&self, tail: Tail<'_>, out: &CudaBuf, stream: RawStream) -> RtResult<()> {
        if let Some(bias) = tail.bias {
            let r = out.shape.len();
            let mut strides = vec![0; r];
            strides[r - 1] = *bias.strides.last().unwrap_or(&1);
            let broadcast = CudaBuf { shape: out.shape.clone(), strides, ..bias.clone() };
            self.elementwise(ElementwiseKind::Add, &[out.clone(), broadcast], out, stream)?;
        }
        if let Some(residual) = tail.residual {
            self.elementwise(ElementwiseKind::Add, &[out.clone(), residual.clone()], out, stream)?;
        }
        if let Some(act) = tail.act {
            if !out.dtype.is_float() {
                return Err(RtError::new(format!("linear: epilogue {} needs a float output", act.keyword())));
            }
            self.elementwise(act.elementwise_kind(), std::slice::from_ref(out), out, stream)?;
        }
        Ok(())
    }

    /// `stream`'s cuBLASLt workspace (made on first use) and the cuBLASLt state (made on first
    /// use; an error where the library is missing).
    fn with_lt<T>(&self, stream: RawStream, f: impl FnOnce(&mut Lt, u64) -> RtResult<T>) -> RtResult<T> {
        let workspace = {
            let mut ws = lock(&self.workspaces);
            match ws.iter().find(|(s, _)| *s == stream) {
                Some((_, b)) => b.addr(),
                None => {
                    let b = self.new_buf(DType::I8, &[cublaslt::WORKSPACE_BYTES])?;
                    let addr = b.addr();
                    ws.push((stream, b));
                    addr
                }
            }
        };
        let mut lt = lock(&self.lt);
        if lt.is_none() {
            *lt = Some(Lt::new()?);
        }
        f(lt.as_mut().expect("created above"), workspace)
    }

    /// `g` through cuBLASLt's candidate `algo` with `stream`'s workspace; `false`: no such
    /// algorithm (nothing enqueued).
    fn lt_gemm(&self, g: &LtGemm, algo: usize, stream: RawStream) -> RtResult<bool> {
        self.with_lt(stream, |lt, ws| lt.matmul(g, algo, (ws, cublaslt::WORKSPACE_BYTES), stream))
    }

    /// How many algorithms cuBLASLt's heuristic offers for `g`.
    fn lt_candidates(&self, g: &LtGemm, stream: RawStream) -> RtResult<usize> {
        self.with_lt(stream, |lt, _| lt.candidates(g, cublaslt::WORKSPACE_BYTES))
    }

    /// How cuBLAS reads `v`: `(address, op, ld)`, through a dense copy (returned, to keep it
    /// alive until the GEMM is enqueued) when cuBLAS cannot address it.
    fn operand(&self, v: &Mat, stream: RawStream) -> RtResult<((u64, cb::cublasOperation_t, usize), Option<CudaBuf>)> {
        match v.col_major() {
            Some((ld, op)) => Ok(((v.addr, op, ld), None)),
            None => {
                let staged = self.stage(v, stream)?;
                Ok(((staged.addr(), cb::cublasOperation_t::CUBLAS_OP_T, v.cols.max(1)), Some(staged)))
            }
        }
    }

    /// A row-major dense copy of a matrix operand (its block is reused only after the next
    /// full synchronization, so dropping the returned buffer early is safe).
    fn stage(&self, v: &Mat, stream: RawStream) -> RtResult<CudaBuf> {
        let t = self.new_buf(v.dtype, &[v.rows, v.cols])?;
        let mut p = EwParams {
            n: (v.rows * v.cols) as i64,
            out: kernels::operand(t.addr(), t.dtype, &t.strides)?,
            a: kernels::operand(v.addr, v.dtype, &[v.rs, v.cs])?,
            nd: 2,
            op: kernels::op_code(ElementwiseKind::Cast),
            ..EwParams::default()
        };
        p.b = p.a;
        p.shape[0] = v.rows as i64;
        p.shape[1] = v.cols as i64;
        let n = p.n;
        self.launch(self.elementwise, &mut p, n, stream)?;
        Ok(t)
    }
}

/// Turns a timeout of stream `index` into the report a user can act on.
pub fn stuck(e: RtError, index: usize) -> RtError {
    if e.message != api::STREAM_TIMEOUT {
        return e;
    }
    RtError::new(format!(
        "deadlock: the GPU work of stream {index} did not finish before the deadline (--timeout): it waits in a \
         collective or transfer whose peer never posted its side (a rank failed or took another path; \
         `--backend cpu` names the waits)"
    ))
}

impl Drop for Gpu {
    fn drop(&mut self) {
        let _ = self.bind();
        // Bounded: a stream stuck on a failed peer must not hang the process at exit.
        if self.synchronize_all(std::time::Instant::now() + std::time::Duration::from_secs(2)).is_err() {
            self.alloc.leak_on_drop();
        }
        lock(&self.workspaces).clear();
        *lock(&self.lt) = None;
        unsafe {
            let _ = cudarc::cublas::result::destroy_handle(lock(&self.cublas).0);
        }
    }
}

/// A logical row-major matrix: element (i, j) at `addr + (i·rs + j·cs)·size`.
#[derive(Clone, Copy, Debug)]
struct Mat {
    addr: u64,
    rows: usize,
    cols: usize,
    rs: usize,
    cs: usize,
    dtype: DType,
}

impl Mat {
    fn transposed(self) -> Mat {
        Mat { rows: self.cols, cols: self.rows, rs: self.cs, cs: self.rs, ..self }
    }

    /// The leading dimension when the matrix is stored column-major (dense columns).
    fn layout(&self) -> Option<usize> {
        let ld = if self.cols <= 1 { self.rows.max(1) } else { self.cs };
        ((self.rs == 1 || self.rows <= 1) && ld >= self.rows.max(1)).then_some(ld)
    }

    /// How cuBLAS reads this matrix as a column-major operand: `(ld, op)`.
    fn col_major(&self) -> Option<(usize, cb::cublasOperation_t)> {
        if let Some(ld) = self.layout() {
            return Some((ld, cb::cublasOperation_t::CUBLAS_OP_N));
        }
        self.transposed().layout().map(|ld| (ld, cb::cublasOperation_t::CUBLAS_OP_T))
    }
}

/// The matrix of batch `idx` of a `[..., r, c]` view (views without batch dimensions are
/// broadcast).
fn mat_at(v: &CudaBuf, idx: &[usize]) -> Mat {
    let r = v.shape.len();
    let offset: usize = if r > 2 { idx.iter().zip(&v.strides[..r - 2]).map(|(i, s)| i * s).sum() } else { 0 };
    Mat {
        addr: v.addr() + (offset * v.dtype.size()) as u64,
        rows: v.shape[r - 2],
        cols: v.shape[r - 1],
        rs: v.strides[r - 2],
        cs: v.strides[r - 1],
        dtype: v.dtype,
    }
}

/// `v [..., c]` as rows × c when its leading dimensions collapse to one stride.
fn rows_view(v: &CudaBuf) -> Option<Mat> {
    let r = v.shape.len();
    let cols = v.shape[r - 1];
    let cs = v.strides[r - 1];
    let lead = &v.shape[..r - 1];
    let rows: usize = lead.iter().product();
    let mut rs = None;
    let mut expected = None;
    for (&n, &s) in lead.iter().zip(&v.strides[..r - 1]).rev() {
        if n == 1 {
            continue;
        }
        match expected {
            None => rs = Some(s),
            Some(e) if e != s => return None,
            _ => {}
        }
        expected = Some(s * n);
    }
    Some(Mat { addr: v.addr(), rows, cols, rs: rs.unwrap_or(cols.max(1)), cs, dtype: v.dtype })
}

fn unflatten(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = flat % shape[d];
        flat /= shape[d];
    }
    idx
}

/// The bias pointer for cuBLASLt's epilogue, when `bias` fits it: one dense value of `dtype`
/// per row of the column-major output (`rows_are_features`: the output is the transposed
/// row-major `y`, so its rows are `y`'s columns), 16-byte aligned; f64 keeps the separate add.
fn epilogue_bias(bias: &CudaBuf, dtype: DType, rows: usize, rows_are_features: bool) -> Option<u64> {
    let dense = bias.strides.last().is_none_or(|&s| s == 1 || bias.numel() <= 1);
    (rows_are_features
        && dense
        && bias.dtype == dtype
        && dtype != DType::F64
        && bias.numel() == rows
        && bias.addr().is_multiple_of(16))
    .then_some(bias.addr())
}

/// `--gemm auto`'s choices of the process, per GPU model and problem.
fn choices() -> &'static Mutex<ChoiceCache<(u64, TuneKey)>> {
    static CHOICES: OnceLock<Mutex<ChoiceCache<(u64, TuneKey)>>> = OnceLock::new();
    CHOICES.get_or_init(Default::default)
}

/// How long `--gemm auto` waits for one candidate's timed calls.
const MEASURE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// What a linear adds to and applies after its product: `host.linear`'s bias, residual and
/// epilogue (all absent for a plain GEMM).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tail<'a> {
    pub bias: Option<&'a CudaBuf>,
    pub residual: Option<&'a CudaBuf>,
    pub act: Option<LinearEpilogue>,
}

impl Tail<'_> {
    fn is_empty(&self) -> bool {
        self.bias.is_none() && self.residual.is_none() && self.act.is_none()
    }
}

/// A `cublasGemmEx` call of a column-major problem `X (p×q) = op(Y) · op(Z)`.
#[derive(Clone, Copy, Debug)]
struct ExCall {
    ops: (cb::cublasOperation_t, cb::cublasOperation_t),
    pqk: (usize, usize, usize),
    /// Address and leading dimension of Y, Z and X.
    y: (u64, usize),
    z: (u64, usize),
    x: (u64, usize),
    ty: cb::cudaDataType,
    compute: cb::cublasComputeType_t,
    accumulate: bool,
}

/// One GEMM both ways: through cuBLASLt (`lt`, its epilogue fused when it fits; otherwise
/// `lt_separate`: the tail runs as separate kernels after it) and through `cublasGemmEx` (the
/// tail always separate).
#[derive(Clone, Copy, Debug)]
struct GemmCall {
    lt: LtGemm,
    lt_separate: bool,
    ex: ExCall,
}

/// The problem `--gemm auto` measures once: cuBLASLt's [`cublaslt::Key`] (extents,
/// transposes, leading dimensions, element type, fused epilogue, residual layout, alignments),
/// accumulation, and which tail parts there are (fused or separate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TuneKey {
    pub lt: cublaslt::Key,
    pub accumulate: bool,
    /// Bias, residual, activation.
    pub tail: (bool, bool, bool),
}

/// `bf16 [p x q x k] T/N lds (..) bias+gelu align (..)`, for `FUSER_GEMM_VERBOSE=1`.
fn describe_problem(key: &TuneKey) -> String {
    let l = &key.lt;
    let tr = |t: bool| if t { "T" } else { "N" };
    let mut parts = Vec::new();
    for (on, name) in
        [(key.tail.0, "bias"), (key.tail.1, "residual"), (key.tail.2, "gelu_tanh"), (key.accumulate, "accumulate")]
    {
        if on {
            parts.push(name);
        }
    }
    let fused = if l.bias || l.gelu || l.c.is_some() { " (epilogue fusable)" } else { "" };
    format!(
        "{} column-major {}x{}x{} {}{} lds {:?} align {:?} [{}]{fused}",
        l.dtype.name(),
        l.pqk.0,
        l.pqk.1,
        l.pqk.2,
        tr(l.trans.0),
        tr(l.trans.1),
        l.lds,
        l.align,
        parts.join("+"),
    )
}

/// `plain` with `tail` in cuBLASLt's epilogue, when every part of it fits: the bias as
/// [`epilogue_bias`] says, the residual as C in the output's column-major layout and element
/// type, the activation a GELU (not with a residual); f64 never. `None`: a part does not fit
/// (the tail then runs as separate kernels), or there is no tail.
fn fused_tail(tail: &Tail<'_>, plain: &LtGemm, rows_are_features: bool) -> Option<LtGemm> {
    // Accumulation (C = D) fuses a bias only: a residual would be a second C, and an
    // activation would apply to what D held.
    let accumulate_conflict = plain.accumulate && (tail.residual.is_some() || tail.act.is_some());
    if tail.is_empty() || plain.dtype == DType::F64 || accumulate_conflict {
        return None;
    }
    let bias = match tail.bias {
        Some(b) => Some(epilogue_bias(b, plain.dtype, plain.p, rows_are_features)?),
        None => None,
    };
    let c = match tail.residual {
        Some(r) => Some(residual_as_c(r, plain.dtype, rows_are_features)?),
        None => None,
    };
    let gelu = match tail.act {
        Some(LinearEpilogue::GeluTanh) => true,
        None => false,
    };
    if gelu && c.is_some() {
        return None;
    }
    Some(LtGemm { bias, c, gelu, ..*plain })
}

/// The residual `r` (`[..., n]`, the output's logical shape) as cuBLASLt's C in the column-major
/// space of the product (`rows_are_features`: that space is the transposed row-major output):
/// `(address, ld)`, when its rows collapse, its element type is `dtype` and it is dense there.
fn residual_as_c(r: &CudaBuf, dtype: DType, rows_are_features: bool) -> Option<(u64, usize)> {
    if r.dtype != dtype {
        return None;
    }
    let m = rows_view(r)?;
    let m = if rows_are_features { m.transposed() } else { m };
    m.layout().map(|ld| (m.addr, ld))
}

/// The cuBLAS data and compute types of a GEMM (one element type for all operands).
fn cublas_types(a: DType, b: DType, c: DType) -> RtResult<(cb::cudaDataType, cb::cublasComputeType_t)> {
    if a != b || b != c {
        return Err(RtError::new(format!(
            "matmul on cuda needs one element type, got {}, {} -> {}",
            a.name(),
            b.name(),
            c.name()
        )));
    }
    use cb::cublasComputeType_t::{CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_64F};
    use cb::cudaDataType::{CUDA_R_16BF, CUDA_R_16F, CUDA_R_32F, CUDA_R_64F};
    Ok(match a {
        DType::BF16 => (CUDA_R_16BF, CUBLAS_COMPUTE_32F),
        DType::F16 => (CUDA_R_16F, CUBLAS_COMPUTE_32F),
        DType::F32 => (CUDA_R_32F, CUBLAS_COMPUTE_32F),
        DType::F64 => (CUDA_R_64F, CUBLAS_COMPUTE_64F),
        other => return Err(RtError::new(format!("matmul on cuda: unsupported element type {}", other.name()))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mat(rows: usize, cols: usize, rs: usize, cs: usize) -> Mat {
        Mat { addr: 0, rows, cols, rs, cs, dtype: DType::F32 }
    }

    #[test]
    fn operand_layouts() {
        // Row-major 4x3 (rs 3): as a column-major operand it is the transpose.
        let (ld, op) = mat(4, 3, 3, 1).col_major().unwrap();
        assert_eq!((ld, op), (3, cb::cublasOperation_t::CUBLAS_OP_T));
        // Column-major 4x3 (cs 4): read as is.
        let (ld, op) = mat(4, 3, 1, 4).col_major().unwrap();
        assert_eq!((ld, op), (4, cb::cublasOperation_t::CUBLAS_OP_N));
        // Neither: both strides > 1.
        assert!(mat(4, 3, 6, 2).col_major().is_none());
        // A single row or column takes any stride.
        assert!(mat(1, 5, 99, 1).col_major().is_some());
        assert!(mat(5, 1, 7, 99).col_major().is_some());
    }

    #[test]
    fn batch_indices() {
        assert_eq!(unflatten(5, &[2, 3]), vec![1, 2]);
        assert_eq!(unflatten(0, &[]), Vec::<usize>::new());
    }
}
