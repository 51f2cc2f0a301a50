//! Strided layouts (offset, shape, strides, all in elements): the bounds checks and address
//! arithmetic every backend's views share (host views in `buffer.rs`, device views in
//! `cuda/memory.rs`). Functions over slices, so each view type keeps its own storage.

use crate::error::{RtError, RtResult};

/// The element with the largest address (the offset for an empty view).
pub fn last_element(offset: usize, shape: &[usize], strides: &[usize]) -> usize {
    offset + shape.iter().zip(strides).map(|(d, s)| d.saturating_sub(1) * s).sum::<usize>()
}

/// Checks a view against an allocation of `len` elements.
pub fn check_view(offset: usize, shape: &[usize], strides: &[usize], len: usize) -> RtResult<()> {
    if shape.len() != strides.len() {
        return Err(RtError::new("a view needs one stride per dimension"));
    }
    let last = last_element(offset, shape, strides);
    if shape.iter().product::<usize>() > 0 && last >= len {
        return Err(RtError::new(format!(
            "view (offset {offset}, shape {shape:?}, strides {strides:?}) reaches element {last} of a buffer of {len}"
        )));
    }
    Ok(())
}

/// Checks a window (`offsets`, `sizes`, `steps` per dimension) of a view of `shape`.
pub fn check_window(shape: &[usize], offsets: &[usize], sizes: &[usize], steps: &[usize]) -> RtResult<()> {
    let rank = shape.len();
    if offsets.len() != rank || sizes.len() != rank || steps.len() != rank {
        return Err(RtError::new("subview: one offset, size and step per dimension"));
    }
    for d in 0..rank {
        if sizes[d] > 0 && offsets[d] + (sizes[d] - 1) * steps[d] >= shape[d] {
            return Err(RtError::new(format!(
                "subview out of bounds in dimension {d}: offset {}, size {}, step {} of extent {}",
                offsets[d], sizes[d], steps[d], shape[d]
            )));
        }
    }
    Ok(())
}

/// The offset of a window's first element.
pub fn window_offset(offset: usize, strides: &[usize], offsets: &[usize]) -> usize {
    offset + offsets.iter().zip(strides).map(|(o, s)| o * s).sum::<usize>()
}

/// Checks `index` on `axis` of a view of `shape`.
pub fn check_select(shape: &[usize], axis: usize, index: usize) -> RtResult<()> {
    if axis >= shape.len() || index >= shape[axis] {
        return Err(RtError::new(format!("select index {index} out of range on axis {axis} of {shape:?}")));
    }
    Ok(())
}

/// Whether the elements are dense in row-major order (extents of 1 ignore their stride).
pub fn is_dense(shape: &[usize], strides: &[usize]) -> bool {
    let mut expected = 1;
    for (&n, &s) in shape.iter().zip(strides).rev() {
        if n != 1 && s != expected {
            return false;
        }
        expected *= n;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_selects_and_bounds() {
        assert!(check_view(0, &[4, 6], &[6, 1], 24).is_ok());
        assert!(check_view(20, &[5], &[1], 24).is_err());
        assert!(check_view(0, &[4], &[1, 1], 24).is_err());
        assert!(check_window(&[4, 6], &[1, 2], &[2, 2], &[2, 1]).is_ok());
        assert!(check_window(&[4, 6], &[3, 0], &[2, 1], &[1, 1]).is_err());
        assert_eq!(window_offset(0, &[6, 1], &[1, 2]), 8);
        assert!(check_select(&[4, 6], 1, 6).is_err());
        assert!(is_dense(&[4, 3], &[3, 1]) && is_dense(&[1, 3], &[99, 1]) && !is_dense(&[4, 3], &[6, 1]));
        assert_eq!(last_element(2, &[2, 3], &[3, 1]), 2 + 3 + 2);
    }
}
