//! GEMMs through cuBLASLt (`cublasLtMatmul`): the cuda backend's GEMMs where `--gemm auto`
//! measured it faster than `cublasGemmEx`, or all of them (`--gemm cublaslt`); see
//! [`crate::gemm_lib`].
//!
//! A GEMM arrives as a column-major problem
//! `D (p×q) = act(op(A) (p×k) · op(B) (k×q) [+ C] [+ bias])` ([`LtGemm`], built by
//! [`super::gpu`] from the row-major views). Per distinct problem ([`Key`]: extents,
//! transposes, leading dimensions, element type, epilogue, C's layout, pointer alignments) the
//! descriptors and up to [`LT_CANDIDATES`] algorithms of `cublasLtMatmulAlgoGetHeuristic` (best
//! first) are made once and cached; later calls only set the bias pointer and launch the
//! algorithm the caller names. Accumulation is `beta = 1` with `C = D`; a residual is `beta = 1`
//! with `C` the residual (its own layout); a bias is the `CUBLASLT_EPILOGUE_BIAS` epilogue (one
//! value per row of D, that is per output feature of a row-major `y = x·wᵀ + b`), the tanh GELU
//! `CUBLASLT_EPILOGUE_GELU` / `GELU_BIAS` (applied after C and the bias are added).
//!
//! Every stream gets its own workspace ([`WORKSPACE_BYTES`], 32 MiB as torch uses on Hopper);
//! streams running GEMMs at once must not share one. The heuristic is told the real alignment
//! of every pointer (the allocator's blocks are 256-byte aligned, so only views at odd offsets
//! lower it) and the workspace size, and compute is `CUBLAS_COMPUTE_32F` for bf16/f16/f32 (as
//! torch's; no TF32 or bf16x9 fast modes, so the results match `cublasGemmEx`'s). When the
//! heuristic offers no algorithm the caller falls back to `cublasGemmEx` (the negative answer is
//! cached too).
//!
//! Invariant: the handle and cache are used under the [`Lt`] mutex by one thread at a time.

use super::api::RawStream;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::gemm_lib::LT_CANDIDATES;
use cudarc::cublaslt::sys as lt;
use std::collections::HashMap;
use std::ffi::c_void;

/// The workspace of each stream's GEMMs.
pub const WORKSPACE_BYTES: usize = 32 << 20;

/// One column-major operand: address, transposed (`op = T`), leading dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    pub addr: u64,
    pub trans: bool,
    pub ld: usize,
}

/// `D (p×q) = act(op(A) · op(B) (+ D when accumulating) (+ C) (+ bias[p] per column))`,
/// column-major.
#[derive(Clone, Copy, Debug)]
pub struct LtGemm {
    pub p: usize,
    pub q: usize,
    pub k: usize,
    pub a: Operand,
    pub b: Operand,
    /// D (and C when accumulating): address and leading dimension.
    pub d: (u64, usize),
    pub dtype: DType,
    pub accumulate: bool,
    /// A dense vector of `p` elements of `dtype`.
    pub bias: Option<u64>,
    /// The residual C (`beta = 1`, never D): address and leading dimension; not with
    /// `accumulate`.
    pub c: Option<(u64, usize)>,
    /// The tanh GELU after everything is added (not with `c`: the verifier of `host.linear`
    /// keeps them apart, since cuBLASLt would apply it to C too).
    pub gelu: bool,
}

/// What makes two GEMMs share descriptors and algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub pqk: (usize, usize, usize),
    pub trans: (bool, bool),
    pub lds: (usize, usize, usize),
    pub dtype: DType,
    pub bias: bool,
    pub gelu: bool,
    /// A residual C: its leading dimension and alignment.
    pub c: Option<(usize, u32)>,
    /// Alignment in bytes (power of two, at most 256) of A, B and D.
    pub align: (u32, u32, u32),
}

/// The largest power of two (at most 256) that divides `addr`.
pub fn alignment(addr: u64) -> u32 {
    if addr == 0 { 256 } else { (1u64 << addr.trailing_zeros().min(8)) as u32 }
}

