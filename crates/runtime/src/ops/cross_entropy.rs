//! `cross_entropy` (docs/dialects/fusion.md): per row of logits `[N, V]` and its `i64` label,
//! `loss = ln(sum(exp(x - m))) - (x[label] - m)` (`m` the row maximum) in `f64`; 0 for a label
//! equal to `ignore_index` (-100 when absent), NaN for any other label outside `[0, V)`; NaN
//! in the row gives NaN.

use super::dense::Dense;
use super::params::{Param, Params};
use crate::dtype::DType;
use crate::error::{RtError, RtResult};

/// torch's default `ignore_index`.
pub const DEFAULT_IGNORE_INDEX: i64 = -100;

/// The `ignore_index` parameter (-100 when absent).
pub fn ignore_index(params: &Params) -> Result<i64, String> {
    match params.get("ignore_index") {
        None => Ok(DEFAULT_IGNORE_INDEX),
        Some(Param::Int(i)) => Ok(*i),
        Some(_) => Err("ignore_index must be an integer".into()),
    }
}

pub fn check(params: &Params, inputs: &[(DType, Vec<usize>)], outputs: &[(DType, Vec<usize>)]) -> Result<(), String> {
    let ([(lt, ls), (tt, ts)], [(ot, os)]) = (inputs, outputs) else {
        return Err("expects logits and labels, and one output".into());
    };
    if lt.is_int()
        || ls.len() != 2
        || *tt != DType::I64
        || ts.as_slice() != [ls[0]]
        || ot.is_int()
        || os.as_slice() != [ls[0]]
    {
        return Err(format!(
            "expects float logits [N, V], i64 labels [N] and a float loss [N], got {lt:?}{ls:?}, {tt:?}{ts:?} -> {ot:?}{os:?}"
        ));
    }
    ignore_index(params).map(|_| ())
}

/// The per-row loss of row-major `logits` (`n` rows of `v`) against `labels`.
pub fn cross_entropy(logits: &[f64], labels: &[i64], v: usize, ignore: i64) -> Vec<f64> {
    labels
        .iter()
        .enumerate()
        .map(|(row, &label)| {
            if label == ignore {
                return 0.0;
            }
            if label < 0 || label as usize >= v {
                return f64::NAN;
            }
            let x = &logits[row * v..(row + 1) * v];
            let m =
                x.iter().fold(f64::NEG_INFINITY, |a, &b| if a.is_nan() || b.is_nan() { f64::NAN } else { a.max(b) });
            // ln(sum) - (x[label] - m) = logsumexp - x[label], both terms small.
            x.iter().map(|&xi| (xi - m).exp()).sum::<f64>().ln() - (x[label as usize] - m)
        })
        .collect()
}

/// The kernel on its inputs.
pub fn eval(params: &Params, inputs: &[Dense]) -> RtResult<Vec<Dense>> {
    let [logits, labels] = inputs else { return Err(RtError::new("cross_entropy: expects two inputs")) };
    let (n, v) = match logits.shape.as_slice() {
        [n, v] => (*n, *v),
        other => return Err(RtError::new(format!("cross_entropy: logits of shape {other:?}"))),
    };
    let ignore = ignore_index(params).map_err(RtError::new)?;
    let loss = cross_entropy(&logits.floats(), &labels.ints(), v, ignore);
    Ok(vec![Dense::from_f64(logits.dtype, vec![n], loss)])
}

/// `cross_entropy_parts` (the vocab-parallel phase 2): per row of the local logits (`n` rows
/// of `v` columns, the first at global column `col0`), `[sum_j exp(x_j - max), x[label]]`, the
/// label's logit 0 when it is not one of these columns.
pub fn parts(logits: &[f64], labels: &[i64], max: &[f64], v: usize, col0: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(2 * labels.len());
    for (row, (&label, &m)) in labels.iter().zip(max).enumerate() {
        let x = &logits[row * v..(row + 1) * v];
        out.push(x.iter().map(|&xi| (xi - m).exp()).sum::<f64>());
        let local = label.checked_sub(col0 as i64).filter(|&j| j >= 0 && (j as usize) < v);
        out.push(local.map_or(0.0, |j| x[j as usize]));
    }
    out
}

/// `cross_entropy_finish` (phase 3): `ln(parts[0]) - (parts[1] - max)` per row; 0 for
/// `ignore`, NaN for another label outside `[0, vocab)`.
pub fn finish(parts: &[f64], labels: &[i64], max: &[f64], vocab: i64, ignore: i64) -> Vec<f64> {
    labels
        .iter()
        .zip(max)
        .enumerate()
        .map(|(row, (&label, &m))| {
            if label == ignore {
                0.0
            } else if label < 0 || label >= vocab {
                f64::NAN
            } else {
                parts[2 * row].ln() - (parts[2 * row + 1] - m)
            }
        })
        .collect()
}

/// Checks `labels [n]` (i64) and `max [n]` (of `dt` when given, else of any float type).
fn check_rows(
    n: usize,
    dt: Option<DType>,
    labels: &(DType, Vec<usize>),
    max: &(DType, Vec<usize>),
) -> Result<(), String> {
    let max_ok = dt.map_or(!max.0.is_int(), |d| max.0 == d);
    if labels.0 != DType::I64 || labels.1.as_slice() != [n] || !max_ok || max.1.as_slice() != [n] {
        return Err(format!("expects i64 labels [{n}] and float maxima [{n}] ({dt:?}), got {labels:?}, {max:?}"));
    }
    Ok(())
}

