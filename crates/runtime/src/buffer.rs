//! Buffers and views of the CPU backend.
//!
//! A [`Buffer`] is one allocation of one rank: an element type, an element count and bytes
//! behind a mutex (kernels on different streams may touch one buffer; the race checker, not
//! the type system, judges whether they may). A [`View`] is a strided window into a buffer
//! (offset, shape, strides, all in elements): what `host.shard_by_stream`, `host.select` and
//! `host.slice` produce, and what kernels and communication read and write.
//!
//! Shapes and strides are [`Dims`]: up to [`INLINE_DIMS`] extents stored inline (no heap
//! allocation), more on the heap. Making, cloning and dropping a view of up to that rank thus
//! never allocates, which keeps the per-op cost of the executor low.
//!
//! A buffer's bytes are its own, or, for [`Buffer::borrowed`], memory of the caller's (a
//! tensor passed zero-copy as a rank's argument, fuser.torch's cpu ranks), kept alive by a
//! guard the buffer holds until it is dropped.
//!
//! Invariant: every element a view addresses lies inside its buffer (checked when the view is
//! made, see [`View::new`]).

use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::layout;
use std::fmt;
use std::ops::{Deref, DerefMut};
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
    data: Mutex<Storage>,
}

/// The bytes of a buffer: its own, or borrowed memory (see [`Buffer::borrowed`]).
pub enum Storage {
    Owned(Vec<u8>),
    Borrowed {
        ptr: *mut u8,
        len: usize,
        /// Keeps the memory alive (and releases it when dropped, with the buffer).
        _guard: Box<dyn Send>,
    },
}

// SAFETY: a borrowed storage's memory is only reached through its buffer's mutex, and
// `Buffer::borrowed`'s caller guarantees that nothing else touches it meanwhile and that the
// guard (itself `Send`) keeps it valid.
unsafe impl Send for Storage {}

impl Deref for Storage {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Storage::Owned(v) => v,
            Storage::Borrowed { len: 0, .. } => &[],
            // SAFETY: see `Buffer::borrowed`.
            Storage::Borrowed { ptr, len, .. } => unsafe { std::slice::from_raw_parts(*ptr, *len) },
        }
    }
}

impl DerefMut for Storage {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            Storage::Owned(v) => v,
            Storage::Borrowed { len: 0, .. } => &mut [],
            // SAFETY: see `Buffer::borrowed`.
            Storage::Borrowed { ptr, len, .. } => unsafe { std::slice::from_raw_parts_mut(*ptr, *len) },
        }
    }
}

impl fmt::Debug for Storage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Storage::Owned(v) => write!(f, "Owned({} bytes)", v.len()),
            Storage::Borrowed { ptr, len, .. } => write!(f, "Borrowed({len} bytes at {ptr:?})"),
        }
    }
}

impl Buffer {
    /// A zero-filled buffer of `len` elements.
    pub fn new(dtype: DType, len: usize) -> Arc<Buffer> {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Arc::new(Buffer { id, dtype, len, data: Mutex::new(Storage::Owned(vec![0u8; len * dtype.size()])) })
    }

    /// A buffer of `len` elements over the caller's memory at `ptr` (used in place, zero copy:
    /// what the program writes into it the caller sees); `guard` keeps the memory alive and is
    /// dropped with the buffer.
    ///
    /// # Safety
    /// `ptr` must address `len * dtype.size()` bytes (any alignment: elements are read and
    /// written bytewise), valid for reads and writes for as long as `guard` lives, and nothing
    /// but this buffer may read or write them while it is in use.
    pub unsafe fn borrowed(dtype: DType, len: usize, ptr: *mut u8, guard: Box<dyn Send>) -> Arc<Buffer> {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let data = Storage::Borrowed { ptr, len: len * dtype.size(), _guard: guard };
        Arc::new(Buffer { id, dtype, len, data: Mutex::new(data) })
    }

    /// A buffer standing for another process's buffer `id` (the hub of a multi-process run
    /// keys CUDA IPC handle pairs by the ids the ranks use), holding `bytes`.
    pub(crate) fn proxy(id: u64, dtype: DType, bytes: Vec<u8>) -> Arc<Buffer> {
        let len = bytes.len() / dtype.size();
        Arc::new(Buffer { id, dtype, len, data: Mutex::new(Storage::Owned(bytes)) })
    }

