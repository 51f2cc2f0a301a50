//! The catalog of passes the plugin offers, built once per process, with NUL-terminated
//! copies of the strings the C++ side keeps pointers to for the life of the process.

use fuser_mlir_text::Catalog;
use fuser_mlir_text::catalog::DEFAULT_PREFIX;
use std::ffi::CString;
use std::sync::OnceLock;

/// One entry with C strings.
pub struct CEntry {
    pub argument: CString,
    pub summary: CString,
    /// Empty: any op.
    pub anchor: CString,
}

/// The catalog and its C strings.
pub struct PluginCatalog {
    pub catalog: Catalog,
    pub c_entries: Vec<CEntry>,
}

static CATALOG: OnceLock<Result<PluginCatalog, String>> = OnceLock::new();

/// The process-wide catalog, or why it could not be built.
pub fn catalog() -> Result<&'static PluginCatalog, &'static str> {
    CATALOG.get_or_init(build).as_ref().map_err(|e| e.as_str())
}

fn build() -> Result<PluginCatalog, String> {
    let catalog = Catalog::new(DEFAULT_PREFIX)?;
    let c = |s: &str| CString::new(s).map_err(|_| format!("a pass string contains a NUL byte: {s:?}"));
    let c_entries = catalog
        .entries
        .iter()
        .map(|e| Ok(CEntry { argument: c(&e.argument)?, summary: c(e.summary)?, anchor: c(e.anchor.unwrap_or(""))? }))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(PluginCatalog { catalog, c_entries })
}
