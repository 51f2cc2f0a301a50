//! `sdpa`: the semantics of `fusion.sdpa` (scaled dot-product attention with grouped-query
//! heads, an optional top-left causal mask and the log-sum-exp of each query row), on dense
//! row-major tensors in `f64`.
//!
//! `q [B, H, S, D]`, `k [B, Hkv, Skv, D]`, `v [B, Hkv, Skv, Dv]` give `out [B, H, S, Dv]` and
//! `lse [B, H, S]`. Query head `h` reads key/value head `h / (H / Hkv)`; with `causal`, query
//! `i` (its *global* index: the local index plus the origin of the result's sequence axis, so
//! that a query sequence split over devices or streams masks as the whole does) attends keys
//! `j <= i` (torch's `is_causal`, aligned top-left). Scores `scale * q·k` (`scale` defaults to
//! `1/sqrt(D)`, 1 when `D = 0`) go through a stable softmax: `m` the row's largest attended
//! score (NaN when any is NaN), `p_j = exp(s_j - m)`, `out = Σ p_j v_j / Σ p_j`,
//! `lse = m + ln Σ p_j`. A row whose attended scores are all `-inf`, or that attends no key
//! (`Skv = 0`), gives `out = 0` and `lse = -inf`. Everything accumulates in `f64`; the caller
//! rounds `out` to its element type and `lse` to `f32` once.
//!
//! Per-rank evaluation needs no more than the local pieces: heads split over devices split
//! `H` and `Hkv` alike (the sharding rules require it), so the local ratio `H / Hkv` is the
//! global one; `D` and `Skv` are never split.

use super::dense::Dense;
use super::params::Params;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};

// The kernel `sdpa` (its `OpImpl` is in `registry.rs`): inputs `q, k, v`; outputs `out` and,
// optionally, `lse`. Parameters `causal` (flag) and `scale` (float, default `1/sqrt(D)`); the
// origin is result 0's (its sequence coordinate is the global index of local query 0).

/// The scale of a call: the `scale` parameter, or `1/sqrt(D)`.
pub fn sdpa_scale(params: &Params, dims: &SdpaDims) -> RtResult<f64> {
    params.float_or("scale", dims.default_scale())
}

/// The prepare-time check of an `sdpa` call.
pub fn check_sdpa(
    params: &Params,
    inputs: &[(DType, Vec<usize>)],
    outputs: &[(DType, Vec<usize>)],
) -> Result<(), String> {
    let [(tq, q), (tk, k), (tv, v)] = inputs else {
        return Err(format!("expects 3 inputs (query, key, value), got {}", inputs.len()));
    };
    if !tq.is_float() || tk != tq || tv != tq {
        return Err(format!(
            "inputs must have one float element type, got {}, {}, {}",
            tq.name(),
            tk.name(),
            tv.name()
        ));
    }
    let dims = SdpaDims::of_shapes(q, k, v)?;
    let (out, lse) = dims.result_shapes();
    match outputs {
        [(to, so)] | [(to, so), _] if to != tq || *so != out => {
            return Err(format!("output 0 must be {} {out:?}, got {} {so:?}", tq.name(), to.name()));
        }
        [_] => {}
        [_, (tl, sl)] if *tl != DType::F32 || *sl != lse => {
            return Err(format!("output 1 (lse) must be f32 {lse:?}, got {} {sl:?}", tl.name()));
        }
        [_, _] => {}
        _ => return Err(format!("expects 1 or 2 outputs (out, lse), got {}", outputs.len())),
    }
    let scale = sdpa_scale(params, &dims).map_err(|e| e.to_string())?;
    if !scale.is_finite() {
        return Err(format!("scale must be finite, got {scale}"));
    }
    Ok(())
}

/// `sdpa` on dense inputs: `out` and, with two `outputs`, `lse`; `origin` is result 0's.
pub fn eval_sdpa(
    params: &Params,
    inputs: &[Dense],
    outputs: &[(DType, Vec<usize>)],
    origin: &[usize],
) -> RtResult<Vec<Dense>> {
    let [q, k, v] = inputs else { return Err(RtError::new("sdpa expects 3 inputs")) };
    let dims = SdpaDims::of_shapes(&q.shape, &k.shape, &v.shape).map_err(RtError::new)?;
    let opt = SdpaOptions {
        causal: params.flag("causal"),
        scale: sdpa_scale(params, &dims)?,
        query_offset: origin.get(2).copied().unwrap_or(0),
    };
    let (out, lse) = sdpa(&q.floats(), &k.floats(), &v.floats(), &dims, &opt);
    let (out_shape, lse_shape) = dims.result_shapes();
    let mut results = vec![Dense::from_f64(q.dtype, out_shape, out)];
    if outputs.len() == 2 {
        results.push(Dense::from_f64(DType::F32, lse_shape, lse));
    }
    Ok(results)
}

