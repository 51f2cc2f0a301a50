//! The semantics of the backward pass's ops on dense row-major tensors, in `f64`
//! (docs/dialects/fusion.md has the rules):
//!
//! - `sdpa_grad`: the gradients `(dq, dk, dv)` of `fusion.sdpa` from `q, k, v, out, lse, dout`,
//!   recomputing `P = exp(scale q·k - lse)` row by row (flash-attention's backward, without
//!   tiles). Grouped-query heads add their contributions into their key/value head; the causal
//!   mask is top-left as the forward's, at global query indices (the local index plus the
//!   origin of `dq`'s sequence axis: a query sequence split over devices masks as the whole,
//!   each rank's `dk`, `dv` then being its rows' partial sums).
//! - `embedding_grad`: rows of `g` added into a zero table at `ids`; the local piece holds
//!   global rows `[origin[0], origin[0] + rows)` and adds only the ids among them.
//! - `one_hot`: `1.0` where `labels == origin[last] + c`, else `0.0`.
//!
//! Sums run in a fixed order (the tensors' row-major order) in `f64`: deterministic; the caller
//! rounds each output once to its element type.

use super::attention::SdpaDims;
use super::dense::Dense;
use super::params::Params;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};

/// The (element type, shape) of each input or output.
type Types = [(DType, Vec<usize>)];

// ----- sdpa_grad ------------------------------------------------------------------------------

/// The prepare-time check of `sdpa_grad`: `q, k, v` as `sdpa` takes them, `out` and `dout` of
/// `sdpa`'s output shape and element type, `lse` `f32`; outputs of the types of `q, k, v`.
pub fn check_sdpa_grad(params: &Params, inputs: &Types, outputs: &Types) -> Result<(), String> {
    let [(tq, q), (tk, k), (tv, v), (to, o), (tl, l), (td, d)] = inputs else {
        return Err(format!("expects 6 inputs (q, k, v, out, lse, dout), got {}", inputs.len()));
    };
    if !tq.is_float() || tk != tq || tv != tq {
        return Err(format!(
            "q, k, v must have one float element type, got {}, {}, {}",
            tq.name(),
            tk.name(),
            tv.name()
        ));
    }
    let dims = SdpaDims::of_shapes(q, k, v)?;
    let (out, lse) = dims.result_shapes();
    for (what, t, s) in [("out", to, o), ("dout", td, d)] {
        if t != tq || *s != out {
            return Err(format!("{what} must be {} {out:?}, got {} {s:?}", tq.name(), t.name()));
        }
    }
    if *tl != DType::F32 || *l != lse {
        return Err(format!("lse must be f32 {lse:?}, got {} {l:?}", tl.name()));
    }
    let want = [(*tq, q.clone()), (*tk, k.clone()), (*tv, v.clone())];
    if outputs != want {
        return Err(format!("expects outputs (dq, dk, dv) {want:?}, got {outputs:?}"));
    }
    let scale = params.float_or("scale", dims.default_scale()).map_err(|e| e.to_string())?;
    if !scale.is_finite() {
        return Err(format!("scale must be finite, got {scale}"));
    }
    Ok(())
}

/// `sdpa_grad` on dense inputs: `[dq, dk, dv]`; `origin` is `dq`'s (its sequence coordinate
/// is the global index of local query 0).
pub fn eval_sdpa_grad(params: &Params, inputs: &[Dense], outputs: &Types, origin: &[usize]) -> RtResult<Vec<Dense>> {
    let [q, k, v, out, lse, dout] = inputs else { return Err(RtError::new("sdpa_grad expects 6 inputs")) };
    let dims = SdpaDims::of_shapes(&q.shape, &k.shape, &v.shape).map_err(RtError::new)?;
    let scale = params.float_or("scale", dims.default_scale())?;
    let causal = params.flag("causal");
    let t = SdpaTensors { q: &q.floats(), k: &k.floats(), v: &v.floats(), out: &out.floats(), dout: &dout.floats() };
    let query_offset = origin.get(2).copied().unwrap_or(0);
    let (dq, dk, dv) = sdpa_grad(&t, &lse.floats(), &dims, causal, scale, query_offset);
    Ok([dq, dk, dv].into_iter().zip(outputs).map(|(x, (dt, s))| Dense::from_f64(*dt, s.clone(), x)).collect())
}

