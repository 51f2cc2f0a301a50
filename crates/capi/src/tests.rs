//! The C ABI called from Rust as C would call it: argument errors, the size protocol, the
//! callback, diagnostics records, and panics turned into statuses.

use crate::*;
use std::ffi::{CStr, c_char, c_void};
use std::ptr::{null, null_mut};

use fuser_status::*;

const PROGRAM: &str = "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n";

struct Handles {
    context: *mut fuser_context,
    diags: *mut fuser_diagnostics,
}

impl Handles {
    fn new() -> Handles {
        let (mut context, mut diags) = (null_mut(), null_mut());
        unsafe {
            assert_eq!(fuser_diagnostics_create(&mut diags), FUSER_STATUS_OK);
            assert_eq!(fuser_context_create(0, diags, &mut context), FUSER_STATUS_OK);
        }
        Handles { context, diags }
    }

    fn parse(&self, text: &[u8]) -> (fuser_status, *mut fuser_module) {
        let mut module = null_mut();
        let status = unsafe {
            fuser_module_parse(
                self.context,
                c"t.mlir".as_ptr(),
                text.as_ptr().cast(),
                text.len(),
                self.diags,
                &mut module,
            )
        };
        (status, module)
    }

    fn count(&self) -> usize {
        let mut n = usize::MAX;
        assert_eq!(unsafe { fuser_diagnostics_count(self.diags, &mut n) }, FUSER_STATUS_OK);
        n
    }

    fn record(&self, i: usize) -> fuser_diagnostic {
        let mut d = fuser_diagnostic {
            severity: fuser_severity::FUSER_SEVERITY_NOTE,
            file: null(),
            line: 0,
            column: 0,
            message: null(),
            rendered: null(),
            num_notes: 0,
        };
        assert_eq!(unsafe { fuser_diagnostics_get(self.diags, i, &mut d) }, FUSER_STATUS_OK);
        d
    }
}

impl Drop for Handles {
    fn drop(&mut self) {
        unsafe {
            assert_eq!(fuser_context_destroy(self.context), FUSER_STATUS_OK);
            assert_eq!(fuser_diagnostics_destroy(self.diags), FUSER_STATUS_OK);
        }
    }
}

fn text_of(p: *const c_char) -> String {
    unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()
}

#[test]
fn null_arguments_are_statuses_with_a_diagnostic() {
    let h = Handles::new();
    let mut module = null_mut();
    let status = unsafe { fuser_module_parse(h.context, null(), c"x".as_ptr(), 1, h.diags, &mut module) };
    assert_eq!(status, FUSER_STATUS_NULL_ARGUMENT);
    assert!(module.is_null());
    assert_eq!(text_of(h.record(0).message), "argument 'name' is NULL");
    unsafe {
        assert_eq!(fuser_module_destroy(null_mut()), FUSER_STATUS_NULL_ARGUMENT);
        assert_eq!(fuser_context_destroy(null_mut()), FUSER_STATUS_NULL_ARGUMENT);
        assert_eq!(fuser_diagnostics_count(null(), null_mut()), FUSER_STATUS_NULL_ARGUMENT);
        assert_eq!(
            fuser_module_run_pipeline(null_mut(), c"builtin.module()".as_ptr(), null_mut()),
            FUSER_STATUS_NULL_ARGUMENT
        );
        assert_eq!(fuser_version(null_mut()), FUSER_STATUS_NULL_ARGUMENT);
    }
}

#[test]
fn invalid_utf8_is_rejected() {
    let h = Handles::new();
    let (status, module) = h.parse(b"func.func @f() {\xff}");
    assert_eq!(status, FUSER_STATUS_INVALID_UTF8);
    assert!(module.is_null());
    assert_eq!(text_of(h.record(0).message), "argument 'text' is not valid UTF-8 (at byte 16)");
}

