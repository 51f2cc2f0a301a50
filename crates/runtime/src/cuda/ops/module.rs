//! NVRTC modules of the named kernels: each kernel family has its own CUDA C source, compiled
//! once per process and compute capability, loaded once per GPU (context), and launched with
//! one `#[repr(C)]` parameter struct passed by value, as `cuda/kernels.rs` does.

use crate::cuda::api::{self, RawStream};
use crate::cuda::gpu::Gpu;
use crate::error::{RtError, RtResult};
use crate::watchdog::lock;
use cudarc::driver::sys;
use std::sync::{Mutex, OnceLock};

/// A kernel function of a loaded module.
#[derive(Clone, Copy)]
pub struct KernelFn(sys::CUfunction);
// SAFETY: a CUfunction is a handle usable from any thread with its context current.
unsafe impl Send for KernelFn {}
unsafe impl Sync for KernelFn {}

#[derive(Clone, Copy)]
struct ModuleHandle(sys::CUmodule);
// SAFETY: as above, a module handle is plain data.
unsafe impl Send for ModuleHandle {}

type Loaded = Mutex<Vec<((&'static str, i32), ModuleHandle)>>;
type Compiled = Mutex<Vec<((&'static str, (i32, i32)), String)>>;

/// A loaded module of one source on one GPU.
pub struct Module {
    handle: ModuleHandle,
    key: &'static str,
}

impl Module {
    /// The module of `source` (named `key`) on `gpu`, compiled and loaded on first use.
    pub fn get(gpu: &Gpu, key: &'static str, source: &'static str) -> RtResult<Module> {
        static LOADED: OnceLock<Loaded> = OnceLock::new();
        let loaded = LOADED.get_or_init(|| Mutex::new(Vec::new()));
        let id = (key, gpu.dev.ordinal);
        if let Some((_, h)) = lock(loaded).iter().find(|(k, _)| *k == id) {
            return Ok(Module { handle: *h, key });
        }
        let ptx = ptx_of(key, source, gpu.dev.capability)?;
        let image = std::ffi::CString::new(ptx).map_err(|_| RtError::new("cuda: PTX with a NUL byte"))?;
        let mut module = std::ptr::null_mut();
        api::check(unsafe { sys::cuModuleLoadData(&mut module, image.as_ptr().cast()) }, "cuModuleLoadData")?;
        let handle = ModuleHandle(module);
        lock(loaded).push((id, handle));
        Ok(Module { handle, key })
    }

    /// The kernel function `name` of the module.
    pub fn func(&self, name: &str) -> RtResult<KernelFn> {
        let c = std::ffi::CString::new(name).map_err(|_| RtError::new("cuda: kernel name with a NUL byte"))?;
        let mut f = std::ptr::null_mut();
        api::check(unsafe { sys::cuModuleGetFunction(&mut f, self.handle.0, c.as_ptr()) }, "cuModuleGetFunction")
            .map_err(|e| RtError::new(format!("cuda: module '{}': {}", self.key, e.message)))?;
        Ok(KernelFn(f))
    }
}

/// The PTX of `source` for `capability`, compiled once per process.
fn ptx_of(key: &'static str, source: &'static str, capability: (i32, i32)) -> RtResult<String> {
    static PTX: OnceLock<Compiled> = OnceLock::new();
    let cache = PTX.get_or_init(|| Mutex::new(Vec::new()));
    if let Some((_, p)) = lock(cache).iter().find(|(k, _)| *k == (key, capability)) {
        return Ok(p.clone());
    }
    let ptx = compile(key, source, capability)?;
    lock(cache).push(((key, capability), ptx.clone()));
    Ok(ptx)
}

/// The PTX of `source` (kernels named `what` in errors) for `capability`, compiled now.
pub fn compile(what: &str, source: &str, capability: (i32, i32)) -> RtResult<String> {
    let opts = cudarc::nvrtc::CompileOptions {
        options: vec![format!("--gpu-architecture=compute_{}{}", capability.0, capability.1), "--std=c++17".into()],
        ..Default::default()
    };
    Ok(cudarc::nvrtc::compile_ptx_with_opts(source, opts)
        .map_err(|e| RtError::new(format!("cuda: compiling the '{what}' kernels with NVRTC failed: {e}")))?
        .to_src())
}

/// Loads `ptx` as a module in the current context (kept for the process's life) and returns
/// its kernel `name` (the generated kernels, cached by their callers).
pub fn load_function(ptx: &str, name: &str) -> RtResult<KernelFn> {
    let image = std::ffi::CString::new(ptx).map_err(|_| RtError::new("cuda: PTX with a NUL byte"))?;
    let mut module = std::ptr::null_mut();
    api::check(unsafe { sys::cuModuleLoadData(&mut module, image.as_ptr().cast()) }, "cuModuleLoadData")?;
    Module { handle: ModuleHandle(module), key: "generated" }.func(name)
}

/// Launches `f` with `grid` x `block` threads, `shared` bytes of dynamic shared memory and
/// one parameter struct passed by value.
pub fn launch<P>(
    f: KernelFn,
    grid: (u32, u32, u32),
    block: (u32, u32, u32),
    shared: u32,
    params: &mut P,
    stream: RawStream,
) -> RtResult<()> {
    if shared > 48 * 1024 {
        let attr = sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
        api::check(unsafe { sys::cuFuncSetAttribute(f.0, attr, shared as i32) }, "cuFuncSetAttribute")?;
    }
    let mut args = [(params as *mut P).cast::<std::ffi::c_void>()];
    api::check(
        unsafe {
            sys::cuLaunchKernel(
                f.0,
                grid.0,
                grid.1,
                grid.2,
                block.0,
                block.1,
                block.2,
                shared,
                stream.0,
                args.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        },
        "cuLaunchKernel",
    )
}
