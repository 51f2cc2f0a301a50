//! Shared by the facade's integration tests: the repository's files and the `fuser-opt`
//! binary (built on demand with the cargo running the tests, so it is never stale).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// The text of a file of the repository.
pub fn read_repo_file(relative: &str) -> String {
    std::fs::read_to_string(repo_root().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The path of an up-to-date `fuser-opt` (cargo builds it if needed; a no-op when fresh).
pub fn fuser_opt() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .current_dir(repo_root())
        .args(["build", "--quiet", "-p", "fuser-opt-tool", "--bin", "fuser-opt", "--message-format=json"])
        .output()
        .expect("run cargo build for fuser-opt");
    assert!(out.status.success(), "building fuser-opt failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| {
            l.contains("\"reason\":\"compiler-artifact\"") && l.contains("\"executable\":\"") && l.contains("fuser-opt")
        })
        .expect("cargo reported the fuser-opt executable");
    let start = line.find("\"executable\":\"").expect("executable field") + "\"executable\":\"".len();
    let end = line[start..].find('"').expect("end of executable path") + start;
    PathBuf::from(&line[start..end])
}

/// What `fuser-opt ARGS` prints on stdout (asserting that it succeeds).
pub fn run_fuser_opt(args: &[&str]) -> String {
    let out = Command::new(fuser_opt()).current_dir(repo_root()).args(args).output().expect("run fuser-opt");
    assert!(out.status.success(), "fuser-opt {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("fuser-opt prints UTF-8")
}
