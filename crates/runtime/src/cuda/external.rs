//! Memory and streams the runtime does not own: an embedder's tensors (torch's, through
//! DLPack) run as a rank's arguments without a copy, and the rank's outputs are copied into
//! the embedder's tensors.
//!
//! Invariants: a borrowed buffer is never freed or reused by the runtime (it is a
//! [`DevMem::foreign`] view); the caller keeps the memory alive for the run. Ordering with
//! the embedder's stream is the caller's: [`CudaBackend::wait_external`] makes the rank wait
//! for everything queued on that stream so far (the run itself ends with every stream of the
//! rank synchronized, so its outputs are complete when it returns).

use super::api::{self, RawStream};
use super::backend::CudaBackend;
use super::memory::{CudaBuf, DevMem};
use crate::buffer::contiguous_strides;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::exec::backend::Backend;
use cudarc::driver::sys;

impl CudaBackend {
    /// The dense row-major tensor of `shape` at device address `ptr` on rank `rank`'s GPU, as a
    /// buffer the runtime reads and writes but never frees.
    pub fn borrowed_buf(&self, rank: usize, ptr: u64, dtype: DType, shape: &[usize]) -> RtResult<CudaBuf> {
        let gpu = self.rank_gpu(rank)?;
        let bytes = shape.iter().product::<usize>() * dtype.size();
        if ptr == 0 && bytes > 0 {
            return Err(RtError::new("a borrowed buffer at address 0"));
        }
        let mem = DevMem::foreign(ptr, bytes.max(1), gpu.alloc.clone());
        Ok(CudaBuf { mem, dtype, offset: 0, shape: shape.to_vec(), strides: contiguous_strides(shape) })
    }

    /// Makes rank `rank` wait (host side) until everything queued on `stream` so far is done.
    pub fn wait_external(&self, rank: usize, stream: RawStream) -> RtResult<()> {
        self.rank_gpu(rank)?;
        api::sync_stream(stream)
    }

    /// Copies the dense buffer `src` into `bytes` bytes at `dst`, then returns `src` to the
    /// pool when `release` (not for a borrowed buffer, nor twice for one buffer); the copy is
    /// complete on return.
    pub fn copy_out(&self, rank: usize, src: &CudaBuf, dst: u64, bytes: usize, release: bool) -> RtResult<()> {
        self.rank_gpu(rank)?;
        if !src.is_contiguous() || src.bytes() != bytes {
            let msg = format!("an output of {} bytes (dense: {}) into {bytes} bytes", src.bytes(), src.is_contiguous());
            return Err(RtError::new(msg));
        }
        api::check(unsafe { sys::cuMemcpyDtoD_v2(dst, src.addr(), bytes) }, "cuMemcpyDtoD")?;
        if !release {
            return Ok(());
        }
        let main = self.main_stream(rank)?;
        self.dealloc(rank, &main, src, &Default::default())?;
        api::sync_stream(main.raw())
    }

    /// A dense copy of `src` (dense) in a new block of rank `rank`'s GPU; complete on return.
    pub fn copy_to_new(&self, rank: usize, src: &CudaBuf) -> RtResult<CudaBuf> {
        let dst = self.rank_gpu(rank)?.new_buf(src.dtype, &src.shape)?;
        self.copy_out(rank, src, dst.addr(), dst.bytes(), false)?;
        Ok(dst)
    }
}
