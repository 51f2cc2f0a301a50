//! Device memory of the CUDA backend: a stream-safe caching allocator per GPU and the strided
//! views ([`CudaBuf`]) the executor passes around.
//!
//! - [`Allocator::alloc`] reuses a freed block of the same rounded size when one is ready, else
//!   calls `cuMemAlloc` (blocks live until the backend goes: no `cuMemFree` on the hot path).
//!   Every block is [`BLOCK_ALIGN`] (256) byte aligned, so GEMM operands are aligned by the
//!   allocator, never by luck (cuBLASLt's kernel choice depends on it).
//! - `host.dealloc` on a stream ([`Allocator::free_on`]) records an event there; the block is
//!   reused only once that event completed, so work posted before the dealloc may still read
//!   it (the contract of [`crate::exec::Backend::dealloc`]).
//! - A block dropped without a dealloc (arguments, results, staging temporaries whose last
//!   view went away) is parked until the next [`Allocator::reclaim_parked`], which the backend
//!   calls after synchronizing every stream of the GPU.
//!
//! - A block exported for CUDA IPC ([`DevMem::export`]: `cuIpcGetMemHandle` names the whole
//!   `cuMemAlloc` allocation, and every block here is one) is never handed out again: peers
//!   may hold it open until the end of the run, so a dealloc or drop retires it instead of
//!   pooling it (freed when the allocator goes).
//! - Memory of another process opened through CUDA IPC is viewed through a *foreign*
//!   [`DevMem`] ([`DevMem::foreign`]), which the allocator never takes.
//!
//! - While a CUDA graph of this GPU exists ([`Allocator::begin_graph`] to
//!   [`Allocator::end_graph`]), a dealloc or drop *holds* the block instead: the graph's replays
//!   keep reading and writing the addresses its captured iteration used, so none of them may be
//!   handed out again until the graph goes (no events are recorded or queried meanwhile: an
//!   event recorded during a capture cannot be queried).
//!
//! Invariant: a block is in at most one of: live (owned by a [`DevMem`]), pending (event not
//! yet done), parked, held (by a graph), free.

use super::api::{self, Event, RawStream};
use crate::buffer::contiguous_strides;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::watchdog::lock;
use cudarc::driver::sys;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Blocks are rounded up to this many bytes.
const GRANULE: usize = 512;
/// Every block starts at a multiple of this many bytes (`cuMemAlloc` guarantees it; checked,
/// since cuBLASLt's choice of kernels depends on the alignment of its operands: a buffer is
/// never less aligned by luck, only a view at an odd offset is).
pub const BLOCK_ALIGN: u64 = 256;

#[derive(Default)]
struct Pools {
    free: HashMap<usize, Vec<u64>>,
    pending: Vec<(u64, usize, Arc<Event>)>,
    parked: Vec<(u64, usize)>,
    /// Blocks released while a graph exists.
    held: Vec<(u64, usize)>,
    /// Every block ever allocated (freed when the allocator goes).
    all: Vec<u64>,
}

/// The caching allocator of one GPU.
pub struct Allocator {
    pub device: i32,
    ctx: api::Ctx,
    pools: Mutex<Pools>,
    /// Set when the GPU closed with streams still busy: the blocks are then left to the driver
    /// (freeing memory a stuck kernel may use could block the process at exit).
    leak: AtomicBool,
    /// A graph of this GPU exists (see the module docs).
    graph: AtomicBool,
}

impl Allocator {
    pub fn new(device: i32, ctx: api::Ctx) -> Arc<Allocator> {
        Arc::new(Allocator {
            device,
            ctx,
            pools: Mutex::new(Pools::default()),
            leak: AtomicBool::new(false),
            graph: AtomicBool::new(false),
        })
    }

