//! The module handle: parse MLIR text, run a pipeline, verify, print (into a caller buffer
//! with the size protocol, or through a write callback), destroy.

use crate::args::{c_str, handle, out_ref, sized_text};
use crate::context::fuser_context;
use crate::diagnostics::fuser_diagnostics;
use crate::status::{Failure, fuser_status, guard};
use std::ffi::{c_char, c_void};

/// Print flag: every op in the generic form.
pub const FUSER_PRINT_GENERIC: u32 = 1;
/// Print flag: print locations.
pub const FUSER_PRINT_DEBUG_INFO: u32 = 2;
/// Print flag: no aliases, everything inline.
pub const FUSER_PRINT_LOCAL_SCOPE: u32 = 4;
/// Print flag: number values across all regions (`--mlir-print-unique-ssa-ids`).
pub const FUSER_PRINT_UNIQUE_SSA_IDS: u32 = 8;
/// Print flag: comment ops and block arguments with their users (`--mlir-print-value-users`).
pub const FUSER_PRINT_VALUE_USERS: u32 = 16;

/// A program: a `builtin.module` (opaque).
pub struct fuser_module {
    compiler: fuser_facade::Compiler,
    module: fuser_facade::Module,
}

/// Receives printed text: `len` bytes at `data` (not NUL-terminated) and the caller's `user`
/// pointer. Returns 0 to continue, anything else to stop printing.
pub type fuser_write_fn = Option<unsafe extern "C" fn(data: *const c_char, len: usize, user: *mut c_void) -> i32>;

/// Parses `text` (`text_len` bytes of UTF-8, no NUL needed) and verifies it. `name` is the
/// buffer name diagnostics report. On success stores a new module in `*out`; on failure
/// returns `FUSER_STATUS_ERROR` with the diagnostics appended to `diags` (if not NULL).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_module_parse(
    context: *const fuser_context,
    name: *const c_char,
    text: *const c_char,
    text_len: usize,
    diags: *mut fuser_diagnostics,
    out: *mut *mut fuser_module,
) -> fuser_status {
    guard(diags, || {
        // SAFETY: each pointer is NULL or valid as documented; checked by the helpers.
        let (context, name, source, out) = unsafe {
            (
                handle(context, "context")?,
                c_str(name, "name")?,
                sized_text(text, text_len, "text")?,
                out_ref(out, "out")?,
            )
        };
        let compiler = context.compiler.clone();
        let module = compiler.parse(name, source).map_err(Failure::diagnosed)?;
        *out = Box::into_raw(Box::new(fuser_module { compiler, module }));
        Ok(())
    })
}

/// Runs a pipeline written in MLIR's syntax, e.g. `"builtin.module(tp-default)"`. Warnings and
/// remarks are appended to `diags` also on success. After a failure the module may be partly
/// transformed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_module_run_pipeline(
    module: *mut fuser_module,
    pipeline: *const c_char,
    diags: *mut fuser_diagnostics,
) -> fuser_status {
    guard(diags, || {
        // SAFETY: NULL or a live handle; NULL or a NUL-terminated string.
        let (m, pipeline) = unsafe { (out_ref(module, "module")?, c_str(pipeline, "pipeline")?) };
        let notes = m.compiler.run_pipeline(&mut m.module, pipeline).map_err(Failure::diagnosed)?;
        // SAFETY: NULL or a live handle.
        if let Some(d) = unsafe { diags.as_mut() } {
            d.append(notes);
        }
        Ok(())
    })
}

/// Verifies the module; on failure returns `FUSER_STATUS_ERROR` with the diagnostics.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_module_verify(
    module: *const fuser_module,
    diags: *mut fuser_diagnostics,
) -> fuser_status {
    guard(diags, || {
        // SAFETY: NULL or a live handle.
        let m = unsafe { handle(module, "module") }?;
        m.compiler.verify(&m.module).map_err(Failure::diagnosed)
    })
}

/// Prints the module (as fuser-opt does; `flags` is 0 or an OR of `FUSER_PRINT_*`) into `buf`
/// of `capacity` bytes, NUL-terminated. `*needed` receives the size required, NUL included;
/// when `capacity` is smaller nothing is written and `FUSER_STATUS_BUFFER_TOO_SMALL` is
/// returned (`buf` may be NULL when `capacity` is 0, to ask for the size).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_module_print(
    module: *const fuser_module,
    flags: u32,
    buf: *mut c_char,
    capacity: usize,
    needed: *mut usize,
    diags: *mut fuser_diagnostics,
) -> fuser_status {
    guard(diags, || {
        // SAFETY: NULL or a live handle; NULL or a writable size.
        let (m, needed) = unsafe { (handle(module, "module")?, out_ref(needed, "needed")?) };
        let text = m.module.print(&print_options(flags)?);
        // SAFETY: `buf` holds `capacity` writable bytes when non-null, as the caller promises.
        unsafe { copy_out(text.as_bytes(), buf, capacity, needed) }
    })
}

