//! The compute kernels of the CPU backend, on strided [`View`]s: copy, matmul (optionally
//! accumulating), linear (`y = x·wᵀ + bias`, with a residual or the gelu_tanh epilogue), elementwise kinds (comparisons into `i1` in the
//! operands' type, `where` exact), fill and sums over dimensions.
//!
//! Precision (the rules are in `numerics.rs`): a float kernel computes in `f32` when every
//! buffer it touches is bf16, f16 or f32 (bf16/f16 inputs are widened to f32 and accumulated in
//! f32, as GPU kernels do) and in `f64` when one of them is f64; the result of every op is
//! rounded to the output's element type when stored (so bf16/f16 elementwise results are the
//! correctly rounded ones, overflowing to infinity). A kernel whose output is an integer type
//! computes exactly in `i64` with two's complement wrapping at the element width (sums and
//! GEMMs too); division truncates toward zero. `cast` and copies between element types convert
//! as `fusion.cast` does. Float GEMMs run through the `matrixmultiply` crate on packed
//! row-major operands; integer GEMMs are plain loops.
//!
//! Cost: `copy` and `elementwise` on at most [`SMALL`] elements work on stack arrays and do not
//! allocate (tiny kernels are common between communications; their cost is dispatch, not
//! arithmetic).
//!
//! Invariant: every kernel checks shapes before touching memory and returns an error (never
//! panics) on a mismatch. A kernel holds at most one buffer lock at a time and reads all its
//! inputs before it writes its output (an output aliasing an input sees the old values).

use crate::buffer::View;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::numerics;
use fuser_dialects::host::{ElementwiseKind, LinearEpilogue, ReduceKind};

/// The arithmetic a kernel computes in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Precision {
    F32,
    F64,
}

impl Precision {
    /// `f32` when every type is a float of at most 32 bits, else `f64`.
    pub fn of(dtypes: &[DType]) -> Precision {
        let narrow = |d: &DType| matches!(d, DType::BF16 | DType::F16 | DType::F32);
        if dtypes.iter().all(narrow) { Precision::F32 } else { Precision::F64 }
    }

    /// `v` rounded to this precision.
    #[inline]
    pub fn round(self, v: f64) -> f64 {
        match self {
            Precision::F32 => v as f32 as f64,
            Precision::F64 => v,
        }
    }
}

/// Up to this many elements, `copy` and `elementwise` stage values on the stack.
pub const SMALL: usize = 32;

fn shape_error(what: &str, detail: String) -> RtError {
    RtError::new(format!("{what}: {detail}"))
}

/// `dst = src` (same element count and shape; element types may differ: the value converts
/// as `fusion.cast` does).
pub fn copy(src: &View, dst: &View) -> RtResult<()> {
    if src.shape != dst.shape {
        return Err(shape_error("copy", format!("source shape {:?} differs from target {:?}", src.shape, dst.shape)));
    }
    if src.dtype().is_int() {
        // Exact in i64 (all 64 bits), wrapped or rounded by the store.
        return dst.write_ints(&src.read_ints());
    }
    let n = src.numel();
    if n <= SMALL {
        let mut staged = [0.0; SMALL];
        src.read_into(&mut staged[..n])?;
        return dst.write(&staged[..n]);
    }
    dst.write(&src.read())
}

/// `c = a·b` (or `c += a·b` with `accumulate`). `a [..., M, K]`, `b [..., K, N]`,
/// `c [..., M, N]`; batch dimensions are on both operands or on one only (broadcast).
pub fn matmul(a: &View, b: &View, c: &View, accumulate: bool) -> RtResult<()> {
    let (ra, rb, rc) = (a.shape.len(), b.shape.len(), c.shape.len());
    if ra < 2 || rb < 2 || rc < 2 {
        return Err(shape_error("matmul", "operands need rank >= 2".into()));
    }
    let (m, k) = (a.shape[ra - 2], a.shape[ra - 1]);
    let (kb, n) = (b.shape[rb - 2], b.shape[rb - 1]);
    if k != kb || c.shape[rc - 2] != m || c.shape[rc - 1] != n {
        return Err(shape_error(
            "matmul",
            format!("shapes {:?} x {:?} -> {:?} do not match", a.shape, b.shape, c.shape),
        ));
    }
    let batch: usize = c.shape[..rc - 2].iter().product();
    let a_batches: usize = a.shape[..ra - 2].iter().product();
    let b_batches: usize = b.shape[..rb - 2].iter().product();
    for (name, count) in [("lhs", a_batches), ("rhs", b_batches)] {
        if count != 1 && count != batch {
            return Err(shape_error("matmul", format!("{name} has {count} batches, the result {batch}")));
        }
    }
    if c.dtype().is_int() {
        let (av, bv) = (a.read_ints(), b.read_ints());
        let mut out = if accumulate { c.read_ints() } else { vec![0; c.numel()] };
        for i in 0..batch {
            let ai = if a_batches == 1 { 0 } else { i };
            let bi = if b_batches == 1 { 0 } else { i };
            let pa = &av[ai * m * k..(ai + 1) * m * k];
            let pb = &bv[bi * k * n..(bi + 1) * k * n];
            let product = int_gemm(m, k, n, pa, (k, 1), pb, (n, 1));
            for (o, p) in out[i * m * n..(i + 1) * m * n].iter_mut().zip(product) {
                *o = o.wrapping_add(p);
            }
        }
        return c.write_ints(&out);
    }
    let prec = Precision::of(&[a.dtype(), b.dtype(), c.dtype()]);
    let (av, bv) = (a.read(), b.read());
    let mut out = if accumulate { c.read() } else { vec![0.0; c.numel()] };
    for i in 0..batch {
        let ai = if a_batches == 1 { 0 } else { i };
        let bi = if b_batches == 1 { 0 } else { i };
        let pa = &av[ai * m * k..(ai + 1) * m * k];
        let pb = &bv[bi * k * n..(bi + 1) * k * n];
        let product = gemm(prec, m, k, n, pa, (k, 1), pb, (n, 1));
        for (o, p) in out[i * m * n..(i + 1) * m * n].iter_mut().zip(product) {
            *o = prec.round(*o + p);
        }
    }
    c.write(&out)
}

