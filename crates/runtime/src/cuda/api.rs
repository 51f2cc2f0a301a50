//! Thin, checked wrappers over the CUDA driver API (through cudarc's dynamically loaded
//! bindings): library probing, contexts, streams, events and error conversion.
//!
//! cudarc panics when a library it is asked to use cannot be loaded, so every entry point of
//! the CUDA backend first calls [`load_libraries`], which checks with `is_culib_present` and
//! returns an error naming the missing library instead. Raw handles are wrapped in small
//! `Send + Sync` newtypes: the driver allows using them from any thread once the owning
//! context is current on it ([`Device::bind`]).

use crate::error::{RtError, RtResult};
use cudarc::driver::sys;
use std::sync::Arc;

/// Converts a driver status into an error naming the call.
pub fn check(r: sys::CUresult, what: &str) -> RtResult<()> {
    r.result().map_err(|e| {
        let text = e.error_string().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        RtError::new(format!("cuda: {what} failed: {:?} {text}", e.0))
    })
}

/// Checks that the driver, cuBLAS, NCCL and NVRTC libraries can be loaded and initializes the
/// driver; the error says which library is missing (CI machines have none: the caller skips).
pub fn load_libraries() -> RtResult<()> {
    use std::sync::OnceLock;
    static LOADED: OnceLock<Result<(), String>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let present = [
                ("the CUDA driver (libcuda.so)", unsafe { sys::is_culib_present() }),
                ("cuBLAS (libcublas.so)", unsafe { cudarc::cublas::sys::is_culib_present() }),
                ("NCCL (libnccl.so)", unsafe { cudarc::nccl::sys::is_culib_present() }),
                ("NVRTC (libnvrtc.so)", unsafe { cudarc::nvrtc::sys::is_culib_present() }),
            ];
            if let Some((name, _)) = present.iter().find(|(_, ok)| !ok) {
                return Err(format!(
                    "cannot load {name}: the cuda backend needs an NVIDIA driver and the CUDA 13 libraries on the \
                     loader path (LD_LIBRARY_PATH; NCCL is looked up as libnccl.so)"
                ));
            }
            check(unsafe { sys::cuInit(0) }, "cuInit").map_err(|e| e.message)
        })
        .clone()
        .map_err(RtError::new)
}

/// The number of GPUs this process sees, loading the libraries first.
pub fn visible_devices() -> RtResult<usize> {
    load_libraries()?;
    device_count()
}

/// The number of visible GPUs.
pub fn device_count() -> RtResult<usize> {
    let mut n = 0;
    check(unsafe { sys::cuDeviceGetCount(&mut n) }, "cuDeviceGetCount")?;
    Ok(n as usize)
}

/// One GPU and its primary context.
#[derive(Debug)]
pub struct Device {
    pub ordinal: i32,
    pub ctx: Ctx,
    pub name: String,
    /// Compute capability `(major, minor)`.
    pub capability: (i32, i32),
}

/// A context handle.
#[derive(Clone, Copy, Debug)]
pub struct Ctx(pub sys::CUcontext);
unsafe impl Send for Ctx {}
unsafe impl Sync for Ctx {}