/// Prints the module through `write`, called with consecutive pieces of the text (no NUL) and
/// `user`; `FUSER_STATUS_CALLBACK_FAILED` when it returns non-zero.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_module_print_to(
    module: *const fuser_module,
    flags: u32,
    write: fuser_write_fn,
    user: *mut c_void,
    diags: *mut fuser_diagnostics,
) -> fuser_status {
    guard(diags, || {
        // SAFETY: NULL or a live handle.
        let m = unsafe { handle(module, "module") }?;
        let write =
            write.ok_or_else(|| Failure::new(fuser_status::FUSER_STATUS_NULL_ARGUMENT, "argument 'write' is NULL"))?;
        let mut sink = CallbackSink { write, user };
        m.module.print_to(&print_options(flags)?, &mut sink).map_err(|e| {
            let stopped = e.get_ref().is_some_and(|inner| inner.is::<CallbackStopped>());
            let status = if stopped {
                fuser_status::FUSER_STATUS_CALLBACK_FAILED
            } else {
                fuser_status::FUSER_STATUS_INTERNAL_ERROR
            };
            Failure::new(status, e.to_string())
        })
    })
}

/// Frees a module.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_module_destroy(module: *mut fuser_module) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        if module.is_null() {
            return Err(Failure::new(fuser_status::FUSER_STATUS_NULL_ARGUMENT, "argument 'module' is NULL"));
        }
        // SAFETY: a live handle from `fuser_module_parse`, destroyed once.
        drop(unsafe { Box::from_raw(module) });
        Ok(())
    })
}

fn print_options(flags: u32) -> Result<fuser_facade::PrintOptions, Failure> {
    let known = FUSER_PRINT_GENERIC
        | FUSER_PRINT_DEBUG_INFO
        | FUSER_PRINT_LOCAL_SCOPE
        | FUSER_PRINT_UNIQUE_SSA_IDS
        | FUSER_PRINT_VALUE_USERS;
    if flags & !known != 0 {
        let message = format!("unknown print flags {:#x}", flags & !known);
        return Err(Failure::new(fuser_status::FUSER_STATUS_OUT_OF_RANGE, message));
    }
    Ok(fuser_facade::PrintOptions {
        generic: flags & FUSER_PRINT_GENERIC != 0,
        debug_info: flags & FUSER_PRINT_DEBUG_INFO != 0,
        local_scope: flags & FUSER_PRINT_LOCAL_SCOPE != 0,
        elide_elements_larger_than: None,
        unique_ssa_ids: flags & FUSER_PRINT_UNIQUE_SSA_IDS != 0,
        value_users: flags & FUSER_PRINT_VALUE_USERS != 0,
        elide_resource_strings_larger_than: None,
    })
}

/// The size protocol: stores `bytes.len() + 1` in `needed`; copies the bytes and a NUL into
/// `buf` when `capacity` allows, else reports `FUSER_STATUS_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` is NULL or holds `capacity` writable bytes.
pub(crate) unsafe fn copy_out(
    bytes: &[u8],
    buf: *mut c_char,
    capacity: usize,
    needed: &mut usize,
) -> Result<(), Failure> {
    *needed = bytes.len() + 1;
    if capacity < *needed {
        // Part of the size protocol, not a failure worth a diagnostic.
        return Err(Failure { status: fuser_status::FUSER_STATUS_BUFFER_TOO_SMALL, error: None });
    }
    if buf.is_null() {
        return Err(Failure::new(fuser_status::FUSER_STATUS_NULL_ARGUMENT, "argument 'buf' is NULL"));
    }
    // SAFETY: `buf` holds at least `bytes.len() + 1` writable bytes (checked above).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), bytes.len());
        *buf.add(bytes.len()) = 0;
    }
    Ok(())
}

/// Forwards printed text to a C callback.
struct CallbackSink {
    write: unsafe extern "C" fn(*const c_char, usize, *mut c_void) -> i32,
    user: *mut c_void,
}

impl std::io::Write for CallbackSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        // SAFETY: the callback and its user pointer come from the caller, who promises they
        // accept `len` bytes at `data`.
        let rc = unsafe { (self.write)(bytes.as_ptr().cast(), bytes.len(), self.user) };
        if rc != 0 {
            return Err(std::io::Error::other(CallbackStopped(rc)));
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The error a callback's non-zero return becomes (not `Interrupted`, which `write_all`
/// would retry).
#[derive(Debug)]
struct CallbackStopped(i32);

impl std::fmt::Display for CallbackStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the write callback returned {}", self.0)
    }
}

impl std::error::Error for CallbackStopped {}