    /// The bytes, locked (a poisoned lock still yields the data: a panicking kernel elsewhere
    /// must not turn into a second panic here).
    pub fn bytes(&self) -> MutexGuard<'_, Storage> {
        self.data.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// How many extents a [`Dims`] holds without a heap allocation.
pub const INLINE_DIMS: usize = 8;

/// A list of extents (a shape or strides): inline up to [`INLINE_DIMS`] entries, on the heap
/// beyond. Behaves as a `[usize]` (it dereferences to one); compares, prints and converts like
/// a `Vec<usize>`.
///
/// Invariant: the inline form is used exactly when the length is at most [`INLINE_DIMS`].
#[derive(Clone)]
pub struct Dims(DimsRepr);

#[derive(Clone)]
enum DimsRepr {
    Inline { len: u8, data: [usize; INLINE_DIMS] },
    Heap(Vec<usize>),
}

impl Dims {
    /// `len` copies of `value`.
    pub fn filled(len: usize, value: usize) -> Dims {
        if len <= INLINE_DIMS {
            Dims(DimsRepr::Inline { len: len as u8, data: [value; INLINE_DIMS] })
        } else {
            Dims(DimsRepr::Heap(vec![value; len]))
        }
    }

    /// The extents of `values`.
    pub fn from_slice(values: &[usize]) -> Dims {
        if values.len() <= INLINE_DIMS {
            let mut data = [0; INLINE_DIMS];
            data[..values.len()].copy_from_slice(values);
            Dims(DimsRepr::Inline { len: values.len() as u8, data })
        } else {
            Dims(DimsRepr::Heap(values.to_vec()))
        }
    }

    /// Removes and returns the entry at `index` (which must be in range).
    pub fn remove(&mut self, index: usize) -> usize {
        let value = self[index];
        let len = self.len();
        self.copy_within(index + 1..len, index);
        self.truncate(len - 1);
        value
    }

    /// Keeps the first `len` entries (no-op when there are fewer).
    fn truncate(&mut self, len: usize) {
        match &mut self.0 {
            DimsRepr::Inline { len: l, .. } => *l = (*l).min(len as u8),
            DimsRepr::Heap(v) => {
                v.truncate(len);
                if len <= INLINE_DIMS {
                    *self = Dims::from_slice(&v[..]);
                }
            }
        }
    }
}

impl Default for Dims {
    fn default() -> Dims {
        Dims::filled(0, 0)
    }
}

impl Deref for Dims {
    type Target = [usize];
    #[inline]
    fn deref(&self) -> &[usize] {
        match &self.0 {
            DimsRepr::Inline { len, data } => &data[..*len as usize],
            DimsRepr::Heap(v) => v,
        }
    }
}

impl DerefMut for Dims {
    #[inline]
    fn deref_mut(&mut self) -> &mut [usize] {
        match &mut self.0 {
            DimsRepr::Inline { len, data } => &mut data[..*len as usize],
            DimsRepr::Heap(v) => v,
        }
    }
}

impl fmt::Debug for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for Dims {
    fn eq(&self, other: &Dims) -> bool {
        **self == **other
    }
}

impl Eq for Dims {}

impl PartialEq<[usize]> for Dims {
    fn eq(&self, other: &[usize]) -> bool {
        **self == *other
    }
}

impl PartialEq<Vec<usize>> for Dims {
    fn eq(&self, other: &Vec<usize>) -> bool {
        **self == other[..]
    }
}

impl<const N: usize> PartialEq<[usize; N]> for Dims {
    fn eq(&self, other: &[usize; N]) -> bool {
        **self == other[..]
    }
}

impl From<&[usize]> for Dims {
    fn from(values: &[usize]) -> Dims {
        Dims::from_slice(values)
    }
}

impl From<Vec<usize>> for Dims {
    fn from(values: Vec<usize>) -> Dims {
        if values.len() <= INLINE_DIMS { Dims::from_slice(&values) } else { Dims(DimsRepr::Heap(values)) }
    }
}

impl<const N: usize> From<[usize; N]> for Dims {
    fn from(values: [usize; N]) -> Dims {
        Dims::from_slice(&values)
    }
}

impl From<Dims> for Vec<usize> {
    fn from(d: Dims) -> Vec<usize> {
        match d.0 {
            DimsRepr::Inline { len, data } => data[..len as usize].to_vec(),
            DimsRepr::Heap(v) => v,
        }
    }
}

impl FromIterator<usize> for Dims {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Dims {
        let mut data = [0; INLINE_DIMS];
        let mut len = 0;
        let mut iter = iter.into_iter();
        for v in iter.by_ref() {
            if len == INLINE_DIMS {
                let mut heap = data.to_vec();
                heap.push(v);
                heap.extend(iter);
                return Dims(DimsRepr::Heap(heap));
            }
            data[len] = v;
            len += 1;
        }
        Dims(DimsRepr::Inline { len: len as u8, data })
    }
}

impl<'a> IntoIterator for &'a Dims {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A strided window into a buffer.
#[derive(Clone, Debug)]
pub struct View {
    pub buffer: Arc<Buffer>,
    /// Offset of element `[0, 0, ...]`, in elements.
    pub offset: usize,
    pub shape: Dims,
    /// In elements, one per dimension.
    pub strides: Dims,
}

/// Row-major strides of `shape`.
pub fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    contiguous_dims(shape).into()
}

/// Row-major strides of `shape`, inline.
fn contiguous_dims(shape: &[usize]) -> Dims {
    let mut strides = Dims::filled(shape.len(), 1);
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
        Ok(View { buffer, offset: 0, strides: contiguous_dims(shape), shape: Dims::from_slice(shape) })
    }

