//! Compiles `csrc/emit_diagnostic.cpp` (MLIR's C API has no way to emit a warning, a remark
//! or an error with notes) with the system C++ compiler against the LLVM 19 headers; the
//! MLIR libraries themselves come from `mlir-sys`.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=csrc/emit_diagnostic.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_190_PREFIX");
    let prefix = std::env::var("MLIR_SYS_190_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-19".to_string());
    let mut build = cc::Build::new();
    build.cpp(true).file("csrc/emit_diagnostic.cpp").flag(format!("-isystem{prefix}/include")).flag("-std=c++17");
    if !llvm_has_rtti(&prefix) {
        build.flag("-fno-rtti");
    }
    build.compile("fuser_bridge_cxx");
}

/// Whether LLVM was built with RTTI (`llvm-config --has-rtti`); classes derived from LLVM's
/// must be compiled the same way.
fn llvm_has_rtti(prefix: &str) -> bool {
    Command::new(format!("{prefix}/bin/llvm-config"))
        .arg("--has-rtti")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "YES")
        .unwrap_or(false)
}