impl LtGemm {
    pub fn key(&self) -> Key {
        Key {
            pqk: (self.p, self.q, self.k),
            trans: (self.a.trans, self.b.trans),
            lds: (self.a.ld, self.b.ld, self.d.1),
            dtype: self.dtype,
            bias: self.bias.is_some(),
            gelu: self.gelu,
            c: self.c.map(|(addr, ld)| (ld, alignment(addr))),
            align: (alignment(self.a.addr), alignment(self.b.addr), alignment(self.d.0)),
        }
    }

    /// The stored shapes `(rows, cols)` of A and B (before their op).
    fn stored(&self) -> ((usize, usize), (usize, usize)) {
        let a = if self.a.trans { (self.k, self.p) } else { (self.p, self.k) };
        let b = if self.b.trans { (self.q, self.k) } else { (self.k, self.q) };
        (a, b)
    }
}

/// cuBLASLt's data, compute and scale types of `dtype`; `None`: not through cuBLASLt.
pub fn lt_types(dtype: DType) -> Option<(lt::cudaDataType, lt::cublasComputeType_t, lt::cudaDataType)> {
    use lt::cublasComputeType_t::{CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_64F};
    use lt::cudaDataType::{CUDA_R_16BF, CUDA_R_16F, CUDA_R_32F, CUDA_R_64F};
    Some(match dtype {
        DType::BF16 => (CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F),
        DType::F16 => (CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F),
        DType::F32 => (CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F),
        DType::F64 => (CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F),
        _ => return None,
    })
}

fn check(r: lt::cublasStatus_t, what: &str) -> RtResult<()> {
    if r == lt::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(RtError::new(format!("cuda: {what} failed: {r:?}")))
    }
}

/// The epilogue of `g`.
fn epilogue_of(g: &LtGemm) -> lt::cublasLtEpilogue_t {
    use lt::cublasLtEpilogue_t::*;
    match (g.bias.is_some(), g.gelu) {
        (false, false) => CUBLASLT_EPILOGUE_DEFAULT,
        (true, false) => CUBLASLT_EPILOGUE_BIAS,
        (false, true) => CUBLASLT_EPILOGUE_GELU,
        (true, true) => CUBLASLT_EPILOGUE_GELU_BIAS,
    }
}

/// The descriptors and algorithms (best first, with the workspace each needs) of one [`Key`].
struct Plan {
    desc: lt::cublasLtMatmulDesc_t,
    /// A, B, C, D (C is D's layout unless a residual has its own).
    layouts: [lt::cublasLtMatrixLayout_t; 4],
    algos: Vec<(lt::cublasLtMatmulAlgo_t, usize)>,
}

/// The cuBLASLt state of one GPU.
pub struct Lt {
    handle: lt::cublasLtHandle_t,
    /// `None`: the heuristic found no algorithm (use cublasGemmEx).
    plans: HashMap<Key, Option<Plan>>,
}
unsafe impl Send for Lt {}

impl Lt {
    /// A handle (the GPU's context current).
    pub fn new() -> RtResult<Lt> {
        if !unsafe { lt::is_culib_present() } {
            return Err(RtError::new("cannot load cuBLASLt (libcublasLt.so): --gemm cublas avoids it"));
        }
        let mut handle = std::ptr::null_mut();
        check(unsafe { lt::cublasLtCreate(&mut handle) }, "cublasLtCreate")?;
        Ok(Lt { handle, plans: HashMap::new() })
    }

    /// The number of problems planned so far (for tests and notes).
    pub fn planned(&self) -> usize {
        self.plans.len()
    }

    /// The number of algorithms the heuristic offers for `g` (at most [`LT_CANDIDATES`]; 0:
    /// none, use `cublasGemmEx`), planning `g` on first sight.
    pub fn candidates(&mut self, g: &LtGemm, workspace: usize) -> RtResult<usize> {
        let key = g.key();
        if !self.plans.contains_key(&key) {
            let plan = self.plan(g, workspace)?;
            self.plans.insert(key, plan);
        }
        Ok(self.plans.get(&key).and_then(Option::as_ref).map_or(0, |p| p.algos.len()))
    }

