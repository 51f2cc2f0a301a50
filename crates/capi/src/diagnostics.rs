//! Diagnostics as records: a `fuser_diagnostics` collects what calls report; each diagnostic
//! is read as a `fuser_diagnostic` record (severity, file, line, column, message, rendered
//! text, number of notes) and its notes as `fuser_note` records; the rendered text of all of
//! them is copied out with the buffer size protocol.

use crate::args::{handle, out_ref};
use crate::status::{Failure, fuser_status, guard};
use std::ffi::{CString, c_char};

/// How serious a diagnostic is.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum fuser_severity {
    /// The operation failed.
    FUSER_SEVERITY_ERROR = 0,
    /// Suspicious, but the operation went on.
    FUSER_SEVERITY_WARNING = 1,
    /// Information a pass reports.
    FUSER_SEVERITY_REMARK = 2,
    /// Additional information.
    FUSER_SEVERITY_NOTE = 3,
}

/// One diagnostic. Strings are owned by the diagnostics object.
#[repr(C)]
pub struct fuser_diagnostic {
    /// How serious it is.
    pub severity: fuser_severity,
    /// The buffer name it points into; `""` when it has no file location.
    pub file: *const c_char,
    /// 1-based line; 0 when it has no file location.
    pub line: u32,
    /// 1-based column; 0 when it has no file location.
    pub column: u32,
    /// The message, without location or severity.
    pub message: *const c_char,
    /// The text fuser-opt prints for it (header, source line, caret, notes), newline-ended.
    pub rendered: *const c_char,
    /// The number of notes (read them with `fuser_diagnostics_note`).
    pub num_notes: usize,
}

/// A note attached to a diagnostic. Strings are owned by the diagnostics object.
#[repr(C)]
pub struct fuser_note {
    /// The buffer name it points into; `""` when it has no file location.
    pub file: *const c_char,
    /// 1-based line; 0 when it has no file location.
    pub line: u32,
    /// 1-based column; 0 when it has no file location.
    pub column: u32,
    /// The note's text.
    pub message: *const c_char,
}

/// A growing list of diagnostics (opaque).
pub struct fuser_diagnostics {
    items: Vec<Stored>,
}

/// A diagnostic with its strings as C strings.
struct Stored {
    severity: fuser_severity,
    place: Place,
    message: CString,
    rendered: CString,
    notes: Vec<(Place, CString)>,
}

/// A location as C data.
struct Place {
    file: CString,
    line: u32,
    column: u32,
}

/// A C string of `s`; interior NULs (which diagnostics never contain) are replaced.
fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "\u{FFFD}")).unwrap_or_default()
}

fn place(location: &Option<fuser_facade::Location>) -> Place {
    match location {
        Some(l) => Place { file: c_string(&l.file), line: l.line, column: l.column },
        None => Place { file: CString::default(), line: 0, column: 0 },
    }
}

fn severity(s: fuser_facade::Severity) -> fuser_severity {
    match s {
        fuser_facade::Severity::Error => fuser_severity::FUSER_SEVERITY_ERROR,
        fuser_facade::Severity::Warning => fuser_severity::FUSER_SEVERITY_WARNING,
        fuser_facade::Severity::Remark => fuser_severity::FUSER_SEVERITY_REMARK,
        fuser_facade::Severity::Note => fuser_severity::FUSER_SEVERITY_NOTE,
    }
}

impl fuser_diagnostics {
    /// Appends diagnostics of the facade.
    pub(crate) fn append(&mut self, diagnostics: Vec<fuser_facade::Diagnostic>) {
        self.items.extend(diagnostics.into_iter().map(|d| Stored {
            severity: severity(d.severity),
            place: place(&d.location),
            message: c_string(&d.message),
            rendered: c_string(&d.rendered),
            notes: d.notes.iter().map(|n| (place(&n.location), c_string(&n.message))).collect(),
        }));
    }

    fn get(&self, index: usize) -> Result<&Stored, Failure> {
        self.items.get(index).ok_or_else(|| out_of_range("diagnostic", index, self.items.len()))
    }
}

