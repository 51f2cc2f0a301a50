//! Shared by the facade's integration tests: the repository's files and the `fuser-opt`
//! binary (built on demand with the cargo running the tests, so it is never stale).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// The text of a file of the repository.
pub fn read_repo_file(relative: &str) -> String {
    std::fs::read_to_string(repo_root().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The path of an up-to-date `fuser-opt` (cargo builds it if needed, in the profile of this
/// test; a no-op when fresh). Built once per test binary.
pub fn fuser_opt() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| cargo_build_artifact(&["-p", "fuser-opt-tool", "--bin", "fuser-opt"], "\"executable\":\""))
        .clone()
}

/// Runs `cargo build ARGS` (in this test's profile) and returns the path that follows `key`
/// in its JSON messages.
pub fn cargo_build_artifact(args: &[&str], key: &str) -> PathBuf {
    let stdout = cargo_build_messages(args);
    let line = stdout
        .lines()
        .find(|l| l.contains("\"reason\":\"compiler-artifact\"") && l.contains(key))
        .unwrap_or_else(|| panic!("cargo build {args:?} reported no `{key}`"));
    let start = line.find(key).expect("key") + key.len();
    let end = line[start..].find('"').expect("end of the path") + start;
    PathBuf::from(&line[start..end])
}

/// The JSON messages of `cargo build ARGS` in this test's profile, asserting success.
pub fn cargo_build_messages(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut command = Command::new(cargo);
    command.current_dir(repo_root()).args(["build", "--quiet", "--message-format=json"]).args(args);
    if built_in_release() {
        command.arg("--release");
    }
    let out = command.output().expect("run cargo build");
    assert!(out.status.success(), "cargo build {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whether this test binary lives in a `release` target directory.
fn built_in_release() -> bool {
    let exe = std::env::current_exe().expect("the test's path");
    exe.parent().and_then(Path::parent).and_then(Path::file_name).is_some_and(|n| n == "release")
}

/// What `fuser-opt ARGS` prints on stdout (asserting that it succeeds).
pub fn run_fuser_opt(args: &[&str]) -> String {
    let out = Command::new(fuser_opt()).current_dir(repo_root()).args(args).output().expect("run fuser-opt");
    assert!(out.status.success(), "fuser-opt {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("fuser-opt prints UTF-8")
}

/// What `fuser-opt ARGS` prints on stderr, run in `dir`, asserting that it fails.
pub fn fuser_opt_errors(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(fuser_opt()).current_dir(dir).args(args).output().expect("run fuser-opt");
    assert!(!out.status.success(), "fuser-opt {args:?} was expected to fail");
    String::from_utf8(out.stderr).expect("fuser-opt prints UTF-8")
}
