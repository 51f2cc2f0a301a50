//! The context handle: a fuser compiler (dialects, passes, pipelines) shared by its modules.

use crate::args::out_ref;
use crate::diagnostics::fuser_diagnostics;
use crate::status::{Failure, fuser_status, guard};

/// Flag of `fuser_context_create`: run pipelines on one thread.
pub const FUSER_CONTEXT_NO_THREADING: u32 = 1;
/// Flag of `fuser_context_create`: accept ops of unregistered dialects, kept verbatim.
pub const FUSER_CONTEXT_ALLOW_UNREGISTERED: u32 = 2;

/// A compiler: fuser's dialects, passes and named pipelines (opaque; thread-safe).
pub struct fuser_context {
    pub(crate) compiler: fuser_facade::Compiler,
}

/// Creates a context in `*out`; `flags` is 0 or an OR of `FUSER_CONTEXT_*` flags (unknown bits
/// are an error reported to `diags`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_context_create(
    flags: u32,
    diags: *mut fuser_diagnostics,
    out: *mut *mut fuser_context,
) -> fuser_status {
    guard(diags, || {
        // SAFETY: the caller passes NULL or a writable pointer.
        let out = unsafe { out_ref(out, "out") }?;
        let known = FUSER_CONTEXT_NO_THREADING | FUSER_CONTEXT_ALLOW_UNREGISTERED;
        if flags & !known != 0 {
            let message = format!("unknown context flags {:#x}", flags & !known);
            return Err(Failure::new(fuser_status::FUSER_STATUS_OUT_OF_RANGE, message));
        }
        let compiler = fuser_facade::Compiler::builder()
            .threading(flags & FUSER_CONTEXT_NO_THREADING == 0)
            .allow_unregistered_dialects(flags & FUSER_CONTEXT_ALLOW_UNREGISTERED != 0)
            .build()
            .map_err(Failure::diagnosed)?;
        *out = Box::into_raw(Box::new(fuser_context { compiler }));
        Ok(())
    })
}

/// Frees a context. Modules made with it stay valid (they keep what they need alive).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_context_destroy(context: *mut fuser_context) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        if context.is_null() {
            return Err(Failure::new(fuser_status::FUSER_STATUS_NULL_ARGUMENT, "argument 'context' is NULL"));
        }
        // SAFETY: a live handle from `fuser_context_create`, destroyed once.
        drop(unsafe { Box::from_raw(context) });
        Ok(())
    })
}

/// The thread-safety promises of the header, checked by the compiler: a context (a
/// `Compiler`) is shared across threads, a module may move between threads.
const _: () = {
    const fn shared_across_threads<T: Send + Sync>() {}
    const fn movable_across_threads<T: Send>() {}
    shared_across_threads::<fuser_context>();
    movable_across_threads::<fuser_facade::Module>();
};
