//! Checked conversions of C arguments: NULL pointers and invalid UTF-8 become failures with
//! the argument's name, never undefined behaviour or a panic.

use crate::status::{Failure, fuser_status};
use std::ffi::{CStr, c_char};

/// A required NUL-terminated UTF-8 string.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn c_str<'a>(p: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return Err(null(name));
    }
    // SAFETY: non-null and NUL-terminated, as the caller promises.
    let bytes = unsafe { CStr::from_ptr(p) }.to_bytes();
    std::str::from_utf8(bytes).map_err(|e| invalid_utf8(name, e))
}

/// A required UTF-8 text of `len` bytes (no NUL needed). A NULL pointer with `len == 0` is
/// the empty text.
///
/// # Safety
/// `p` is NULL or points to `len` readable bytes that outlive `'a`.
pub(crate) unsafe fn sized_text<'a>(p: *const c_char, len: usize, name: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return if len == 0 { Ok("") } else { Err(null(name)) };
    }
    // SAFETY: `len` readable bytes, as the caller promises.
    let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) };
    std::str::from_utf8(bytes).map_err(|e| invalid_utf8(name, e))
}

/// A required pointer to write a result to.
///
/// # Safety
/// `p` is NULL or valid for writes and reads of a `T`.
pub(crate) unsafe fn out_ref<'a, T>(p: *mut T, name: &str) -> Result<&'a mut T, Failure> {
    // SAFETY: valid when non-null, as the caller promises.
    unsafe { p.as_mut() }.ok_or_else(|| null(name))
}

/// A required handle, shared.
///
/// # Safety
/// `p` is NULL or a live handle.
pub(crate) unsafe fn handle<'a, T>(p: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: live when non-null, as the caller promises.
    unsafe { p.as_ref() }.ok_or_else(|| null(name))
}

fn null(name: &str) -> Failure {
    Failure::new(fuser_status::FUSER_STATUS_NULL_ARGUMENT, format!("argument '{name}' is NULL"))
}

fn invalid_utf8(name: &str, e: std::str::Utf8Error) -> Failure {
    let message = format!("argument '{name}' is not valid UTF-8 (at byte {})", e.valid_up_to());
    Failure::new(fuser_status::FUSER_STATUS_INVALID_UTF8, message)
}