/// The extents of one `sdpa` call (local extents on a rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SdpaDims {
    pub b: usize,
    pub h: usize,
    pub hkv: usize,
    pub s: usize,
    pub skv: usize,
    pub d: usize,
    pub dv: usize,
}

impl SdpaDims {
    /// The extents of `q`, `k`, `v` shapes, or why they do not fit together.
    pub fn of_shapes(q: &[usize], k: &[usize], v: &[usize]) -> Result<SdpaDims, String> {
        let [b, h, s, d] = rank4("query", q)?;
        let [kb, hkv, skv, kd] = rank4("key", k)?;
        let [vb, vh, vs, dv] = rank4("value", v)?;
        if kb != b || vb != b {
            return Err(format!("batch extents differ: query {b}, key {kb}, value {vb}"));
        }
        if vh != hkv || vs != skv {
            return Err(format!("key [.., {hkv}, {skv}, ..] and value [.., {vh}, {vs}, ..] differ in Hkv or Skv"));
        }
        if kd != d {
            return Err(format!("query head dimension {d} differs from the key's {kd}"));
        }
        if hkv == 0 && h != 0 || hkv != 0 && h % hkv != 0 {
            return Err(format!("query heads {h} are not a multiple of the key/value heads {hkv}"));
        }
        Ok(SdpaDims { b, h, hkv, s, skv, d, dv })
    }

    /// The shapes of `out` and `lse`.
    pub fn result_shapes(&self) -> (Vec<usize>, Vec<usize>) {
        (vec![self.b, self.h, self.s, self.dv], vec![self.b, self.h, self.s])
    }

    /// `1/sqrt(D)` (1 when `D = 0`).
    pub fn default_scale(&self) -> f64 {
        if self.d == 0 { 1.0 } else { 1.0 / (self.d as f64).sqrt() }
    }
}

/// The four extents of a rank-4 shape.
fn rank4(what: &str, shape: &[usize]) -> Result<[usize; 4], String> {
    shape.try_into().map_err(|_| format!("{what} must have rank 4, got shape {shape:?}"))
}

/// The options of one call: causal mask, scale, global index of local query 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SdpaOptions {
    pub causal: bool,
    pub scale: f64,
    pub query_offset: usize,
}

/// The largest of `a` and `b`, NaN when either is.
fn max_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() { f64::NAN } else { a.max(b) }
}

