//! Compiles the C++ half of the plugin (`csrc/plugin.cpp`: the `mlir::Pass` subclass and
//! its registration) with the system C++ compiler against the LLVM/MLIR 19 headers. No
//! MLIR library is linked: the plugin's MLIR symbols resolve, when `mlir-opt-19` loads it,
//! to the copy of MLIR inside the executable (which exports its symbols).

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=csrc/plugin.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_190_PREFIX");
    let prefix = std::env::var("MLIR_SYS_190_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-19".to_string());
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file("csrc/plugin.cpp")
        .flag(format!("-isystem{prefix}/include"))
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .flag("-fvisibility=hidden")
        .pic(true);
    if !llvm_has_rtti(&prefix) {
        build.flag("-fno-rtti");
    }
    build.compile("fuser_mlir_plugin_cxx");
}

/// Whether LLVM was built with RTTI (`llvm-config --has-rtti`); a class derived from
/// `mlir::Pass` must be compiled the same way.
fn llvm_has_rtti(prefix: &str) -> bool {
    Command::new(format!("{prefix}/bin/llvm-config"))
        .arg("--has-rtti")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "YES")
        .unwrap_or(false)
}
