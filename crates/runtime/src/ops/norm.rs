//! The semantics of `fusion.layer_norm` and `fusion.rms_norm` (docs/dialects/fusion.md) on
//! dense row-major values: the input is `rows x cols` where `cols` is the product of the
//! normalized (trailing) axes. Everything is computed in `f64` and returned unrounded (the
//! caller rounds each output once to its element type).
//!
//! layer_norm: `mean = Σx / n`, the biased variance by the corrected two-pass formula
//! `var = (Σd² - (Σd)² / n) / n` with `d = x - mean` (no cancellation when the mean is large
//! against the spread: the deviations are formed before squaring, and the second term removes
//! the rounding error of the mean), `rstd = 1 / sqrt(var + eps)`, `y = (x - mean) · rstd · w + b`.
//! rms_norm: `rstd = 1 / sqrt(Σx² / n + eps)`, `y = x · rstd · w`.
//!
//! NaN and infinity follow from the formulas as torch computes them: a NaN or infinity in a
//! layer_norm row makes its mean or variance NaN, so the whole row and its statistics are NaN;
//! in an rms_norm row an infinity makes `rstd` 0 (finite elements give 0, infinite ones NaN)
//! and a NaN makes everything NaN. A zero-variance row with `eps = 0` gives `rstd = inf` and
//! NaN outputs (`0 · inf`), as torch.

//!
//! The kernels `layer_norm` and `rms_norm` (their `OpImpl`s are in `registry.rs`, which sits
//! above the op files: [`check_layer_norm`], [`eval_layer_norm`], ...) take the fusion op's
//! properties as parameters: `dims` (the normalized trailing axes), `epsilon` (absent: the
//! dialect's default), and for layer_norm `operandSegmentSizes` (which of weight and bias are
//! among the inputs). [`NormSpec::of`] decodes and checks them once for every evaluator.

use super::dense::Dense;
use super::params::Params;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use fuser_dialects::fusion::norm::{LAYER_NORM_DEFAULT_EPSILON, rms_norm_default_epsilon};
use fuser_ir::types::FloatKind;

/// One norm call, decoded from its parameters and its inputs' and outputs' types.
#[derive(Clone, Debug, PartialEq)]
pub struct NormSpec {
    pub rms: bool,
    /// Rows (the product of the leading axes) and their length (of the normalized axes).
    pub rows: usize,
    pub cols: usize,
    pub has_weight: bool,
    pub has_bias: bool,
    pub eps: f64,
    /// Whether the statistics outputs are wanted.
    pub stats: bool,
    /// The element type of the input, weight, bias and `y`.
    pub dtype: DType,
    /// The element type of the statistics (`f32`, or `f64` for `f64` inputs).
    pub stats_dtype: DType,
}

impl NormSpec {
    /// Decodes and checks a norm call (`rms`: rms_norm, else layer_norm) against the element
    /// types and shapes of its inputs and outputs.
    pub fn of(
        rms: bool,
        params: &Params,
        inputs: &[(DType, Vec<usize>)],
        outputs: &[(DType, Vec<usize>)],
    ) -> Result<NormSpec, String> {
        let dims = params.ints("dims").map_err(|e| e.message)?;
        let (has_weight, has_bias) = if rms {
            (inputs.len() == 2, false)
        } else {
            match params.ints("operandSegmentSizes").map_err(|e| e.message)?[..] {
                [1, w, b] if (0..=1).contains(&w) && (0..=1).contains(&b) => (w == 1, b == 1),
                ref other => return Err(format!("operandSegmentSizes must be [1, 0|1, 0|1], got {other:?}")),
            }
        };
        let want_inputs = 1 + has_weight as usize + has_bias as usize;
        if inputs.len() != want_inputs || (rms && inputs.len() > 2) {
            return Err(format!("expects {want_inputs} inputs, got {}", inputs.len()));
        }
        let (dtype, shape) = &inputs[0];
        let dtype = *dtype;
        let kind = match dtype {
            DType::BF16 => FloatKind::BF16,
            DType::F16 => FloatKind::F16,
            DType::F32 => FloatKind::F32,
            DType::F64 => FloatKind::F64,
            other => return Err(format!("the input must be bf16, f16, f32 or f64, got {}", other.name())),
        };
        let r = shape.len();
        let k = dims.len();
        if k == 0 || k > r || dims.iter().enumerate().any(|(i, &d)| d != (r - k + i) as i64) {
            return Err(format!("dims {dims:?} must be the trailing axes of the rank-{r} input"));
        }
        let (lead, normalized) = shape.split_at(r - k);
        for (name, t) in ["weight", "bias"].iter().zip(&inputs[1..]) {
            if t.0 != dtype || t.1 != normalized {
                return Err(format!("{name} must be {} {normalized:?}, got {} {:?}", dtype.name(), t.0.name(), t.1));
            }
        }
        let stats_dtype = if dtype == DType::F64 { DType::F64 } else { DType::F32 };
        let n_stats = if rms { 1 } else { 2 };
        if outputs.len() != 1 && outputs.len() != 1 + n_stats {
            return Err(format!("expects 1 or {} outputs, got {}", 1 + n_stats, outputs.len()));
        }
        if outputs[0].0 != dtype || &outputs[0].1 != shape {
            return Err(format!(
                "y must be {} {shape:?}, got {} {:?}",
                dtype.name(),
                outputs[0].0.name(),
                outputs[0].1
            ));
        }
        for (i, o) in outputs.iter().enumerate().skip(1) {
            if o.0 != stats_dtype || o.1 != lead {
                return Err(format!(
                    "output #{i} must be {} {lead:?}, got {} {:?}",
                    stats_dtype.name(),
                    o.0.name(),
                    o.1
                ));
            }
        }
        let default = if rms { rms_norm_default_epsilon(kind) } else { LAYER_NORM_DEFAULT_EPSILON };
        let eps = params.float_or("epsilon", default).map_err(|e| e.message)?;
        if !(eps.is_finite() && eps >= 0.0) {
            return Err(format!("epsilon must be finite and not negative, got {eps}"));
        }
        Ok(NormSpec {
            rms,
            rows: lead.iter().product(),
            cols: normalized.iter().product(),
            has_weight,
            has_bias,
            eps,
            stats: outputs.len() > 1,
            dtype,
            stats_dtype,
        })
    }
}

