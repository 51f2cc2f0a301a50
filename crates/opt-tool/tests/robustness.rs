//! Bad input never crashes `fuser-opt`: the binary is run on generated hostile inputs (deep
//! nesting, NUL bytes, invalid UTF-8, huge literals, a 10 MB line, every truncation of a valid
//! file) and must exit with status 1 and an `error:` diagnostic (or 0 for inputs that are
//! valid), never panic, report an internal error, or hang.
//!
//! Inputs are written to a per-test temporary directory; each run has a time limit.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FUSER_OPT: &str = env!("CARGO_BIN_EXE_fuser-opt");
/// Generous for debug builds on loaded machines; a hang is far beyond it.
const TIME_LIMIT: Duration = Duration::from_secs(120);
const DEPTH: usize = 20_000;

/// The result of one run.
struct Outcome {
    code: Option<i32>,
    stderr: String,
}

/// A scratch directory for one test, removed when the test passes (kept for a look when it
/// fails).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("fuser-robustness-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    Scratch(dir)
}

/// Writes `input` to `dir/name` and runs `fuser-opt --allow-unregistered-dialect` on it.
fn run_on(dir: &std::path::Path, name: &str, input: &[u8]) -> Outcome {
    let path = dir.join(name);
    std::fs::write(&path, input).expect("write input");
    let mut child = Command::new(FUSER_OPT)
        .arg("--allow-unregistered-dialect")
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fuser-opt");
    let stderr_pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let mut pipe = stderr_pipe;
        let _ = std::io::Read::read_to_end(&mut pipe, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for fuser-opt") {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name}: fuser-opt ran longer than {TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    let _ = std::fs::remove_file(&path);
    Outcome { code: status.code(), stderr }
}

/// No crash: exit status 0 or 1, no panic text; status 1 comes with an `error:` line.
fn assert_no_crash(name: &str, o: &Outcome) {
    let head: String = o.stderr.chars().take(600).collect();
    assert!(matches!(o.code, Some(0 | 1)), "{name}: exit status {:?}\n{head}", o.code);
    assert!(!o.stderr.contains("panicked"), "{name}: panicked\n{head}");
    assert!(!o.stderr.contains("internal error"), "{name}: internal error\n{head}");
    if o.code == Some(1) {
        assert!(o.stderr.contains("error:"), "{name}: exit status 1 without a diagnostic\n{head}");
    }
}

/// Rejected with a diagnostic.
fn assert_rejected(name: &str, o: &Outcome) {
    assert_no_crash(name, o);
    let head: String = o.stderr.chars().take(600).collect();
    assert_eq!(o.code, Some(1), "{name}: expected exit status 1\n{head}");
}

fn nested(open: &str, inner: &str, close: &str, depth: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * depth + inner.len());
    for _ in 0..depth {
        s.push_str(open);
    }
    s.push_str(inner);
    for _ in 0..depth {
        s.push_str(close);
    }
    s
}

#[test]
fn deep_nesting_is_rejected_with_a_diagnostic() {
    let dir = scratch("deep");
    let cases = [
        ("regions.mlir", nested("\"fz.r\"() ({\n", "", "}) : () -> ()\n", DEPTH)),
        ("tensor.mlir", format!("\"fz.a\"() : () -> {}\n", nested("tensor<", "i32", ">", DEPTH))),
        ("array.mlir", format!("\"fz.a\"() {{a = {}}} : () -> ()\n", nested("[", "", "]", DEPTH))),
        ("dict.mlir", format!("\"fz.a\"() {{a = {}}} : () -> ()\n", nested("{b = ", "1", "}", DEPTH))),
        ("parens.mlir", format!("\"fz.a\"() : {}\n", "(".repeat(DEPTH))),
        ("fused_loc.mlir", format!("\"fz.a\"() : () -> () loc({})\n", nested("fused[", "\"a\":1:1", "]", DEPTH))),
        ("func_type.mlir", format!("\"fz.a\"() : () -> {}\n", nested("((i32) -> ", "i32", ")", DEPTH))),
        ("unclosed_regions.mlir", "\"fz.r\"() ({\n".repeat(DEPTH)),
    ];
    for (name, text) in cases {
        let o = run_on(&dir, name, text.as_bytes());
        assert_rejected(name, &o);
    }
    // Opaque dialect type bodies are kept verbatim: deep `<` nesting is valid but must not crash.
    let opaque = format!("\"fz.a\"() : () -> !fz.x{}\n", nested("<", "", ">", DEPTH));
    assert_no_crash("opaque.mlir", &run_on(&dir, "opaque.mlir", opaque.as_bytes()));
    let unbalanced = format!("\"fz.a\"() : () -> !fz.x{}\n", "<".repeat(DEPTH));
    assert_rejected("opaque_unbalanced.mlir", &run_on(&dir, "opaque_unbalanced.mlir", unbalanced.as_bytes()));
}

