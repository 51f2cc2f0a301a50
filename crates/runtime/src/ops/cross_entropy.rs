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
        || ot != lt
        || os.as_slice() != [ls[0]]
    {
        return Err(format!(
            "expects float logits [N, V], i64 labels [N] and a loss [N] of the logits' type, got {lt:?}{ls:?}, {tt:?}{ts:?} -> {ot:?}{os:?}"
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
    fn check_wants_i64_labels_per_row() {
        let p = Params::default();
        let ok = [(DType::BF16, vec![4, 8]), (DType::I64, vec![4])];
        assert!(check(&p, &ok, &[(DType::BF16, vec![4])]).is_ok());
        assert!(check(&p, &[(DType::BF16, vec![4, 8]), (DType::I32, vec![4])], &[(DType::BF16, vec![4])]).is_err());
        assert!(check(&p, &ok, &[(DType::F32, vec![4])]).is_err());
        let bad = Params::new(vec![("ignore_index".into(), Param::Str("x".into()))]);
        assert!(check(&bad, &ok, &[(DType::BF16, vec![4])]).is_err());
    }
}