/// The prepare-time check of kernel `layer_norm`.
pub fn check_layer_norm(p: &Params, i: &[(DType, Vec<usize>)], o: &[(DType, Vec<usize>)]) -> Result<(), String> {
    NormSpec::of(false, p, i, o).map(|_| ())
}

/// The prepare-time check of kernel `rms_norm`.
pub fn check_rms_norm(p: &Params, i: &[(DType, Vec<usize>)], o: &[(DType, Vec<usize>)]) -> Result<(), String> {
    NormSpec::of(true, p, i, o).map(|_| ())
}

fn spec_of(rms: bool, params: &Params, inputs: &[Dense], outputs: &[(DType, Vec<usize>)]) -> RtResult<NormSpec> {
    let types: Vec<_> = inputs.iter().map(|d| (d.dtype, d.shape.clone())).collect();
    NormSpec::of(rms, params, &types, outputs).map_err(RtError::new)
}

/// Kernel `layer_norm`: `y`, then `mean` and `rstd` when the call has those outputs.
pub fn eval_layer_norm(params: &Params, inputs: &[Dense], outputs: &[(DType, Vec<usize>)]) -> RtResult<Vec<Dense>> {
    let s = spec_of(false, params, inputs, outputs)?;
    let weight = s.has_weight.then(|| inputs[1].floats());
    let bias = s.has_bias.then(|| inputs[1 + s.has_weight as usize].floats());
    let out = layer_norm(&inputs[0].floats(), s.cols, weight.as_deref(), bias.as_deref(), s.eps);
    let mut results = vec![Dense::from_f64(s.dtype, outputs[0].1.clone(), out.y)];
    if s.stats {
        results.push(Dense::from_f64(s.stats_dtype, outputs[1].1.clone(), out.mean));
        results.push(Dense::from_f64(s.stats_dtype, outputs[2].1.clone(), out.rstd));
    }
    Ok(results)
}

/// Kernel `rms_norm`: `y`, then `rstd` when the call has that output.
pub fn eval_rms_norm(params: &Params, inputs: &[Dense], outputs: &[(DType, Vec<usize>)]) -> RtResult<Vec<Dense>> {
    let s = spec_of(true, params, inputs, outputs)?;
    let weight = s.has_weight.then(|| inputs[1].floats());
    let out = rms_norm(&inputs[0].floats(), s.cols, weight.as_deref(), s.eps);
    let mut results = vec![Dense::from_f64(s.dtype, outputs[0].1.clone(), out.y)];
    if s.stats {
        results.push(Dense::from_f64(s.stats_dtype, outputs[1].1.clone(), out.rstd));
    }
    Ok(results)
}