/// `y = x·wᵀ (+ bias)` (or `y += ...` with `accumulate`): `x [..., K]`, `w [N, K]`,
/// `bias [N]`, `y [..., N]`.
/// What a linear adds and applies after `x·wᵀ + bias`: `host.linear`'s `residual` operand
/// and `epilogue` property (both absent: a plain linear).
#[derive(Clone, Copy, Debug, Default)]
pub struct LinearTail<'a> {
    pub residual: Option<&'a View>,
    pub epilogue: Option<LinearEpilogue>,
}

impl<'a> LinearTail<'a> {
    pub fn new(residual: Option<&'a View>, epilogue: Option<LinearEpilogue>) -> LinearTail<'a> {
        LinearTail { residual, epilogue }
    }

    fn is_empty(&self) -> bool {
        self.residual.is_none() && self.epilogue.is_none()
    }
}

/// `y (+)= x·wᵀ (+ bias)`, or with a [`LinearTail`] `y = epilogue(x·wᵀ + bias + residual)`:
/// the tail is computed in f64 from the (f64 or f32) accumulator and rounded once, by the
/// store to `y`'s type (the bias alone keeps the rounding to the GEMM's precision after the
/// add). The epilogue is the scalar function of the elementwise kernel (`gelu_tanh`).
pub fn linear(
    x: &View,
    w: &View,
    bias: Option<&View>,
    y: &View,
    accumulate: bool,
    tail: LinearTail<'_>,
) -> RtResult<()> {
    let (rx, ry) = (x.shape.len(), y.shape.len());
    if rx < 1 || w.shape.len() != 2 || ry != rx {
        return Err(shape_error("linear", format!("shapes {:?}, {:?} -> {:?}", x.shape, w.shape, y.shape)));
    }
    let (n, k) = (w.shape[0], w.shape[1]);
    if x.shape[rx - 1] != k || y.shape[ry - 1] != n || x.shape[..rx - 1] != y.shape[..ry - 1] {
        return Err(shape_error(
            "linear",
            format!("shapes {:?}, {:?} -> {:?} do not match", x.shape, w.shape, y.shape),
        ));
    }
    if let Some(b) = bias
        && b.shape != [n]
    {
        return Err(shape_error("linear", format!("bias shape {:?}, expected [{n}]", b.shape)));
    }
    let m: usize = x.shape[..rx - 1].iter().product();
    if !tail.is_empty() {
        return linear_with_tail(x, w, bias, y, accumulate, tail, (m, k, n));
    }
    if y.dtype().is_int() {
        let mut out = int_gemm(m, k, n, &x.read_ints(), (k, 1), &w.read_ints(), (1, k));
        if accumulate {
            for (o, old) in out.iter_mut().zip(y.read_ints()) {
                *o = o.wrapping_add(old);
            }
        }
        if let Some(b) = bias {
            let bv = b.read_ints();
            for row in out.chunks_mut(n.max(1)) {
                for (o, bias) in row.iter_mut().zip(&bv) {
                    *o = o.wrapping_add(*bias);
                }
            }
        }
        return y.write_ints(&out);
    }
    let mut dtypes = vec![x.dtype(), w.dtype(), y.dtype()];
    dtypes.extend(bias.map(View::dtype));
    let prec = Precision::of(&dtypes);
    // w is [N, K] row-major; as the right operand [K, N] its element (k, n) is at n*K + k.
    let mut out = gemm(prec, m, k, n, &x.read(), (k, 1), &w.read(), (1, k));
    if accumulate {
        for (o, old) in out.iter_mut().zip(y.read()) {
            *o = prec.round(*o + old);
        }
    }
    if let Some(b) = bias {
        let bv = b.read();
        for row in out.chunks_mut(n.max(1)) {
            for (o, bias) in row.iter_mut().zip(&bv) {
                *o = prec.round(*o + bias);
            }
        }
    }
    y.write(&out)
}

/// [`linear`] with a residual or an epilogue (shapes checked by the caller but the residual's).
fn linear_with_tail(
    x: &View,
    w: &View,
    bias: Option<&View>,
    y: &View,
    accumulate: bool,
    tail: LinearTail<'_>,
    (m, k, n): (usize, usize, usize),
) -> RtResult<()> {
    if accumulate {
        return Err(shape_error("linear", "'accumulate' excludes a residual and an epilogue".into()));
    }
    if let Some(r) = tail.residual {
        if r.shape != y.shape {
            return Err(shape_error(
                "linear",
                format!("residual shape {:?} differs from the output {:?}", r.shape, y.shape),
            ));
        }
        if tail.epilogue.is_some() {
            return Err(shape_error("linear", "a residual excludes an epilogue".into()));
        }
    }
    if y.dtype().is_int() {
        if let Some(e) = tail.epilogue {
            return Err(shape_error("linear", format!("epilogue {} needs a float output", e.keyword())));
        }
        let mut out = int_gemm(m, k, n, &x.read_ints(), (k, 1), &w.read_ints(), (1, k));
        let bv = bias.map(View::read_ints);
        let rv = tail.residual.map(View::read_ints);
        for (i, o) in out.iter_mut().enumerate() {
            if let Some(bv) = &bv {
                *o = o.wrapping_add(bv[i % n.max(1)]);
            }
            if let Some(rv) = &rv {
                *o = o.wrapping_add(rv[i]);
            }
        }
        return y.write_ints(&out);
    }
    let mut dtypes = vec![x.dtype(), w.dtype(), y.dtype()];
    dtypes.extend(bias.map(View::dtype));
    let prec = Precision::of(&dtypes);
    let mut out = gemm(prec, m, k, n, &x.read(), (k, 1), &w.read(), (1, k));
    let bv = bias.map(View::read);
    let rv = tail.residual.map(View::read);
    for (i, o) in out.iter_mut().enumerate() {
        let mut v = *o;
        if let Some(bv) = &bv {
            v += bv[i % n.max(1)];
        }
        if let Some(rv) = &rv {
            v += rv[i];
        }
        *o = match tail.epilogue {
            Some(e) => apply_elementwise(e.elementwise_kind(), v, 0.0, 0.0),
            None => v,
        };
    }
    y.write(&out)
}

/// `[m, n]` row-major product of `a` (`m x k`, strides `sa` = (row, col)) and `b` (`k x n`,
/// strides `sb`), computed in `prec`.
#[allow(clippy::too_many_arguments)]
fn gemm(
    prec: Precision,
    m: usize,
    k: usize,
    n: usize,
    a: &[f64],
    sa: (usize, usize),
    b: &[f64],
    sb: (usize, usize),
) -> Vec<f64> {
    if m == 0 || n == 0 {
        return Vec::new();
    }
    if k == 0 {
        return vec![0.0; m * n];
    }
    match prec {
        Precision::F32 => {
            let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
            let b32: Vec<f32> = b.iter().map(|&v| v as f32).collect();
            let mut c = vec![0f32; m * n];
            // SAFETY: a32 holds m*k elements and b32 k*n elements addressed by the given
            // strides (checked by the callers' shape checks); c holds m*n row-major.
            unsafe {
                matrixmultiply::sgemm(
                    m,
                    k,
                    n,
                    1.0,
                    a32.as_ptr(),
                    sa.0 as isize,
                    sa.1 as isize,
                    b32.as_ptr(),
                    sb.0 as isize,
                    sb.1 as isize,
                    0.0,
                    c.as_mut_ptr(),
                    n as isize,
                    1,
                );
            }
            c.into_iter().map(f64::from).collect()
        }
        Precision::F64 => {
            let mut c = vec![0f64; m * n];
            // SAFETY: as above, on f64 operands.
            unsafe {
                matrixmultiply::dgemm(
                    m,
                    k,
                    n,
                    1.0,
                    a.as_ptr(),
                    sa.0 as isize,
                    sa.1 as isize,
                    b.as_ptr(),
                    sb.0 as isize,
                    sb.1 as isize,
                    0.0,
                    c.as_mut_ptr(),
                    n as isize,
                    1,
                );
            }
            c
        }
    }
}

/// `[m, n]` row-major product of integer matrices (strides as in [`gemm`]), wrapping in
/// `i64` (the store wraps to the element width: modular arithmetic commutes with it).
#[allow(clippy::too_many_arguments)]
fn int_gemm(m: usize, k: usize, n: usize, a: &[i64], sa: (usize, usize), b: &[i64], sb: (usize, usize)) -> Vec<i64> {
    let mut c = vec![0i64; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0i64;
            for p in 0..k {
                acc = acc.wrapping_add(a[i * sa.0 + p * sa.1].wrapping_mul(b[p * sb.0 + j * sb.1]));
            }
            c[i * n + j] = acc;
        }
    }
    c
}

