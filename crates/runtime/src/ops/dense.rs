//! [`Dense`]: a row-major tensor of one element type, its values as `f64` (floats) or exact
//! `i64` (integers): what the named kernels' semantics read and write.

use crate::dtype::DType;
use crate::numerics;

/// The values of a [`Dense`] tensor.
#[derive(Clone, Debug, PartialEq)]
pub enum Vals {
    F(Vec<f64>),
    I(Vec<i64>),
}

/// A dense row-major tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    pub dtype: DType,
    pub shape: Vec<usize>,
    pub vals: Vals,
}

impl Dense {
    /// A float tensor with these values, as given (not rounded).
    pub fn from_f64(dtype: DType, shape: Vec<usize>, values: Vec<f64>) -> Dense {
        Dense { dtype, shape, vals: Vals::F(values) }
    }

    /// An integer tensor with these values, as given (not wrapped).
    pub fn from_i64(dtype: DType, shape: Vec<usize>, values: Vec<i64>) -> Dense {
        Dense { dtype, shape, vals: Vals::I(values) }
    }

    /// The number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// The values as `f64` (integers exact below 2^53).
    pub fn floats(&self) -> Vec<f64> {
        match &self.vals {
            Vals::F(v) => v.clone(),
            Vals::I(v) => v.iter().map(|&x| x as f64).collect(),
        }
    }

    /// The values as integers (floats converted as a cast to `i64` would).
    pub fn ints(&self) -> Vec<i64> {
        match &self.vals {
            Vals::I(v) => v.clone(),
            Vals::F(v) => v.iter().map(|&x| numerics::float_to_int(DType::I64, x)).collect(),
        }
    }

    /// The tensor stored as its element type: floats rounded once to it, integers wrapped to
    /// its width (a float result for an integer type converts as `fusion.cast` does).
    pub fn stored(self) -> Dense {
        let dtype = self.dtype;
        let vals = match (self.vals, dtype.is_int()) {
            (Vals::F(v), false) => Vals::F(v.into_iter().map(|x| numerics::round_float(dtype, x)).collect()),
            (Vals::I(v), true) => Vals::I(v.into_iter().map(|x| numerics::wrap(dtype, x)).collect()),
            (Vals::F(v), true) => Vals::I(v.into_iter().map(|x| numerics::float_to_int(dtype, x)).collect()),
            (Vals::I(v), false) => Vals::F(v.into_iter().map(|x| numerics::int_to_float(dtype, x)).collect()),
        };
        Dense { dtype, shape: self.shape, vals }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_rounds_and_wraps_to_the_element_type() {
        let f = Dense::from_f64(DType::BF16, vec![2], vec![1.0 + 1.0 / 512.0, 3.0]).stored();
        assert_eq!(f.floats(), vec![1.0, 3.0]);
        let i = Dense::from_i64(DType::I8, vec![1], vec![200]).stored();
        assert_eq!(i.ints(), vec![-56]);
        let c = Dense::from_f64(DType::I32, vec![2], vec![2.7, f64::NAN]).stored();
        assert_eq!(c.vals, Vals::I(vec![2, 0]));
        assert_eq!(c.numel(), 2);
    }
}