    /// A block of at least `bytes` bytes (the context must be current).
    pub fn alloc(self: &Arc<Self>, bytes: usize) -> RtResult<Arc<DevMem>> {
        let size = bytes.max(1).div_ceil(GRANULE) * GRANULE;
        let reused = {
            let mut p = lock(&self.pools);
            if !self.graph.load(Ordering::Acquire) {
                Self::collect_done(&mut p);
            }
            p.free.get_mut(&size).and_then(Vec::pop)
        };
        let ptr = match reused {
            Some(ptr) => ptr,
            None => {
                let mut ptr = 0;
                api::check(unsafe { sys::cuMemAlloc_v2(&mut ptr, size) }, "cuMemAlloc").map_err(|e| {
                    RtError::new(format!("{} (asking for {size} bytes on GPU {})", e.message, self.device))
                })?;
                lock(&self.pools).all.push(ptr);
                if !ptr.is_multiple_of(BLOCK_ALIGN) {
                    return Err(RtError::new(format!(
                        "cuda: cuMemAlloc returned {ptr:#x}, not {BLOCK_ALIGN}-byte aligned (GPU {})",
                        self.device
                    )));
                }
                ptr
            }
        };
        Ok(Arc::new(DevMem {
            ptr,
            size,
            allocator: self.clone(),
            released: AtomicBool::new(false),
            exported: AtomicBool::new(false),
        }))
    }

    fn collect_done(p: &mut Pools) {
        let mut i = 0;
        while i < p.pending.len() {
            if p.pending[i].2.done() {
                let (ptr, size, _) = p.pending.swap_remove(i);
                p.free.entry(size).or_default().push(ptr);
            } else {
                i += 1;
            }
        }
    }

    /// Returns `mem` to the pool once `stream` reaches this point.
    pub fn free_on(&self, mem: &DevMem, stream: RawStream) -> RtResult<()> {
        if mem.released.swap(true, Ordering::AcqRel) {
            return Err(RtError::new("cuda: a buffer was deallocated twice"));
        }
        if mem.exported.load(Ordering::Acquire) {
            return Ok(());
        }
        if self.graph.load(Ordering::Acquire) {
            lock(&self.pools).held.push((mem.ptr, mem.size));
            return Ok(());
        }
        let ev = Event::record_on(stream)?;
        lock(&self.pools).pending.push((mem.ptr, mem.size, ev));
        Ok(())
    }

    /// Leaves every block to the driver when the allocator goes (see [`Allocator::leak`]).
    pub fn leak_on_drop(&self) {
        self.leak.store(true, Ordering::Release);
    }

    /// From now on released blocks are held for a graph (call before its capture begins).
    pub fn begin_graph(&self) {
        self.graph.store(true, Ordering::Release);
    }

    /// The graph went and no stream runs it any more: held blocks become reusable.
    pub fn end_graph(&self) {
        self.graph.store(false, Ordering::Release);
        let mut p = lock(&self.pools);
        let held = std::mem::take(&mut p.held);
        for (ptr, size) in held {
            p.free.entry(size).or_default().push(ptr);
        }
    }

    /// The number of blocks held for a graph.
    pub fn held_blocks(&self) -> usize {
        lock(&self.pools).held.len()
    }

    /// Makes parked blocks reusable; call only when no stream of the GPU can still use them.
    pub fn reclaim_parked(&self) {
        let mut p = lock(&self.pools);
        let parked = std::mem::take(&mut p.parked);
        for (ptr, size) in parked {
            p.free.entry(size).or_default().push(ptr);
        }
        Self::collect_done(&mut p);
    }
}

impl Drop for Allocator {
    fn drop(&mut self) {
        let p = lock(&self.pools);
        if p.all.is_empty() || self.leak.load(Ordering::Acquire) {
            return;
        }
        // The GPU's streams were synchronized (with a deadline) when it closed; no
        // context-wide synchronization here: the primary context may hold other backends'
        // streams, stuck or not.
        unsafe {
            let _ = sys::cuCtxSetCurrent(self.ctx.0);
            for &ptr in &p.all {
                let _ = sys::cuMemFree_v2(ptr);
            }
        }
    }
}

/// One live block.
pub struct DevMem {
    pub ptr: u64,
    pub size: usize,
    allocator: Arc<Allocator>,
    released: AtomicBool,
    /// Exported for CUDA IPC: never reused (see the module docs).
    exported: AtomicBool,
}

impl std::fmt::Debug for DevMem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DevMem({:#x}, {} bytes, GPU {})", self.ptr, self.size, self.allocator.device)
    }
}

