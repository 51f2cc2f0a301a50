//! The semantics of `fusion.slice` and `fusion.concat` on dense row-major tensors, as the
//! reference evaluates them on global tensors (the backends run the copies `fusion-to-host`
//! emits through `host.slice` views; `fuser-run --check` compares the two).

use super::lookup::row_major_strides;

/// `out[i...] = x[offsets + i * strides ...]` of shape `sizes`.
pub fn slice<T: Copy>(
    shape: &[usize],
    x: &[T],
    offsets: &[usize],
    sizes: &[usize],
    strides: &[usize],
) -> Result<Vec<T>, String> {
    let rank = shape.len();
    if offsets.len() != rank || sizes.len() != rank || strides.len() != rank {
        return Err(format!("a slice of a rank-{rank} tensor needs {rank} offsets, sizes and strides"));
    }
    for a in 0..rank {
        let last = (sizes[a].max(1) - 1).checked_mul(strides[a]).and_then(|x| x.checked_add(offsets[a]));
        let fits = sizes[a] == 0 || (strides[a] > 0 && last.is_some_and(|l| l < shape[a]));
        if !fits {
            return Err(format!(
                "the slice (offset {}, size {}, stride {}) leaves axis {a} of extent {}",
                offsets[a], sizes[a], strides[a], shape[a]
            ));
        }
    }
    let src = row_major_strides(shape);
    let n: usize = sizes.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; rank];
    for _ in 0..n {
        let at: usize = (0..rank).map(|a| (offsets[a] + idx[a] * strides[a]) * src[a]).sum();
        out.push(x[at]);
        for a in (0..rank).rev() {
            idx[a] += 1;
            if idx[a] < sizes[a] {
                break;
            }
            idx[a] = 0;
        }
    }
    Ok(out)
}

/// Concatenates `parts` (shape, values) along `dim`; returns the shape and the values.
pub fn concat<T: Copy>(parts: &[(&[usize], &[T])], dim: usize) -> Result<(Vec<usize>, Vec<T>), String> {
    let Some(&(first, _)) = parts.first() else { return Err("concat needs at least one operand".into()) };
    if dim >= first.len() {
        return Err(format!("concat dim {dim} is out of range for rank {}", first.len()));
    }
    let mut shape = first.to_vec();
    shape[dim] = 0;
    for (i, &(s, v)) in parts.iter().enumerate() {
        let same_outside = s.len() == first.len() && (0..s.len()).all(|a| a == dim || s[a] == first[a]);
        if !same_outside || v.len() != s.iter().product::<usize>() {
            return Err(format!("concat operand #{i} of shape {s:?} does not fit operand #0 of shape {first:?}"));
        }
        shape[dim] += s[dim];
    }
    // Row-major: the result is, for each index of the axes before `dim`, the blocks of the
    // operands' trailing axes one after the other.
    let outer: usize = first[..dim].iter().product();
    let mut out = Vec::with_capacity(shape.iter().product());
    for o in 0..outer {
        for &(s, v) in parts {
            let block: usize = s[dim..].iter().product();
            out.extend_from_slice(&v[o * block..(o + 1) * block]);
        }
    }
    Ok((shape, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_qkv_and_strided_windows() {
        // [2, 6]: rows 0..6 and 10..16; three [2, 2] slices of the last axis.
        let x: Vec<i64> = (0..2).flat_map(|r| (0..6).map(move |c| 10 * r + c)).collect();
        let q = slice(&[2, 6], &x, &[0, 0], &[2, 2], &[1, 1]).unwrap();
        let k = slice(&[2, 6], &x, &[0, 2], &[2, 2], &[1, 1]).unwrap();
        let v = slice(&[2, 6], &x, &[0, 4], &[2, 2], &[1, 1]).unwrap();
        assert_eq!((q, k, v), (vec![0, 1, 10, 11], vec![2, 3, 12, 13], vec![4, 5, 14, 15]));
        assert_eq!(slice(&[2, 6], &x, &[1, 1], &[1, 3], &[1, 2]).unwrap(), vec![11, 13, 15]);
        assert_eq!(slice(&[2, 6], &x, &[0, 6], &[2, 0], &[1, 1]).unwrap(), Vec::<i64>::new());
        assert!(slice(&[2, 6], &x, &[0, 1], &[2, 3], &[1, 2]).is_ok());
        assert!(slice(&[2, 6], &x, &[0, 2], &[2, 3], &[1, 2]).unwrap_err().contains("axis 1"));
        assert!(slice(&[2, 6], &x, &[0, 1], &[2, 2], &[1, usize::MAX]).is_err());
        assert!(slice(&[2, 6], &x, &[0, 1], &[2, 2], &[1, 0]).is_err());
    }

    #[test]
    fn concat_joins_along_any_axis_and_inverts_slices() {
        let a: Vec<i64> = vec![1, 2, 3, 4]; // [2, 2]
        let b: Vec<i64> = vec![5, 6]; // [2, 1]
        let (s, v) = concat(&[(&[2, 2], &a), (&[2, 1], &b)], 1).unwrap();
        assert_eq!((s, v), (vec![2, 3], vec![1, 2, 5, 3, 4, 6]));
        let (s, v) = concat(&[(&[2, 2], &a), (&[1, 2], &b)], 0).unwrap();
        assert_eq!((s, v), (vec![3, 2], vec![1, 2, 3, 4, 5, 6]));
        assert!(concat(&[(&[2, 2], &a), (&[2, 1], &b)], 0).is_err());
        assert!(concat::<i64>(&[], 0).is_err());
        // The rotary halves: slicing [x1, x2] and joining [x2, x1] swaps them.
        let x: Vec<i64> = (0..8).collect(); // [2, 4]
        let x1 = slice(&[2, 4], &x, &[0, 0], &[2, 2], &[1, 1]).unwrap();
        let x2 = slice(&[2, 4], &x, &[0, 2], &[2, 2], &[1, 1]).unwrap();
        let (_, swapped) = concat(&[(&[2, 2], &x2), (&[2, 2], &x1)], 1).unwrap();
        assert_eq!(swapped, vec![2, 3, 0, 1, 6, 7, 4, 5]);
        let (_, back) = concat(&[(&[2, 2], &x1), (&[2, 2], &x2)], 1).unwrap();
        assert_eq!(back, x);
    }
}