/// The outputs of [`layer_norm`]: `y` (`rows x cols`), `mean` and `rstd` (`rows`).
#[derive(Clone, Debug, PartialEq)]
pub struct LayerNormOut {
    pub y: Vec<f64>,
    pub mean: Vec<f64>,
    pub rstd: Vec<f64>,
}

/// The outputs of [`rms_norm`]: `y` (`rows x cols`) and `rstd` (`rows`).
#[derive(Clone, Debug, PartialEq)]
pub struct RmsNormOut {
    pub y: Vec<f64>,
    pub rstd: Vec<f64>,
}

/// Mean and biased variance of one row (corrected two-pass; NaN rows give NaN).
pub fn mean_var(row: &[f64]) -> (f64, f64) {
    let n = row.len() as f64;
    if row.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = row.iter().sum::<f64>() / n;
    let (mut sd, mut sd2) = (0.0f64, 0.0f64);
    for &x in row {
        let d = x - mean;
        sd += d;
        sd2 += d * d;
    }
    let var = (sd2 - sd * sd / n) / n;
    // Rounding may leave a tiny negative value for a constant row; NaN stays NaN.
    (mean, if var < 0.0 { 0.0 } else { var })
}

/// torch's `layer_norm` over rows of `cols` elements; `weight` and `bias` have `cols` elements.
pub fn layer_norm(x: &[f64], cols: usize, weight: Option<&[f64]>, bias: Option<&[f64]>, eps: f64) -> LayerNormOut {
    let rows = x.len().checked_div(cols).unwrap_or(0);
    let mut out =
        LayerNormOut { y: Vec::with_capacity(x.len()), mean: Vec::with_capacity(rows), rstd: Vec::with_capacity(rows) };
    for row in x.chunks_exact(cols.max(1)).take(rows) {
        let (mean, var) = mean_var(row);
        let rstd = 1.0 / (var + eps).sqrt();
        for (j, &v) in row.iter().enumerate() {
            let mut y = (v - mean) * rstd;
            if let Some(w) = weight {
                y *= w[j];
            }
            if let Some(b) = bias {
                y += b[j];
            }
            out.y.push(y);
        }
        out.mean.push(mean);
        out.rstd.push(rstd);
    }
    out
}