/// The scalar function of an elementwise kind on floats (`cast` is the identity: the store
/// converts; `z` is `where`'s third input); `numerics::float_elementwise`.
pub fn apply_elementwise(kind: ElementwiseKind, x: f64, y: f64, z: f64) -> f64 {
    numerics::float_elementwise(kind, x, y, z)
}

/// `output = kind(inputs...)`, element by element; all shapes equal. A comparison computes in
/// its inputs' type and writes 0/1; `where` selects in its values' type (exactly); the other
/// kinds compute in the output's type.
pub fn elementwise(kind: ElementwiseKind, inputs: &[View], output: &View) -> RtResult<()> {
    if inputs.len() != kind.arity() {
        return Err(shape_error(
            "elementwise",
            format!("'{}' takes {} input(s), got {}", kind.keyword(), kind.arity(), inputs.len()),
        ));
    }
    if let Some(bad) = inputs.iter().find(|v| v.shape != output.shape) {
        return Err(shape_error(
            "elementwise",
            format!("input shape {:?} differs from output {:?}", bad.shape, output.shape),
        ));
    }
    let out_type = output.dtype();
    if kind == ElementwiseKind::Cast {
        // One conversion from the source value (integers exactly through i64).
        return if inputs[0].dtype().is_int() {
            output.write_ints(&inputs[0].read_ints())
        } else {
            output.write(&inputs[0].read())
        };
    }
    let compute = if kind.is_compare() { inputs[0].dtype() } else { out_type };
    if compute.is_int() {
        let cols: Vec<Vec<i64>> = inputs.iter().map(View::read_ints).collect();
        let at = |c: usize, i: usize| cols.get(c).map_or(0, |v| v[i]);
        let out: Vec<i64> = (0..output.numel())
            .map(|i| numerics::int_elementwise(kind, compute, at(0, i), at(1, i), at(2, i)))
            .collect();
        return output.write_ints(&out);
    }
    // Floats compute in f32 when every float buffer is at most 32 bits wide (an i1 condition
    // or comparison result does not count: selections and comparisons are exact).
    let floats: Vec<DType> = inputs.iter().map(View::dtype).chain([out_type]).filter(|d| d.is_float()).collect();
    let prec = Precision::of(&floats);
    let n = output.numel();
    if n <= SMALL {
        let mut cols = [[0.0; SMALL]; 3];
        for (col, input) in cols.iter_mut().zip(inputs) {
            input.read_into(&mut col[..n])?;
        }
        let mut out = [0.0; SMALL];
        for (i, o) in out[..n].iter_mut().enumerate() {
            *o = prec.round(apply_elementwise(kind, cols[0][i], cols[1][i], cols[2][i]));
        }
        return output.write(&out[..n]);
    }
    let cols: Vec<Vec<f64>> = inputs.iter().map(View::read).collect();
    let at = |c: usize, i: usize| cols.get(c).map_or(0.0, |v| v[i]);
    let out: Vec<f64> = (0..n).map(|i| prec.round(apply_elementwise(kind, at(0, i), at(1, i), at(2, i)))).collect();
    output.write(&out)
}

