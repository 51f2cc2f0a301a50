//! The C and C++ programs of `examples/c/` (and the C example of `docs/embedding.md`),
//! compiled with the system compiler against the static and the shared library, lower
//! `examples/row_parallel_linear.mlir` with `tp-default` exactly as `fuser-opt` does. Without
//! a C compiler the tests say so on stderr and pass.

#[path = "../../fuser/tests/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

const INPUT: &str = "examples/row_parallel_linear.mlir";
const PIPELINE: &str = "builtin.module(tp-default)";

/// The built `libfuser.a` and `libfuser.so` (cargo builds them if needed).
struct Libraries {
    static_lib: PathBuf,
    shared_lib: PathBuf,
}

fn libraries() -> Libraries {
    let stdout = support::cargo_build_messages(&["-p", "fuser-capi"]);
    let find = |suffix: &str| {
        let pattern = format!("/libfuser{suffix}\"");
        let line = stdout
            .lines()
            .find(|l| l.contains("\"reason\":\"compiler-artifact\"") && l.contains(&pattern))
            .unwrap_or_else(|| panic!("cargo reported no libfuser{suffix}"));
        let end = line.find(&pattern).expect("pattern") + pattern.len() - 1;
        let start = line[..end].rfind('"').expect("start of path") + 1;
        PathBuf::from(&line[start..end])
    };
    Libraries { static_lib: find(".a"), shared_lib: find(".so") }
}

/// The compiler named by `var` (or `default`) when it runs; otherwise a notice on stderr.
fn compiler(var: &str, default: &str) -> Option<String> {
    let cc = std::env::var(var).unwrap_or_else(|_| default.to_string());
    match Command::new(&cc).arg("--version").output() {
        Ok(o) if o.status.success() => Some(cc),
        _ => {
            skip_notice(&format!("no working C/C++ compiler `{cc}` (set {var}); the C ABI examples were not compiled"));
            None
        }
    }
}

/// Says on stderr that a check was skipped. Written to the stream itself, not through
/// `eprintln!`, which the test harness captures (and hides for passing tests).
fn skip_notice(what: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {what}");
}

fn out_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// Compiles `source` with `compiler` and `flags` into `exe`, asserting success.
fn compile(compiler: &str, source: &Path, exe: &Path, flags: &[String]) {
    let include = support::repo_root().join("include");
    let out = Command::new(compiler)
        .arg(format!("-I{}", include.display()))
        .arg("-Wall")
        .arg("-Wextra")
        .arg("-Werror")
        .arg("-pedantic")
        .arg(source)
        .args(flags)
        .arg("-o")
        .arg(exe)
        .output()
        .expect("run the compiler");
    assert!(out.status.success(), "{compiler} {}:\n{}", source.display(), String::from_utf8_lossy(&out.stderr));
}

/// Runs a lowering program on the example and returns its stdout, asserting success.
fn run_lowering(exe: &Path) -> String {
    let out = Command::new(exe).current_dir(support::repo_root()).args([INPUT, PIPELINE]).output().expect("run");
    assert!(out.status.success(), "{} failed:\n{}", exe.display(), String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "nothing on stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn static_link_flags(libs: &Libraries) -> Vec<String> {
    let mut flags = vec![libs.static_lib.display().to_string()];
    flags.extend(["-lpthread", "-ldl", "-lm"].map(String::from));
    flags
}

fn shared_link_flags(libs: &Libraries) -> Vec<String> {
    let dir = libs.shared_lib.parent().expect("library directory").display().to_string();
    vec![format!("-L{dir}"), "-lfuser".to_string(), format!("-Wl,-rpath,{dir}")]
}

fn expected() -> String {
    support::run_fuser_opt(&[&format!("--pass-pipeline={PIPELINE}"), INPUT])
}

#[test]
fn c_program_on_the_static_library_matches_fuser_opt() {
    let Some(cc) = compiler("CC", "cc") else { return };
    let libs = libraries();
    let exe = out_dir().join("lower_c");
    let mut flags = vec!["-std=c11".to_string()];
    flags.extend(static_link_flags(&libs));
    compile(&cc, &support::repo_root().join("examples/c/lower.c"), &exe, &flags);
    assert_eq!(run_lowering(&exe), expected());
    assert_failure_renders_like_fuser_opt(&exe);
}

/// On an input the lowering rejects, the program's stderr (the rendered diagnostics) is
/// fuser-opt's and both fail.
fn assert_failure_renders_like_fuser_opt(exe: &Path) {
    let dir = out_dir().join("c-failure");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let name = "two_streams.mlir";
    let ty = "tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2)], [Stream(2)]]>>";
    let text = format!(
        "fusion.mesh @tp = [0, 1]\nfunc.func @f(%x: {ty}) -> {ty} {{\n  %y = fusion.neg %x : ({ty}) -> {ty}\n  return %y : {ty}\n}}\n"
    );
    std::fs::write(dir.join(name), text).expect("write input");
    let out = Command::new(exe).current_dir(&dir).args([name, PIPELINE]).output().expect("run");
    assert!(!out.status.success() && out.stdout.is_empty());
    let expected = support::fuser_opt_errors(&dir, &[&format!("--pass-pipeline={PIPELINE}"), name]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), expected);
}

#[test]
fn cpp_program_on_the_shared_library_matches_fuser_opt() {
    let Some(cxx) = compiler("CXX", "c++") else { return };
    let libs = libraries();
    let exe = out_dir().join("lower_cpp");
    let mut flags = vec!["-std=c++17".to_string()];
    flags.extend(shared_link_flags(&libs));
    compile(&cxx, &support::repo_root().join("examples/c/lower.cpp"), &exe, &flags);
    assert_eq!(run_lowering(&exe), expected());
}

/// The first ```c block of the "C ABI" section of docs/embedding.md.
fn doc_c_example() -> String {
    let doc = support::read_repo_file("docs/embedding.md");
    let section = &doc[doc.find("\n## C ABI").expect("a C ABI section")..];
    let start = section.find("```c\n").expect("a ```c block") + "```c\n".len();
    let end = section[start..].find("```").expect("end of the block") + start;
    section[start..end].to_string()
}

#[test]
fn c_example_of_the_embedding_guide_runs() {
    let Some(cc) = compiler("CC", "cc") else { return };
    let libs = libraries();
    let source = out_dir().join("embedding_guide.c");
    std::fs::write(&source, doc_c_example()).expect("write the example");
    let exe = out_dir().join("embedding_guide");
    let mut flags = vec!["-std=c11".to_string()];
    flags.extend(static_link_flags(&libs));
    compile(&cc, &source, &exe, &flags);
    assert_eq!(run_lowering(&exe), expected());
}

#[test]
fn shared_library_exports_exactly_the_header_functions() {
    let libs = libraries();
    let Ok(out) = Command::new("nm").args(["-D", "--defined-only"]).arg(&libs.shared_lib).output() else {
        skip_notice("no `nm`; the exported symbols were not compared with include/fuser.h");
        return;
    };
    let mut exported: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .filter(|s| s.starts_with("fuser_"))
        .map(String::from)
        .collect();
    exported.sort();
    let header = support::read_repo_file("include/fuser.h");
    let mut declared: Vec<String> = header
        .lines()
        .filter(|l| l.starts_with("fuser_status fuser_"))
        .map(|l| l["fuser_status ".len()..l.find('(').expect("a prototype")].to_string())
        .collect();
    declared.sort();
    assert!(declared.len() >= 15, "the header declares the whole ABI: {declared:?}");
    assert_eq!(exported, declared);
}