#[test]
fn nul_bytes_and_invalid_utf8() {
    let dir = scratch("bytes");
    // NUL between tokens is skipped as mlir-opt does; inside an op name it is an error.
    let o = run_on(&dir, "nul_between.mlir", b"\"fz.a\"() : () -> ()\n\0\0\"fz.b\"() : () -> ()\n");
    assert_no_crash("nul_between.mlir", &o);
    assert_rejected("nul_name.mlir", &run_on(&dir, "nul_name.mlir", b"\"fz\0.a\"() : () -> ()\n"));
    assert_rejected("nul_only.mlir", &run_on(&dir, "nul_only.mlir", b"\0\0\0%"));
    let o = run_on(&dir, "bad_utf8.mlir", b"// comment \xff\xfe here\n\"fz.a\"() : () -> ()\n");
    assert_rejected("bad_utf8.mlir", &o);
    assert!(o.stderr.contains("bad_utf8.mlir:1:12: error: "), "{}", o.stderr);
    let o = run_on(&dir, "bad_utf8_line2.mlir", b"\"fz.a\"() : () -> ()\n\"fz.b\"() {s = \"\xc3\"} : () -> ()\n");
    assert!(o.stderr.contains("bad_utf8_line2.mlir:2:16: error: "), "{}", o.stderr);
    assert_rejected("bad_utf8_line2.mlir", &o);
    assert_rejected("truncated_utf8.mlir", &run_on(&dir, "truncated_utf8.mlir", b"\"fz.a\"() {s = \"\xe2\x82"));
}

#[test]
fn huge_literals() {
    let dir = scratch("literals");
    let digits = "9".repeat(100_000);
    let cases = [
        ("int_i32.mlir", format!("\"fz.a\"() {{a = {digits} : i32}} : () -> ()\n")),
        ("dim.mlir", format!("\"fz.a\"() : () -> tensor<{}xi32>\n", "9".repeat(100))),
        ("width.mlir", "\"fz.a\"() : () -> i99999999999\n".to_string()),
        ("result_no.mlir", "\"fz.a\"(%x#99999999999) : (i32) -> ()\n".to_string()),
        ("result_count.mlir", "%0:99999999999 = \"fz.a\"() : () -> ()\n".to_string()),
        ("dense_array.mlir", format!("\"fz.a\"() {{a = array<i8: {digits}>}} : () -> ()\n")),
        ("loc_line.mlir", format!("\"fz.a\"() : () -> () loc(\"f\":{digits}:1)\n")),
    ];
    for (name, text) in cases {
        assert_rejected(name, &run_on(&dir, name, text.as_bytes()));
    }
    // Valid, but large: must finish quickly.
    let valid = [
        ("int_wide.mlir", format!("\"fz.a\"() {{a = {digits} : i16777215}} : () -> ()\n")),
        ("hex_wide.mlir", format!("\"fz.a\"() {{a = -0x{} : i16777215}} : () -> ()\n", "f".repeat(100_000))),
        ("float.mlir", format!("\"fz.a\"() {{a = 1{}.0 : f32}} : () -> ()\n", "0".repeat(100_000))),
    ];
    for (name, text) in valid {
        let o = run_on(&dir, name, text.as_bytes());
        assert_no_crash(name, &o);
        assert_eq!(o.code, Some(0), "{name}: {}", o.stderr);
    }
}

#[test]
fn ten_megabyte_line() {
    let dir = scratch("long-line");
    let body = "x".repeat(10 << 20);
    let o = run_on(&dir, "error.mlir", format!("\"fz.a\"() {{s = \"{body}\"}} : () -> ( %x\n").as_bytes());
    assert_rejected("error.mlir", &o);
}

#[test]
fn many_errors_in_one_file() {
    let dir = scratch("many");
    let text: String = (0..20_000).map(|i| format!("\"fz.a\"(%v{i}) : (i32) -> ()\n")).collect();
    let o = run_on(&dir, "undeclared.mlir", text.as_bytes());
    assert_rejected("undeclared.mlir", &o);
    assert_eq!(o.stderr.matches("error: use of undeclared SSA value name").count(), 20_000);
}

/// A small valid program touching most of the grammar (custom and generic ops, regions,
/// blocks, attributes, locations, aliases).
const PROGRAM: &str = r#"#map = affine_map<(d0) -> (d0 + 1)>
!t = tensor<2x?xf32>
module attributes {fz.x = [1, "s", #map]} {
  func.func @f(%a: i32, %b: !t) -> i32 attributes {fz.y = dense<[1.0, 2.0]> : tensor<2xf32>} {
    %c = arith.constant 3 : i32
    %s = arith.addi %a, %c overflow<nsw> : i32
    %r:2 = "fz.pair"(%s) ({
    ^bb0(%x: i32):
      "fz.br"(%x)[^bb1] : (i32) -> ()
    ^bb1(%y: i32):  // pred: ^bb0
      "fz.yield"(%y) : (i32) -> ()
    }) {p = 0x7FC00000 : f32} : (i32) -> (i32, i64) loc("f.mlir":1:2)
    return %r#0 : i32
  }
}
"#;

#[test]
fn every_truncation_of_a_valid_file() {
    let dir = scratch("truncated");
    let full = run_on(&dir, "full.mlir", PROGRAM.as_bytes());
    assert_eq!(full.code, Some(0), "the full program must be valid: {}", full.stderr);
    for cut in 0..PROGRAM.len() {
        let name = format!("cut{cut}.mlir");
        assert_no_crash(&name, &run_on(&dir, &name, &PROGRAM.as_bytes()[..cut]));
    }
}