/// `target = value` everywhere (`host.fill`): an integer stored exactly (wrapped to the
/// element type), a float rounded once to it.
pub fn fill(target: &View, value: fuser_dialects::Scalar) -> RtResult<()> {
    use fuser_dialects::Scalar;
    let n = target.numel();
    match value {
        Scalar::Int(v) => target.write_ints(&vec![v; n]),
        Scalar::Float(v) => target.write(&vec![v; n]),
    }
}

/// The shape of `shape` summed over `dims` (dropped).
fn reduced_shape(shape: &[usize], dims: &[usize]) -> Vec<usize> {
    shape.iter().enumerate().filter(|(i, _)| !dims.contains(i)).map(|(_, &d)| d).collect()
}

/// Sums row-major `values` of `shape` over `dims`, accumulating in `prec`; the result is
/// row-major over the kept dimensions.
pub fn sum_values(values: &[f64], shape: &[usize], dims: &[usize], prec: Precision) -> Vec<f64> {
    reduce_dims(values, shape, dims, 0.0, |acc, v| prec.round(acc + v))
}

/// Sums row-major integer `values` of `shape` over `dims`, wrapping in `i64` (wrap the result
/// to the element width).
pub fn sum_ints(values: &[i64], shape: &[usize], dims: &[usize]) -> Vec<i64> {
    reduce_dims(values, shape, dims, 0, i64::wrapping_add)
}

