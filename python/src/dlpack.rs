//! Tensors crossing into and out of the runtime as DLPack capsules (`dltensor`): a caller's
//! tensor taken ([`take_capsule`], [`Borrowed`]: used in place, the producer's deleter runs
//! when the run is done) and described ([`describe`]), and a runtime result handed out without
//! a copy ([`export`]: a capsule owning the result buffer, freed by its deleter).

use fuser_runtime::dtype::DType;
use pyo3::prelude::*;
use std::ffi::c_void;

#[repr(C)]
pub(crate) struct DLDevice {
    device_type: i32,
    device_id: i32,
}

#[repr(C)]
pub(crate) struct DLDataType {
    code: u8,
    bits: u8,
    lanes: u16,
}

#[repr(C)]
pub(crate) struct DLTensor {
    data: *mut c_void,
    device: DLDevice,
    ndim: i32,
    dtype: DLDataType,
    shape: *const i64,
    strides: *const i64,
    byte_offset: u64,
}

#[repr(C)]
pub(crate) struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) const KDL_CUDA: i32 = 2;
/// DLPack's host memory device type.
pub(crate) const KDL_CPU: i32 = 1;

/// A DLPack tensor taken from its capsule: the capsule is marked used, and the producer's
/// deleter runs when this is dropped (after the run).
pub(crate) struct Borrowed {
    managed: *mut DLManagedTensor,
}

impl Drop for Borrowed {
    fn drop(&mut self) {
        // SAFETY: `managed` came from a `dltensor` capsule we marked used: we own it now.
        unsafe {
            if let Some(d) = (*self.managed).deleter {
                d(self.managed);
            }
        }
    }
}

/// What a capsule holds: device address, shape, element type, GPU.
pub(crate) struct TensorDesc {
    pub(crate) ptr: u64,
    pub(crate) shape: Vec<usize>,
    pub(crate) dtype: Option<DType>,
    pub(crate) device: (i32, i32),
    pub(crate) dense: bool,
}

pub(crate) fn take_capsule(obj: &Bound<'_, PyAny>) -> Result<Borrowed, String> {
    let name = c"dltensor";
    // SAFETY: plain CPython capsule calls on a live object, under the GIL.
    unsafe {
        let raw = obj.as_ptr();
        if pyo3::ffi::PyCapsule_IsValid(raw, name.as_ptr()) != 1 {
            return Err("expected a DLPack capsule (torch.utils.dlpack.to_dlpack(t)) not yet consumed".into());
        }
        let p = pyo3::ffi::PyCapsule_GetPointer(raw, name.as_ptr()) as *mut DLManagedTensor;
        if p.is_null() || pyo3::ffi::PyCapsule_SetName(raw, c"used_dltensor".as_ptr()) != 0 {
            pyo3::ffi::PyErr_Clear();
            return Err("cannot take the DLPack capsule".into());
        }
        Ok(Borrowed { managed: p })
    }
}