/// The dense row-major tensors `sdpa_grad` reads (besides `lse`).
pub struct SdpaTensors<'a> {
    pub q: &'a [f64],
    pub k: &'a [f64],
    pub v: &'a [f64],
    pub out: &'a [f64],
    pub dout: &'a [f64],
}

/// `(dq, dk, dv)` of attention over `t` with the forward's log-sum-exp `lse` (lengths as `dims`
/// says; local query `i` attends keys `j <= query_offset + i` when `causal`). A row whose
/// `lse` is `-inf` attended nothing and contributes nothing.
pub fn sdpa_grad(
    t: &SdpaTensors<'_>,
    lse: &[f64],
    dims: &SdpaDims,
    causal: bool,
    scale: f64,
    query_offset: usize,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let SdpaDims { b, h, hkv, s, skv, d, dv } = *dims;
    let mut dq = vec![0.0; b * h * s * d];
    let mut dk = vec![0.0; b * hkv * skv * d];
    let mut dvv = vec![0.0; b * hkv * skv * dv];
    let group = h.checked_div(hkv).unwrap_or(1);
    for bi in 0..b {
        for hi in 0..h {
            let kv_base = (bi * hkv + hi / group) * skv;
            for i in 0..s {
                let row = (bi * h + hi) * s + i;
                let l = lse[row];
                if l == f64::NEG_INFINITY {
                    continue;
                }
                let (qrow, orow, grow) =
                    (&t.q[row * d..(row + 1) * d], &t.out[row * dv..(row + 1) * dv], &t.dout[row * dv..(row + 1) * dv]);
                let delta: f64 = grow.iter().zip(orow).map(|(a, b)| a * b).sum();
                let n = if causal { skv.min(query_offset + i + 1) } else { skv };
                for j in 0..n {
                    let kr = (kv_base + j) * d;
                    let vr = (kv_base + j) * dv;
                    let dot: f64 = qrow.iter().zip(&t.k[kr..kr + d]).map(|(a, b)| a * b).sum();
                    let p = (scale * dot - l).exp();
                    let dp: f64 = grow.iter().zip(&t.v[vr..vr + dv]).map(|(a, b)| a * b).sum();
                    let ds = p * (dp - delta);
                    for e in 0..dv {
                        dvv[vr + e] += p * grow[e];
                    }
                    for e in 0..d {
                        dq[row * d + e] += scale * ds * t.k[kr + e];
                        dk[kr + e] += scale * ds * qrow[e];
                    }
                }
            }
        }
    }
    (dq, dk, dvv)
}

// ----- embedding_grad -------------------------------------------------------------------------

fn is_id(t: DType) -> bool {
    matches!(t, DType::I32 | DType::I64)
}

/// The prepare-time check of `embedding_grad`: `i32`/`i64` ids, a float `g [ids..., E]`, one
/// output `[rows, E]` of `g`'s element type (`rows`: the local piece's, at most `num_rows`).
pub fn check_embedding_grad(params: &Params, inputs: &Types, outputs: &Types) -> Result<(), String> {
    let [(id_ty, id_shape), (g_ty, g_shape)] = inputs else {
        return Err(format!("expects ids and grad, got {} inputs", inputs.len()));
    };
    if !is_id(*id_ty) {
        return Err(format!("ids must be i32 or i64, got {}", id_ty.name()));
    }
    if !g_ty.is_float() || g_shape.len() != id_shape.len() + 1 || g_shape[..id_shape.len()] != id_shape[..] {
        return Err(format!("grad must be a float tensor [ids..., E] for ids {id_shape:?}, got {g_ty:?} {g_shape:?}"));
    }
    let rows = params.int("num_rows").map_err(|e| e.message)?;
    let width = g_shape[id_shape.len()];
    match outputs {
        [(o_ty, o_shape)] if o_ty == g_ty && o_shape.len() == 2 && o_shape[1] == width && o_shape[0] as i64 <= rows => {
            Ok(())
        }
        _ => Err(format!("expects one output of {g_ty:?} [rows <= {rows}, {width}], got {outputs:?}")),
    }
}