impl Device {
    /// Retains the primary context of GPU `ordinal`.
    pub fn open(ordinal: usize) -> RtResult<Device> {
        let mut dev = 0;
        check(unsafe { sys::cuDeviceGet(&mut dev, ordinal as i32) }, "cuDeviceGet")?;
        let mut ctx = std::ptr::null_mut();
        check(unsafe { sys::cuDevicePrimaryCtxRetain(&mut ctx, dev) }, "cuDevicePrimaryCtxRetain")?;
        let mut name = [0 as std::ffi::c_char; 128];
        check(unsafe { sys::cuDeviceGetName(name.as_mut_ptr(), 128, dev) }, "cuDeviceGetName")?;
        let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }.to_string_lossy().into_owned();
        let attr = |a| {
            let mut v = 0;
            check(unsafe { sys::cuDeviceGetAttribute(&mut v, a, dev) }, "cuDeviceGetAttribute").map(|_| v)
        };
        let capability = (
            attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        );
        Ok(Device { ordinal: dev, ctx: Ctx(ctx), name, capability })
    }

    /// The PCI bus id (`0000:19:00.0`): the same GPU has the same id in every process,
    /// whatever CUDA_VISIBLE_DEVICES numbers it as.
    pub fn pci_bus_id(&self) -> RtResult<String> {
        let mut id = [0 as std::ffi::c_char; 32];
        check(unsafe { sys::cuDeviceGetPCIBusId(id.as_mut_ptr(), 32, self.ordinal) }, "cuDeviceGetPCIBusId")?;
        Ok(unsafe { std::ffi::CStr::from_ptr(id.as_ptr()) }.to_string_lossy().into_owned())
    }

    /// Makes this device's context current on the calling thread.
    pub fn bind(&self) -> RtResult<()> {
        check(unsafe { sys::cuCtxSetCurrent(self.ctx.0) }, "cuCtxSetCurrent")
    }

    /// Lets kernels and copies of this device address `peer`'s memory.
    pub fn enable_peer_access(&self, peer: &Device) -> RtResult<()> {
        let mut can = 0;
        check(unsafe { sys::cuDeviceCanAccessPeer(&mut can, self.ordinal, peer.ordinal) }, "cuDeviceCanAccessPeer")?;
        if can == 0 {
            return Err(RtError::new(format!(
                "cuda: GPU {} cannot access GPU {} (no peer access)",
                self.ordinal, peer.ordinal
            )));
        }
        self.bind()?;
        let r = unsafe { sys::cuCtxEnablePeerAccess(peer.ctx.0, 0) };
        if r == sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED {
            return Ok(());
        }
        check(r, "cuCtxEnablePeerAccess")
    }
}

/// A stream handle (the stream lives as long as the backend).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawStream(pub sys::CUstream);
unsafe impl Send for RawStream {}
unsafe impl Sync for RawStream {}

/// A new non-blocking stream of the current context.
pub fn create_stream() -> RtResult<RawStream> {
    let mut s = std::ptr::null_mut();
    check(
        unsafe { sys::cuStreamCreate(&mut s, sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32) },
        "cuStreamCreate",
    )?;
    Ok(RawStream(s))
}

/// Whether `stream` is being captured into a CUDA graph (then nothing may synchronize it).
pub fn is_capturing(stream: RawStream) -> RtResult<bool> {
    let mut status = sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE;
    // SAFETY: `status` is a valid out-pointer; the stream belongs to the current context.
    check(unsafe { sys::cuStreamIsCapturing(stream.0, &mut status) }, "cuStreamIsCapturing")?;
    Ok(status != sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE)
}

/// An event, destroyed when the last clone goes.
#[derive(Debug)]
pub struct Event(sys::CUevent);
unsafe impl Send for Event {}
unsafe impl Sync for Event {}

impl Event {
    /// An event recorded on `stream` now (the current context must own the stream).
    pub fn record_on(stream: RawStream) -> RtResult<Arc<Event>> {
        let mut e = std::ptr::null_mut();
        check(
            unsafe { sys::cuEventCreate(&mut e, sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32) },
            "cuEventCreate",
        )?;
        let ev = Event(e);
        check(unsafe { sys::cuEventRecord(ev.0, stream.0) }, "cuEventRecord")?;
        Ok(Arc::new(ev))
    }

    /// A timing event recorded on `stream` now (for traces: [`Event::elapsed_ms`] works on
    /// pairs of these).
    pub fn record_timed(stream: RawStream) -> RtResult<Arc<Event>> {
        let mut e = std::ptr::null_mut();
        check(unsafe { sys::cuEventCreate(&mut e, sys::CUevent_flags::CU_EVENT_DEFAULT as u32) }, "cuEventCreate")?;
        let ev = Event(e);
        check(unsafe { sys::cuEventRecord(ev.0, stream.0) }, "cuEventRecord")?;
        Ok(Arc::new(ev))
    }

    /// Milliseconds from `start` to `end` (both timing events of one GPU, both completed).
    pub fn elapsed_ms(start: &Event, end: &Event) -> RtResult<f32> {
        let mut ms = 0f32;
        check(unsafe { sys::cuEventElapsedTime_v2(&mut ms, start.0, end.0) }, "cuEventElapsedTime")?;
        Ok(ms)
    }

    /// Work posted later on `stream` waits for this event (which may belong to another GPU).
    pub fn wait_on(&self, stream: RawStream) -> RtResult<()> {
        check(unsafe { sys::cuStreamWaitEvent(stream.0, self.0, 0) }, "cuStreamWaitEvent")
    }