/// Folds row-major `values` of `shape` over `dims` with `add`, from `zero`.
fn reduce_dims<T: Copy>(values: &[T], shape: &[usize], dims: &[usize], zero: T, add: impl Fn(T, T) -> T) -> Vec<T> {
    let kept = reduced_shape(shape, dims);
    let mut out = vec![zero; kept.iter().product()];
    let mut index = vec![0usize; shape.len()];
    for &v in values {
        let mut flat = 0;
        for (d, &i) in index.iter().enumerate() {
            if !dims.contains(&d) {
                flat = flat * shape[d] + i;
            }
        }
        out[flat] = add(out[flat], v);
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
    out
}

/// `output = sum(input, dims)`; the output has the input's shape without `dims` (or with them
/// kept as extent 1: only the element count and order matter).
pub fn sum(input: &View, dims: &[usize], output: &View) -> RtResult<()> {
    if let Some(&d) = dims.iter().find(|&&d| d >= input.shape.len()) {
        return Err(shape_error("sum", format!("dimension {d} out of range for shape {:?}", input.shape)));
    }
    let kept = reduced_shape(&input.shape, dims);
    if kept.iter().product::<usize>() != output.numel() {
        return Err(shape_error(
            "sum",
            format!("{:?} summed over {dims:?} does not fit {:?}", input.shape, output.shape),
        ));
    }
    if output.dtype().is_int() {
        return output.write_ints(&sum_ints(&input.read_ints(), &input.shape, dims));
    }
    let prec = Precision::of(&[input.dtype(), output.dtype()]);
    output.write(&sum_values(&input.read(), &input.shape, dims, prec))
}

/// `output = kind(input, dims)` (`host.reduce`): max/min exact on integers and NaN-propagating
/// on floats, mean and var in `f64` (`ops::reduce`), each result rounded once to the output type.
pub fn reduce(kind: ReduceKind, input: &View, dims: &[usize], output: &View) -> RtResult<()> {
    let kept = reduced_shape(&input.shape, dims);
    if kept.iter().product::<usize>() != output.numel() {
        return Err(shape_error(
            "reduce",
            format!("{:?} reduced over {dims:?} does not fit {:?}", input.shape, output.shape),
        ));
    }
    if output.dtype().is_int() {
        return output.write_ints(&crate::ops::reduce::reduce_ints(kind, &input.read_ints(), &input.shape, dims)?);
    }
    output.write(&crate::ops::reduce::reduce_floats(kind, &input.read(), &input.shape, dims)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::Buffer;

    fn filled(dtype: DType, shape: &[usize], f: impl Fn(usize) -> f64) -> View {
        let v = View::whole(Buffer::new(dtype, shape.iter().product()), shape).unwrap();
        v.write(&(0..v.numel()).map(f).collect::<Vec<_>>()).unwrap();
        v
    }

    /// Comparisons write i1 0/1 from float or integer inputs; where selects exactly (NaN and
    /// i64 values beyond 2^53 included); fill stores one value; small (stack) and large sizes.
    #[test]
    fn compare_where_and_fill() {
        use ElementwiseKind::*;
        for n in [4, SMALL + 4] {
            let a = filled(DType::F32, &[n], |i| [f64::NAN, 1.0, -0.0, 2.0][i % 4]);
            let b = filled(DType::F32, &[n], |i| [1.0, f64::NAN, 0.0, 3.0][i % 4]);
            let m = View::whole(Buffer::new(DType::I1, n), &[n]).unwrap();
            for (kind, want) in [(Lt, [0, 0, 0, 1]), (Ne, [1, 1, 0, 1]), (Eq, [0, 0, 1, 0]), (Ge, [0, 0, 1, 0])] {
                elementwise(kind, &[a.clone(), b.clone()], &m).unwrap();
                let got = m.read_ints();
                assert!((0..n).all(|i| got[i] == want[i % 4]), "{}: {got:?}", kind.keyword());
            }
            elementwise(Ne, &[a.clone(), b.clone()], &m).unwrap();
            let w = View::whole(Buffer::new(DType::F32, n), &[n]).unwrap();
            elementwise(Where, &[m.clone(), a.clone(), b.clone()], &w).unwrap();
            let got = w.read();
            assert!(got[0].is_nan() && got[1] == 1.0 && got[2] == 0.0 && got[3] == 2.0, "{got:?}");
            let big = filled(DType::I64, &[n], |_| 0.0);
            big.write_ints(&vec![(1i64 << 60) + 1; n]).unwrap();
            let small = filled(DType::I64, &[n], |_| -7.0);
            let out = View::whole(Buffer::new(DType::I64, n), &[n]).unwrap();
            elementwise(Where, &[m.clone(), big.clone(), small.clone()], &out).unwrap();
            assert_eq!(out.read_ints()[..4], [(1 << 60) + 1, (1 << 60) + 1, -7, (1 << 60) + 1]);
            let ints = filled(DType::I32, &[n], |i| (i % 4) as f64 - 2.0);
            let zero = filled(DType::I32, &[n], |_| 0.0);
            elementwise(Gt, &[ints, zero], &m).unwrap();
            assert_eq!(m.read_ints()[..4], [0, 0, 0, 1]);
            fill(&w, fuser_dialects::Scalar::Float(0.1)).unwrap();
            assert!(w.read().iter().all(|&v| v == 0.1f32 as f64));
            fill(&m, fuser_dialects::Scalar::Int(-3)).unwrap();
            assert!(m.read_ints().iter().all(|&v| v == 1));
        }
    }

    /// The math kinds on bf16 compute wide and round once; abs wraps on integers; a float-only
    /// kind keeps the inputs' arity check.
    #[test]
    fn math_kinds_round_to_the_output_type() {
        let x = filled(DType::BF16, &[3], |i| [1.0, 0.0, -1.0][i]);
        let y = View::whole(Buffer::new(DType::BF16, 3), &[3]).unwrap();
        elementwise(ElementwiseKind::Exp, std::slice::from_ref(&x), &y).unwrap();
        assert_eq!(y.read(), vec![2.71875, 1.0, 0.3671875]);
        let i = filled(DType::I8, &[3], |k| [-128.0, -5.0, 7.0][k]);
        let o = View::whole(Buffer::new(DType::I8, 3), &[3]).unwrap();
        elementwise(ElementwiseKind::Abs, std::slice::from_ref(&i), &o).unwrap();
        assert_eq!(o.read_ints(), vec![-128, 5, 7]);
        assert!(elementwise(ElementwiseKind::Pow, std::slice::from_ref(&x), &y).is_err());
    }

    fn naive_matmul(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            }
        }
        c
    }

    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol * (1.0 + y.abs()))
    }

    #[test]
    fn matmul_matches_naive_on_strided_views() {
        let a = filled(DType::F64, &[3, 5], |i| i as f64 * 0.5 - 2.0);
        let big = filled(DType::F64, &[5, 8], |i| (i % 7) as f64 - 3.0);
        let b = big.subview(&[0, 2], &[5, 4], &[1, 1]).unwrap();
        let c = View::whole(Buffer::new(DType::F64, 12), &[3, 4]).unwrap();
        matmul(&a, &b, &c, false).unwrap();
        let expected = naive_matmul(&a.read(), &b.read(), 3, 5, 4);
        assert!(close(&c.read(), &expected, 1e-12));
        matmul(&a, &b, &c, true).unwrap();
        let doubled: Vec<f64> = expected.iter().map(|x| 2.0 * x).collect();
        assert!(close(&c.read(), &doubled, 1e-12));
    }

    #[test]
    fn batched_matmul_broadcasts_the_rhs() {
        let a = filled(DType::F32, &[2, 2, 3], |i| i as f64);
        let b = filled(DType::F32, &[3, 2], |i| 1.0 + i as f64);
        let c = View::whole(Buffer::new(DType::F32, 8), &[2, 2, 2]).unwrap();
        matmul(&a, &b, &c, false).unwrap();
        let av = a.read();
        let mut expected = naive_matmul(&av[..6], &b.read(), 2, 3, 2);
        expected.extend(naive_matmul(&av[6..], &b.read(), 2, 3, 2));
        assert!(close(&c.read(), &expected, 1e-6));
    }

    #[test]
    fn linear_is_x_times_w_transposed_plus_bias() {
        let x = filled(DType::BF16, &[4, 3], |i| (i % 5) as f64 - 2.0);
        let w = filled(DType::BF16, &[2, 3], |i| i as f64 * 0.25);
        let b = filled(DType::BF16, &[2], |i| i as f64 + 1.0);
        let y = View::whole(Buffer::new(DType::F32, 8), &[4, 2]).unwrap();
        linear(&x, &w, Some(&b), &y, false, LinearTail::default()).unwrap();
        let (xv, wv) = (x.read(), w.read());
        let expected: Vec<f64> = (0..8)
            .map(|e| {
                let (i, j) = (e / 2, e % 2);
                (0..3).map(|p| xv[i * 3 + p] * wv[j * 3 + p]).sum::<f64>() + (j as f64 + 1.0)
            })
            .collect();
        assert!(close(&y.read(), &expected, 1e-6));
        assert!(linear(&x, &w, Some(&x), &y, false, LinearTail::default()).is_err());
        linear(&x, &w, Some(&b), &y, true, LinearTail::default()).unwrap();
        let doubled: Vec<f64> = expected.iter().map(|v| 2.0 * v).collect();
        assert!(close(&y.read(), &doubled, 1e-6));
    }

    #[test]
    fn linear_epilogues_round_once_from_the_accumulator() {
        let x = filled(DType::F32, &[4, 3], |i| (i % 5) as f64 * 0.7 - 1.3);
        let w = filled(DType::F32, &[2, 3], |i| i as f64 * 0.25 - 0.4);
        let b = filled(DType::F32, &[2], |i| i as f64 * 0.5 - 0.25);
        let r = filled(DType::BF16, &[4, 2], |i| i as f64 * 0.375 - 1.0);
        let (xv, wv, bv, rv) = (x.read(), w.read(), b.read(), r.read());
        // The f32 accumulator, widened: what the GEMM gives before the epilogue.
        let acc = |e: usize| {
            let (i, j) = (e / 2, e % 2);
            (0..3).map(|p| xv[i * 3 + p] as f32 * wv[j * 3 + p] as f32).sum::<f32>() as f64
        };
        let y = View::whole(Buffer::new(DType::BF16, 8), &[4, 2]).unwrap();
        // gelu_tanh(x·wᵀ + b): the elementwise kernel's formula, in f64, one rounding to bf16.
        linear(&x, &w, Some(&b), &y, false, LinearTail::new(None, Some(LinearEpilogue::GeluTanh))).unwrap();
        let expected: Vec<f64> =
            (0..8).map(|e| crate::dtype::round_to(DType::BF16, numerics::gelu_tanh(acc(e) + bv[e % 2]))).collect();
        assert_eq!(y.read(), expected);
        // x·wᵀ + b + r.
        linear(&x, &w, Some(&b), &y, false, LinearTail::new(Some(&r), None)).unwrap();
        let expected: Vec<f64> =
            (0..8).map(|e| crate::dtype::round_to(DType::BF16, acc(e) + bv[e % 2] + rv[e])).collect();
        assert_eq!(y.read(), expected);
        // Without a bias.
        linear(&x, &w, None, &y, false, LinearTail::new(Some(&r), None)).unwrap();
        let expected: Vec<f64> = (0..8).map(|e| crate::dtype::round_to(DType::BF16, acc(e) + rv[e])).collect();
        assert_eq!(y.read(), expected);
        // Refused: accumulate with a tail, a residual with an epilogue, a residual of another
        // shape, an epilogue on integers.
        let tail = LinearTail::new(Some(&r), None);
        assert!(linear(&x, &w, None, &y, true, tail).is_err());
        assert!(linear(&x, &w, None, &y, false, LinearTail::new(Some(&r), Some(LinearEpilogue::GeluTanh))).is_err());
        let r3 = filled(DType::BF16, &[8], |_| 0.0);
        assert!(linear(&x, &w, None, &y, false, LinearTail::new(Some(&r3), None)).is_err());
        let xi = filled(DType::I32, &[4, 3], |i| i as f64);
        let wi = filled(DType::I32, &[2, 3], |i| i as f64 - 2.0);
        let yi = View::whole(Buffer::new(DType::I32, 8), &[4, 2]).unwrap();
        assert!(linear(&xi, &wi, None, &yi, false, LinearTail::new(None, Some(LinearEpilogue::GeluTanh))).is_err());
        // Integers: a wrapping residual add.
        let ri = filled(DType::I32, &[4, 2], |i| i as f64 * 10.0);
        linear(&xi, &wi, None, &yi, false, LinearTail::new(Some(&ri), None)).unwrap();
        let (xiv, wiv) = (xi.read(), wi.read());
        let expected: Vec<f64> = (0..8)
            .map(|e| {
                let (i, j) = (e / 2, e % 2);
                (0..3).map(|p| xiv[i * 3 + p] * wiv[j * 3 + p]).sum::<f64>() + e as f64 * 10.0
            })
            .collect();
        assert_eq!(yi.read(), expected);
    }

    #[test]
    fn elementwise_kinds_and_cast_round() {
        let a = filled(DType::F32, &[4], |i| i as f64 - 1.5);
        let b = filled(DType::F32, &[4], |_| 2.0);
        let out = View::whole(Buffer::new(DType::F32, 4), &[4]).unwrap();
        for (kind, f) in [
            (ElementwiseKind::Add, (|x, y| x + y) as fn(f64, f64) -> f64),
            (ElementwiseKind::Sub, |x, y| x - y),
            (ElementwiseKind::Mul, |x, y| x * y),
            (ElementwiseKind::Div, |x, y| x / y),
            (ElementwiseKind::Max, f64::max),
            (ElementwiseKind::Min, f64::min),
        ] {
            elementwise(kind, &[a.clone(), b.clone()], &out).unwrap();
            let expected: Vec<f64> = a.read().iter().zip(b.read()).map(|(&x, y)| f(x, y)).collect();
            assert_eq!(out.read(), expected, "{kind:?}");
        }
        elementwise(ElementwiseKind::Neg, std::slice::from_ref(&a), &out).unwrap();
        assert_eq!(out.read(), vec![1.5, 0.5, -0.5, -1.5]);
        let h = View::whole(Buffer::new(DType::BF16, 1), &[1]).unwrap();
        let x = filled(DType::F32, &[1], |_| 1.0 + 1.0 / 512.0);
        elementwise(ElementwiseKind::Cast, &[x], &h).unwrap();
        assert_eq!(h.read(), vec![1.0]);
        assert!(elementwise(ElementwiseKind::Add, std::slice::from_ref(&a), &out).is_err());
    }

    #[test]
    fn small_and_large_kernels_agree_and_see_aliased_inputs_before_the_write() {
        for n in [1, SMALL, SMALL + 1, 3 * SMALL] {
            let a = filled(DType::F32, &[n], |i| i as f64 * 0.5);
            let acc = filled(DType::F32, &[n], |i| 1.0 + i as f64);
            // acc = a + acc, in place: every output element sees the old acc.
            elementwise(ElementwiseKind::Add, &[a.clone(), acc.clone()], &acc).unwrap();
            let expected: Vec<f64> = (0..n).map(|i| i as f64 * 0.5 + 1.0 + i as f64).collect();
            assert_eq!(acc.read(), expected, "n = {n}");
            // A strided copy that shifts a buffer onto itself by one element.
            let buf = filled(DType::F64, &[n + 1], |i| i as f64);
            let whole = View::whole(buf.buffer.clone(), &[n + 1]).unwrap();
            let (lo, hi) = (whole.subview(&[0], &[n], &[1]).unwrap(), whole.subview(&[1], &[n], &[1]).unwrap());
            copy(&lo, &hi).unwrap();
            let mut shifted = vec![0.0];
            shifted.extend((0..n).map(|i| i as f64));
            assert_eq!(whole.read(), shifted, "n = {n}");
        }
    }

    /// Issue 22, 3a/3b: casts truncate, integer division truncates, integers wrap (also in
    /// sums, GEMMs and across i64's full width), f16 overflows to infinity.
    #[test]
    fn numeric_semantics_of_the_kernels() {
        let x = filled(DType::F32, &[4], |i| [2.5, -2.5, 2.9, f64::NAN][i]);
        let to_i32 = View::whole(Buffer::new(DType::I32, 4), &[4]).unwrap();
        elementwise(ElementwiseKind::Cast, std::slice::from_ref(&x), &to_i32).unwrap();
        assert_eq!(to_i32.read(), vec![2.0, -2.0, 2.0, 0.0]);
        let a = filled(DType::I32, &[4], |i| [7.0, -7.0, 5.0, -2147483648.0][i]);
        let b = filled(DType::I32, &[4], |i| [2.0, 2.0, 0.0, -1.0][i]);
        let q = View::whole(Buffer::new(DType::I32, 4), &[4]).unwrap();
        elementwise(ElementwiseKind::Div, &[a, b], &q).unwrap();
        assert_eq!(q.read(), vec![3.0, -3.0, -1.0, -2147483648.0]);
        let c = filled(DType::I8, &[2], |_| 100.0);
        let s = View::whole(Buffer::new(DType::I8, 2), &[2]).unwrap();
        elementwise(ElementwiseKind::Add, &[c.clone(), c.clone()], &s).unwrap();
        assert_eq!(s.read(), vec![-56.0, -56.0]);
        let total = View::whole(Buffer::new(DType::I8, 1), &[1]).unwrap();
        sum(&c, &[0], &total).unwrap();
        assert_eq!(total.read(), vec![-56.0]);
        let m = View::whole(Buffer::new(DType::I8, 1), &[1, 1]).unwrap();
        matmul(&filled(DType::I8, &[1, 2], |_| 100.0), &filled(DType::I8, &[2, 1], |_| 2.0), &m, false).unwrap();
        assert_eq!(m.read(), vec![-112.0]);
        // i64 beyond 2^53: exact.
        let big = View::whole(Buffer::new(DType::I64, 1), &[1]).unwrap();
        big.write_ints(&[(1 << 62) + 1]).unwrap();
        let twice = View::whole(Buffer::new(DType::I64, 1), &[1]).unwrap();
        elementwise(ElementwiseKind::Add, &[big.clone(), big.clone()], &twice).unwrap();
        assert_eq!(twice.read_ints(), vec![i64::MIN + 2]);
        let h = filled(DType::F16, &[2], |i| [300.0, -300.0][i]);
        let p = View::whole(Buffer::new(DType::F16, 2), &[2]).unwrap();
        elementwise(ElementwiseKind::Mul, &[h.clone(), filled(DType::F16, &[2], |_| 300.0)], &p).unwrap();
        assert_eq!(p.read(), vec![f64::INFINITY, f64::NEG_INFINITY]);
        // Copies between integer types wrap; max propagates NaN.
        let narrow = View::whole(Buffer::new(DType::I8, 1), &[1]).unwrap();
        copy(&filled(DType::I32, &[1], |_| 200.0), &narrow).unwrap();
        assert_eq!(narrow.read(), vec![-56.0]);
        let mx = View::whole(Buffer::new(DType::F32, 1), &[1]).unwrap();
        elementwise(
            ElementwiseKind::Max,
            &[filled(DType::F32, &[1], |_| f64::NAN), filled(DType::F32, &[1], |_| 1.0)],
            &mx,
        )
        .unwrap();
        assert!(mx.read()[0].is_nan());
    }

    #[test]
    fn sum_over_dims_matches_loops() {
        let a = filled(DType::F64, &[2, 3, 4], |i| i as f64);
        let out = View::whole(Buffer::new(DType::F64, 3), &[3]).unwrap();
        sum(&a, &[0, 2], &out).unwrap();
        let v = a.read();
        let expected: Vec<f64> = (0..3)
            .map(|j| (0..2).flat_map(|i| (0..4).map(move |k| (i, k))).map(|(i, k)| v[i * 12 + j * 4 + k]).sum())
            .collect();
        assert_eq!(out.read(), expected);
        assert!(sum(&a, &[3], &out).is_err());
    }

    #[test]
    fn copy_between_strided_views() {
        let src = filled(DType::F32, &[4, 4], |i| i as f64);
        let col = src.subview(&[0, 1], &[4, 1], &[1, 1]).unwrap();
        let dst = View::whole(Buffer::new(DType::F16, 4), &[4, 1]).unwrap();
        copy(&col, &dst).unwrap();
        assert_eq!(dst.read(), vec![1.0, 5.0, 9.0, 13.0]);
        assert!(copy(&src, &dst).is_err());
    }
}
