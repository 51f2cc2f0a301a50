//! Deeply nested input on an ordinary thread: up to the parser's nesting limit (512 regions)
//! parse, verify, a pipeline and printing fit in a 2 MiB stack; beyond it the parser reports
//! an error instead of recursing further.

/// `depth` unregistered ops, each holding the next in its region.
fn nested(depth: usize) -> String {
    let mut text = "\"test.op\"() ({\n".repeat(depth);
    text.push_str(&"}) : () -> ()\n".repeat(depth));
    text
}

/// Parses, runs canonicalize and cse and prints on a thread with a 2 MiB stack; returns the
/// printed text or the error.
fn compile_on_small_stack(text: String) -> Result<String, String> {
    let compiler = fuser::Compiler::builder().allow_unregistered_dialects(true).build().map_err(|e| e.to_string())?;
    let worker = std::thread::Builder::new().stack_size(2 << 20).spawn(move || {
        let mut module = compiler.parse("deep.mlir", &text).map_err(|e| e.to_string())?;
        compiler.run_pipeline(&mut module, "builtin.module(canonicalize, cse)").map_err(|e| e.to_string())?;
        Ok(module.print(&fuser::PrintOptions::default()))
    });
    worker.expect("spawn").join().expect("no stack overflow")
}

#[test]
fn nesting_up_to_the_limit_fits_a_small_stack() {
    let printed = compile_on_small_stack(nested(500)).expect("500 levels compile");
    assert_eq!(printed.matches("\"test.op\"() ({").count(), 500);
}

#[test]
fn nesting_beyond_the_limit_is_an_error() {
    let err = compile_on_small_stack(nested(2000)).unwrap_err();
    assert!(err.contains("error:"), "{err}");
}