/// Every capsule of `objs` taken (each marked used), or the first refusal as a diagnostic at
/// no location (the caller's Python line; `sources` for rendering).
pub(crate) fn take_all(
    objs: &[Bound<'_, PyAny>],
    sources: &crate::errors::Sources,
) -> Result<Vec<Borrowed>, Vec<crate::errors::Diagnostic>> {
    objs.iter().map(|o| take_capsule(o).map_err(|m| vec![crate::errors::located(None, &m, sources)])).collect()
}

pub(crate) fn describe(b: &Borrowed) -> TensorDesc {
    // SAFETY: a valid DLManagedTensor (DLPack's contract) owned by `b`.
    let t = unsafe { &(*b.managed).dl_tensor };
    let ndim = t.ndim.max(0) as usize;
    let shape: Vec<i64> =
        if ndim == 0 { Vec::new() } else { unsafe { std::slice::from_raw_parts(t.shape, ndim) }.to_vec() };
    let dense = if t.strides.is_null() {
        true
    } else {
        let strides = unsafe { std::slice::from_raw_parts(t.strides, ndim) };
        let mut expect = 1i64;
        let mut ok = true;
        for (d, s) in shape.iter().zip(strides).rev() {
            ok &= *d <= 1 || *s == expect;
            expect *= *d;
        }
        ok
    };
    let dtype = match (t.dtype.code, t.dtype.bits, t.dtype.lanes) {
        (2, 64, 1) => Some(DType::F64),
        (2, 32, 1) => Some(DType::F32),
        (2, 16, 1) => Some(DType::F16),
        (4, 16, 1) => Some(DType::BF16),
        (0, 64, 1) => Some(DType::I64),
        (0, 32, 1) => Some(DType::I32),
        (0, 16, 1) => Some(DType::I16),
        (0, 8, 1) => Some(DType::I8),
        // kDLBool: one byte per element, 0 or 1 (torch.bool), as the runtime's i1.
        (6, 8, 1) => Some(DType::I1),
        _ => None,
    };
    TensorDesc {
        ptr: t.data as u64 + t.byte_offset,
        shape: shape.iter().map(|&d| d.max(0) as usize).collect(),
        dtype,
        device: (t.device.device_type, t.device.device_id),
        dense,
    }
}

/// What an exported capsule owns: the result's owner (its buffer) and the shape the
/// DLTensor points at.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
struct Export<T> {
    _owner: T,
    shape: Vec<i64>,
}

/// DLPack's type code of `dtype` (the inverse of [`describe`]'s table).
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
fn dl_type(dtype: DType) -> DLDataType {
    let (code, bits) = match dtype {
        DType::F64 => (2, 64),
        DType::F32 => (2, 32),
        DType::F16 => (2, 16),
        DType::BF16 => (4, 16),
        DType::I64 => (0, 64),
        DType::I32 => (0, 32),
        DType::I16 => (0, 16),
        DType::I8 => (0, 8),
        DType::I1 => (6, 8),
    };
    DLDataType { code, bits, lanes: 1 }
}

#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
unsafe extern "C" fn delete_export<T>(m: *mut DLManagedTensor) {
    // SAFETY: `m` and its context were made by `export::<T>` with Box::into_raw; DLPack calls
    // the deleter once.
    unsafe {
        let m = Box::from_raw(m);
        drop(Box::from_raw(m.manager_ctx as *mut Export<T>));
    }
}

#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
unsafe extern "C" fn capsule_destructor(capsule: *mut pyo3::ffi::PyObject) {
    // SAFETY: CPython calls this with the capsule; an unconsumed one still has its name
    // `dltensor` and owns the tensor (a consumer renames it `used_dltensor`).
    unsafe {
        // PyCapsule_IsValid sets no error (a pending one, if the capsule dies while an
        // exception propagates, is left alone).
        if pyo3::ffi::PyCapsule_IsValid(capsule, c"dltensor".as_ptr()) == 1 {
            let m = pyo3::ffi::PyCapsule_GetPointer(capsule, c"dltensor".as_ptr()) as *mut DLManagedTensor;
            if !m.is_null()
                && let Some(d) = (*m).deleter
            {
                d(m);
            }
        }
    }
}

/// A DLPack capsule of the dense row-major tensor of `shape` and `dtype` at `ptr` on DLPack
/// device `device`, owning `owner` (the memory's keeper): dropped by the capsule's deleter,
/// when the consumer (torch) frees the tensor, or by the capsule if never consumed.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) fn export<T: Send + 'static>(
    py: Python<'_>,
    owner: T,
    ptr: u64,
    shape: &[usize],
    dtype: DType,
    device: (i32, i32),
) -> PyResult<Py<PyAny>> {
    let ctx = Box::into_raw(Box::new(Export { _owner: owner, shape: shape.iter().map(|&d| d as i64).collect() }));
    // SAFETY: `ctx` is a live Box until the deleter; its shape vector outlives the tensor.
    let shape_ptr = unsafe { (*ctx).shape.as_ptr() };
    let managed = Box::into_raw(Box::new(DLManagedTensor {
        dl_tensor: DLTensor {
            data: ptr as *mut c_void,
            device: DLDevice { device_type: device.0, device_id: device.1 },
            ndim: shape.len() as i32,
            dtype: dl_type(dtype),
            shape: shape_ptr,
            strides: std::ptr::null(),
            byte_offset: 0,
        },
        manager_ctx: ctx.cast(),
        deleter: Some(delete_export::<T>),
    }));
    // SAFETY: a new capsule over `managed`, which it owns until consumed.
    unsafe {
        let raw = pyo3::ffi::PyCapsule_New(managed.cast(), c"dltensor".as_ptr(), Some(capsule_destructor));
        if raw.is_null() {
            delete_export::<T>(managed);
            return Err(PyErr::fetch(py));
        }
        Ok(Py::from_owned_ptr(py, raw))
    }
}