    /// Enqueues `g` with candidate `algo` (0: the heuristic's first) on `stream` with the
    /// workspace `(address, bytes)`; `Ok(false)`: cuBLASLt has no such algorithm for it
    /// (nothing enqueued).
    pub fn matmul(&mut self, g: &LtGemm, algo: usize, workspace: (u64, usize), stream: RawStream) -> RtResult<bool> {
        if algo >= self.candidates(g, workspace.1)? {
            return Ok(false);
        }
        if g.accumulate && g.c.is_some() {
            return Err(RtError::new("cublasLt: a residual and accumulation exclude each other"));
        }
        let key = g.key();
        let Some(plan) = self.plans.get(&key).and_then(Option::as_ref) else { return Ok(false) };
        let (algo, algo_workspace) = plan.algos[algo];
        if algo_workspace > workspace.1 {
            return Ok(false);
        }
        if let Some(bias) = g.bias {
            set_desc(plan.desc, lt::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias)?;
        }
        let (one32, zero32, one64, zero64) = (1f32, 0f32, 1f64, 0f64);
        let (alpha, beta): (*const c_void, *const c_void) = if g.dtype == DType::F64 {
            (ptr(&one64), if g.accumulate || g.c.is_some() { ptr(&one64) } else { ptr(&zero64) })
        } else {
            (ptr(&one32), if g.accumulate || g.c.is_some() { ptr(&one32) } else { ptr(&zero32) })
        };
        let [la, lb, lc, ld] = plan.layouts;
        let d = g.d.0 as *mut c_void;
        let c = g.c.map_or(d.cast_const(), |(addr, _)| addr as *const c_void);
        check(
            unsafe {
                lt::cublasLtMatmul(
                    self.handle,
                    plan.desc,
                    alpha,
                    g.a.addr as *const c_void,
                    la,
                    g.b.addr as *const c_void,
                    lb,
                    beta,
                    c,
                    lc,
                    d,
                    ld,
                    &algo,
                    workspace.0 as *mut c_void,
                    algo_workspace,
                    stream.0 as lt::cudaStream_t,
                )
            },
            "cublasLtMatmul",
        )
        .map_err(|e| RtError::new(format!("{} ({}x{}x{} {})", e.message, g.p, g.q, g.k, g.dtype.name())))?;
        Ok(true)
    }