    /// A view of `buffer`; errors when an addressed element lies outside it.
    pub fn new(buffer: Arc<Buffer>, offset: usize, shape: impl Into<Dims>, strides: impl Into<Dims>) -> RtResult<View> {
        let (shape, strides) = (shape.into(), strides.into());
        layout::check_view(offset, &shape, &strides, buffer.len)?;
        Ok(View { buffer, offset, shape, strides })
    }

    /// A window of this view: `offsets`, `shape`, `steps` per dimension (steps multiply the
    /// view's strides).
    pub fn subview(&self, offsets: &[usize], shape: &[usize], steps: &[usize]) -> RtResult<View> {
        layout::check_window(&self.shape, offsets, shape, steps)?;
        let offset = layout::window_offset(self.offset, &self.strides, offsets);
        let strides: Dims = self.strides.iter().zip(steps).map(|(s, k)| s * k).collect();
        View::new(self.buffer.clone(), offset, Dims::from_slice(shape), strides)
    }

    /// Drops dimension `axis`, fixing its index.
    pub fn select(&self, axis: usize, index: usize) -> RtResult<View> {
        layout::check_select(&self.shape, axis, index)?;
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
        layout::is_dense(&self.shape, &self.strides)
    }

    fn last_element(&self) -> usize {
        self.offset + self.shape.iter().zip(self.strides.iter()).map(|(d, s)| d.saturating_sub(1) * s).sum::<usize>()
    }

    /// The half-open range of buffer elements the view may touch (for race checks).
    pub fn element_range(&self) -> (usize, usize) {
        if self.numel() == 0 {
            return (self.offset, self.offset);
        }
        (self.offset, self.last_element() + 1)
    }

    /// Calls `f` with the buffer index of every element, in row-major order of the view
    /// (without allocating).
    #[inline]
    pub fn for_each_index(&self, mut f: impl FnMut(usize)) {
        let n = self.numel();
        if n == 0 {
            return;
        }
        if self.is_contiguous() {
            (self.offset..self.offset + n).for_each(f);
            return;
        }
        let rank = self.shape.len();
        let mut idx = Dims::filled(rank, 0);
        let mut flat = self.offset;
        for _ in 0..n {
            f(flat);
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
    }

    /// The buffer index of every element, in row-major order of the view.
    pub fn indices(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.numel());
        self.for_each_index(|i| out.push(i));
        out
    }

    /// Stores the elements as `f64` into `out` (row-major order; `out` holds [`View::numel`]
    /// values), without allocating.
    pub fn read_into(&self, out: &mut [f64]) -> RtResult<()> {
        if out.len() != self.numel() {
            return Err(RtError::new(format!("reading a view of {} into {} values", self.numel(), out.len())));
        }
        let dtype = self.dtype();
        let size = dtype.size();
        let bytes = self.buffer.bytes();
        let mut slots = out.iter_mut();
        self.for_each_index(|i| {
            if let Some(o) = slots.next() {
                *o = dtype.read(&bytes[i * size..]);
            }
        });
        Ok(())
    }