pub fn check_parts(_: &Params, inputs: &[(DType, Vec<usize>)], outputs: &[(DType, Vec<usize>)]) -> Result<(), String> {
    let ([(lt, ls), labels, max], [(ot, os)]) = (inputs, outputs) else {
        return Err("expects logits, labels and maxima, and one output".into());
    };
    if lt.is_int() || ls.len() != 2 || ot.is_int() || os.as_slice() != [ls[0], 2] {
        return Err(format!("expects float logits [N, V] and float parts [N, 2], got {lt:?}{ls:?} -> {ot:?}{os:?}"));
    }
    check_rows(ls[0], Some(*lt), labels, max)
}

pub fn check_finish(
    params: &Params,
    inputs: &[(DType, Vec<usize>)],
    outputs: &[(DType, Vec<usize>)],
) -> Result<(), String> {
    let ([(pt, ps), labels, max], [(ot, os)]) = (inputs, outputs) else {
        return Err("expects parts, labels and maxima, and one output".into());
    };
    if pt.is_int() || ps.len() != 2 || ps[1] != 2 || ot.is_int() || os.as_slice() != [ps[0]] {
        return Err(format!("expects float parts [N, 2] and a float loss [N], got {pt:?}{ps:?} -> {ot:?}{os:?}"));
    }
    params.int("vocab").map_err(|e| e.message)?;
    ignore_index(params)?;
    check_rows(ps[0], None, labels, max)
}

/// The kernel `cross_entropy_parts`; `origin[1]` is the global column of the local logits.
pub fn eval_parts(inputs: &[Dense], origin: &[usize]) -> RtResult<Vec<Dense>> {
    let [logits, labels, max] = inputs else { return Err(RtError::new("cross_entropy_parts: expects three inputs")) };
    let [n, v] = logits.shape[..] else { return Err(RtError::new("cross_entropy_parts: logits must be [N, V]")) };
    let col0 = origin.get(1).copied().unwrap_or(0);
    let out = parts(&logits.floats(), &labels.ints(), &max.floats(), v, col0);
    Ok(vec![Dense::from_f64(logits.dtype, vec![n, 2], out)])
}

/// The kernel `cross_entropy_finish`.
pub fn eval_finish(params: &Params, inputs: &[Dense]) -> RtResult<Vec<Dense>> {
    let [p, labels, max] = inputs else { return Err(RtError::new("cross_entropy_finish: expects three inputs")) };
    let (vocab, ignore) = (params.int("vocab")?, ignore_index(params).map_err(RtError::new)?);
    let loss = finish(&p.floats(), &labels.ints(), &max.floats(), vocab, ignore);
    Ok(vec![Dense::from_f64(p.dtype, vec![labels.numel()], loss)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_ignored_and_out_of_range() {
        // Row 0: large logits; logsumexp(1000, 1000) = 1000 + ln 2.
        let logits = [1000.0, 1000.0, 0.0, 1.0, 5.0, f64::NAN, 0.0, 0.0];
        let l = cross_entropy(&logits, &[1, -100, 0, 2], 2, -100);
        assert!((l[0] - std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!(l[1], 0.0, "ignore_index gives 0");
        assert!(l[2].is_nan(), "NaN in the row");
        assert!(l[3].is_nan(), "label 2 is outside [0, 2)");
        let plain = cross_entropy(&[0.0, 0.0, 0.0], &[1], 3, -100);
        assert!((plain[0] - 3f64.ln()).abs() < 1e-15);
        assert_eq!(cross_entropy(&[1.0, 2.0], &[7], 2, 7), vec![0.0]);
    }

    #[test]
    fn vocab_parallel_phases_match_the_whole_loss() {
        // 3 rows of 6 columns split in 3 ranks of 2 columns: the parts summed over the ranks,
        // then finished, give the loss of the whole rows (large logits, an ignored row).
        let logits: Vec<f64> = (0..18).map(|i| 1000.0 + ((i * 7) % 5) as f64).collect();
        let labels = [4, -100, 1];
        let whole = cross_entropy(&logits, &labels, 6, -100);
        let max: Vec<f64> = (0..3).map(|r| logits[r * 6..r * 6 + 6].iter().copied().fold(f64::MIN, f64::max)).collect();
        let mut sum = vec![0.0; 6];
        for rank in 0..3 {
            let local: Vec<f64> =
                (0..3).flat_map(|r| logits[r * 6 + 2 * rank..r * 6 + 2 * rank + 2].to_vec()).collect();
            for (s, p) in sum.iter_mut().zip(parts(&local, &labels, &max, 2, 2 * rank)) {
                *s += p;
            }
        }
        let loss = finish(&sum, &labels, &max, 6, -100);
        for (a, b) in loss.iter().zip(&whole) {
            assert!((a - b).abs() < 1e-12, "{loss:?} vs {whole:?}");
        }
        assert_eq!(loss[1], 0.0);
        assert!(finish(&sum, &[6, -100, 1], &max, 6, -100)[0].is_nan(), "label 6 of 6 is out of range");
    }

    #[test]
    fn check_wants_i64_labels_per_row() {
        let p = Params::default();
        let ok = [(DType::BF16, vec![4, 8]), (DType::I64, vec![4])];
        assert!(check(&p, &ok, &[(DType::BF16, vec![4])]).is_ok());
        assert!(check(&p, &[(DType::BF16, vec![4, 8]), (DType::I32, vec![4])], &[(DType::BF16, vec![4])]).is_err());
        assert!(check(&p, &ok, &[(DType::F32, vec![4])]).is_ok(), "an f32 loss of bf16 logits");
        assert!(check(&p, &ok, &[(DType::I32, vec![4])]).is_err());
        let bad = Params::new(vec![("ignore_index".into(), Param::Str("x".into()))]);
        assert!(check(&bad, &ok, &[(DType::BF16, vec![4])]).is_err());
    }
}