fn out_of_range(what: &str, index: usize, len: usize) -> Failure {
    Failure::new(fuser_status::FUSER_STATUS_OUT_OF_RANGE, format!("{what} index {index} out of range (count {len})"))
}

/// Creates an empty diagnostics object in `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_diagnostics_create(out: *mut *mut fuser_diagnostics) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        // SAFETY: the caller passes NULL or a writable pointer.
        let out = unsafe { out_ref(out, "out") }?;
        *out = Box::into_raw(Box::new(fuser_diagnostics { items: Vec::new() }));
        Ok(())
    })
}

/// Frees a diagnostics object and the strings of its records.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_diagnostics_destroy(diags: *mut fuser_diagnostics) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        if diags.is_null() {
            return Err(Failure::new(fuser_status::FUSER_STATUS_NULL_ARGUMENT, "argument 'diags' is NULL"));
        }
        // SAFETY: a live handle from `fuser_diagnostics_create`, destroyed once.
        drop(unsafe { Box::from_raw(diags) });
        Ok(())
    })
}

/// Removes every diagnostic (records read before become invalid).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_diagnostics_clear(diags: *mut fuser_diagnostics) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        // SAFETY: NULL or a live handle.
        unsafe { out_ref(diags, "diags") }?.items.clear();
        Ok(())
    })
}

/// Stores the number of diagnostics in `*count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_diagnostics_count(diags: *const fuser_diagnostics, count: *mut usize) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        // SAFETY: NULL or a live handle; NULL or a writable pointer.
        let (d, count) = unsafe { (handle(diags, "diags")?, out_ref(count, "count")?) };
        *count = d.items.len();
        Ok(())
    })
}

/// Reads diagnostic `index` (0-based, in report order) into `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_diagnostics_get(
    diags: *const fuser_diagnostics,
    index: usize,
    out: *mut fuser_diagnostic,
) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        // SAFETY: NULL or a live handle; NULL or a writable record.
        let (d, out) = unsafe { (handle(diags, "diags")?, out_ref(out, "out")?) };
        let s = d.get(index)?;
        *out = fuser_diagnostic {
            severity: s.severity,
            file: s.place.file.as_ptr(),
            line: s.place.line,
            column: s.place.column,
            message: s.message.as_ptr(),
            rendered: s.rendered.as_ptr(),
            num_notes: s.notes.len(),
        };
        Ok(())
    })
}

/// Reads note `note` of diagnostic `index` into `*out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_diagnostics_note(
    diags: *const fuser_diagnostics,
    index: usize,
    note: usize,
    out: *mut fuser_note,
) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        // SAFETY: NULL or a live handle; NULL or a writable record.
        let (d, out) = unsafe { (handle(diags, "diags")?, out_ref(out, "out")?) };
        let s = d.get(index)?;
        let (p, message) = s.notes.get(note).ok_or_else(|| out_of_range("note", note, s.notes.len()))?;
        *out = fuser_note { file: p.file.as_ptr(), line: p.line, column: p.column, message: message.as_ptr() };
        Ok(())
    })
}

/// Copies the rendered text of every diagnostic, concatenated and NUL-terminated, into `buf`
/// of `capacity` bytes. `*needed` receives the size required, NUL included; when `capacity`
/// is smaller, nothing is written and `FUSER_STATUS_BUFFER_TOO_SMALL` is returned (`buf` may be
/// NULL when `capacity` is 0, to ask for the size).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_diagnostics_render(
    diags: *const fuser_diagnostics,
    buf: *mut c_char,
    capacity: usize,
    needed: *mut usize,
) -> fuser_status {
    guard(std::ptr::null_mut(), || {
        // SAFETY: NULL or a live handle; NULL or a writable size.
        let (d, needed) = unsafe { (handle(diags, "diags")?, out_ref(needed, "needed")?) };
        let text: Vec<u8> = d.items.iter().flat_map(|s| s.rendered.as_bytes().iter().copied()).collect();
        // SAFETY: `buf` holds `capacity` writable bytes when non-null, as the caller promises.
        unsafe { crate::module::copy_out(&text, buf, capacity, needed) }
    })
}
