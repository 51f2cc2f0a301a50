//! Strided layouts (offset, shape, strides, all in elements) and the window operations every
//! backend's views share: bounds-checked subviews and selects. Backends wrap the results in
//! their own view types (host memory, device memory).

use crate::error::{RtError, RtResult};

/// A strided window of a 1-D allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub offset: usize,
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
}

impl Layout {
    /// A layout checked against an allocation of `len` elements.
    pub fn new(offset: usize, shape: Vec<usize>, strides: Vec<usize>, len: usize) -> RtResult<Layout> {
        if shape.len() != strides.len() {
            return Err(RtError::new("a view needs one stride per dimension"));
        }
        let l = Layout { offset, shape, strides };
        if l.shape.iter().product::<usize>() > 0 && l.last_element() >= len {
            return Err(RtError::new(format!(
                "view (offset {}, shape {:?}, strides {:?}) reaches element {} of a buffer of {len}",
                l.offset,
                l.shape,
                l.strides,
                l.last_element()
            )));
        }
        Ok(l)
    }

    /// The element with the largest address.
    pub fn last_element(&self) -> usize {
        self.offset + self.shape.iter().zip(&self.strides).map(|(d, s)| d.saturating_sub(1) * s).sum::<usize>()
    }

    /// A window: `offsets`, `sizes`, `steps` per dimension (steps multiply the strides).
    pub fn subview(&self, offsets: &[usize], sizes: &[usize], steps: &[usize], len: usize) -> RtResult<Layout> {
        let rank = self.shape.len();
        if offsets.len() != rank || sizes.len() != rank || steps.len() != rank {
            return Err(RtError::new("subview: one offset, size and step per dimension"));
        }
        for d in 0..rank {
            if sizes[d] > 0 && offsets[d] + (sizes[d] - 1) * steps[d] >= self.shape[d] {
                return Err(RtError::new(format!(
                    "subview out of bounds in dimension {d}: offset {}, size {}, step {} of extent {}",
                    offsets[d], sizes[d], steps[d], self.shape[d]
                )));
            }
        }
        let offset = self.offset + offsets.iter().zip(&self.strides).map(|(o, s)| o * s).sum::<usize>();
        let strides = self.strides.iter().zip(steps).map(|(s, k)| s * k).collect();
        Layout::new(offset, sizes.to_vec(), strides, len)
    }

    /// Drops dimension `axis`, fixing its index.
    pub fn select(&self, axis: usize, index: usize, len: usize) -> RtResult<Layout> {
        if axis >= self.shape.len() || index >= self.shape[axis] {
            return Err(RtError::new(format!("select index {index} out of range on axis {axis} of {:?}", self.shape)));
        }
        let (mut shape, mut strides) = (self.shape.clone(), self.strides.clone());
        let offset = self.offset + index * strides[axis];
        shape.remove(axis);
        strides.remove(axis);
        Layout::new(offset, shape, strides, len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_bounds_checked() {
        let l = Layout::new(0, vec![4, 6], vec![6, 1], 24).unwrap();
        let s = l.subview(&[1, 2], &[2, 2], &[2, 1], 24).unwrap();
        assert_eq!((s.offset, s.shape.clone(), s.strides.clone()), (8, vec![2, 2], vec![12, 1]));
        assert!(l.subview(&[3, 0], &[2, 1], &[1, 1], 24).is_err());
        let r = l.select(0, 3, 24).unwrap();
        assert_eq!((r.offset, r.shape, r.strides), (18, vec![6], vec![1]));
        assert!(l.select(1, 6, 24).is_err());
        assert!(Layout::new(20, vec![5], vec![1], 24).is_err());
    }
}
