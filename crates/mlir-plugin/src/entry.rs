//! MLIR's pass-plugin entry point, `mlirGetPassPluginInfo`, exported from the shared
//! library (a Rust `cdylib` exports only Rust symbols, so the entry point is defined here
//! and hands MLIR the C++ registration callback of `csrc/plugin.cpp`).

use std::ffi::c_char;

/// `mlir::PassPluginLibraryInfo` (mlir/Tools/Plugins/PassPlugin.h).
#[repr(C)]
pub struct PassPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_pass_registry_callbacks: Option<unsafe extern "C" fn()>,
}

/// `MLIR_PLUGIN_API_VERSION` of MLIR 19.
const MLIR_PLUGIN_API_VERSION: u32 = 1;

unsafe extern "C" {
    /// Registers every catalog entry with `mlir::registerPass` (csrc/plugin.cpp).
    fn fuser_plugin_register_passes();
}

/// Called by `mlir::PassPlugin::Load` after `dlopen`.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: c"fuser".as_ptr(),
        plugin_version: concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast(),
        register_pass_registry_callbacks: Some(fuser_plugin_register_passes),
    }
}