    /// Whether the work before the event finished.
    pub fn done(&self) -> bool {
        let r = unsafe { sys::cuEventQuery(self.0) };
        r == sys::CUresult::CUDA_SUCCESS
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        unsafe {
            let _ = sys::cuEventDestroy_v2(self.0);
        }
    }
}

/// The host waits for `stream`.
pub fn sync_stream(stream: RawStream) -> RtResult<()> {
    check(unsafe { sys::cuStreamSynchronize(stream.0) }, "cuStreamSynchronize")
}

/// Why a bounded wait for a stream ended without it finishing.
pub const STREAM_TIMEOUT: &str = "timeout";

/// The host waits for `stream` until `deadline`: a stream stuck behind a collective or a
/// transfer whose peer never comes (a failed rank) becomes an error instead of a hang. Polls
/// with `cuStreamQuery`, yielding the thread between polls.
pub fn sync_stream_until(stream: RawStream, deadline: std::time::Instant) -> RtResult<()> {
    loop {
        match unsafe { sys::cuStreamQuery(stream.0) } {
            sys::CUresult::CUDA_SUCCESS => return Ok(()),
            sys::CUresult::CUDA_ERROR_NOT_READY => {
                if std::time::Instant::now() >= deadline {
                    return Err(RtError::new(STREAM_TIMEOUT));
                }
                std::thread::yield_now();
            }
            other => return check(other, "cuStreamQuery"),
        }
    }
}

/// `stream` waits until the 32-bit word at `addr` is at least `value`.
pub fn wait_value(stream: RawStream, addr: u64, value: u32) -> RtResult<()> {
    wait_value32(stream, addr, value, sys::CUstreamWaitValue_flags::CU_STREAM_WAIT_VALUE_GEQ)
}

/// `stream` waits until the 32-bit word at `addr` equals `value`.
pub fn wait_value_eq(stream: RawStream, addr: u64, value: u32) -> RtResult<()> {
    wait_value32(stream, addr, value, sys::CUstreamWaitValue_flags::CU_STREAM_WAIT_VALUE_EQ)
}

fn wait_value32(stream: RawStream, addr: u64, value: u32, how: sys::CUstreamWaitValue_flags) -> RtResult<()> {
    check(unsafe { sys::cuStreamWaitValue32_v2(stream.0, addr, value, how as u32) }, "cuStreamWaitValue32")
}

/// `stream` writes `value` to the 32-bit word at `addr` once it gets there.
pub fn write_value(stream: RawStream, addr: u64, value: u32) -> RtResult<()> {
    check(
        unsafe {
            sys::cuStreamWriteValue32_v2(
                stream.0,
                addr,
                value,
                sys::CUstreamWriteValue_flags::CU_STREAM_WRITE_VALUE_DEFAULT as u32,
            )
        },
        "cuStreamWriteValue32",
    )
}

/// An asynchronous copy of `bytes` bytes (any two devices: unified addressing).
pub fn copy_async(dst: u64, src: u64, bytes: usize, stream: RawStream) -> RtResult<()> {
    if bytes == 0 {
        return Ok(());
    }
    check(unsafe { sys::cuMemcpyAsync(dst, src, bytes, stream.0) }, "cuMemcpyAsync")
}

/// An asynchronous copy of `rows` rows of `width` bytes between pitched layouts.
pub fn copy_2d_async(
    (dst, dst_pitch): (u64, usize),
    (src, src_pitch): (u64, usize),
    width: usize,
    rows: usize,
    stream: RawStream,
) -> RtResult<()> {
    if width == 0 || rows == 0 {
        return Ok(());
    }
    let p = sys::CUDA_MEMCPY2D {
        srcXInBytes: 0,
        srcY: 0,
        srcMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_UNIFIED,
        srcHost: std::ptr::null(),
        srcDevice: src,
        srcArray: std::ptr::null_mut(),
        srcPitch: src_pitch,
        dstXInBytes: 0,
        dstY: 0,
        dstMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_UNIFIED,
        dstHost: std::ptr::null_mut(),
        dstDevice: dst,
        dstArray: std::ptr::null_mut(),
        dstPitch: dst_pitch,
        WidthInBytes: width,
        Height: rows,
    };
    check(unsafe { sys::cuMemcpy2DAsync_v2(&p, stream.0) }, "cuMemcpy2DAsync")
}
