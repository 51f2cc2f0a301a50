//! The C ABI the C++ half calls. Strings cross as (pointer, length) pairs of UTF-8; results
//! come back through callbacks, so the C++ side owns its copies. Every function catches
//! panics (reported as an error through the same callbacks, never unwound into C++).

use crate::registry::catalog;
use fuser_mlir_text::{OpPath, TextDiagnostic, TextSeverity, run_on_text};
use std::ffi::{c_char, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What the C++ side learns about one entry; the strings live as long as the process.
#[repr(C)]
pub struct FuserEntryInfo {
    pub argument: *const c_char,
    pub summary: *const c_char,
    /// The op name the pass is restricted to; empty: any op.
    pub anchor: *const c_char,
}

/// Callbacks receiving a run's results.
#[repr(C)]
pub struct FuserRunSink {
    pub user: *mut c_void,
    /// One diagnostic or note (`is_note`: attached to the previous diagnostic); severity as
    /// `MlirDiagnosticSeverity` (0 error, 1 warning, 2 note, 3 remark). The location is
    /// `loc(...)` text.
    pub diagnostic: unsafe extern "C" fn(*mut c_void, u32, bool, *const u8, usize, *const u8, usize),
    /// The transformed root, generic form with debug info (called at most once).
    pub output: unsafe extern "C" fn(*mut c_void, *const u8, usize),
}

/// Number of passes and pipelines on offer (0 if the catalog could not be built).
#[unsafe(no_mangle)]
pub extern "C" fn fuser_plugin_entry_count() -> usize {
    catch_unwind(|| catalog().map_or(0, |c| c.c_entries.len())).unwrap_or(0)
}

/// Fills `out` with entry `index`; false if there is none.
///
/// # Safety
/// `out` must be valid for writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_plugin_entry(index: usize, out: *mut FuserEntryInfo) -> bool {
    let found = catch_unwind(|| {
        let e = catalog().ok()?.c_entries.get(index)?;
        Some(FuserEntryInfo { argument: e.argument.as_ptr(), summary: e.summary.as_ptr(), anchor: e.anchor.as_ptr() })
    });
    match (found, out.is_null()) {
        (Ok(Some(info)), false) => {
            // SAFETY: `out` is valid for writes (caller contract).
            unsafe { out.write(info) };
            true
        }
        _ => false,
    }
}

/// Checks the option text of entry `index` (`streams=2`); on error, reports the message as
/// an error diagnostic through `sink` and returns false.
///
/// # Safety
/// `options` must point at `len` readable bytes; `sink` must be valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_plugin_check_options(
    index: usize,
    options: *const u8,
    len: usize,
    sink: *const FuserRunSink,
) -> bool {
    // SAFETY: caller contract.
    let (options, sink) = unsafe { (str_from(options, len), &*sink) };
    let result = catch_unwind(|| {
        let c = catalog()?;
        let entry = c.catalog.entries.get(index).ok_or("no such fuser pass")?;
        let mut pm = fuser_ir::pass::OpPassManager::new("any");
        pm.add_pipeline_text(&element(entry.name, options?), &c.catalog.registry).map_err(|_| "invalid options")?;
        Ok::<(), &str>(())
    });
    let message = match result {
        Ok(Ok(())) => return true,
        Ok(Err(_)) | Err(_) => option_error(index, options.unwrap_or("")),
    };
    report(sink, &TextDiagnostic::error_at_unknown(message));
    false
}

/// The precise option error, for the message.
fn option_error(index: usize, options: &str) -> String {
    let Ok(c) = catalog() else { return "the fuser pass catalog could not be built".into() };
    let Some(entry) = c.catalog.entries.get(index) else { return "no such fuser pass".into() };
    let mut pm = fuser_ir::pass::OpPassManager::new("any");
    match pm.add_pipeline_text(&element(entry.name, options), &c.catalog.registry) {
        Ok(()) => "invalid options".into(),
        Err(e) => e.to_string(),
    }
}

/// Runs entry `index` with `options` on the op at `path` (`path_len` indices, 3 per
/// level) below the root op in `text`; reports through `sink`; returns success.
///
/// # Safety
/// Pointers must point at the given number of readable elements; `sink` must be valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_plugin_run(
    index: usize,
    options: *const u8,
    options_len: usize,
    text: *const u8,
    text_len: usize,
    path: *const usize,
    path_len: usize,
    sink: *const FuserRunSink,
) -> bool {
    // SAFETY: caller contract.
    let (options, text, sink) = unsafe { (str_from(options, options_len), str_from(text, text_len), &*sink) };
    let path: &[usize] = if path_len == 0 { &[] } else { unsafe { std::slice::from_raw_parts(path, path_len) } };
    let outcome = catch_unwind(AssertUnwindSafe(|| run(index, options, text, path, sink)));
    match outcome {
        Ok(Ok(ok)) => ok,
        Ok(Err(message)) => {
            report(sink, &TextDiagnostic::error_at_unknown(message));
            false
        }
        Err(p) => {
            let what = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned());
            let message = format!("internal error: fuser pass panicked: {}", what.unwrap_or_default());
            report(sink, &TextDiagnostic::error_at_unknown(message));
            false
        }
    }
}

fn run(
    index: usize,
    options: Result<&str, &str>,
    text: Result<&str, &str>,
    path: &[usize],
    sink: &FuserRunSink,
) -> Result<bool, String> {
    let c = catalog()?;
    let entry = c.catalog.entries.get(index).ok_or("no such fuser pass")?;
    let path = OpPath::from_flat(path)?;
    let report_ = run_on_text(&c.catalog.registry, &element(entry.name, options?), text?, "<mlir>", &path);
    for d in &report_.diagnostics {
        report(sink, d);
    }
    if let Some(out) = &report_.output {
        // SAFETY: the callback copies the bytes before returning.
        unsafe { (sink.output)(sink.user, out.as_ptr(), out.len()) };
    }
    Ok(report_.success)
}

/// `name` or `name{options}`.
fn element(name: &str, options: &str) -> String {
    if options.trim().is_empty() { name.to_string() } else { format!("{name}{{{options}}}") }
}

fn report(sink: &FuserRunSink, d: &TextDiagnostic) {
    let send = |severity: TextSeverity, is_note: bool, loc: &str, message: &str| {
        // SAFETY: the callback copies the bytes before returning.
        unsafe {
            (sink.diagnostic)(sink.user, severity as u32, is_note, loc.as_ptr(), loc.len(), message.as_ptr(), message.len())
        }
    };
    send(d.severity, false, &d.loc, &d.message);
    for n in &d.notes {
        send(n.severity, true, &n.loc, &n.message);
    }
}

/// The UTF-8 text at (`ptr`, `len`); an empty slice for a null pointer.
///
/// # Safety
/// A non-null `ptr` must point at `len` readable bytes.
unsafe fn str_from<'a>(ptr: *const u8, len: usize) -> Result<&'a str, &'static str> {
    if ptr.is_null() || len == 0 {
        return Ok("");
    }
    // SAFETY: caller contract.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    std::str::from_utf8(bytes).map_err(|_| "the IR text is not UTF-8")
}
