//! The C ABI the C++ half calls. Strings cross as (pointer, length) pairs of UTF-8; results
//! come back through callbacks, so the C++ side owns its copies. Every function catches
//! panics (reported as an error through the same callbacks, never unwound into C++).

use crate::registry::catalog;
use fuser_mlir_text::{HandedOver, Level, TextDiagnostic, TextSeverity, run_on_text};
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

/// A UTF-8 string as (pointer, length).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct FuserStr {
    pub ptr: *const u8,
    pub len: usize,
}

/// One ancestor level of the op a pass runs on ([`fuser_mlir_text::Level`]).
#[repr(C)]
pub struct FuserLevel {
    pub shell: FuserStr,
    pub region: usize,
    pub siblings: *const FuserStr,
    pub num_siblings: usize,
    pub position: usize,
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
    let message = match catch_unwind(|| check_options(index, options)) {
        Ok(Ok(())) => return true,
        Ok(Err(message)) => message,
        Err(_) => "internal error: fuser panicked while checking pass options".to_string(),
    };
    report(sink, &TextDiagnostic::error_at_unknown(message));
    false
}

/// Builds the pass with its options into a throwaway pipeline (fuser's option parser).
fn check_options(index: usize, options: Result<&str, &str>) -> Result<(), String> {
    let c = catalog()?;
    let entry = c.catalog.entries.get(index).ok_or("no such fuser pass")?;
    let mut pm = fuser_ir::pass::OpPassManager::new("any");
    pm.add_pipeline_text(&element(entry.name, options?), &c.catalog.registry).map_err(|e| e.to_string())
}

/// Runs entry `index` with `options` on the op printed in `op`, whose ancestors are
/// described by `levels` (innermost first); reports through `sink`; returns success.
///
/// # Safety
/// Every pointer must point at the given number of readable elements; `sink` must be valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fuser_plugin_run(
    index: usize,
    options: FuserStr,
    op: FuserStr,
    levels: *const FuserLevel,
    num_levels: usize,
    sink: *const FuserRunSink,
) -> bool {
    // SAFETY: caller contract.
    let sink = unsafe { &*sink };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: caller contract.
        let handed = unsafe { handed_over(op, levels, num_levels) }?;
        let options = unsafe { str_from(options.ptr, options.len) }?;
        run(index, options, &handed, sink)
    }));
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

/// The handed-over op from its C description.
///
/// # Safety
/// As [`fuser_plugin_run`].
unsafe fn handed_over(op: FuserStr, levels: *const FuserLevel, num_levels: usize) -> Result<HandedOver, String> {
    let levels: &[FuserLevel] =
        if num_levels == 0 { &[] } else { unsafe { std::slice::from_raw_parts(levels, num_levels) } };
    let owned = |s: FuserStr| unsafe { str_from(s.ptr, s.len) }.map(str::to_string).map_err(str::to_string);
    let mut out = HandedOver { op: owned(op)?, levels: Vec::with_capacity(levels.len()) };
    for l in levels {
        let siblings: &[FuserStr] =
            if l.num_siblings == 0 { &[] } else { unsafe { std::slice::from_raw_parts(l.siblings, l.num_siblings) } };
        out.levels.push(Level {
            shell: owned(l.shell)?,
            region: l.region,
            siblings: siblings.iter().map(|&s| owned(s)).collect::<Result<_, _>>()?,
            position: l.position,
        });
    }
    Ok(out)
}

