//! The semantics of `fusion.embedding` and `fusion.dropout` on dense row-major tensors: what
//! the reference evaluates on global tensors and the cpu backend on each rank's local piece
//! (docs/dialects/fusion.md has the rules).
//!
//! - `embedding`: `out[i, :] = table[ids[i] - first_row, :]` when that row is held (`first_row`
//!   is the global index of the table's first local row: its origin), zeros otherwise. Ids
//!   outside `[0, V)` are held by no rank and give zeros, in every sharding alike.
//! - `dropout`: `y = keep ? x * (1 / (1 - p)) : 0` with `keep = uniform(seed, offset, g) >= p`,
//!   `g` the element's global row-major index (`ops::philox::uniform`: word `g mod 4` of
//!   Philox4x32-10 at counter `offset + floor(g / 4)`): the local piece's element at local
//!   index `l` is at global coordinates `origin + l` of a tensor of `global_shape`.

use super::dense::{Dense, Vals};
use super::params::Params;
use super::philox::uniform;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};

/// The (element type, shape) of each input or output.
type Types = [(DType, Vec<usize>)];

/// Prepare-time check of `embedding`: a `[rows, E]` table, `i32`/`i64` ids, one output
/// `[ids..., E]` of the table's element type.
pub fn check_embedding(_: &Params, inputs: &Types, outputs: &Types) -> Result<(), String> {
    let [(t_ty, t_shape), (id_ty, id_shape)] = inputs else {
        return Err(format!("expects a table and ids, got {} inputs", inputs.len()));
    };
    if t_shape.len() != 2 {
        return Err(format!("the table must have rank 2, got shape {t_shape:?}"));
    }
    if !matches!(id_ty, DType::I32 | DType::I64) {
        return Err(format!("ids must be i32 or i64, got {id_ty:?}"));
    }
    let mut want = id_shape.clone();
    want.push(t_shape[1]);
    match outputs {
        [(o_ty, o_shape)] if o_ty == t_ty && *o_shape == want => Ok(()),
        _ => Err(format!("expects one output of {t_ty:?} {want:?}, got {outputs:?}")),
    }
}

/// `embedding` of a table piece whose first row is global row `origin[0]` (0 without one).
pub fn eval_embedding(inputs: &[Dense], outputs: &Types, origin: &[usize]) -> RtResult<Vec<Dense>> {
    let (table, ids) = (&inputs[0], inputs[1].ints());
    let (rows, width) = (table.shape[0], table.shape[1]);
    let first_row = origin.first().copied().unwrap_or(0) as i64;
    let (dtype, shape) = outputs[0].clone();
    let vals = match &table.vals {
        Vals::F(t) => Vals::F(embedding(t, rows, width, &ids, first_row, 0.0)),
        Vals::I(t) => Vals::I(embedding(t, rows, width, &ids, first_row, 0)),
    };
    Ok(vec![Dense { dtype, shape, vals }])
}

/// Prepare-time check of `dropout`: `p` in `[0, 1)`, a float `x`, rank-0 `i64` seed and offset,
/// one output like `x`.
pub fn check_dropout(params: &Params, inputs: &Types, outputs: &Types) -> Result<(), String> {
    let p = params.float("p").map_err(|e| e.message)?;
    if !(0.0..1.0).contains(&p) {
        return Err(format!("p must be in [0, 1), got {p}"));
    }
    let [(x_ty, x_shape), seed, offset] = inputs else {
        return Err(format!("expects x, seed and offset, got {} inputs", inputs.len()));
    };
    if x_ty.is_int() {
        return Err(format!("x must be a float tensor, got {x_ty:?}"));
    }
    for (what, (ty, shape)) in [("seed", seed), ("offset", offset)] {
        if *ty != DType::I64 || !shape.is_empty() {
            return Err(format!("{what} must be a rank-0 i64 tensor, got {ty:?} {shape:?}"));
        }
    }
    match outputs {
        [(o_ty, o_shape)] if o_ty == x_ty && o_shape == x_shape => Ok(()),
        _ => Err(format!("expects one output of {x_ty:?} {x_shape:?}, got {outputs:?}")),
    }
}

