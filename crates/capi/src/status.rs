//! Status codes, the version string, and the guard that every entry point runs its body in.

use crate::diagnostics::fuser_diagnostics;
use std::ffi::c_char;

/// The result of every function of the C ABI.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum fuser_status {
    /// Success.
    FUSER_STATUS_OK = 0,
    /// The compiler diagnosed a failure (parse, verify or pipeline error); see the diagnostics.
    FUSER_STATUS_ERROR = 1,
    /// A required pointer argument was NULL.
    FUSER_STATUS_NULL_ARGUMENT = 2,
    /// A string argument was not valid UTF-8.
    FUSER_STATUS_INVALID_UTF8 = 3,
    /// The caller's buffer is too small; the needed size was stored.
    FUSER_STATUS_BUFFER_TOO_SMALL = 4,
    /// An index was out of range.
    FUSER_STATUS_OUT_OF_RANGE = 5,
    /// The write callback returned non-zero; printing stopped.
    FUSER_STATUS_CALLBACK_FAILED = 6,
    /// An internal error (a caught panic); an error diagnostic describes it.
    FUSER_STATUS_INTERNAL_ERROR = 7,
}

use fuser_status::*;

/// A static, NUL-terminated English name of a status (e.g. `"null argument"`); unknown
/// values give `"unknown status"`. Stores it in `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_status_string(status: u32, out: *mut *const c_char) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        let text: &'static [u8] = match status {
            0 => b"ok\0",
            1 => b"error\0",
            2 => b"null argument\0",
            3 => b"invalid UTF-8\0",
            4 => b"buffer too small\0",
            5 => b"out of range\0",
            6 => b"callback failed\0",
            7 => b"internal error\0",
            _ => b"unknown status\0",
        };
        // SAFETY: checked non-null by `out_ref`; the caller provides a writable pointer.
        *unsafe { crate::args::out_ref(out, "out") }? = text.as_ptr().cast();
        Ok(())
    })
}

/// The library version (e.g. `"0.1.0"`), static and NUL-terminated, stored in `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_version(out: *mut *const c_char) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
        // SAFETY: checked non-null by `out_ref`.
        *unsafe { crate::args::out_ref(out, "out") }? = VERSION.as_ptr().cast();
        Ok(())
    })
}

/// Why an entry point failed: the status and, when it has one, a message for the diagnostics.
pub(crate) struct Failure {
    pub(crate) status: fuser_status,
    pub(crate) error: Option<fuser_facade::Error>,
}

impl Failure {
    /// A failure with a status and a message.
    pub(crate) fn new(status: fuser_status, message: impl Into<String>) -> Failure {
        Failure { status, error: Some(fuser_facade::Error::message(message.into())) }
    }

    /// A diagnosed failure of the compiler.
    pub(crate) fn diagnosed(error: fuser_facade::Error) -> Failure {
        Failure { status: FUSER_STATUS_ERROR, error: Some(error) }
    }
}

/// Runs an entry point's body (catching panics quietly once a context exists, see
/// `fuser::extend::catch_panic`): a panic becomes `FUSER_STATUS_INTERNAL_ERROR` with an error
/// diagnostic, a failure's diagnostics are appended to `diags` (when not NULL).
pub(crate) fn guard(diags: *mut fuser_diagnostics, body: impl FnOnce() -> Result<(), Failure>) -> fuser_status {
    let outcome = match fuser_facade::extend::catch_panic(body) {
        Ok(Ok(())) => return FUSER_STATUS_OK,
        Ok(Err(failure)) => failure,
        Err(message) => Failure::new(FUSER_STATUS_INTERNAL_ERROR, format!("internal error: {message}")),
    };
    if let Some(error) = outcome.error {
        // SAFETY: `diags` is NULL or a live handle from `fuser_diagnostics_create`, as the
        // caller promises; appending cannot unwind (it only moves data).
        if let Some(d) = unsafe { diags.as_mut() } {
            d.append(error.into_diagnostics());
        }
    }
    outcome.status
}