#[test]
fn parse_errors_come_back_as_records() {
    let h = Handles::new();
    let (status, _) = h.parse(b"func.func @f() {\n  return %x : i32\n}\n");
    assert_eq!(status, FUSER_STATUS_ERROR);
    assert_eq!(h.count(), 1);
    let d = h.record(0);
    assert_eq!(d.severity, fuser_severity::FUSER_SEVERITY_ERROR);
    assert_eq!((text_of(d.file).as_str(), d.line), ("t.mlir", 2));
    assert!(text_of(d.rendered).starts_with("t.mlir:2:"));
    let mut needed = 0;
    let status = unsafe { fuser_diagnostics_render(h.diags, null_mut(), 0, &mut needed) };
    assert_eq!((status, needed), (FUSER_STATUS_BUFFER_TOO_SMALL, text_of(d.rendered).len() + 1));
    assert_eq!(unsafe { fuser_diagnostics_clear(h.diags) }, FUSER_STATUS_OK);
    assert_eq!(h.count(), 0);
}

#[test]
fn print_follows_the_size_protocol() {
    let h = Handles::new();
    let (status, module) = h.parse(PROGRAM.as_bytes());
    assert_eq!(status, FUSER_STATUS_OK);
    let mut needed = 0;
    assert_eq!(
        unsafe { fuser_module_print(module, 0, null_mut(), 0, &mut needed, h.diags) },
        FUSER_STATUS_BUFFER_TOO_SMALL
    );
    let mut small = vec![b'#' as c_char; needed - 1];
    let status = unsafe { fuser_module_print(module, 0, small.as_mut_ptr(), small.len(), &mut needed, h.diags) };
    assert_eq!(status, FUSER_STATUS_BUFFER_TOO_SMALL);
    assert!(small.iter().all(|&c| c == b'#' as c_char), "nothing written into a small buffer");
    let mut buf = vec![0 as c_char; needed];
    assert_eq!(
        unsafe { fuser_module_print(module, 0, buf.as_mut_ptr(), buf.len(), &mut needed, h.diags) },
        FUSER_STATUS_OK
    );
    assert!(text_of(buf.as_ptr()).starts_with("module {\n  func.func @f(%arg0: i32) -> i32 {"));
    assert_eq!(h.count(), 0, "the size query records no diagnostic");
    let status = unsafe { fuser_module_print(module, 32, buf.as_mut_ptr(), buf.len(), &mut needed, h.diags) };
    assert_eq!(status, FUSER_STATUS_OUT_OF_RANGE);
    assert_eq!(unsafe { fuser_module_destroy(module) }, FUSER_STATUS_OK);
}

unsafe extern "C" fn collect(data: *const c_char, len: usize, user: *mut c_void) -> i32 {
    let out = unsafe { &mut *user.cast::<Vec<u8>>() };
    out.extend_from_slice(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) });
    0
}

unsafe extern "C" fn refuse(_: *const c_char, _: usize, _: *mut c_void) -> i32 {
    7
}

#[test]
fn print_through_a_callback() {
    let h = Handles::new();
    let (_, module) = h.parse(PROGRAM.as_bytes());
    let mut out: Vec<u8> = Vec::new();
    let user = (&mut out as *mut Vec<u8>).cast::<c_void>();
    assert_eq!(
        unsafe { fuser_module_print_to(module, FUSER_PRINT_GENERIC, Some(collect), user, h.diags) },
        FUSER_STATUS_OK
    );
    assert!(String::from_utf8(out).unwrap().contains("\"func.return\"(%arg0) : (i32) -> ()"));
    // mlir-opt-19 --mlir-print-value-users --mlir-print-unique-ssa-ids prints these lines.
    let mut out: Vec<u8> = Vec::new();
    let user = (&mut out as *mut Vec<u8>).cast::<c_void>();
    let flags = FUSER_PRINT_VALUE_USERS | FUSER_PRINT_UNIQUE_SSA_IDS;
    assert_eq!(unsafe { fuser_module_print_to(module, flags, Some(collect), user, h.diags) }, FUSER_STATUS_OK);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("    // %arg0 is used by %2\n    return %arg0 : i32 // id: %2\n"), "{text}");
    let status = unsafe { fuser_module_print_to(module, 0, Some(refuse), null_mut(), h.diags) };
    assert_eq!(status, FUSER_STATUS_CALLBACK_FAILED);
    assert_eq!(text_of(h.record(0).message), "the write callback returned 7");
    assert_eq!(unsafe { fuser_module_print_to(module, 0, None, null_mut(), null_mut()) }, FUSER_STATUS_NULL_ARGUMENT);
    unsafe { fuser_module_destroy(module) };
}