impl DevMem {
    pub fn allocator(&self) -> &Arc<Allocator> {
        &self.allocator
    }

    /// A view of `size` bytes at `ptr` that this allocator does not own (another process's
    /// memory opened through CUDA IPC): dropping it returns nothing to the pools.
    pub fn foreign(ptr: u64, size: usize, allocator: Arc<Allocator>) -> Arc<DevMem> {
        Arc::new(DevMem { ptr, size, allocator, released: AtomicBool::new(true), exported: AtomicBool::new(true) })
    }

    /// The CUDA IPC handle of the block (the context must be current); from now on the block
    /// is never reused.
    pub fn export(&self) -> RtResult<sys::CUipcMemHandle> {
        if self.released.load(Ordering::Acquire) && !self.exported.load(Ordering::Acquire) {
            return Err(RtError::new("cuda: exporting a deallocated buffer"));
        }
        let mut h = sys::CUipcMemHandle { reserved: [0; 64] };
        api::check(unsafe { sys::cuIpcGetMemHandle(&mut h, self.ptr) }, "cuIpcGetMemHandle")?;
        self.exported.store(true, Ordering::Release);
        Ok(h)
    }
}

impl Drop for DevMem {
    fn drop(&mut self) {
        if !self.released.load(Ordering::Acquire) && !self.exported.load(Ordering::Acquire) {
            let mut p = lock(&self.allocator.pools);
            if self.allocator.graph.load(Ordering::Acquire) {
                p.held.push((self.ptr, self.size));
            } else {
                p.parked.push((self.ptr, self.size));
            }
        }
    }
}

/// A strided view of device memory (offset, shape and strides in elements).
#[derive(Clone, Debug)]
pub struct CudaBuf {
    pub mem: Arc<DevMem>,
    pub dtype: DType,
    pub offset: usize,
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
}

impl CudaBuf {
    /// A whole, row-major block.
    pub fn whole(mem: Arc<DevMem>, dtype: DType, shape: &[usize]) -> CudaBuf {
        CudaBuf { mem, dtype, offset: 0, shape: shape.to_vec(), strides: contiguous_strides(shape) }
    }

    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn bytes(&self) -> usize {
        self.numel() * self.dtype.size()
    }

    /// The device address of element `[0, 0, ...]`.
    pub fn addr(&self) -> u64 {
        self.mem.ptr + (self.offset * self.dtype.size()) as u64
    }

    /// The GPU holding the memory.
    pub fn device(&self) -> i32 {
        self.mem.allocator.device
    }

    /// Whether the elements are dense in row-major order (extents of 1 ignore their stride).
    pub fn is_contiguous(&self) -> bool {
        crate::layout::is_dense(&self.shape, &self.strides)
    }

    /// The elements the block holds.
    pub fn capacity(&self) -> usize {
        self.mem.size / self.dtype.size()
    }

    /// The same block seen through another layout (checked against the block).
    pub fn relayout(&self, offset: usize, shape: Vec<usize>, strides: Vec<usize>) -> RtResult<CudaBuf> {
        crate::layout::check_view(offset, &shape, &strides, self.capacity())?;
        Ok(CudaBuf { offset, shape, strides, ..self.clone() })
    }

    /// A window: `offsets`, `sizes`, `steps` per dimension (steps multiply the strides).
    pub fn subview(&self, offsets: &[usize], sizes: &[usize], steps: &[usize]) -> RtResult<CudaBuf> {
        crate::layout::check_window(&self.shape, offsets, sizes, steps)?;
        let offset = crate::layout::window_offset(self.offset, &self.strides, offsets);
        self.relayout(offset, sizes.to_vec(), self.strides.iter().zip(steps).map(|(s, k)| s * k).collect())
    }

    /// Drops dimension `axis`, fixing its index.
    pub fn select(&self, axis: usize, index: usize) -> RtResult<CudaBuf> {
        crate::layout::check_select(&self.shape, axis, index)?;
        let (mut shape, mut strides) = (self.shape.clone(), self.strides.clone());
        let offset = self.offset + index * strides[axis];
        shape.remove(axis);
        strides.remove(axis);
        self.relayout(offset, shape, strides)
    }

