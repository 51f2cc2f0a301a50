//! `softmax` and `log_softmax` over `dims` (docs/dialects/fusion.md): for each slice over the
//! `dims` axes, `m` = its maximum, `e = exp(x - m)`, `softmax = e / sum(e)`,
//! `log_softmax = x - m - ln(sum(e))`, in `f64` (the caller rounds once to the element type).
//! NaN anywhere in a slice gives NaN for the whole slice; a slice whose maximum is infinite
//! (all `-inf`, or a `+inf`) gives NaN (`inf - inf`), as torch.

use super::dense::Dense;
use super::params::Params;
use super::reduce::output_slots;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};

/// The `dims` parameter as axes of a rank-`rank` tensor.
fn dims_of(params: &Params, rank: usize) -> Result<Vec<usize>, String> {
    let dims = params.ints("dims").map_err(|e| e.message)?;
    let mut out = Vec::with_capacity(dims.len());
    for d in dims {
        if d < 0 || d as usize >= rank || out.contains(&(d as usize)) {
            return Err(format!("dims: {d} is out of range or repeated for rank {rank}"));
        }
        out.push(d as usize);
    }
    if out.is_empty() {
        return Err("dims: at least one axis".into());
    }
    Ok(out)
}

pub fn check(params: &Params, inputs: &[(DType, Vec<usize>)], outputs: &[(DType, Vec<usize>)]) -> Result<(), String> {
    let ([(dt, shape)], [(out_dt, out_shape)]) = (inputs, outputs) else {
        return Err("expects one input and one output".into());
    };
    if dt.is_int() || dt != out_dt || shape != out_shape {
        return Err(format!(
            "expects float tensors of one type and shape, got {dt:?}{shape:?} -> {out_dt:?}{out_shape:?}"
        ));
    }
    dims_of(params, shape.len()).map(|_| ())
}

/// `softmax` (`log = false`) or `log_softmax` of row-major `x` of `shape` over `dims`.
pub fn softmax(x: &[f64], shape: &[usize], dims: &[usize], log: bool) -> Vec<f64> {
    let (slots, n) = output_slots(shape, dims);
    let mut max = vec![f64::NEG_INFINITY; n];
    for (&v, &s) in x.iter().zip(&slots) {
        if v.is_nan() || max[s].is_nan() {
            max[s] = f64::NAN;
        } else if v > max[s] {
            max[s] = v;
        }
    }
    let mut sum = vec![0.0; n];
    for (&v, &s) in x.iter().zip(&slots) {
        sum[s] += (v - max[s]).exp();
    }
    x.iter()
        .zip(&slots)
        .map(|(&v, &s)| if log { v - max[s] - sum[s].ln() } else { (v - max[s]).exp() / sum[s] })
        .collect()
}

/// The kernel `softmax` (`log = false`) or `log_softmax` on its inputs.
pub fn eval(params: &Params, inputs: &[Dense], log: bool) -> RtResult<Vec<Dense>> {
    let x = inputs.first().ok_or_else(|| RtError::new("softmax: no input"))?;
    let dims = dims_of(params, x.shape.len()).map_err(RtError::new)?;
    Ok(vec![Dense::from_f64(x.dtype, x.shape.clone(), softmax(&x.floats(), &x.shape, &dims, log))])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_logits_do_not_overflow() {
        let p = softmax(&[1000.0, 1001.0, -1e308, 1000.0], &[4], &[0], false);
        let e = 1.0 / (2.0 + std::f64::consts::E);
        assert!((p[0] - e).abs() < 1e-15 && (p[1] - e * std::f64::consts::E).abs() < 1e-15);
        assert_eq!(p[2], 0.0);
        let l = softmax(&[1000.0, 1001.0, -1e308, 1000.0], &[4], &[0], true);
        assert!((l[1] - (-(2.0 + std::f64::consts::E).ln() + 1.0)).abs() < 1e-12);
        assert!(l[2] < -1e307 && l[2].is_finite());
        let total: f64 = softmax(&[3.0, 1.0, 2.0], &[3], &[0], false).iter().sum();
        assert!((total - 1.0).abs() < 1e-15);
    }

    #[test]
    fn slices_follow_dims_and_nan_spreads_over_its_slice() {
        // [2, 2]: over axis 0 each column is a slice.
        let p = softmax(&[0.0, f64::NAN, 0.0, 5.0], &[2, 2], &[0], false);
        assert_eq!(p[0], 0.5);
        assert_eq!(p[2], 0.5);
        assert!(p[1].is_nan() && p[3].is_nan());
        // Both axes: one slice of 4.
        let q = softmax(&[0.0; 4], &[2, 2], &[0, 1], false);
        assert_eq!(q, vec![0.25; 4]);
        // All -inf: 0/0, as torch.
        assert!(softmax(&[f64::NEG_INFINITY; 2], &[2], &[0], false)[0].is_nan());
    }

    #[test]
    fn check_refuses_ints_and_bad_dims() {
        let p = Params::new(vec![("dims".into(), super::super::params::Param::Ints(vec![1]))]);
        assert!(check(&p, &[(DType::F32, vec![2, 3])], &[(DType::F32, vec![2, 3])]).is_ok());
        assert!(check(&p, &[(DType::I32, vec![2, 3])], &[(DType::I32, vec![2, 3])]).is_err());
        assert!(check(&p, &[(DType::F32, vec![3])], &[(DType::F32, vec![3])]).is_err());
    }
}