/// torch's `rms_norm` over rows of `cols` elements; `weight` has `cols` elements.
pub fn rms_norm(x: &[f64], cols: usize, weight: Option<&[f64]>, eps: f64) -> RmsNormOut {
    let rows = x.len().checked_div(cols).unwrap_or(0);
    let mut out = RmsNormOut { y: Vec::with_capacity(x.len()), rstd: Vec::with_capacity(rows) };
    for row in x.chunks_exact(cols.max(1)).take(rows) {
        let ms = row.iter().map(|v| v * v).sum::<f64>() / cols as f64;
        let rstd = 1.0 / (ms + eps).sqrt();
        for (j, &v) in row.iter().enumerate() {
            let y = v * rstd;
            out.y.push(match weight {
                Some(w) => y * w[j],
                None => y,
            });
        }
        out.rstd.push(rstd);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook formulas, written independently: mean by a fold, variance as the mean of
    /// squared deviations.
    fn naive_layer_norm(x: &[f64], cols: usize, w: &[f64], b: &[f64], eps: f64) -> Vec<f64> {
        let mut y = Vec::new();
        for row in x.chunks(cols) {
            let mean = row.iter().fold(0.0, |a, v| a + v) / cols as f64;
            let var = row.iter().map(|v| (v - mean).powi(2)).fold(0.0, |a, v| a + v) / cols as f64;
            for j in 0..cols {
                y.push((row[j] - mean) / (var + eps).sqrt() * w[j] + b[j]);
            }
        }
        y
    }

    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol * (1.0 + y.abs()))
    }

    fn sample(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((s >> 11) as f64 / (1u64 << 53) as f64) * 4.0 - 2.0
            })
            .collect()
    }

    #[test]
    fn layer_norm_matches_the_naive_formula() {
        let (rows, cols) = (5, 12);
        let x = sample(rows * cols, 1);
        let w = sample(cols, 2);
        let b = sample(cols, 3);
        let out = layer_norm(&x, cols, Some(&w), Some(&b), 1e-5);
        assert!(close(&out.y, &naive_layer_norm(&x, cols, &w, &b, 1e-5), 1e-12));
        assert_eq!((out.mean.len(), out.rstd.len()), (rows, rows));
        // Without weight and bias: weight 1 and bias 0.
        let plain = layer_norm(&x, cols, None, None, 1e-5);
        assert!(close(&plain.y, &naive_layer_norm(&x, cols, &[1.0; 12], &[0.0; 12], 1e-5), 1e-12));
        // Each normalized row has mean 0 and (biased) variance var / (var + eps).
        let (m, v) = mean_var(&plain.y[..cols]);
        let (_, v0) = mean_var(&x[..cols]);
        assert!(m.abs() < 1e-12 && (v - v0 / (v0 + 1e-5)).abs() < 1e-12);
        // Bias without weight.
        let only_b = layer_norm(&x, cols, None, Some(&b), 0.0);
        assert!(close(&only_b.y, &naive_layer_norm(&x, cols, &[1.0; 12], &b, 0.0), 1e-12));
    }

    #[test]
    fn statistics_are_the_row_mean_and_rstd() {
        let x = [1.0, 2.0, 3.0, 4.0, 10.0, 10.0, 10.0, 10.0];
        let out = layer_norm(&x, 4, None, None, 0.0);
        assert_eq!(out.mean, vec![2.5, 10.0]);
        assert_eq!(out.rstd[0], 1.0 / 1.25f64.sqrt());
        // A constant row with eps = 0: rstd = inf and 0 · inf = NaN, as torch.
        assert_eq!(out.rstd[1], f64::INFINITY);
        assert!(out.y[4..].iter().all(|y| y.is_nan()));
        let eps = layer_norm(&x, 4, None, None, 1e-5);
        assert_eq!(eps.y[4..], [0.0; 4]);
    }

    /// The catastrophic cancellation check: rows whose mean is huge against their spread.
    /// `E[x²] - E[x]²` loses every digit here; the two-pass formula is exact.
    #[test]
    fn large_mean_rows_keep_their_variance() {
        for &offset in &[1e4, 1e8, 1e12] {
            let x: Vec<f64> = [1.0, 2.0, 3.0, 4.0].iter().map(|v| v + offset).collect();
            let (mean, var) = mean_var(&x);
            assert_eq!(mean, offset + 2.5);
            assert!((var - 1.25).abs() < 1e-9, "offset {offset}: var {var}");
            let one_pass = x.iter().map(|v| v * v).sum::<f64>() / 4.0 - mean * mean;
            if offset >= 1e8 {
                assert!((one_pass - 1.25).abs() > 1e-3, "the naive formula should fail at offset {offset}");
            }
            let out = layer_norm(&x, 4, None, None, 0.0);
            let want = naive_layer_norm(&[1.0, 2.0, 3.0, 4.0], 4, &[1.0; 4], &[0.0; 4], 0.0);
            assert!(close(&out.y, &want, 1e-6), "offset {offset}: {:?}", out.y);
        }
    }

    #[test]
    fn rms_norm_matches_the_formula() {
        let (rows, cols) = (3, 8);
        let x = sample(rows * cols, 4);
        let w = sample(cols, 5);
        let out = rms_norm(&x, cols, Some(&w), 1e-6);
        for (r, row) in x.chunks(cols).enumerate() {
            let rms = (row.iter().map(|v| v * v).sum::<f64>() / cols as f64 + 1e-6).sqrt();
            assert!((out.rstd[r] - 1.0 / rms).abs() < 1e-12 * out.rstd[r]);
            for j in 0..cols {
                assert!((out.y[r * cols + j] - row[j] / rms * w[j]).abs() < 1e-12);
            }
        }
        let plain = rms_norm(&x, cols, None, 0.0);
        let ms: f64 = plain.y[..cols].iter().map(|v| v * v).sum::<f64>() / cols as f64;
        assert!((ms - 1.0).abs() < 1e-12);
    }

    fn params(entries: &[(&str, super::super::params::Param)]) -> Params {
        Params::new(entries.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
    }

    fn ints(v: &[i64]) -> super::super::params::Param {
        super::super::params::Param::Ints(v.to_vec())
    }

    #[test]
    fn specs_decode_operands_defaults_and_refuse_bad_calls() {
        use super::super::params::Param;
        let x = (DType::BF16, vec![2, 3, 8]);
        let w = (DType::BF16, vec![8]);
        let stats = (DType::F32, vec![2, 3]);
        // layer_norm with only a bias: operandSegmentSizes says which input it is.
        let p = params(&[("dims", ints(&[2])), ("operandSegmentSizes", ints(&[1, 0, 1]))]);
        let s = NormSpec::of(false, &p, &[x.clone(), w.clone()], &[x.clone(), stats.clone(), stats.clone()]).unwrap();
        assert_eq!((s.rows, s.cols, s.has_weight, s.has_bias, s.stats), (6, 8, false, true, true));
        assert_eq!((s.eps, s.stats_dtype), (1e-5, DType::F32));
        // rms_norm: the default epsilon is f32's machine epsilon for bf16 (and f64's for f64).
        let p = params(&[("dims", ints(&[1, 2]))]);
        let s = NormSpec::of(true, &p, std::slice::from_ref(&x), &[x.clone(), (DType::F32, vec![2])]).unwrap();
        assert_eq!((s.rows, s.cols, s.eps, s.has_weight), (2, 24, f32::EPSILON as f64, false));
        let xd = (DType::F64, vec![4, 8]);
        let s =
            NormSpec::of(true, &params(&[("dims", ints(&[1]))]), std::slice::from_ref(&xd), std::slice::from_ref(&xd))
                .unwrap();
        assert_eq!(s.eps, f64::EPSILON);
        let written = params(&[("dims", ints(&[2])), ("epsilon", Param::Float(1e-6))]);
        assert_eq!(NormSpec::of(true, &written, &[x.clone(), w.clone()], std::slice::from_ref(&x)).unwrap().eps, 1e-6);
        // Errors.
        let err = |rms: bool, p: &Params, i: &[(DType, Vec<usize>)], o: &[(DType, Vec<usize>)]| {
            NormSpec::of(rms, p, i, o).unwrap_err()
        };
        let d2 = params(&[("dims", ints(&[2]))]);
        assert!(
            err(true, &params(&[("dims", ints(&[1]))]), std::slice::from_ref(&x), std::slice::from_ref(&x))
                .contains("trailing axes")
        );
        assert!(
            err(true, &d2, &[x.clone(), (DType::BF16, vec![4])], std::slice::from_ref(&x))
                .contains("weight must be bf16 [8]")
        );
        assert!(
            err(true, &d2, std::slice::from_ref(&x), &[x.clone(), (DType::BF16, vec![2, 3])])
                .contains("output #1 must be f32 [2, 3]")
        );
        assert!(
            err(true, &d2, std::slice::from_ref(&x), &[x.clone(), stats.clone(), stats.clone()])
                .contains("1 or 2 outputs")
        );
        assert!(err(false, &d2, std::slice::from_ref(&x), std::slice::from_ref(&x)).contains("operandSegmentSizes"));
        let neg = params(&[("dims", ints(&[2])), ("epsilon", Param::Float(-1.0))]);
        assert!(err(true, &neg, std::slice::from_ref(&x), std::slice::from_ref(&x)).contains("epsilon"));
        let int = (DType::I32, vec![2, 8]);
        assert!(
            err(true, &params(&[("dims", ints(&[1]))]), std::slice::from_ref(&int), std::slice::from_ref(&int))
                .contains("bf16, f16, f32 or f64")
        );
    }

    #[test]
    fn outputs_are_rounded_once_to_their_element_types() {
        use super::super::registry::{Call, lookup, run};
        let x = Dense::from_f64(DType::BF16, vec![2, 4], vec![1.0, 2.0, 3.0, 5.0, -1.0, 0.5, 0.25, 8.0]);
        let outputs = vec![(DType::BF16, vec![2, 4]), (DType::F32, vec![2])];
        let p = params(&[("dims", ints(&[1])), ("epsilon", super::super::params::Param::Float(1e-6))]);
        let call =
            Call { params: &p, inputs: std::slice::from_ref(&x), outputs: &outputs, origin: &[], global_shape: &[] };
        let got = run(lookup("rms_norm").unwrap(), &call).unwrap();
        let want = rms_norm(&x.floats(), 4, None, 1e-6);
        let y: Vec<f64> = want.y.iter().map(|&v| half::bf16::from_f64(v).to_f64()).collect();
        assert_eq!(got[0].floats(), y);
        let r: Vec<f64> = want.rstd.iter().map(|&v| v as f32 as f64).collect();
        assert_eq!(got[1].floats(), r);
    }

    #[test]
    fn nan_and_infinity_follow_torch() {
        let x = [1.0, f64::NAN, 3.0, 4.0, 1.0, f64::INFINITY, 3.0, 4.0];
        let ln = layer_norm(&x, 4, None, None, 1e-5);
        assert!(ln.y.iter().all(|v| v.is_nan()) && ln.mean[0].is_nan() && ln.rstd.iter().all(|v| v.is_nan()));
        let rn = rms_norm(&x, 4, None, 1e-5);
        assert!(rn.y[..4].iter().all(|v| v.is_nan()));
        assert_eq!(rn.rstd[1], 0.0);
        assert_eq!([rn.y[4], rn.y[6], rn.y[7]], [0.0; 3]);
        assert!(rn.y[5].is_nan());
    }
}
