//! Buffers and views of the CPU backend.
//!
//! A [`Buffer`] is one allocation of one rank: an element type, an element count and bytes
//! behind a mutex (kernels on different streams may touch one buffer; the race checker, not
//! the type system, judges whether they may). A [`View`] is a strided window into a buffer
//! (offset, shape, strides, all in elements): what `host.shard_by_stream`, `host.select` and
//! `host.slice` produce, and what kernels and communication read and write.
//!
//! Invariant: every element a view addresses lies inside its buffer (checked when the view is
//! made, see [`View::new`]).

use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One allocation.
#[derive(Debug)]
pub struct Buffer {
    /// Unique in the process (race reports and traces name buffers by it).
    pub id: u64,
    pub dtype: DType,
    /// Number of elements.
    pub len: usize,
    data: Mutex<Vec<u8>>,
}

impl Buffer {
    /// A zero-filled buffer of `len` elements.
    pub fn new(dtype: DType, len: usize) -> Arc<Buffer> {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Arc::new(Buffer { id, dtype, len, data: Mutex::new(vec![0u8; len * dtype.size()]) })
    }

    /// The bytes, locked (a poisoned lock still yields the data: a panicking kernel elsewhere
    /// must not turn into a second panic here).
    pub fn bytes(&self) -> MutexGuard<'_, Vec<u8>> {
        self.data.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A strided window into a buffer.
#[derive(Clone, Debug)]
pub struct View {
    pub buffer: Arc<Buffer>,
    /// Offset of element `[0, 0, ...]`, in elements.
    pub offset: usize,
    pub shape: Vec<usize>,
    /// In elements, one per dimension.
    pub strides: Vec<usize>,
}

/// Row-major strides of `shape`.
pub fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    strides
}

impl View {
    /// The whole buffer seen with `shape` (row-major); the shape must cover it exactly.
    pub fn whole(buffer: Arc<Buffer>, shape: &[usize]) -> RtResult<View> {
        let n: usize = shape.iter().product();
        if n != buffer.len {
            return Err(RtError::new(format!("shape {shape:?} has {n} elements, the buffer {}", buffer.len)));
        }
        Ok(View { buffer, offset: 0, strides: contiguous_strides(shape), shape: shape.to_vec() })
    }

    /// A view of `buffer`; errors when an addressed element lies outside it.
    pub fn new(buffer: Arc<Buffer>, offset: usize, shape: Vec<usize>, strides: Vec<usize>) -> RtResult<View> {
        if shape.len() != strides.len() {
            return Err(RtError::new("a view needs one stride per dimension"));
        }
        let v = View { buffer, offset, shape, strides };
        if v.numel() > 0 && v.last_element() >= v.buffer.len {
            return Err(RtError::new(format!(
                "view (offset {}, shape {:?}, strides {:?}) reaches element {} of a buffer of {}",
                v.offset,
                v.shape,
                v.strides,
                v.last_element(),
                v.buffer.len
            )));
        }
        Ok(v)
    }

    /// A window of this view: `offsets`, `shape`, `steps` per dimension (steps multiply the
    /// view's strides).
    pub fn subview(&self, offsets: &[usize], shape: &[usize], steps: &[usize]) -> RtResult<View> {
        let rank = self.shape.len();
        if offsets.len() != rank || shape.len() != rank || steps.len() != rank {
            return Err(RtError::new("subview: one offset, size and step per dimension"));
        }
        for d in 0..rank {
            if shape[d] > 0 && offsets[d] + (shape[d] - 1) * steps[d] >= self.shape[d] {
                return Err(RtError::new(format!(
                    "subview out of bounds in dimension {d}: offset {}, size {}, step {} of extent {}",
                    offsets[d], shape[d], steps[d], self.shape[d]
                )));
            }
        }
        let offset = self.offset + offsets.iter().zip(&self.strides).map(|(o, s)| o * s).sum::<usize>();
        let strides = self.strides.iter().zip(steps).map(|(s, k)| s * k).collect();
        View::new(self.buffer.clone(), offset, shape.to_vec(), strides)
    }