    /// `(rows, row length, row pitch)` in elements when the view is rows of dense elements at a
    /// fixed pitch (what a 2-D copy can move), the rows being all dimensions but the last.
    pub fn as_rows(&self) -> Option<(usize, usize, usize)> {
        let Some((&width, outer)) = self.shape.split_last() else { return Some((1, 1, 1)) };
        let (&inner_stride, outer_strides) = self.strides.split_last().expect("one stride per dimension");
        if width != 1 && inner_stride != 1 {
            return None;
        }
        // The leading dimensions must collapse to one of stride `pitch`.
        let pitch = outer_strides.last().copied().unwrap_or(width);
        let mut expected = pitch;
        for (&n, &s) in outer.iter().zip(outer_strides).rev() {
            if n != 1 && s != expected {
                return None;
            }
            expected *= n;
        }
        (pitch >= width).then_some((outer.iter().product(), width, pitch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(shape: &[usize], strides: &[usize]) -> CudaBuf {
        // A view whose memory is never touched: an allocator with a null context is enough to
        // test the layout predicates (no block is allocated, dropping parks a fake pointer).
        let a = Allocator::new(0, api::Ctx(std::ptr::null_mut()));
        let mem = DevMem::foreign(0, 0, a);
        CudaBuf { mem, dtype: DType::F32, offset: 0, shape: shape.to_vec(), strides: strides.to_vec() }
    }

    /// A block of `size` bytes at a fake address (never touched: no CUDA call is made).
    fn fake_block(a: &Arc<Allocator>, ptr: u64, size: usize) -> Arc<DevMem> {
        Arc::new(DevMem {
            ptr,
            size,
            allocator: a.clone(),
            released: AtomicBool::new(false),
            exported: AtomicBool::new(false),
        })
    }

    #[test]
    fn blocks_released_while_a_graph_exists_are_held_until_it_goes() {
        let a = Allocator::new(0, api::Ctx(std::ptr::null_mut()));
        a.begin_graph();
        // A dealloc during the capture and a temporary dropped during it: both held, no event.
        let (x, y) = (fake_block(&a, 0x1000, 512), fake_block(&a, 0x2000, 512));
        a.free_on(&x, api::RawStream(std::ptr::null_mut())).unwrap();
        drop(y);
        assert_eq!(a.held_blocks(), 2);
        // Nothing is handed out while the graph exists, even after a full synchronization.
        a.reclaim_parked();
        assert!(lock(&a.pools).free.get(&512).is_none_or(Vec::is_empty));
        a.end_graph();
        assert_eq!(a.held_blocks(), 0);
        let mut free = lock(&a.pools).free.get(&512).cloned().unwrap();
        free.sort();
        assert_eq!(free, vec![0x1000, 0x2000]);
        // Without a graph, a dropped block is parked as before.
        drop(fake_block(&a, 0x3000, 1024));
        assert_eq!((a.held_blocks(), lock(&a.pools).parked.len()), (0, 1));
        lock(&a.pools).free.clear();
        lock(&a.pools).parked.clear();
    }

    #[test]
    fn rounded_sizes_keep_reused_blocks_aligned() {
        // Pools hand out whole blocks of GRANULE multiples, each from one cuMemAlloc: every
        // block start is BLOCK_ALIGN aligned whatever was freed before it.
        assert!(GRANULE.is_multiple_of(BLOCK_ALIGN as usize));
        assert_eq!(BLOCK_ALIGN, 256);
    }

    #[test]
    fn contiguity_and_rows() {
        assert!(view(&[4, 3], &[3, 1]).is_contiguous());
        assert!(!view(&[4, 3], &[6, 1]).is_contiguous());
        assert_eq!(view(&[4, 3], &[6, 1]).as_rows(), Some((4, 3, 6)));
        assert_eq!(view(&[2, 4, 3], &[24, 6, 1]).as_rows(), Some((8, 3, 6)));
        assert_eq!(view(&[2, 4, 3], &[100, 6, 1]).as_rows(), None);
        assert_eq!(view(&[4, 3], &[1, 4]).as_rows(), None);
        assert!(view(&[1, 3], &[99, 1]).is_contiguous());
    }
}