    fn plan(&self, g: &LtGemm, workspace: usize) -> RtResult<Option<Plan>> {
        let Some((ty, compute, scale)) = lt_types(g.dtype) else { return Ok(None) };
        let mut desc = std::ptr::null_mut();
        check(unsafe { lt::cublasLtMatmulDescCreate(&mut desc, compute, scale) }, "cublasLtMatmulDescCreate")?;
        // cublasOperation_t as an int32: CUBLAS_OP_N = 0, CUBLAS_OP_T = 1.
        let op = |t: bool| i32::from(t);
        use lt::cublasLtMatmulDescAttributes_t as A;
        let mut plan = Plan { desc, layouts: [std::ptr::null_mut(); 4], algos: Vec::new() };
        // On an error below, the descriptors made so far are destroyed.
        let described = (|| -> RtResult<()> {
            set_desc(desc, A::CUBLASLT_MATMUL_DESC_TRANSA, &op(g.a.trans))?;
            set_desc(desc, A::CUBLASLT_MATMUL_DESC_TRANSB, &op(g.b.trans))?;
            let epilogue = epilogue_of(g);
            if epilogue != lt::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_DEFAULT {
                set_desc(desc, A::CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue)?;
            }
            if g.bias.is_some() {
                set_desc(desc, A::CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &ty)?;
            }
            let ((ar, ac), (br, bc)) = g.stored();
            let ldc = g.c.map_or(g.d.1, |(_, ld)| ld);
            let shapes = [(ar, ac, g.a.ld), (br, bc, g.b.ld), (g.p, g.q, ldc), (g.p, g.q, g.d.1)];
            for (i, (rows, cols, ld)) in shapes.into_iter().enumerate() {
                check(
                    unsafe {
                        lt::cublasLtMatrixLayoutCreate(&mut plan.layouts[i], ty, rows as u64, cols as u64, ld as i64)
                    },
                    "cublasLtMatrixLayoutCreate",
                )?;
            }
            Ok(())
        })();
        if let Err(e) = described {
            destroy(&plan);
            return Err(e);
        }
        let mut pref = std::ptr::null_mut();
        if let Err(e) =
            check(unsafe { lt::cublasLtMatmulPreferenceCreate(&mut pref) }, "cublasLtMatmulPreferenceCreate")
        {
            destroy(&plan);
            return Err(e);
        }
        use lt::cublasLtMatmulPreferenceAttributes_t as P;
        // The values live in these locals until the calls below have copied them. (The code
        // before issue 24 passed a pointer to a temporary `u32` that was dead by the time
        // cuBLASLt read it: the alignment preferences were whatever the stack then held, which
        // may explain heuristic picks that were slow, and different from run to run.)
        let workspace_bytes: u64 = workspace as u64;
        let alignments: [(P, u32); 4] = alignment_prefs(&g.key());
        // SAFETY: a plain C struct for which all-zero bytes are a valid (empty) value.
        let mut results: [lt::cublasLtMatmulHeuristicResult_t; LT_CANDIDATES] = unsafe { std::mem::zeroed() };
        let mut found = 0;
        // SAFETY (both calls): `pref` is live; the value pointers point at the locals above, of
        // the sizes passed (size_t for the workspace, uint32_t for the alignments).
        let asked = check(
            unsafe {
                lt::cublasLtMatmulPreferenceSetAttribute(
                    pref,
                    P::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                    ptr(&workspace_bytes),
                    std::mem::size_of::<u64>(),
                )
            },
            "cublasLtMatmulPreferenceSetAttribute",
        )
        .and_then(|()| {
            alignments.iter().try_for_each(|(attr, bytes)| {
                check(
                    unsafe {
                        lt::cublasLtMatmulPreferenceSetAttribute(pref, *attr, ptr(bytes), std::mem::size_of::<u32>())
                    },
                    "cublasLtMatmulPreferenceSetAttribute",
                )
            })
        })
        .and_then(|()| {
            let [la, lb, lc, ld] = plan.layouts;
            // SAFETY: `results` has room for the LT_CANDIDATES results asked for; `found`
            // receives how many were written.
            let r = unsafe {
                lt::cublasLtMatmulAlgoGetHeuristic(
                    self.handle,
                    desc,
                    la,
                    lb,
                    lc,
                    ld,
                    pref,
                    LT_CANDIDATES as i32,
                    results.as_mut_ptr(),
                    &mut found,
                )
            };
            // No algorithm is an answer, not an error.
            if r == lt::cublasStatus_t::CUBLAS_STATUS_NOT_SUPPORTED {
                Ok(())
            } else {
                check(r, "cublasLtMatmulAlgoGetHeuristic")
            }
        });
        unsafe { lt::cublasLtMatmulPreferenceDestroy(pref) };
        if let Err(e) = asked {
            destroy(&plan);
            return Err(e);
        }
        let found = (found.max(0) as usize).min(LT_CANDIDATES);
        // Only algorithms that fit the workspace (the preference asks for that already).
        plan.algos = results[..found]
            .iter()
            .filter(|r| r.state == lt::cublasStatus_t::CUBLAS_STATUS_SUCCESS && r.workspaceSize <= workspace)
            .map(|r| (r.algo, r.workspaceSize))
            .collect();
        if plan.algos.is_empty() {
            destroy(&plan);
            return Ok(None);
        }
        Ok(Some(plan))
    }
}

/// The minimum-alignment preferences of a problem: the real alignment of A, B, C (the
/// residual's, or D's when C is D) and D, so that the heuristic offers the kernels those
/// pointers allow and no others.
fn alignment_prefs(key: &Key) -> [(lt::cublasLtMatmulPreferenceAttributes_t, u32); 4] {
    use lt::cublasLtMatmulPreferenceAttributes_t as P;
    [
        (P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, key.align.0),
        (P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, key.align.1),
        (P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, key.c.map_or(key.align.2, |(_, a)| a)),
        (P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, key.align.2),
    ]
}

fn ptr<T>(v: &T) -> *const c_void {
    (v as *const T).cast()
}

fn set_desc<T>(desc: lt::cublasLtMatmulDesc_t, attr: lt::cublasLtMatmulDescAttributes_t, v: &T) -> RtResult<()> {
    check(
        unsafe { lt::cublasLtMatmulDescSetAttribute(desc, attr, ptr(v), std::mem::size_of::<T>()) },
        "cublasLtMatmulDescSetAttribute",
    )
}

fn destroy(plan: &Plan) {
    unsafe {
        for l in plan.layouts {
            if !l.is_null() {
                lt::cublasLtMatrixLayoutDestroy(l);
            }
        }
        lt::cublasLtMatmulDescDestroy(plan.desc);
    }
}

