//! Panics inside the compiler become error diagnostics instead of unwinding into the
//! embedder or printing to stderr.
//!
//! Every facade call runs its work under [`guarded`], which uses the pass manager's
//! `catch_panic` (a panicking pass is already reported that way). Rust's default panic hook
//! would still print `thread panicked at ...` to stderr; the first [`Compiler`](crate::Compiler)
//! therefore installs, once per process, a hook that records panics being caught by fuser and
//! hands every other panic to the hook that was installed before (so the embedder's own panics
//! behave as they did).

use crate::diagnostics::Error;
use std::sync::Once;

static INSTALL: Once = Once::new();

/// Installs the chaining hook (once per process).
pub(crate) fn install_quiet_hook() {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if fuser_ir::pass::panic_is_being_caught() {
                fuser_ir::pass::record_panic(info);
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`; a panic becomes an [`Error`] saying which facade call failed.
pub(crate) fn guarded<R>(what: &str, f: impl FnOnce() -> Result<R, Error>) -> Result<R, Error> {
    match fuser_ir::pass::catch_panic(f) {
        Ok(result) => result,
        Err(message) => Err(Error::message(format!("internal error in {what}: {message}"))),
    }
}
