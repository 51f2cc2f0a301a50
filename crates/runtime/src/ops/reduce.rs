//! The semantics of `host.reduce` and of the fusion reductions `max`, `min`, `mean`, `var` on
//! dense row-major values: the cpu backend evaluates them on each rank's local piece, the
//! reference on global tensors (docs/dialects/fusion.md has the rules).
//!
//! Floats compute in `f64` and are returned unrounded (the caller rounds once to the element
//! type): max/min propagate NaN (`torch.amax`); mean is the sum divided by a given count (the
//! global count: on a device-split axis each rank's result is then a partial sum); var is
//! two-pass (the mean, then the squared deviations from it) divided by `max(0, N - correction)`.
//! Integers (max/min only) compare exactly.

use crate::error::{RtError, RtResult};
use fuser_dialects::host::ReduceKind;
use fuser_dialects::reduction::ReductionKind;

/// For each element of a row-major tensor of `shape`, the row-major index of its slot in the
/// result of a reduction over `dims` (the kept axes in order), and the result's element count.
pub fn output_slots(shape: &[usize], dims: &[usize]) -> (Vec<usize>, usize) {
    let n: usize = shape.iter().product();
    let outputs: usize = shape.iter().enumerate().filter(|(d, _)| !dims.contains(d)).map(|(_, &e)| e).product();
    let mut slots = Vec::with_capacity(n);
    let mut index = vec![0usize; shape.len()];
    for _ in 0..n {
        let mut flat = 0;
        for (d, &i) in index.iter().enumerate() {
            if !dims.contains(&d) {
                flat = flat * shape[d] + i;
            }
        }
        slots.push(flat);
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
    (slots, outputs)
}

fn check_dims(shape: &[usize], dims: &[usize]) -> RtResult<()> {
    match dims.iter().find(|&&d| d >= shape.len()) {
        Some(d) => Err(RtError::new(format!("reduce: dimension {d} out of range for shape {shape:?}"))),
        None => Ok(()),
    }
}

/// `kind` of float `values` (row-major, `shape`) over `dims`, unrounded.
pub fn reduce_floats(kind: ReduceKind, values: &[f64], shape: &[usize], dims: &[usize]) -> RtResult<Vec<f64>> {
    check_dims(shape, dims)?;
    let (slots, outputs) = output_slots(shape, dims);
    let fold = |k: ReductionKind| {
        let mut out = vec![k.identity(); outputs];
        for (&v, &s) in values.iter().zip(&slots) {
            out[s] = k.combine(out[s], v);
        }
        out
    };
    Ok(match kind {
        ReduceKind::Max => fold(ReductionKind::Max),
        ReduceKind::Min => fold(ReductionKind::Min),
        ReduceKind::Mean { count } => fold(ReductionKind::Sum).into_iter().map(|s| s / count as f64).collect(),
        ReduceKind::Var { correction } => {
            let n = dims.iter().map(|&d| shape[d]).product::<usize>() as f64;
            let mean: Vec<f64> = fold(ReductionKind::Sum).into_iter().map(|s| s / n).collect();
            let mut dev = vec![0.0; outputs];
            for (&v, &s) in values.iter().zip(&slots) {
                dev[s] += (v - mean[s]) * (v - mean[s]);
            }
            let divisor = (n - correction as f64).max(0.0);
            dev.into_iter().map(|d| d / divisor).collect()
        }
    })
}

/// `max`/`min` of integer `values` over `dims`, exactly; mean and var refuse integers.
pub fn reduce_ints(kind: ReduceKind, values: &[i64], shape: &[usize], dims: &[usize]) -> RtResult<Vec<i64>> {
    check_dims(shape, dims)?;
    let (slots, outputs) = output_slots(shape, dims);
    let (init, pick): (i64, fn(i64, i64) -> i64) = match kind {
        ReduceKind::Max => (i64::MIN, i64::max),
        ReduceKind::Min => (i64::MAX, i64::min),
        _ => return Err(RtError::new(format!("reduce: {} needs floats", kind.keyword()))),
    };
    let mut out = vec![init; outputs];
    for (&v, &s) in values.iter().zip(&slots) {
        out[s] = pick(out[s], v);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_min_propagate_nan_and_keep_order_of_kept_axes() {
        // [2, 3]: rows [1, 5, 2], [NaN, -1, 7].
        let v = [1.0, 5.0, 2.0, f64::NAN, -1.0, 7.0];
        let m = reduce_floats(ReduceKind::Max, &v, &[2, 3], &[1]).unwrap();
        assert_eq!(m[0], 5.0);
        assert!(m[1].is_nan());
        let cols = reduce_floats(ReduceKind::Min, &v, &[2, 3], &[0]).unwrap();
        assert!(cols[0].is_nan());
        assert_eq!(&cols[1..], &[-1.0, 2.0]);
        assert_eq!(reduce_ints(ReduceKind::Max, &[3, -9, 4, i64::MIN], &[2, 2], &[0]).unwrap(), vec![4, -9]);
        assert!(reduce_ints(ReduceKind::Mean { count: 2 }, &[1, 2], &[2], &[0]).is_err());
        assert!(reduce_floats(ReduceKind::Max, &v, &[2, 3], &[2]).is_err());
    }

    #[test]
    fn mean_divides_by_the_given_count_and_var_is_two_pass() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(reduce_floats(ReduceKind::Mean { count: 4 }, &v, &[2, 2], &[0, 1]).unwrap(), vec![2.5]);
        // A rank holding half of the axis divides its local sum by the global count.
        assert_eq!(reduce_floats(ReduceKind::Mean { count: 4 }, &v[..2], &[2], &[0]).unwrap(), vec![0.75]);
        assert_eq!(reduce_floats(ReduceKind::Var { correction: 1 }, &v, &[4], &[0]).unwrap(), vec![5.0 / 3.0]);
        assert_eq!(reduce_floats(ReduceKind::Var { correction: 0 }, &v, &[4], &[0]).unwrap(), vec![1.25]);
        // Large offsets do not cancel (a one-pass E[x²] - E[x]² would give 0 or garbage).
        let big: Vec<f64> = v.iter().map(|x| x + 1e9).collect();
        assert_eq!(reduce_floats(ReduceKind::Var { correction: 0 }, &big, &[4], &[0]).unwrap(), vec![1.25]);
        // N <= correction divides by 0, as torch: NaN for a single element.
        assert!(reduce_floats(ReduceKind::Var { correction: 1 }, &[3.0], &[1], &[0]).unwrap()[0].is_nan());
        let inf = reduce_floats(ReduceKind::Var { correction: 2 }, &[1.0, 3.0], &[2], &[0]).unwrap()[0];
        assert_eq!(inf, f64::INFINITY);
    }
}
