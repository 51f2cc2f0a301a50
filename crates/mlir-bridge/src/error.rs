//! [`BridgeError`]: why a conversion failed, with the diagnostics either side reported.

use std::fmt;

/// A failed conversion or pass set-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeError {
    pub message: String,
    /// Rendered diagnostics of the side that failed (MLIR's or fuser's), in order.
    pub diagnostics: Vec<String>,
}

impl BridgeError {
    pub fn new(message: impl Into<String>) -> BridgeError {
        BridgeError { message: message.into(), diagnostics: Vec::new() }
    }

    pub fn with_diagnostics(message: impl Into<String>, diagnostics: Vec<String>) -> BridgeError {
        BridgeError { message: message.into(), diagnostics }
    }
}

impl fmt::Display for BridgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        for d in &self.diagnostics {
            write!(f, "\n{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BridgeError {}