    /// Drops dimension `axis`, fixing its index.
    pub fn select(&self, axis: usize, index: usize) -> RtResult<View> {
        if axis >= self.shape.len() || index >= self.shape[axis] {
            return Err(RtError::new(format!("select index {index} out of range on axis {axis} of {:?}", self.shape)));
        }
        let mut shape = self.shape.clone();
        let mut strides = self.strides.clone();
        let offset = self.offset + index * strides[axis];
        shape.remove(axis);
        strides.remove(axis);
        View::new(self.buffer.clone(), offset, shape, strides)
    }

    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn dtype(&self) -> DType {
        self.buffer.dtype
    }

    /// Whether the view is row-major without gaps.
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1;
        for (&d, &s) in self.shape.iter().zip(&self.strides).rev() {
            if d != 1 && s != expected {
                return false;
            }
            expected *= d;
        }
        true
    }

    fn last_element(&self) -> usize {
        self.offset + self.shape.iter().zip(&self.strides).map(|(d, s)| d.saturating_sub(1) * s).sum::<usize>()
    }

    /// The half-open range of buffer elements the view may touch (for race checks).
    pub fn element_range(&self) -> (usize, usize) {
        if self.numel() == 0 {
            return (self.offset, self.offset);
        }
        (self.offset, self.last_element() + 1)
    }

    /// The buffer index of every element, in row-major order of the view.
    pub fn indices(&self) -> Vec<usize> {
        let n = self.numel();
        let mut out = Vec::with_capacity(n);
        if n == 0 {
            return out;
        }
        let rank = self.shape.len();
        let mut idx = vec![0usize; rank];
        let mut flat = self.offset;
        for _ in 0..n {
            out.push(flat);
            for d in (0..rank).rev() {
                idx[d] += 1;
                flat += self.strides[d];
                if idx[d] < self.shape[d] {
                    break;
                }
                flat -= self.strides[d] * idx[d];
                idx[d] = 0;
            }
        }
        out
    }

    /// The elements as `f64`, in row-major order.
    pub fn read(&self) -> Vec<f64> {
        let dtype = self.dtype();
        let size = dtype.size();
        let bytes = self.buffer.bytes();
        self.indices().into_iter().map(|i| dtype.read(&bytes[i * size..])).collect()
    }

    /// Stores `values` (row-major order of the view).
    pub fn write(&self, values: &[f64]) -> RtResult<()> {
        if values.len() != self.numel() {
            return Err(RtError::new(format!("writing {} values into a view of {}", values.len(), self.numel())));
        }
        let dtype = self.dtype();
        let size = dtype.size();
        let indices = self.indices();
        let mut bytes = self.buffer.bytes();
        for (i, v) in indices.into_iter().zip(values) {
            dtype.write(&mut bytes[i * size..], *v);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_address_the_right_elements() {
        let b = Buffer::new(DType::F32, 12);
        let whole = View::whole(b.clone(), &[3, 4]).unwrap();
        whole.write(&(0..12).map(f64::from).collect::<Vec<_>>()).unwrap();
        let col = whole.subview(&[0, 1], &[3, 2], &[1, 1]).unwrap();
        assert_eq!(col.read(), vec![1.0, 2.0, 5.0, 6.0, 9.0, 10.0]);
        assert!(!col.is_contiguous() && whole.is_contiguous());
        assert_eq!(whole.select(0, 2).unwrap().read(), vec![8.0, 9.0, 10.0, 11.0]);
        assert_eq!(col.element_range(), (1, 11));
        assert!(whole.subview(&[0, 3], &[1, 2], &[1, 1]).is_err());
        assert!(View::new(b, 10, vec![3], vec![1]).is_err());
    }
}