fn run(index: usize, options: &str, handed: &HandedOver, sink: &FuserRunSink) -> Result<bool, String> {
    let c = catalog()?;
    let entry = c.catalog.entries.get(index).ok_or("no such fuser pass")?;
    let report_ = run_on_text(&c.catalog.registry, &element(entry.name, options), handed, "<mlir>");
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
            (sink.diagnostic)(
                sink.user,
                severity as u32,
                is_note,
                loc.as_ptr(),
                loc.len(),
                message.as_ptr(),
                message.len(),
            )
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    /// What the callbacks received.
    #[derive(Default)]
    struct Received {
        diagnostics: Vec<(u32, bool, String, String)>,
        output: Option<String>,
    }

    unsafe extern "C" fn on_diagnostic(
        user: *mut c_void,
        severity: u32,
        is_note: bool,
        loc: *const u8,
        loc_len: usize,
        msg: *const u8,
        msg_len: usize,
    ) {
        let r = unsafe { &mut *user.cast::<Received>() };
        let text = |p, n| unsafe { str_from(p, n) }.unwrap().to_string();
        r.diagnostics.push((severity, is_note, text(loc, loc_len), text(msg, msg_len)));
    }

    unsafe extern "C" fn on_output(user: *mut c_void, text: *const u8, len: usize) {
        let r = unsafe { &mut *user.cast::<Received>() };
        r.output = Some(unsafe { str_from(text, len) }.unwrap().to_string());
    }

    fn sink(r: &mut Received) -> FuserRunSink {
        FuserRunSink { user: (r as *mut Received).cast(), diagnostic: on_diagnostic, output: on_output }
    }

    fn fstr(s: &str) -> FuserStr {
        FuserStr { ptr: s.as_ptr(), len: s.len() }
    }

    fn index_of(argument: &str) -> usize {
        (0..fuser_plugin_entry_count())
            .find(|&i| {
                let mut info =
                    FuserEntryInfo { argument: std::ptr::null(), summary: std::ptr::null(), anchor: std::ptr::null() };
                unsafe { fuser_plugin_entry(i, &mut info) && CStr::from_ptr(info.argument).to_str() == Ok(argument) }
            })
            .expect("registered")
    }

    #[test]
    fn entries_carry_prefixed_arguments_and_anchors() {
        let mut info =
            FuserEntryInfo { argument: std::ptr::null(), summary: std::ptr::null(), anchor: std::ptr::null() };
        let i = index_of("fuser-fusion-to-host");
        assert!(unsafe { fuser_plugin_entry(i, &mut info) });
        assert_eq!(unsafe { CStr::from_ptr(info.anchor) }.to_str(), Ok("func.func"));
        assert!(!unsafe { fuser_plugin_entry(fuser_plugin_entry_count(), &mut info) });
    }

    #[test]
    fn options_are_checked_by_fuser() {
        let i = index_of("fuser-tp-default");
        let mut r = Received::default();
        let good = "streams=2";
        assert!(unsafe { fuser_plugin_check_options(i, good.as_ptr(), good.len(), &sink(&mut r)) });
        let bad = "bogus=1";
        assert!(!unsafe { fuser_plugin_check_options(i, bad.as_ptr(), bad.len(), &sink(&mut r)) });
        assert!(r.diagnostics[0].3.contains("bogus"), "{:?}", r.diagnostics);
    }

    const FUNC: &str = "\"func.func\"() <{function_type = () -> i32, sym_name = \"f\"}> ({\n  %0 = \"arith.constant\"() <{value = 1 : i32}> : () -> i32 loc(\"a.mlir\":3:5)\n  %1 = \"arith.addi\"(%0, %0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc(\"a.mlir\":4:5)\n  \"func.return\"(%1) : (i32) -> () loc(\"a.mlir\":5:5)\n}) : () -> () loc(\"a.mlir\":2:3)\n";
    const SHELL: &str = "\"builtin.module\"() ({\n}) : () -> () loc(\"a.mlir\":1:1)\n";

    fn run_on(argument: &str, op: &str) -> (bool, Received) {
        let mut r = Received::default();
        let level =
            FuserLevel { shell: fstr(SHELL), region: 0, siblings: std::ptr::null(), num_siblings: 0, position: 0 };
        let ok = unsafe { fuser_plugin_run(index_of(argument), fstr(""), fstr(op), &level, 1, &sink(&mut r)) };
        (ok, r)
    }

    #[test]
    fn a_run_returns_the_transformed_op() {
        let (ok, r) = run_on("fuser-canonicalize", FUNC);
        assert!(ok, "{:?}", r.diagnostics);
        let out = r.output.expect("changed");
        assert!(out.contains("value = 2 : i32"), "{out}");
    }

    #[test]
    fn a_failed_run_reports_errors_with_locations() {
        let (ok, r) = run_on("fuser-cse", "\"func.func\"() ({");
        assert!(!ok && r.output.is_none());
        let (severity, is_note, loc, _) = &r.diagnostics[0];
        assert_eq!((*severity, *is_note), (0, false));
        assert!(loc.starts_with("loc(\"<mlir>\":1:"), "{loc}");
    }
}