impl Drop for Lt {
    fn drop(&mut self) {
        self.plans.values().flatten().for_each(destroy);
        unsafe { lt::cublasLtDestroy(self.handle) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gemm(a: u64, b: u64, d: u64) -> LtGemm {
        LtGemm {
            p: 64,
            q: 32,
            k: 16,
            a: Operand { addr: a, trans: true, ld: 16 },
            b: Operand { addr: b, trans: false, ld: 16 },
            d: (d, 64),
            dtype: DType::BF16,
            accumulate: false,
            bias: None,
            c: None,
            gelu: false,
        }
    }

    #[test]
    fn alignments_are_powers_of_two_up_to_256() {
        assert_eq!(alignment(0x1000), 256);
        assert_eq!(alignment(0x1002), 2);
        assert_eq!(alignment(0x1010), 16);
        assert_eq!(alignment(0x1080), 128);
        assert_eq!(alignment(0), 256);
    }

    #[test]
    fn problems_share_a_plan_only_with_the_same_layout_dtype_epilogue_and_alignment() {
        let base = gemm(0x1000, 0x2000, 0x3000);
        // Another chunk at another 256-byte aligned address: the same plan.
        assert_eq!(base.key(), gemm(0x5000, 0x6000, 0x7000).key());
        // A column block at an odd offset may not use the aligned kernels.
        assert_ne!(base.key(), gemm(0x1000, 0x2002, 0x3000).key());
        assert_ne!(base.key(), LtGemm { bias: Some(0x100), ..base }.key());
        assert_ne!(base.key(), LtGemm { dtype: DType::F32, ..base }.key());
        assert_ne!(base.key(), LtGemm { d: (0x3000, 128), ..base }.key());
        // Accumulation changes beta only, not the plan.
        assert_eq!(base.key(), LtGemm { accumulate: true, ..base }.key());
        // The epilogue and a residual's layout and alignment are part of the problem.
        assert_ne!(base.key(), LtGemm { gelu: true, ..base }.key());
        let with_c = LtGemm { c: Some((0x8000, 64)), ..base };
        assert_ne!(base.key(), with_c.key());
        assert_eq!(with_c.key(), LtGemm { c: Some((0x9000, 64)), ..base }.key());
        assert_ne!(with_c.key(), LtGemm { c: Some((0x9000, 128)), ..base }.key());
        assert_ne!(with_c.key(), LtGemm { c: Some((0x9008, 64)), ..base }.key());
    }

    #[test]
    fn stored_shapes_follow_the_transposes() {
        let g = gemm(0, 0, 0);
        // A is op(A) = p×k transposed: stored k×p; B untransposed: k×q.
        assert_eq!(g.stored(), ((16, 64), (16, 32)));
        assert!(lt_types(DType::I32).is_none());
        assert!(lt_types(DType::BF16).is_some());
    }

    #[test]
    fn alignment_preferences_are_the_pointers_own() {
        use lt::cublasLtMatmulPreferenceAttributes_t as P;
        let g = gemm(0x1000, 0x2002, 0x3040);
        let prefs = alignment_prefs(&g.key());
        assert_eq!(prefs[0], (P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, 256));
        assert_eq!(prefs[1], (P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, 2));
        // C is D without a residual.
        assert_eq!(prefs[2], (P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, 64));
        assert_eq!(prefs[3], (P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, 64));
        let with_c = LtGemm { c: Some((0x4008, 64)), ..g };
        assert_eq!(alignment_prefs(&with_c.key())[2], (P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, 8));
    }

    #[test]
    fn epilogues_follow_bias_and_gelu() {
        use lt::cublasLtEpilogue_t::*;
        let g = gemm(0, 0, 0);
        assert_eq!(epilogue_of(&g), CUBLASLT_EPILOGUE_DEFAULT);
        assert_eq!(epilogue_of(&LtGemm { bias: Some(0x100), ..g }), CUBLASLT_EPILOGUE_BIAS);
        assert_eq!(epilogue_of(&LtGemm { gelu: true, ..g }), CUBLASLT_EPILOGUE_GELU);
        assert_eq!(epilogue_of(&LtGemm { bias: Some(0x100), gelu: true, ..g }), CUBLASLT_EPILOGUE_GELU_BIAS);
    }
}
