//! The semantics of `fusion.embedding` and `fusion.dropout` on dense row-major tensors: what
//! the reference evaluates on global tensors and the cpu backend on each rank's local piece
//! (docs/dialects/fusion.md has the rules).
//!
//! - `embedding`: `out[i, :] = table[ids[i] - first_row, :]` when that row is held (`first_row`
//!   is the global index of the table's first local row: its origin), zeros otherwise. Ids
//!   outside `[0, V)` are held by no rank and give zeros, in every sharding alike.
//! - `dropout`: `y = keep ? x * (1 / (1 - p)) : 0` with `keep = uniform(seed, offset + g) >= p`,
//!   `g` the element's global row-major index: the local piece's element at local index `l`
//!   is at global coordinates `origin + l` of a tensor of `global_shape`.

use super::philox::uniform;

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

/// Whether the element with counter `offset + index` is kept.
pub fn dropout_keeps(seed: i64, offset: i64, index: u64, p: f64) -> bool {
    uniform(seed, (offset as u64).wrapping_add(index)) >= p
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
        // Another offset or seed gives another mask; p = 0 is the identity.
        assert_ne!(dropout(&x, &global, &[0, 0], &global, seed, offset + 48, p).unwrap(), whole);
        assert_ne!(dropout(&x, &global, &[0, 0], &global, seed + 1, offset, p).unwrap(), whole);
        assert_eq!(dropout(&x, &global, &[0, 0], &global, seed, offset, 0.0).unwrap(), x);
        // The element counter wraps in 64 bits.
        assert_eq!(dropout_keeps(5, -1, 1, 0.5), dropout_keeps(5, 0, 0, 0.5));
        // NaN is kept as NaN or dropped to 0.
        let nan = dropout(&[f64::NAN; 16], &[16], &[0], &[16], 3, 0, 0.5).unwrap();
        assert!(nan.iter().all(|v| v.is_nan() || *v == 0.0) && nan.iter().any(|v| v.is_nan()));
        assert!(dropout(&x, &global, &[0, 0], &global, seed, offset, 1.0).is_err());
    }
}