    /// The elements as `f64`, in row-major order.
    pub fn read(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.numel()];
        // The length matches by construction.
        let _ = self.read_into(&mut out);
        out
    }

    /// The elements as integers (exact for integer types, see [`DType::read_int`]), in
    /// row-major order.
    pub fn read_ints(&self) -> Vec<i64> {
        let dtype = self.dtype();
        let size = dtype.size();
        let bytes = self.buffer.bytes();
        let mut out = Vec::with_capacity(self.numel());
        self.for_each_index(|i| out.push(dtype.read_int(&bytes[i * size..])));
        out
    }

    /// Stores integer `values` (row-major order of the view; wrapped to an integer type,
    /// rounded to a float type, see [`DType::write_int`]).
    pub fn write_ints(&self, values: &[i64]) -> RtResult<()> {
        if values.len() != self.numel() {
            return Err(RtError::new(format!("writing {} values into a view of {}", values.len(), self.numel())));
        }
        let dtype = self.dtype();
        let size = dtype.size();
        let mut bytes = self.buffer.bytes();
        let mut values = values.iter();
        self.for_each_index(|i| {
            if let Some(&v) = values.next() {
                dtype.write_int(&mut bytes[i * size..], v);
            }
        });
        Ok(())
    }

    /// Stores `values` (row-major order of the view).
    pub fn write(&self, values: &[f64]) -> RtResult<()> {
        if values.len() != self.numel() {
            return Err(RtError::new(format!("writing {} values into a view of {}", values.len(), self.numel())));
        }
        let dtype = self.dtype();
        let size = dtype.size();
        let mut bytes = self.buffer.bytes();
        let mut values = values.iter();
        self.for_each_index(|i| {
            if let Some(v) = values.next() {
                dtype.write(&mut bytes[i * size..], *v);
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borrowed_memory_is_used_in_place_and_released_with_the_buffer() {
        struct Guard(Arc<std::sync::atomic::AtomicBool>);
        impl Drop for Guard {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let released = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut memory: Vec<f32> = vec![1.0, 2.0, 3.0, 4.0];
        // SAFETY: `memory` outlives the buffer (dropped below) and is not touched meanwhile.
        let b =
            unsafe { Buffer::borrowed(DType::F32, 4, memory.as_mut_ptr().cast(), Box::new(Guard(released.clone()))) };
        let v = View::whole(b.clone(), &[2, 2]).unwrap();
        assert_eq!(v.select(1, 0).unwrap().read(), vec![1.0, 3.0]);
        v.select(0, 1).unwrap().write(&[30.0, 40.0]).unwrap();
        assert!(format!("{:?}", b).contains("Borrowed(16 bytes"));
        drop((v, b));
        assert!(released.load(Ordering::SeqCst));
        assert_eq!(memory, vec![1.0, 2.0, 30.0, 40.0]);
        // An empty borrowed buffer needs no memory.
        let empty = unsafe { Buffer::borrowed(DType::F64, 0, std::ptr::null_mut(), Box::new(())) };
        assert!(empty.bytes().is_empty());
    }

    #[test]
    fn views_address_the_right_elements() {
        let b = Buffer::new(DType::F32, 12);
        let whole = View::whole(b.clone(), &[3, 4]).unwrap();
        whole.write(&(0..12).map(f64::from).collect::<Vec<_>>()).unwrap();
        let col = whole.subview(&[0, 1], &[3, 2], &[1, 1]).unwrap();
        assert_eq!(col.read(), vec![1.0, 2.0, 5.0, 6.0, 9.0, 10.0]);
        assert_eq!(col.indices(), vec![1, 2, 5, 6, 9, 10]);
        assert!(!col.is_contiguous() && whole.is_contiguous());
        assert_eq!(whole.select(0, 2).unwrap().read(), vec![8.0, 9.0, 10.0, 11.0]);
        assert_eq!(col.element_range(), (1, 11));
        assert!(whole.subview(&[0, 3], &[1, 2], &[1, 1]).is_err());
        assert!(View::new(b, 10, vec![3], vec![1]).is_err());
    }

    #[test]
    fn dims_are_inline_up_to_the_capacity_and_behave_like_vectors() {
        let small = Dims::from_slice(&[2, 3, 4]);
        assert!(matches!(small.0, DimsRepr::Inline { len: 3, .. }));
        assert_eq!(small, vec![2, 3, 4]);
        assert_eq!(small, [2, 3, 4]);
        assert_eq!(format!("{small:?}"), "[2, 3, 4]");
        let big: Dims = (0..INLINE_DIMS + 2).collect();
        assert!(matches!(big.0, DimsRepr::Heap(_)));
        assert_eq!(big.len(), INLINE_DIMS + 2);
        assert_eq!(Vec::from(big.clone()), (0..INLINE_DIMS + 2).collect::<Vec<_>>());
        let mut shrunk = big;
        shrunk.remove(0);
        shrunk.remove(3);
        assert!(matches!(shrunk.0, DimsRepr::Inline { len, .. } if len as usize == INLINE_DIMS));
        assert_eq!(shrunk, [1, 2, 3, 5, 6, 7, 8, 9]);
        let mut s = small;
        assert_eq!(s.remove(1), 3);
        assert_eq!(s, [2, 4]);
        assert_eq!(Dims::default().len(), 0);
    }

    #[test]
    fn views_of_high_rank_work_on_the_heap() {
        let shape = [1usize, 2, 1, 2, 1, 2, 1, 2, 1, 2];
        let b = Buffer::new(DType::F64, shape.iter().product());
        let whole = View::whole(b, &shape).unwrap();
        whole.write(&(0..32).map(f64::from).collect::<Vec<_>>()).unwrap();
        let sel = whole.select(9, 1).unwrap();
        assert_eq!(sel.shape.len(), 9);
        assert_eq!(sel.read(), (0..16).map(|i| f64::from(2 * i + 1)).collect::<Vec<_>>());
        let inner = sel.select(0, 0).unwrap().select(1, 0).unwrap();
        assert_eq!(inner.shape, [2, 2, 1, 2, 1, 2, 1]);
        assert_eq!(inner.read(), sel.read());
    }
}
