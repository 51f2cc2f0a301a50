//! The GEMM-based `sdpa_grad` of the cuda backend as a *plan*: the list of strided-batched
//! GEMMs (in cuBLAS's column-major terms) and elementwise kernels that compute `(dq, dk, dv)`,
//! built from the dimensions alone (no CUDA types), so that it can be interpreted on the CPU
//! (this module's tests; `tests/cuda_grad_source_on_host.rs` with the CUDA kernels) and walked
//! by the executor (`sdpa_grad_gemm::run`). Semantics: `crate::ops::grad::sdpa_grad`.
//!
//! The algorithm is attention's "math" backward (as torch's), in chunks so that the scratch
//! (`S x Skv` per query head) stays under a workspace budget. The `group = H / Hkv` query heads
//! of a `(batch, kv head)` pair are contiguous in `q`, `dout` and `dq`: heads `g .. g + n` of a
//! pair form one matrix of `R = n * S` rows, all of them attending the pair's `k` and `v`. So
//! a step takes a chunk of pairs and a range of their heads (all `group` of them when they fit
//! the budget, with as many pairs as fit; else as many heads as fit, one pair at a time), and
//! every product is one strided-batched GEMM over the chunk's pairs:
//!
//! 1. `delta[row] = sum_e dout[row, e] * out[row, e]` ([`Step::Delta`]).
//! 2. For each chunk of pairs, for each range of heads (`R` rows `q_R`, `dout_R`):
//!    - `scores = q_R · k^T` (`R x Skv`, accumulation type),
//!    - `probs = exp(scale * scores - lse)`, 0 where masked or `lse = -inf`, stored in the
//!      element type ([`Step::Probs`]; bf16 for bf16 inputs, as FlashAttention-2 feeds P to
//!      its dV product),
//!    - `dv (+)= probs^T · dout_R` (accumulation type; the sum over the `R` rows is the sum
//!      over the heads too; `beta = 0` for the pair's first range, else 1),
//!    - `scores = dout_R · v^T` (dP, reusing the scores scratch),
//!    - `probs = probs * (scores - delta)` (dS, in place, element type; [`Step::Ds`]),
//!    - `dq_R = scale * dS · k` (written once in the element type),
//!    - `dk (+)= scale * dS^T · q_R` (accumulation type).
//! 3. The executor rounds `dk` and `dv` once to the element type when they were accumulated
//!    in scratch (bf16/f16: f32 scratch; f32/f64: the outputs themselves).
//!
//! # Row-major products as cuBLAS column-major GEMMs
//!
//! cuBLAS computes `C = alpha op(A) op(B) + beta C` with `C` `m x n`, `op(A)` `m x k`,
//! `op(B)` `k x n`, all column-major: element `(i, l)` of `A` is at `A[i + l * lda]`, and
//! `op(A)` = `A^T` (`transa = T`) reads `A[l + i * lda]`. A dense row-major `r x c` matrix
//! `X` (row stride `c`) is, read column-major with `ld = c`, the `c x r` matrix `X^T`. So a
//! row-major product `C = A · B` is the column-major `C^T = B^T · A^T` with the operands
//! swapped; each of the GEMMs below (row-major on the left, the column-major call on the right;
//! `N`/`T` say whether cuBLAS reads the stored matrix as is or transposed):
//!
//! - `Sc (R x Skv) = Q (R x D) · K^T`: `Sc^T (Skv x R) = K · Q^T`: A = k stored as `K^T`
//!   (`D x Skv`, ld D) read `T`; B = q stored as `Q^T` (`D x R`, ld D) read `N`; m = Skv, n = R,
//!   k = D, ldc = Skv.
//! - `dV (Skv x Dv) = P^T · dO`: `dV^T (Dv x Skv) = dO^T · P`: A = dout stored as `dO^T`
//!   (`Dv x R`, ld Dv) `N`; B = probs stored as `P^T` (`Skv x R`, ld Skv) `T`; m = Dv, n = Skv,
//!   k = R, ldc = Dv.
//! - `dP (R x Skv) = dO · V^T`: as the scores with `v` for `k`, `dout` for `q` and Dv for D.
//! - `dQ (R x D) = dS · K`: `dQ^T (D x R) = K^T · dS^T`: A = k stored as `K^T` (ld D) `N`;
//!   B = dS stored as `dS^T` (`Skv x R`, ld Skv) `N`; m = D, n = R, k = Skv, ldc = D.
//! - `dK (Skv x D) = dS^T · Q`: `dK^T (D x Skv) = Q^T · dS`: A = q stored as `Q^T` (ld D) `N`;
//!   B = dS stored as `dS^T` read `T` (ld Skv); m = D, n = Skv, k = R, ldc = D.
//!
//! The batch index of a GEMM is the chunk-local pair `n` (global pair `first + n`, i.e.
//! `b = (first + n) / Hkv`, `hkv = (first + n) % Hkv`). Query head `hkv * group + g` of batch
//! `b` starts at `((b * H + hkv * group + g) * S) * D = ((first + n) * group + g) * S * D`
//! (since `H = Hkv * group`): a constant stride `group * S * D` between consecutive pairs, and
//! heads `g .. g + n_heads` follow it contiguously; `k`, `v`, `dk`, `dv` have stride `Skv * D`
//! (`Skv * Dv`); the scratch (`[pair][head][i][j]`) `R * Skv`.