/// `embedding_grad` into a table piece whose first row is global row `origin[0]` (0 without
/// one).
pub fn eval_embedding_grad(inputs: &[Dense], outputs: &Types, origin: &[usize]) -> RtResult<Vec<Dense>> {
    let [ids, g] = inputs else { return Err(RtError::new("embedding_grad expects ids and grad")) };
    let (dtype, shape) = outputs[0].clone();
    let [rows, width] = shape[..] else { return Err(RtError::new("embedding_grad: the output must be [rows, E]")) };
    let first_row = origin.first().copied().unwrap_or(0) as i64;
    let table = embedding_grad(&ids.ints(), &g.floats(), rows, width, first_row);
    Ok(vec![Dense::from_f64(dtype, shape, table)])
}

/// The `rows x width` piece (first global row `first_row`) of the table gradient: row `r` is
/// the sum, in id order, of the rows `g[i]` with `ids[i] = first_row + r`.
pub fn embedding_grad(ids: &[i64], g: &[f64], rows: usize, width: usize, first_row: i64) -> Vec<f64> {
    let mut table = vec![0.0; rows * width];
    for (i, &id) in ids.iter().enumerate() {
        let local = id.checked_sub(first_row).and_then(|r| usize::try_from(r).ok()).filter(|&r| r < rows);
        if let Some(r) = local {
            for (t, &x) in table[r * width..(r + 1) * width].iter_mut().zip(&g[i * width..(i + 1) * width]) {
                *t += x;
            }
        }
    }
    table
}

// ----- one_hot --------------------------------------------------------------------------------

/// The prepare-time check of `one_hot`: `i32`/`i64` labels, one float output `[labels...,
/// classes]` (`classes`: the local piece's, at most `num_classes`).
pub fn check_one_hot(params: &Params, inputs: &Types, outputs: &Types) -> Result<(), String> {
    let [(l_ty, l_shape)] = inputs else { return Err(format!("expects labels, got {} inputs", inputs.len())) };
    if !is_id(*l_ty) {
        return Err(format!("labels must be i32 or i64, got {}", l_ty.name()));
    }
    let n = params.int("num_classes").map_err(|e| e.message)?;
    match outputs {
        [(o_ty, o_shape)]
            if o_ty.is_float()
                && o_shape.len() == l_shape.len() + 1
                && o_shape[..l_shape.len()] == l_shape[..]
                && o_shape[l_shape.len()] as i64 <= n =>
        {
            Ok(())
        }
        _ => Err(format!("expects one float output [{l_shape:?}..., classes <= {n}], got {outputs:?}")),
    }
}

/// `one_hot` into a piece whose first class is global class `origin[last]` (0 without one).
pub fn eval_one_hot(inputs: &[Dense], outputs: &Types, origin: &[usize]) -> RtResult<Vec<Dense>> {
    let [labels] = inputs else { return Err(RtError::new("one_hot expects labels")) };
    let (dtype, shape) = outputs[0].clone();
    let classes = shape.last().copied().unwrap_or(0);
    let first = origin.last().copied().unwrap_or(0) as i64;
    Ok(vec![Dense::from_f64(dtype, shape, one_hot(&labels.ints(), classes, first))])
}