/// `dropout` of a piece of `x` at `origin` of a tensor of `global_shape` (both empty: the piece
/// is the whole tensor).
pub fn eval_dropout(
    params: &Params,
    inputs: &[Dense],
    outputs: &Types,
    origin: &[usize],
    global_shape: &[usize],
) -> RtResult<Vec<Dense>> {
    let x = &inputs[0];
    let scalar = |d: &Dense, what: &str| {
        d.ints().first().copied().ok_or_else(|| RtError::new(format!("dropout: {what} has no value")))
    };
    let (seed, offset) = (scalar(&inputs[1], "seed")?, scalar(&inputs[2], "offset")?);
    let p = params.float("p")?;
    // Without an origin (a direct call), the piece is the whole tensor.
    let (origin, global) = if global_shape.is_empty() && !x.shape.is_empty() {
        (vec![0; x.shape.len()], x.shape.clone())
    } else {
        (origin.to_vec(), global_shape.to_vec())
    };
    let y = dropout(&x.floats(), &x.shape, &origin, &global, seed, offset, p).map_err(RtError::new)?;
    let (dtype, shape) = outputs[0].clone();
    Ok(vec![Dense::from_f64(dtype, shape, y)])
}

/// Row-major strides of `shape` (in elements).
pub fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for a in (0..shape.len().saturating_sub(1)).rev() {
        strides[a] = strides[a + 1] * shape[a + 1];
    }
    strides
}

/// The global row-major index of every element of a local piece of shape `local` whose first
/// element is at `origin` in a tensor of shape `global`, in local row-major order.
pub fn global_indices(local: &[usize], origin: &[usize], global: &[usize]) -> Result<Vec<u64>, String> {
    if origin.len() != local.len() || global.len() != local.len() {
        return Err(format!(
            "a local piece of rank {} needs an origin and a global shape of that rank, got {} and {}",
            local.len(),
            origin.len(),
            global.len()
        ));
    }
    if let Some(a) = (0..local.len()).find(|&a| origin[a] + local[a] > global[a]) {
        return Err(format!(
            "the local piece {local:?} at origin {origin:?} leaves the global shape {global:?} on axis {a}"
        ));
    }
    let gstrides = row_major_strides(global);
    let n: usize = local.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; local.len()];
    for _ in 0..n {
        let g: usize = (0..local.len()).map(|a| (origin[a] + idx[a]) * gstrides[a]).sum();
        out.push(g as u64);
        for a in (0..local.len()).rev() {
            idx[a] += 1;
            if idx[a] < local[a] {
                break;
            }
            idx[a] = 0;
        }
    }
    Ok(out)
}

/// Gathers rows of a `rows x width` table (row-major) for `ids`; `first_row` is the global
/// index of the table's first row. An id whose row is not held gives `zero`s.
pub fn embedding<T: Copy>(table: &[T], rows: usize, width: usize, ids: &[i64], first_row: i64, zero: T) -> Vec<T> {
    let mut out = Vec::with_capacity(ids.len() * width);
    for &id in ids {
        let local = id.checked_sub(first_row).and_then(|r| usize::try_from(r).ok()).filter(|&r| r < rows);
        match local {
            Some(r) => out.extend_from_slice(&table[r * width..(r + 1) * width]),
            None => out.extend(std::iter::repeat_n(zero, width)),
        }
    }
    out
}

/// The dropout scale `1 / (1 - p)` (in `f64`).
pub fn dropout_scale(p: f64) -> f64 {
    1.0 / (1.0 - p)
}

/// Whether the element with global index `index` is kept (`ops::philox::uniform`: word
/// `index mod 4` of the call at counter `offset + floor(index / 4)`).
pub fn dropout_keeps(seed: i64, offset: i64, index: u64, p: f64) -> bool {
    uniform(seed, offset, index) >= p
}