/// `(out, lse)` of attention over dense row-major `q`, `k`, `v` (lengths as `dims` says).
pub fn sdpa(q: &[f64], k: &[f64], v: &[f64], dims: &SdpaDims, opt: &SdpaOptions) -> (Vec<f64>, Vec<f64>) {
    let SdpaDims { b, h, hkv, s, skv, d, dv } = *dims;
    let mut out = vec![0.0; b * h * s * dv];
    let mut lse = vec![f64::NEG_INFINITY; b * h * s];
    let group = h.checked_div(hkv).unwrap_or(1);
    let mut scores = vec![0.0; skv];
    for bi in 0..b {
        for hi in 0..h {
            let g = hi / group;
            let kv_base = (bi * hkv + g) * skv;
            for i in 0..s {
                let row = (bi * h + hi) * s + i;
                let qrow = &q[row * d..(row + 1) * d];
                // Keys j < n are attended: all, or j <= the global query index.
                let n = if opt.causal { skv.min(opt.query_offset + i + 1) } else { skv };
                let mut m = f64::NEG_INFINITY;
                for (j, sc) in scores[..n].iter_mut().enumerate() {
                    let krow = &k[(kv_base + j) * d..(kv_base + j + 1) * d];
                    let dot: f64 = qrow.iter().zip(krow).map(|(a, b)| a * b).sum();
                    *sc = opt.scale * dot;
                    m = max_nan(m, *sc);
                }
                if m == f64::NEG_INFINITY {
                    continue; // no key, or every score -inf: out 0, lse -inf
                }
                let o = &mut out[row * dv..(row + 1) * dv];
                let mut l = 0.0;
                for (j, &sc) in scores[..n].iter().enumerate() {
                    let p = (sc - m).exp();
                    l += p;
                    let vrow = &v[(kv_base + j) * dv..(kv_base + j + 1) * dv];
                    for (oe, &ve) in o.iter_mut().zip(vrow) {
                        *oe += p * ve;
                    }
                }
                for oe in o.iter_mut() {
                    *oe /= l;
                }
                lse[row] = m + l.ln();
            }
        }
    }
    (out, lse)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ops::params::Param;

    /// A deterministic pseudo-random sequence in [-1, 1) (also the gradient tests' inputs).
    pub(crate) fn values(n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
            })
            .collect()
    }

    /// softmax(Q Kᵀ · scale + mask) V, materialized per (batch, head), the textbook way: the
    /// whole score matrix, the mask as -inf, exp without max subtraction (the inputs here are
    /// small), and lse = ln Σ exp.
    fn naive(q: &[f64], k: &[f64], v: &[f64], dims: &SdpaDims, opt: &SdpaOptions) -> (Vec<f64>, Vec<f64>) {
        let SdpaDims { b, h, hkv, s, skv, d, dv } = *dims;
        let (mut out, mut lse) = (vec![0.0; b * h * s * dv], vec![0.0; b * h * s]);
        for bi in 0..b {
            for hi in 0..h {
                let g = hi * hkv / h;
                let mut sm = vec![vec![0.0; skv]; s];
                for (i, srow) in sm.iter_mut().enumerate() {
                    for (j, x) in srow.iter_mut().enumerate() {
                        let qi = &q[((bi * h + hi) * s + i) * d..][..d];
                        let kj = &k[((bi * hkv + g) * skv + j) * d..][..d];
                        let masked = opt.causal && j > opt.query_offset + i;
                        *x = if masked {
                            0.0
                        } else {
                            (qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f64>() * opt.scale).exp()
                        };
                    }
                }
                for (i, srow) in sm.iter().enumerate() {
                    let total: f64 = srow.iter().sum();
                    lse[(bi * h + hi) * s + i] = total.ln();
                    for e in 0..dv {
                        let acc: f64 = (0..skv).map(|j| srow[j] / total * v[((bi * hkv + g) * skv + j) * dv + e]).sum();
                        out[((bi * h + hi) * s + i) * dv + e] = acc;
                    }
                }
            }
        }
        (out, lse)
    }

    fn close(a: &[f64], b: &[f64], tol: f64) {
        assert_eq!(a.len(), b.len());
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            assert!((x - y).abs() <= tol * (1.0 + y.abs()), "element {i}: {x} vs {y}");
        }
    }

    fn run(dims: SdpaDims, causal: bool, scale: Option<f64>, query_offset: usize, amplitude: f64) {
        let q: Vec<f64> = values(dims.b * dims.h * dims.s * dims.d, 1).iter().map(|x| x * amplitude).collect();
        let k = values(dims.b * dims.hkv * dims.skv * dims.d, 2);
        let v = values(dims.b * dims.hkv * dims.skv * dims.dv, 3);
        let opt = SdpaOptions { causal, scale: scale.unwrap_or(dims.default_scale()), query_offset };
        let (out, lse) = sdpa(&q, &k, &v, &dims, &opt);
        let (want_out, want_lse) = naive(&q, &k, &v, &dims, &opt);
        close(&out, &want_out, 1e-12);
        close(&lse, &want_lse, 1e-12);
    }

    #[test]
    fn matches_the_materialized_softmax() {
        let mha = SdpaDims { b: 2, h: 3, hkv: 3, s: 5, skv: 7, d: 4, dv: 6 };
        run(mha, false, None, 0, 1.0);
        run(mha, true, None, 0, 1.0);
        run(mha, false, Some(0.7), 0, 1.0);
        // Grouped-query: 4 query heads over 2 key/value heads.
        let gqa = SdpaDims { b: 1, h: 4, hkv: 2, s: 6, skv: 6, d: 8, dv: 8 };
        run(gqa, false, None, 0, 1.0);
        run(gqa, true, Some(0.25), 0, 1.0);
        // Multi-query (one key/value head), more queries than keys, causal.
        run(SdpaDims { b: 1, h: 4, hkv: 1, s: 9, skv: 4, d: 3, dv: 2 }, true, None, 0, 1.0);
        // The second half of a query sequence split in two: global indices 4.. are masked.
        run(SdpaDims { b: 1, h: 2, hkv: 2, s: 4, skv: 8, d: 4, dv: 4 }, true, None, 4, 1.0);
    }

    #[test]
    fn causal_is_top_left_aligned() {
        // One head, scores all equal: query i averages values 0..=i (torch's is_causal with
        // S != Skv keeps the top-left triangle).
        let dims = SdpaDims { b: 1, h: 1, hkv: 1, s: 3, skv: 5, d: 1, dv: 1 };
        let (q, k) = (vec![0.0; 3], vec![0.0; 5]);
        let v = vec![1.0, 2.0, 3.0, 4.0, 5.0];
        let opt = SdpaOptions { causal: true, scale: 1.0, query_offset: 0 };
        let (out, lse) = sdpa(&q, &k, &v, &dims, &opt);
        assert_eq!(out, vec![1.0, 1.5, 2.0]);
        close(&lse, &[0.0, 2f64.ln(), 3f64.ln()], 1e-15);
        // Offset 2: these are queries 2, 3, 4 of the whole sequence.
        let (out, _) = sdpa(&q, &k, &v, &dims, &SdpaOptions { query_offset: 2, ..opt });
        assert_eq!(out, vec![2.0, 2.5, 3.0]);
    }

    #[test]
    fn large_scores_are_stable() {
        // Scores of order 1e4: exp overflows without the running maximum; the result must
        // equal that of the same problem shifted (softmax is shift-invariant per row).
        let dims = SdpaDims { b: 1, h: 2, hkv: 1, s: 3, skv: 5, d: 4, dv: 3 };
        let q: Vec<f64> = values(24, 7).iter().map(|x| x * 1e4).collect();
        let k = values(20, 8);
        let v = values(15, 9);
        let opt = SdpaOptions { causal: false, scale: 1.0, query_offset: 0 };
        let (out, lse) = sdpa(&q, &k, &v, &dims, &opt);
        assert!(out.iter().all(|x| x.is_finite()) && lse.iter().all(|x| x.is_finite()));
        // Expected: the max-shifted naive computation, done here by hand.
        for row in 0..dims.h * dims.s {
            let qr = &q[row * 4..row * 4 + 4];
            let sc: Vec<f64> = (0..5).map(|j| qr.iter().zip(&k[j * 4..j * 4 + 4]).map(|(a, b)| a * b).sum()).collect();
            let m = sc.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let w: Vec<f64> = sc.iter().map(|x| (x - m).exp()).collect();
            let tot: f64 = w.iter().sum();
            close(&lse[row..row + 1], &[m + tot.ln()], 1e-12);
            for e in 0..3 {
                let want: f64 = (0..5).map(|j| w[j] / tot * v[j * 3 + e]).sum();
                close(&out[row * 3 + e..row * 3 + e + 1], &[want], 1e-12);
            }
        }
        assert!(lse.iter().any(|x| x.abs() > 1000.0), "the scores must be large: {lse:?}");
    }

    #[test]
    fn empty_rows_and_nan() {
        // Skv = 0: out 0, lse -inf.
        let dims = SdpaDims { b: 1, h: 1, hkv: 1, s: 2, skv: 0, d: 2, dv: 2 };
        let opt = SdpaOptions { causal: false, scale: 1.0, query_offset: 0 };
        let (out, lse) = sdpa(&[1.0; 4], &[], &[], &dims, &opt);
        assert_eq!(out, vec![0.0; 4]);
        assert_eq!(lse, vec![f64::NEG_INFINITY; 2]);
        // A NaN key poisons every row that attends it, and only those (causal).
        let dims = SdpaDims { b: 1, h: 1, hkv: 1, s: 2, skv: 2, d: 1, dv: 1 };
        let (out, lse) = sdpa(&[1.0, 1.0], &[0.5, f64::NAN], &[1.0, 2.0], &dims, &SdpaOptions { causal: true, ..opt });
        assert_eq!((out[0], lse[0]), (1.0, 0.5));
        assert!(out[1].is_nan() && lse[1].is_nan());
    }

    #[test]
    fn the_kernel_checks_its_call() {
        let t = |d: DType, s: &[usize]| (d, s.to_vec());
        let ins = [t(DType::BF16, &[1, 4, 3, 8]), t(DType::BF16, &[1, 2, 5, 8]), t(DType::BF16, &[1, 2, 5, 6])];
        let (out, lse) = (t(DType::BF16, &[1, 4, 3, 6]), t(DType::F32, &[1, 4, 3]));
        let none = Params::new(Vec::new());
        assert_eq!(check_sdpa(&none, &ins, std::slice::from_ref(&out)), Ok(()));
        assert_eq!(check_sdpa(&none, &ins, &[out.clone(), lse.clone()]), Ok(()));
        let err = |params: &Params, ins: &[(DType, Vec<usize>)], outs: &[(DType, Vec<usize>)]| {
            check_sdpa(params, ins, outs).unwrap_err()
        };
        assert!(err(&none, &ins, &[out.clone(), t(DType::BF16, &[1, 4, 3])]).contains("lse"));
        assert!(err(&none, &ins, &[t(DType::BF16, &[1, 4, 3, 8])]).contains("output 0"));
        assert!(err(&none, &ins, &[]).contains("1 or 2 outputs"));
        let mixed = [ins[0].clone(), t(DType::F32, &[1, 2, 5, 8]), ins[2].clone()];
        assert!(err(&none, &mixed, std::slice::from_ref(&out)).contains("one float element type"));
        let inf = Params::new(vec![("scale".into(), Param::Float(f64::INFINITY))]);
        assert!(err(&inf, &ins, &[out]).contains("finite"));
    }

    #[test]
    fn the_kernel_reads_its_parameters_and_origin() {
        let dims = SdpaDims { b: 1, h: 2, hkv: 1, s: 3, skv: 6, d: 4, dv: 2 };
        let (q, k, v) = (values(24, 11), values(24, 12), values(12, 13));
        let inputs = [
            Dense::from_f64(DType::F32, vec![1, 2, 3, 4], q.clone()),
            Dense::from_f64(DType::F32, vec![1, 1, 6, 4], k.clone()),
            Dense::from_f64(DType::F32, vec![1, 1, 6, 2], v.clone()),
        ];
        let params = Params::new(vec![("causal".into(), Param::Flag), ("scale".into(), Param::Float(0.5))]);
        let outputs = [(DType::F32, vec![1, 2, 3, 2]), (DType::F32, vec![1, 2, 3])];
        let got = eval_sdpa(&params, &inputs, &outputs, &[0, 0, 2, 0]).unwrap();
        let (out, lse) = sdpa(&q, &k, &v, &dims, &SdpaOptions { causal: true, scale: 0.5, query_offset: 2 });
        assert_eq!(
            got,
            vec![Dense::from_f64(DType::F32, vec![1, 2, 3, 2], out), Dense::from_f64(DType::F32, vec![1, 2, 3], lse)]
        );
        // One output: no lse; no scale: 1/sqrt(D).
        let none = Params::new(Vec::new());
        let got = eval_sdpa(&none, &inputs, &outputs[..1], &[]).unwrap();
        let (out, _) = sdpa(&q, &k, &v, &dims, &SdpaOptions { causal: false, scale: 0.5, query_offset: 0 });
        assert_eq!(got, vec![Dense::from_f64(DType::F32, vec![1, 2, 3, 2], out)]);
    }

    #[test]
    fn shapes_are_checked() {
        assert!(SdpaDims::of_shapes(&[1, 4, 3, 8], &[1, 2, 5, 8], &[1, 2, 5, 6]).is_ok());
        let e = SdpaDims::of_shapes(&[1, 6, 3, 8], &[1, 4, 5, 8], &[1, 4, 5, 8]).unwrap_err();
        assert!(e.contains("not a multiple"), "{e}");
        assert!(SdpaDims::of_shapes(&[1, 4, 3], &[1, 4, 5, 8], &[1, 4, 5, 8]).unwrap_err().contains("rank 4"));
        assert!(SdpaDims::of_shapes(&[1, 4, 3, 8], &[1, 4, 5, 7], &[1, 4, 5, 8]).unwrap_err().contains("head dim"));
    }
}