use crate::dtype::DType;
use crate::ops::attention::SdpaDims;

/// The default bound on the scratch (`scores` and `probs`) of one chunk, in bytes.
pub const WORKSPACE_BYTES: usize = 1 << 30;

/// The buffers a plan names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlanBuf {
    Q,
    K,
    V,
    Out,
    /// `lse` (f32, `[B, H, S]`).
    Lse,
    Dout,
    /// The output `dq` (element type).
    Dq,
    /// `dk`'s accumulator (accumulation type: the output itself when that is its type).
    DkAcc,
    /// `dv`'s accumulator (as `DkAcc`).
    DvAcc,
    /// `delta` (accumulation type, `[B, H, S]`).
    Delta,
    /// Scratch of `chunk * S * Skv` values of the accumulation type: the scores, then dP.
    Scores,
    /// Scratch of `chunk * S * Skv` values of the element type: P, then dS.
    Probs,
}

/// A strided-batched matrix operand: `buf` from element `offset`, leading dimension `ld`,
/// `stride` elements between consecutive batch entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    pub buf: PlanBuf,
    pub offset: usize,
    pub ld: usize,
    pub stride: usize,
}

/// One `cublasGemmStridedBatchedEx`: `C_i = alpha op(A_i) op(B_i) + beta C_i` for
/// `i < batch` (column-major; `trans_a`: `op(A) = A^T`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gemm {
    pub trans_a: bool,
    pub trans_b: bool,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alpha: f64,
    pub beta: f64,
    pub a: Operand,
    pub b: Operand,
    pub c: Operand,
    pub batch: usize,
    /// The element type of A and B.
    pub ab_type: DType,
    /// The element type of C.
    pub c_type: DType,
}

/// A step of the plan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// `delta[row] = sum_e dout * out` for every row of `[B, H, S]`
    /// (`fuser_sdpa_grad_delta_*`).
    Delta,
    /// For the `count` pairs from `first` and their query heads `g..g + heads` (group indices):
    /// `Probs[e] = exp(scale * Scores[e] - lse[row])` or 0 (masked, or `lse = -inf`) for every
    /// `e < count * heads * S * Skv` (`fuser_sdpa_grad_probs_*`, one block per scratch row
    /// `e / Skv`; [`Plan::locate`] maps `e` to its row and key).
    Probs {
        first: usize,
        count: usize,
        g: usize,
        heads: usize,
    },
    /// As `Probs`: `Probs[e] = Probs[e] * (Scores[e] - delta[row])` (`fuser_sdpa_grad_ds_*`).
    Ds {
        first: usize,
        count: usize,
        g: usize,
        heads: usize,
    },
    Gemm(Gemm),
}