/// Dropout of a local piece `x` (values in `f64`, local shape `local`, first element at
/// `origin` of a tensor of shape `global`). The values are unrounded (`x * scale` in `f64`).
pub fn dropout(
    x: &[f64],
    local: &[usize],
    origin: &[usize],
    global: &[usize],
    seed: i64,
    offset: i64,
    p: f64,
) -> Result<Vec<f64>, String> {
    if !(0.0..1.0).contains(&p) {
        return Err(format!("dropout probability p must be in [0, 1), got {p}"));
    }
    let indices = global_indices(local, origin, global)?;
    if indices.len() != x.len() {
        return Err(format!("{} values for a local piece of shape {local:?}", x.len()));
    }
    let scale = dropout_scale(p);
    Ok(x.iter().zip(indices).map(|(&v, g)| if dropout_keeps(seed, offset, g, p) { v * scale } else { 0.0 }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Call, Param, run};

    #[test]
    fn kernels_check_and_evaluate() {
        let params = Params::default();
        let table = Dense::from_f64(DType::BF16, vec![3, 2], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let ids = Dense::from_i64(DType::I32, vec![2, 2], vec![2, 0, 3, -1]);
        let types = |ds: &[&Dense]| ds.iter().map(|d| (d.dtype, d.shape.clone())).collect::<Vec<_>>();
        let out = vec![(DType::BF16, vec![2, 2, 2])];
        assert!(check_embedding(&params, &types(&[&table, &ids]), &out).is_ok());
        assert!(check_embedding(&params, &types(&[&table, &table]), &out).unwrap_err().contains("i32 or i64"));
        assert!(check_embedding(&params, &types(&[&table, &ids]), &[(DType::F32, vec![2, 2, 2])]).is_err());
        let inputs = [table, ids];
        // The table's local piece starts at global row 1: ids 1..4 are held.
        let call = Call { params: &params, inputs: &inputs, outputs: &out, origin: &[1, 0], global_shape: &[4, 2] };
        let y = run(crate::ops::lookup("embedding").unwrap(), &call).unwrap();
        assert_eq!(y[0].floats(), vec![3.0, 4.0, 0.0, 0.0, 5.0, 6.0, 0.0, 0.0]);

        let dp = Params::new(vec![("p".into(), Param::Float(0.5))]);
        let x = Dense::from_f64(DType::F32, vec![4, 4], (0..16).map(f64::from).collect());
        let s = Dense::from_i64(DType::I64, vec![], vec![42]);
        let o = Dense::from_i64(DType::I64, vec![], vec![7]);
        let out = vec![(DType::F32, vec![4, 4])];
        assert!(check_dropout(&dp, &types(&[&x, &s, &o]), &out).is_ok());
        assert!(check_dropout(&params, &types(&[&x, &s, &o]), &out).is_err());
        let bad_p = Params::new(vec![("p".into(), Param::Float(1.0))]);
        assert!(check_dropout(&bad_p, &types(&[&x, &s, &o]), &out).unwrap_err().contains("[0, 1)"));
        assert!(check_dropout(&dp, &types(&[&x, &x, &o]), &out).unwrap_err().contains("seed"));
        let inputs = [x.clone(), s, o];
        let whole = Call { params: &dp, inputs: &inputs, outputs: &out, origin: &[0, 0], global_shape: &[4, 4] };
        let y = run(crate::ops::lookup("dropout").unwrap(), &whole).unwrap()[0].floats();
        let want = dropout(&x.floats(), &[4, 4], &[0, 0], &[4, 4], 42, 7, 0.5).unwrap();
        assert_eq!(y, want);
        // Rows 2..4 of an [8, 4] tensor are the elements 8..16 (the counters offset + 2, + 3).
        let half =
            [Dense::from_f64(DType::F32, vec![2, 4], x.floats()[..8].to_vec()), inputs[1].clone(), inputs[2].clone()];
        let out2 = vec![(DType::F32, vec![2, 4])];
        let piece = Call { params: &dp, inputs: &half, outputs: &out2, origin: &[2, 0], global_shape: &[8, 4] };
        let y2 = run(crate::ops::lookup("dropout").unwrap(), &piece).unwrap()[0].floats();
        let keeps: Vec<bool> = (8..16).map(|g| dropout_keeps(42, 7, g, 0.5)).collect();
        let want2: Vec<f64> = x.floats()[..8].iter().zip(keeps).map(|(&v, k)| if k { v * 2.0 } else { 0.0 }).collect();
        assert_eq!(y2, want2);
    }

    #[test]
    fn embedding_gathers_held_rows_and_zeroes_the_others() {
        // A 4x2 table, rows 10*r + c.
        let table: Vec<f64> = (0..4).flat_map(|r| (0..2).map(move |c| f64::from(10 * r + c))).collect();
        let out = embedding(&table, 4, 2, &[2, 0, -1, 4, 3], 0, 0.0);
        assert_eq!(out, vec![20.0, 21.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 30.0, 31.0]);
        // Vocab-parallel: two halves of the table, rows [0, 2) and [2, 4); their sum is the
        // whole gather.
        let ids = [3, 1, 2, 7, -5, i64::MIN];
        let whole = embedding(&table, 4, 2, &ids, 0, 0.0);
        let lo = embedding(&table[..4], 2, 2, &ids, 0, 0.0);
        let hi = embedding(&table[4..], 2, 2, &ids, 2, 0.0);
        let sum: Vec<f64> = lo.iter().zip(&hi).map(|(a, b)| a + b).collect();
        assert_eq!(sum, whole);
        assert_eq!(hi[..2], [30.0, 31.0]);
        assert_eq!(lo[..2], [0.0, 0.0]);
        // Integers are copied exactly.
        assert_eq!(embedding(&[i64::MAX, -1], 2, 1, &[1, 0], 0, 0), vec![-1, i64::MAX]);
    }

    #[test]
    fn global_indices_of_pieces() {
        assert_eq!(global_indices(&[2, 2], &[0, 0], &[2, 2]).unwrap(), vec![0, 1, 2, 3]);
        // Rows 2..4 of a 4x3 tensor, columns 1..3.
        assert_eq!(global_indices(&[2, 2], &[2, 1], &[4, 3]).unwrap(), vec![7, 8, 10, 11]);
        assert_eq!(global_indices(&[], &[], &[]).unwrap(), vec![0]);
        assert!(global_indices(&[2, 2], &[3, 0], &[4, 3]).unwrap_err().contains("axis 0"));
        assert!(global_indices(&[2, 2], &[0], &[4, 3]).is_err());
    }

    #[test]
    fn dropout_masks_depend_on_the_global_index_only() {
        let global = [8usize, 6];
        let x: Vec<f64> = (0..48).map(|i| f64::from(i) + 1.0).collect();
        let (seed, offset, p) = (1234, 99, 0.25);
        let whole = dropout(&x, &global, &[0, 0], &global, seed, offset, p).unwrap();
        // Each kept element is scaled by 4/3, each dropped one is 0; some of both.
        let kept = whole.iter().zip(&x).filter(|(y, x)| **y == **x * (4.0 / 3.0)).count();
        let dropped = whole.iter().filter(|&&y| y == 0.0).count();
        assert_eq!(kept + dropped, 48);
        assert!(kept > 24 && dropped > 4, "kept {kept}, dropped {dropped}");
        // Any piece (rows 2..6, columns 3..6) draws the same mask as the whole.
        let at: Vec<usize> = (2..6).flat_map(|r| (3..6).map(move |c| r * 6 + c)).collect();
        let piece: Vec<f64> = at.iter().map(|&i| x[i]).collect();
        let y = dropout(&piece, &[4, 3], &[2, 3], &global, seed, offset, p).unwrap();
        let want: Vec<f64> = at.iter().map(|&i| whole[i]).collect();
        assert_eq!(y, want);
        // Another offset (advanced by ceil(48 / 4) = 12 calls: fresh draws) or seed gives
        // another mask; p = 0 is the identity.
        assert_ne!(dropout(&x, &global, &[0, 0], &global, seed, offset + 12, p).unwrap(), whole);
        assert_ne!(dropout(&x, &global, &[0, 0], &global, seed + 1, offset, p).unwrap(), whole);
        assert_eq!(dropout(&x, &global, &[0, 0], &global, seed, offset, 0.0).unwrap(), x);
        // The counter wraps in 64 bits: offset -1, group 1 is counter 0.
        assert_eq!(dropout_keeps(5, -1, 5, 0.5), dropout_keeps(5, 0, 1, 0.5));
        // Element g takes word g mod 4 of the call at offset + floor(g / 4).
        let w = crate::ops::philox::words(seed, offset as u64 + 2);
        for k in 0..4 {
            assert_eq!(dropout_keeps(seed, offset, 8 + k, p), f64::from(w[k as usize]) / 4_294_967_296.0 >= p);
        }
        // NaN is kept as NaN or dropped to 0.
        let nan = dropout(&[f64::NAN; 16], &[16], &[0], &[16], 3, 0, 0.5).unwrap();
        assert!(nan.iter().all(|v| v.is_nan() || *v == 0.0) && nan.iter().any(|v| v.is_nan()));
        assert!(dropout(&x, &global, &[0, 0], &global, seed, offset, 1.0).is_err());
    }
}