#[test]
fn pipelines_report_errors_and_a_module_outlives_its_context() {
    let h = Handles::new();
    let (_, module) = h.parse(PROGRAM.as_bytes());
    let status = unsafe { fuser_module_run_pipeline(module, c"builtin.module(no-such-pass)".as_ptr(), h.diags) };
    assert_eq!(status, FUSER_STATUS_ERROR);
    assert!(text_of(h.record(0).message).contains("'no-such-pass' does not refer to a registered pass"));
    drop(h);
    // The context is gone; the module still runs, verifies and prints.
    unsafe {
        assert_eq!(
            fuser_module_run_pipeline(module, c"builtin.module(canonicalize)".as_ptr(), null_mut()),
            FUSER_STATUS_OK
        );
        assert_eq!(fuser_module_verify(module, null_mut()), FUSER_STATUS_OK);
        assert_eq!(fuser_module_destroy(module), FUSER_STATUS_OK);
    }
}

#[test]
fn panics_become_internal_errors_with_a_diagnostic() {
    let h = Handles::new();
    let status = crate::status::guard(h.diags, || panic!("deliberate"));
    assert_eq!(status, FUSER_STATUS_INTERNAL_ERROR);
    let message = text_of(h.record(0).message);
    assert!(message.starts_with("internal error: deliberate (at "), "{message}");
}

#[test]
fn status_names_and_version() {
    let mut name = null();
    unsafe {
        assert_eq!(fuser_status_string(4, &mut name), FUSER_STATUS_OK);
        assert_eq!(text_of(name), "buffer too small");
        assert_eq!(fuser_status_string(99, &mut name), FUSER_STATUS_OK);
        assert_eq!(text_of(name), "unknown status");
        assert_eq!(fuser_version(&mut name), FUSER_STATUS_OK);
    }
    assert_eq!(text_of(name), env!("CARGO_PKG_VERSION"));
}

/// A context pointer shared by threads, as the header allows.
#[derive(Clone, Copy)]
struct SharedContext(*const fuser_context);
// SAFETY: the header promises that a context may be used by several threads at once (the
// facade's `Compiler` is `Send + Sync`, checked at compile time in context.rs).
unsafe impl Send for SharedContext {}
unsafe impl Sync for SharedContext {}

#[test]
fn threads_parse_with_one_context() {
    let h = Handles::new();
    let shared = SharedContext(h.context);
    let printed: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(move || {
                    let shared = shared;
                    let mut module = null_mut();
                    let bytes = PROGRAM.as_bytes();
                    let status = unsafe {
                        fuser_module_parse(
                            shared.0,
                            c"t.mlir".as_ptr(),
                            bytes.as_ptr().cast(),
                            bytes.len(),
                            null_mut(),
                            &mut module,
                        )
                    };
                    assert_eq!(status, FUSER_STATUS_OK);
                    let mut out: Vec<u8> = Vec::new();
                    let user = (&mut out as *mut Vec<u8>).cast::<c_void>();
                    assert_eq!(
                        unsafe { fuser_module_print_to(module, 0, Some(collect), user, null_mut()) },
                        FUSER_STATUS_OK
                    );
                    assert_eq!(unsafe { fuser_module_destroy(module) }, FUSER_STATUS_OK);
                    String::from_utf8(out).unwrap()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    assert!(printed.iter().all(|p| p == &printed[0] && p.contains("func.func @f")));
}