/// One row of `classes` values per label: `1.0` at column `label - first_class` when that
/// column is held, zeros elsewhere.
pub fn one_hot(labels: &[i64], classes: usize, first_class: i64) -> Vec<f64> {
    let mut out = vec![0.0; labels.len() * classes];
    for (i, &l) in labels.iter().enumerate() {
        if let Some(c) = l.checked_sub(first_class).and_then(|c| usize::try_from(c).ok()).filter(|&c| c < classes) {
            out[i * classes + c] = 1.0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::attention::tests::values;
    use super::super::attention::{SdpaOptions, sdpa};
    use super::*;
    use crate::ops::{Call, Param, lookup, run};

    /// The loss `<w, sdpa(q, k, v)>`.
    fn loss(q: &[f64], k: &[f64], v: &[f64], w: &[f64], dims: &SdpaDims, opt: &SdpaOptions) -> f64 {
        sdpa(q, k, v, dims, opt).0.iter().zip(w).map(|(a, b)| a * b).sum()
    }

    /// `sdpa_grad` against central differences of the forward `sdpa` (f64) for the loss
    /// `<dout, out>`, every element of q, k and v.
    fn check_against_differences(dims: SdpaDims, causal: bool, scale: f64) {
        let q = values(dims.b * dims.h * dims.s * dims.d, 1);
        let k = values(dims.b * dims.hkv * dims.skv * dims.d, 2);
        let v = values(dims.b * dims.hkv * dims.skv * dims.dv, 3);
        let w = values(dims.b * dims.h * dims.s * dims.dv, 4);
        let opt = SdpaOptions { causal, scale, query_offset: 0 };
        let (out, lse) = sdpa(&q, &k, &v, &dims, &opt);
        let t = SdpaTensors { q: &q, k: &k, v: &v, out: &out, dout: &w };
        let (dq, dk, dv) = sdpa_grad(&t, &lse, &dims, causal, scale, 0);
        let h = 1e-6;
        for (which, grad) in [(0, &dq), (1, &dk), (2, &dv)] {
            for (e, &g) in grad.iter().enumerate() {
                let mut x = [q.clone(), k.clone(), v.clone()];
                x[which][e] += h;
                let up = loss(&x[0], &x[1], &x[2], &w, &dims, &opt);
                x[which][e] -= 2.0 * h;
                let down = loss(&x[0], &x[1], &x[2], &w, &dims, &opt);
                let fd = (up - down) / (2.0 * h);
                assert!(
                    (g - fd).abs() <= 1e-7 * (1.0 + fd.abs()),
                    "{dims:?} causal {causal}: d{which}[{e}] = {g}, fd {fd}"
                );
            }
        }
        assert!(dk.iter().any(|x| x.abs() > 1e-3) && dv.iter().any(|x| x.abs() > 1e-3), "the sample is not trivial");
    }

    #[test]
    fn sdpa_grad_matches_finite_differences() {
        let mha = SdpaDims { b: 2, h: 2, hkv: 2, s: 3, skv: 4, d: 3, dv: 2 };
        check_against_differences(mha, false, mha.default_scale());
        check_against_differences(mha, true, 0.7);
        // Grouped-query (dk, dv sum over the 2 query heads of a group), more queries than keys.
        let gqa = SdpaDims { b: 1, h: 4, hkv: 2, s: 5, skv: 3, d: 4, dv: 3 };
        check_against_differences(gqa, false, 0.5);
        check_against_differences(gqa, true, 0.5);
        // Multi-query, causal.
        check_against_differences(SdpaDims { b: 1, h: 3, hkv: 1, s: 4, skv: 4, d: 2, dv: 2 }, true, 1.0);
    }

    #[test]
    fn a_split_query_sequence_gives_partial_key_gradients() {
        // Rows 0..3 and 3..6 of a causal problem, each with its global offset: dq of each half
        // is the whole's rows, dk and dv the halves' sum.
        let dims = SdpaDims { b: 1, h: 2, hkv: 1, s: 6, skv: 5, d: 3, dv: 2 };
        let (q, k, v, w) = (values(36, 21), values(15, 22), values(10, 23), values(24, 24));
        let opt = SdpaOptions { causal: true, scale: 0.6, query_offset: 0 };
        let (out, lse) = sdpa(&q, &k, &v, &dims, &opt);
        let t = SdpaTensors { q: &q, k: &k, v: &v, out: &out, dout: &w };
        let (dq, dk, dv) = sdpa_grad(&t, &lse, &dims, true, 0.6, 0);
        let half = SdpaDims { s: 3, ..dims };
        // The rows of one half, per head: [h][rows][width] of a [1, 2, 6, width] tensor.
        let rows = |x: &[f64], width: usize, first: usize| -> Vec<f64> {
            (0..2).flat_map(|h| x[(h * 6 + first) * width..(h * 6 + first + 3) * width].to_vec()).collect()
        };
        let mut sum_dk = vec![0.0; dk.len()];
        let mut sum_dv = vec![0.0; dv.len()];
        for first in [0, 3] {
            let (hq, ho, hw, hl) = (rows(&q, 3, first), rows(&out, 2, first), rows(&w, 2, first), rows(&lse, 1, first));
            let ht = SdpaTensors { q: &hq, k: &k, v: &v, out: &ho, dout: &hw };
            let (hdq, hdk, hdv) = sdpa_grad(&ht, &hl, &half, true, 0.6, first);
            let want = rows(&dq, 3, first);
            assert!(hdq.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-14), "{hdq:?} vs {want:?}");
            sum_dk.iter_mut().zip(&hdk).for_each(|(s, x)| *s += x);
            sum_dv.iter_mut().zip(&hdv).for_each(|(s, x)| *s += x);
        }
        assert!(sum_dk.iter().zip(&dk).all(|(a, b)| (a - b).abs() < 1e-14));
        assert!(sum_dv.iter().zip(&dv).all(|(a, b)| (a - b).abs() < 1e-14));
    }

    #[test]
    fn sdpa_grad_skips_rows_without_keys() {
        // Skv = 0: lse = -inf everywhere, every gradient 0 (and no NaN).
        let dims = SdpaDims { b: 1, h: 1, hkv: 1, s: 2, skv: 0, d: 2, dv: 2 };
        let t = SdpaTensors { q: &[1.0; 4], k: &[], v: &[], out: &[0.0; 4], dout: &[1.0; 4] };
        let (dq, dk, dv) = sdpa_grad(&t, &[f64::NEG_INFINITY; 2], &dims, false, 1.0, 0);
        assert_eq!((dq, dk.len(), dv.len()), (vec![0.0; 4], 0, 0));
    }

    #[test]
    fn sdpa_grad_kernel_checks_and_runs() {
        let f = |s: &[usize]| (DType::F32, s.to_vec());
        let ins =
            [f(&[1, 2, 3, 4]), f(&[1, 1, 5, 4]), f(&[1, 1, 5, 2]), f(&[1, 2, 3, 2]), f(&[1, 2, 3]), f(&[1, 2, 3, 2])];
        let outs = [ins[0].clone(), ins[1].clone(), ins[2].clone()];
        let none = Params::default();
        assert_eq!(check_sdpa_grad(&none, &ins, &outs), Ok(()));
        let mut bad = ins.clone();
        bad[4] = (DType::BF16, vec![1, 2, 3]);
        assert!(check_sdpa_grad(&none, &bad, &outs).unwrap_err().contains("lse must be f32"));
        let mut bad = ins.clone();
        bad[5] = f(&[1, 2, 3, 4]);
        assert!(check_sdpa_grad(&none, &bad, &outs).unwrap_err().contains("dout must be"));
        assert!(check_sdpa_grad(&none, &ins, &outs[..2]).unwrap_err().contains("outputs (dq, dk, dv)"));
        let inf = Params::new(vec![("scale".into(), Param::Float(f64::INFINITY))]);
        assert!(check_sdpa_grad(&inf, &ins, &outs).unwrap_err().contains("finite"));
        // Through the registry: the same values as the function, rounded to f32.
        let dims = SdpaDims::of_shapes(&ins[0].1, &ins[1].1, &ins[2].1).unwrap();
        let (q, k, v, w) = (values(24, 5), values(20, 6), values(10, 7), values(12, 8));
        let opt = SdpaOptions { causal: true, scale: 0.5, query_offset: 0 };
        let (out, lse) = sdpa(&q, &k, &v, &dims, &opt);
        let params = Params::new(vec![("causal".into(), Param::Flag), ("scale".into(), Param::Float(0.5))]);
        let dense: Vec<Dense> = [&q, &k, &v, &out, &lse, &w]
            .iter()
            .zip(&ins)
            .map(|(x, (t, s))| Dense::from_f64(*t, s.clone(), x.to_vec()))
            .collect();
        let call = Call { params: &params, inputs: &dense, outputs: &outs, origin: &[], global_shape: &[] };
        let got = run(lookup("sdpa_grad").unwrap(), &call).unwrap();
        let t = SdpaTensors { q: &q, k: &k, v: &v, out: &out, dout: &w };
        let (dq, _, dv) = sdpa_grad(&t, &lse, &dims, true, 0.5, 0);
        assert_eq!(got[0].floats(), dq.iter().map(|&x| x as f32 as f64).collect::<Vec<_>>());
        assert_eq!(got[2].floats(), dv.iter().map(|&x| x as f32 as f64).collect::<Vec<_>>());
    }

    #[test]
    fn embedding_grad_adds_rows_at_ids() {
        // ids [3, 1, 3, -1, 4, 0], E = 2; table of 4 rows: id 4 and -1 add nothing.
        let ids = [3, 1, 3, -1, 4, 0];
        let g: Vec<f64> = (0..12).map(f64::from).collect();
        let full = embedding_grad(&ids, &g, 4, 2, 0);
        assert_eq!(full, vec![10.0, 11.0, 2.0, 3.0, 0.0, 0.0, 4.0, 6.0]);
        // Rows 2..4 of the same table (a vocab-parallel piece): the last two rows above.
        assert_eq!(embedding_grad(&ids, &g, 2, 2, 2), full[4..].to_vec());
        // Through the registry, with an origin, bf16 output rounded once.
        let params = Params::new(vec![("num_rows".into(), Param::Int(4))]);
        let ins =
            [Dense::from_i64(DType::I64, vec![2, 3], ids.to_vec()), Dense::from_f64(DType::BF16, vec![2, 3, 2], g)];
        let outs = [(DType::BF16, vec![2, 2])];
        let types: Vec<_> = ins.iter().map(|d| (d.dtype, d.shape.clone())).collect();
        assert_eq!(check_embedding_grad(&params, &types, &outs), Ok(()));
        assert!(check_embedding_grad(&params, &types, &[(DType::BF16, vec![5, 2])]).unwrap_err().contains("rows <= 4"));
        assert!(check_embedding_grad(&params, &types, &[(DType::F32, vec![2, 2])]).is_err());
        let bad = [types[0].clone(), (DType::BF16, vec![2, 2, 2])];
        assert!(check_embedding_grad(&params, &bad, &outs).unwrap_err().contains("[ids..., E]"));
        let call = Call { params: &params, inputs: &ins, outputs: &outs, origin: &[2, 0], global_shape: &[4, 2] };
        let got = run(lookup("embedding_grad").unwrap(), &call).unwrap();
        assert_eq!(got[0].floats(), vec![0.0, 0.0, 4.0, 6.0]);
    }

    #[test]
    fn one_hot_rows() {
        assert_eq!(one_hot(&[2, 0, -1, 3], 3, 0), vec![0., 0., 1., 1., 0., 0., 0., 0., 0., 0., 0., 0.]);
        // Columns 2..4 of 4 classes: label 2 at local column 0, 3 at column 1.
        assert_eq!(one_hot(&[2, 0, -1, 3], 2, 2), vec![1., 0., 0., 0., 0., 0., 0., 1.]);
        assert_eq!(one_hot(&[i64::MIN, i64::MAX], 2, 1), vec![0.0; 4]);
        let params = Params::new(vec![("num_classes".into(), Param::Int(4))]);
        let labels = [(DType::I32, vec![2, 2])];
        assert_eq!(check_one_hot(&params, &labels, &[(DType::F16, vec![2, 2, 4])]), Ok(()));
        assert!(check_one_hot(&params, &labels, &[(DType::I32, vec![2, 2, 4])]).is_err());
        assert!(check_one_hot(&params, &labels, &[(DType::F32, vec![2, 2, 5])]).unwrap_err().contains("<= 4"));
        assert!(check_one_hot(&params, &[(DType::F32, vec![4])], &[(DType::F32, vec![4, 4])]).is_err());
        let ins = [Dense::from_i64(DType::I32, vec![2, 2], vec![2, 0, -1, 3])];
        let outs = [(DType::BF16, vec![2, 2, 2])];
        let call = Call { params: &params, inputs: &ins, outputs: &outs, origin: &[0, 0, 2], global_shape: &[2, 2, 4] };
        let got = run(lookup("one_hot").unwrap(), &call).unwrap();
        assert_eq!(got[0].floats(), vec![1., 0., 0., 0., 0., 0., 0., 1.]);
    }
}