/// The plan of one `sdpa_grad`.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub dims: SdpaDims,
    pub causal: bool,
    pub scale: f64,
    pub query_offset: usize,
    /// The inputs' element type.
    pub elem: DType,
    /// The accumulation type: f64 for f64 inputs, else f32.
    pub acc: DType,
    /// `(b, hkv)` pairs per chunk.
    pub chunk: usize,
    /// Query heads of a pair per step (all of the group's when they fit; the last step of a
    /// pair may have fewer).
    pub heads: usize,
    pub steps: Vec<Step>,
}

/// `x` as the `int` the kernels and cuBLAS take, or why not.
fn fits_int(what: &str, x: usize) -> Result<(), String> {
    i32::try_from(x).map(|_| ()).map_err(|_| format!("sdpa_grad (gemm): {what} = {x} does not fit an int"))
}

impl Plan {
    /// Whether the plan applies: every extent positive (the row kernel handles the empty
    /// cases) and a float element type.
    pub fn applies(dims: &SdpaDims, elem: DType) -> bool {
        let SdpaDims { b, h, hkv, s, skv, d, dv } = *dims;
        matches!(elem, DType::BF16 | DType::F16 | DType::F32 | DType::F64)
            && [b, h, hkv, s, skv, d, dv].iter().all(|&x| x > 0)
    }

    /// The plan for `dims`, chunks sized so that the scratch stays under `budget` bytes (at
    /// least one pair per chunk); an error when it does not apply or an extent does not fit.
    pub fn new(
        dims: &SdpaDims,
        causal: bool,
        scale: f64,
        query_offset: usize,
        elem: DType,
        budget: usize,
    ) -> Result<Plan, String> {
        if !Plan::applies(dims, elem) {
            return Err(format!("sdpa_grad (gemm): does not apply to {dims:?} {}", elem.name()));
        }
        let SdpaDims { b, h, hkv, s, skv, d, dv } = *dims;
        let acc = if elem == DType::F64 { DType::F64 } else { DType::F32 };
        let group = h / hkv;
        let pairs = b * hkv;
        // Scratch per query head; all of a pair's heads per GEMM when they fit (then as many
        // pairs as fit), else as many of its heads as fit (at least one), one pair at a time.
        let per_head = s * skv * (acc.size() + elem.size());
        let heads_fit = (budget / per_head).max(1);
        let (heads, chunk) =
            if heads_fit >= group { (group, (heads_fit / group).clamp(1, pairs)) } else { (heads_fit, 1) };
        for (what, x) in [("S", s), ("Skv", skv), ("D", d), ("Dv", dv), ("pairs", pairs), ("rows", b * h * s)] {
            fits_int(what, x)?;
        }
        fits_int("query_offset + S", query_offset.saturating_add(s))?;
        let mut steps = vec![Step::Delta];
        let op = |buf, offset, ld, stride| Operand { buf, offset, ld, stride };
        let mut first = 0;
        while first < pairs {
            let count = chunk.min(pairs - first);
            let mut g = 0;
            while g < group {
                let n_heads = heads.min(group - g);
                // The query rows of heads g..g + n_heads of a pair are contiguous: one matrix of
                // R = n_heads * S rows.
                let r = n_heads * s;
                let beta = if g == 0 { 0.0 } else { 1.0 };
                let q = op(PlanBuf::Q, (first * group + g) * s * d, d, group * s * d);
                let dq = Operand { buf: PlanBuf::Dq, ..q };
                let dout = op(PlanBuf::Dout, (first * group + g) * s * dv, dv, group * s * dv);
                let k = op(PlanBuf::K, first * skv * d, d, skv * d);
                let dk = Operand { buf: PlanBuf::DkAcc, ..k };
                let v = op(PlanBuf::V, first * skv * dv, dv, skv * dv);
                let dvacc = Operand { buf: PlanBuf::DvAcc, ..v };
                let scores = op(PlanBuf::Scores, 0, skv, r * skv);
                let probs = op(PlanBuf::Probs, 0, skv, r * skv);
                let gemm = |trans_a, trans_b, (m, n, kk), alpha, beta, a, b_, c, c_type| {
                    Step::Gemm(Gemm {
                        trans_a,
                        trans_b,
                        m,
                        n,
                        k: kk,
                        alpha,
                        beta,
                        a,
                        b: b_,
                        c,
                        batch: count,
                        ab_type: elem,
                        c_type,
                    })
                };
                // Scores^T (Skv x R) = K · Q^T.
                steps.push(gemm(true, false, (skv, r, d), 1.0, 0.0, k, q, scores, acc));
                steps.push(Step::Probs { first, count, g, heads: n_heads });
                // dV^T (Dv x Skv) (+)= dO^T · P (the sum over the R rows: over the heads too).
                steps.push(gemm(false, true, (dv, skv, r), 1.0, beta, dout, probs, dvacc, acc));
                // dP^T (Skv x R) = V · dO^T.
                steps.push(gemm(true, false, (skv, r, dv), 1.0, 0.0, v, dout, scores, acc));
                steps.push(Step::Ds { first, count, g, heads: n_heads });
                // dQ^T (D x R) = scale K^T · dS^T.
                steps.push(gemm(false, false, (d, r, skv), scale, 0.0, k, probs, dq, elem));
                // dK^T (D x Skv) (+)= scale Q^T · dS.
                steps.push(gemm(false, true, (d, skv, r), scale, beta, q, probs, dk, acc));
                g += n_heads;
            }
            first += count;
        }
        Ok(Plan { dims: *dims, causal, scale, query_offset, elem, acc, chunk, heads, steps })
    }

    /// The element type of `buf`.
    pub fn buf_type(&self, buf: PlanBuf) -> DType {
        match buf {
            PlanBuf::Q | PlanBuf::K | PlanBuf::V | PlanBuf::Out | PlanBuf::Dout | PlanBuf::Dq | PlanBuf::Probs => {
                self.elem
            }
            PlanBuf::Lse => DType::F32,
            PlanBuf::DkAcc | PlanBuf::DvAcc | PlanBuf::Delta | PlanBuf::Scores => self.acc,
        }
    }

    /// The number of elements of `buf`.
    pub fn buf_len(&self, buf: PlanBuf) -> usize {
        let SdpaDims { b, h, hkv, s, skv, d, dv } = self.dims;
        match buf {
            PlanBuf::Q | PlanBuf::Dq => b * h * s * d,
            PlanBuf::K | PlanBuf::DkAcc => b * hkv * skv * d,
            PlanBuf::V | PlanBuf::DvAcc => b * hkv * skv * dv,
            PlanBuf::Out | PlanBuf::Dout => b * h * s * dv,
            PlanBuf::Lse | PlanBuf::Delta => b * h * s,
            PlanBuf::Scores | PlanBuf::Probs => self.chunk * self.heads * s * skv,
        }
    }

    /// Whether `dk`/`dv` accumulate in scratch (then rounded once into the outputs).
    pub fn acc_in_scratch(&self) -> bool {
        self.acc != self.elem
    }

    /// Element `e` of the scratch of an elementwise step over pairs from `first`, heads from
    /// group index `g`, `heads` of them: `(row, i, j)`: the row of `[B, H, S]` (lse, delta), the
    /// local query index and the key index. The scratch is `[pair][head][i][j]`.
    pub fn locate(&self, first: usize, g: usize, heads: usize, e: usize) -> (usize, usize, usize) {
        let SdpaDims { h, hkv, s, skv, .. } = self.dims;
        let group = h / hkv;
        let (r, j) = (e / skv, e % skv);
        let (pair, rem) = (first + r / (heads * s), r % (heads * s));
        let (head, i) = (g + rem / s, rem % s);
        let (bi, kh) = (pair / hkv, pair % hkv);
        ((bi * h + kh * group + head) * s + i, i, j)
    }

    /// Whether key `j` is masked for local query `i`.
    pub fn masked(&self, i: usize, j: usize) -> bool {
        self.causal && j > self.query_offset + i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::round_to;
    use crate::ops::attention::tests::values;
    use crate::ops::attention::{SdpaOptions, sdpa};
    use crate::ops::grad::{SdpaTensors, sdpa_grad};
    use std::collections::HashMap;

    /// A column-major strided-batched GEMM as cuBLAS documents it, in f64, rounding C to its
    /// type on store.
    fn gemm(bufs: &mut HashMap<PlanBuf, Vec<f64>>, g: &Gemm) {
        let (a, b) = (bufs[&g.a.buf].clone(), bufs[&g.b.buf].clone());
        let c = bufs.get_mut(&g.c.buf).unwrap();
        for bi in 0..g.batch {
            let (ao, bo, co) =
                (g.a.offset + bi * g.a.stride, g.b.offset + bi * g.b.stride, g.c.offset + bi * g.c.stride);
            for col in 0..g.n {
                for row in 0..g.m {
                    let mut sum = 0.0;
                    for l in 0..g.k {
                        let x = if g.trans_a { a[ao + l + row * g.a.ld] } else { a[ao + row + l * g.a.ld] };
                        let y = if g.trans_b { b[bo + col + l * g.b.ld] } else { b[bo + l + col * g.b.ld] };
                        sum += x * y;
                    }
                    let at = co + row + col * g.c.ld;
                    let old = if g.beta == 0.0 { 0.0 } else { g.beta * c[at] };
                    c[at] = round_to(g.c_type, g.alpha * sum + old);
                }
            }
        }
    }

    /// Runs `plan` on the CPU (the elementwise steps as the kernels compute them) and returns
    /// `(dq, dk, dv)`.
    fn interpret(plan: &Plan, inputs: [&[f64]; 6]) -> [Vec<f64>; 3] {
        let mut bufs = HashMap::new();
        let names = [PlanBuf::Q, PlanBuf::K, PlanBuf::V, PlanBuf::Out, PlanBuf::Lse, PlanBuf::Dout];
        for (name, x) in names.into_iter().zip(inputs) {
            assert_eq!(x.len(), plan.buf_len(name), "{name:?}");
            bufs.insert(name, x.to_vec());
        }
        for name in [PlanBuf::Dq, PlanBuf::DkAcc, PlanBuf::DvAcc, PlanBuf::Delta, PlanBuf::Scores, PlanBuf::Probs] {
            // Garbage: every element the plan reads must have been written first.
            bufs.insert(name, vec![f64::NAN; plan.buf_len(name)]);
        }
        let dvw = plan.dims.dv;
        let (s, skv) = (plan.dims.s, plan.dims.skv);
        for step in &plan.steps {
            match *step {
                Step::Delta => {
                    let (o, g) = (&bufs[&PlanBuf::Out], &bufs[&PlanBuf::Dout]);
                    let delta: Vec<f64> = (0..plan.buf_len(PlanBuf::Delta))
                        .map(|r| round_to(plan.acc, (0..dvw).map(|e| o[r * dvw + e] * g[r * dvw + e]).sum()))
                        .collect();
                    bufs.insert(PlanBuf::Delta, delta);
                }
                Step::Probs { first, count, g, heads } => {
                    for e in 0..count * heads * s * skv {
                        let (row, i, j) = plan.locate(first, g, heads, e);
                        let l = bufs[&PlanBuf::Lse][row];
                        let p = if l == f64::NEG_INFINITY || plan.masked(i, j) {
                            0.0
                        } else {
                            (plan.scale * bufs[&PlanBuf::Scores][e] - l).exp()
                        };
                        bufs.get_mut(&PlanBuf::Probs).unwrap()[e] = round_to(plan.elem, p);
                    }
                }
                Step::Ds { first, count, g, heads } => {
                    for e in 0..count * heads * s * skv {
                        let (row, _, _) = plan.locate(first, g, heads, e);
                        let ds = bufs[&PlanBuf::Probs][e] * (bufs[&PlanBuf::Scores][e] - bufs[&PlanBuf::Delta][row]);
                        bufs.get_mut(&PlanBuf::Probs).unwrap()[e] = round_to(plan.elem, ds);
                    }
                }
                Step::Gemm(ref g) => gemm(&mut bufs, g),
            }
        }
        let r =
            |b: PlanBuf, bufs: &HashMap<PlanBuf, Vec<f64>>| bufs[&b].iter().map(|&x| round_to(plan.elem, x)).collect();
        [r(PlanBuf::Dq, &bufs), r(PlanBuf::DkAcc, &bufs), r(PlanBuf::DvAcc, &bufs)]
    }

    struct Case {
        dims: SdpaDims,
        causal: bool,
        offset: usize,
        elem: DType,
        budget: usize,
    }

    fn check(tag: &str, c: &Case, seed: u64) -> Plan {
        let d = c.dims;
        let r = |xs: Vec<f64>| -> Vec<f64> { xs.iter().map(|&x| round_to(c.elem, 2.0 * x)).collect() };
        let q = r(values(d.b * d.h * d.s * d.d, seed));
        let k = r(values(d.b * d.hkv * d.skv * d.d, seed + 1));
        let v = r(values(d.b * d.hkv * d.skv * d.dv, seed + 2));
        let dout = r(values(d.b * d.h * d.s * d.dv, seed + 3));
        let scale = d.default_scale();
        let (out, mut lse) = sdpa(&q, &k, &v, &d, &SdpaOptions { causal: c.causal, scale, query_offset: c.offset });
        let out: Vec<f64> = out.iter().map(|&x| round_to(c.elem, x)).collect();
        // A row that attended nothing (as a fully masked row of a split sequence would be).
        lse[1] = f64::NEG_INFINITY;
        let lse: Vec<f64> = lse.iter().map(|&x| round_to(DType::F32, x)).collect();
        let t = SdpaTensors { q: &q, k: &k, v: &v, out: &out, dout: &dout };
        let want = sdpa_grad(&t, &lse, &d, c.causal, scale, c.offset);
        let plan = Plan::new(&d, c.causal, scale, c.offset, c.elem, c.budget).unwrap();
        let got = interpret(&plan, [&q, &k, &v, &out, &lse, &dout]);
        let (rel, abs) = if c.elem == DType::F64 { (1e-12, 1e-12) } else { (3e-2, 3e-2) };
        for ((name, g), w) in ["dq", "dk", "dv"].iter().zip(&got).zip([&want.0, &want.1, &want.2]) {
            assert_eq!(g.len(), w.len());
            assert!(w.iter().any(|&x| x.abs() > 1e-3), "{tag} {name}: a trivial sample");
            for (i, (x, y)) in g.iter().zip(w.iter()).enumerate() {
                assert!((x - y).abs() <= abs + rel * y.abs(), "{tag} {name}[{i}]: {x} vs {y}");
            }
        }
        // The row with lse = -inf has dq = 0.
        assert!(got[0][d.d..2 * d.d].iter().all(|&x| x == 0.0), "{tag}");
        plan
    }

    #[test]
    fn the_plan_interpreted_on_the_cpu_matches_the_reference() {
        let dims = |b, h, hkv, s, skv, d, dv| SdpaDims { b, h, hkv, s, skv, d, dv };
        let cases = [
            // MHA, causal, one chunk.
            (
                "mha",
                Case { dims: dims(1, 2, 2, 5, 5, 4, 4), causal: true, offset: 0, elem: DType::F64, budget: 1 << 20 },
            ),
            // Group 2, not causal, Skv != S, Dv != D, B > 1, one pair per chunk.
            ("gqa2", Case { dims: dims(2, 4, 2, 3, 7, 5, 3), causal: false, offset: 0, elem: DType::F64, budget: 1 }),
            // Group 4, causal with a query offset (the second half of a split sequence), 3 of a
            // pair's 4 heads per step (then the last one), one pair at a time.
            (
                "gqa4",
                Case {
                    dims: dims(3, 4, 1, 4, 9, 6, 5),
                    causal: true,
                    offset: 3,
                    elem: DType::F64,
                    budget: 3 * 4 * 9 * 16,
                },
            ),
            // Group 4, all heads per step, chunks of 3 pairs out of 4 (a short last chunk), B 2.
            (
                "gqa4b",
                Case {
                    dims: dims(2, 8, 2, 5, 6, 4, 3),
                    causal: true,
                    offset: 2,
                    elem: DType::F64,
                    budget: 3 * 4 * 30 * 16,
                },
            ),
            // More queries than keys, causal; f32 accumulating in the outputs; one pair per chunk.
            (
                "f32",
                Case { dims: dims(2, 2, 1, 6, 4, 4, 6), causal: true, offset: 0, elem: DType::F32, budget: 2 * 24 * 8 },
            ),
            // bf16 into f32 scratch, P and dS in bf16.
            (
                "bf16",
                Case { dims: dims(1, 4, 2, 8, 8, 8, 8), causal: true, offset: 0, elem: DType::BF16, budget: 1 << 20 },
            ),
        ];
        for (i, (tag, c)) in cases.iter().enumerate() {
            let plan = check(tag, c, 7 * i as u64 + 3);
            let pairs = c.dims.b * c.dims.hkv;
            assert!(plan.chunk >= 1 && plan.chunk <= pairs);
            let per_head = c.dims.s * c.dims.skv * (plan.acc.size() + plan.elem.size());
            assert!(plan.heads == 1 || plan.chunk * plan.heads * per_head <= c.budget, "{tag}: over the budget");
            assert!(plan.chunk == 1 || plan.heads == c.dims.h / c.dims.hkv, "{tag}");
        }
    }

    #[test]
    fn chunks_follow_the_budget_and_degenerate_extents_do_not_apply() {
        let d = SdpaDims { b: 1, h: 64, hkv: 8, s: 2048, skv: 2048, d: 128, dv: 128 };
        let plan = Plan::new(&d, true, d.default_scale(), 0, DType::BF16, WORKSPACE_BYTES).unwrap();
        // 2048 * 2048 * (4 + 2) bytes per head: 42 heads fit 1 GiB, so 5 pairs of 8 query
        // heads per chunk: chunks of 5 and 3 pairs, all heads at once.
        assert_eq!((plan.chunk, plan.heads), (5, 8));
        // delta, then 7 steps per chunk.
        assert_eq!(plan.steps.len(), 1 + 2 * 7);
        let Step::Gemm(scores) = plan.steps[1] else { panic!("{:?}", plan.steps[1]) };
        assert_eq!((scores.m, scores.n, scores.k, scores.batch), (2048, 8 * 2048, 128, 5));
        // 2 heads fit: one pair at a time, 4 steps of 2 heads each.
        let small = Plan::new(&d, true, d.default_scale(), 0, DType::BF16, 50 << 20).unwrap();
        assert_eq!((small.chunk, small.heads), (1, 2));
        assert_eq!(small.steps.len(), 1 + 8 * 4 * 7);
        assert!(!Plan::applies(&SdpaDims { skv: 0, ..d }, DType::BF16));
        assert!(!Plan::applies(&d, DType::I32));
        assert!(Plan::new(&SdpaDims { s: 0, ..d }, false, 1.0, 0, DType::F32, 1).is_err());
        assert!(Plan::new(&d, false, 1.0, usize::MAX / 2, DType::F32, 1).is_err());
        assert!(Plan::new(&d, false, 1.0, usize::MAX, DType::F32, 1).is_err());
    }
}
