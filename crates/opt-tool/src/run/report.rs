//! How `fuser-run` prints diagnostics: against the sources it read (the input and the
//! reference), with the source line and a caret, as fuser-opt does; a diagnostic without a
//! location, about the run rather than a place in the input, reads `fuser-run: error: ...`.

use fuser_ir::attrs::AttrKind;
use fuser_ir::diag::{SourceMgr, render};
use fuser_ir::{Context, Diagnostic};
use fuser_runtime::driver::Failure;

const TOOL: &str = "fuser-run";

/// Reports diagnostics against the loaded sources.
pub(crate) struct Reporter {
    pub ctx: Context,
    pub sources: SourceMgr,
}

impl Reporter {
    pub fn new(ctx: Context) -> Reporter {
        Reporter { ctx, sources: SourceMgr::new() }
    }

    /// Prints `d` against the sources; a diagnostic without a location (about the run, not
    /// about a place in the input) reads `fuser-run: error: ...`, its notes follow as usual.
    pub fn error(&self, d: &Diagnostic) {
        if !matches!(self.ctx.attr_kind(d.loc), AttrKind::UnknownLoc) {
            eprint!("{}", render(&self.ctx, &self.sources, d));
            return;
        }
        eprintln!("{TOOL}: {}: {}", d.severity.label(), d.message);
        for n in &d.notes {
            eprint!("{}", render(&self.ctx, &self.sources, &Diagnostic::new(n.severity, n.loc, n.message.clone())));
        }
    }
    pub fn plain(&self, message: &str) {
        self.error(&Diagnostic::error(self.ctx.unknown_loc(), message));
    }
    pub fn failure(&self, f: &Failure) {
        let loc = f.loc.unwrap_or_else(|| self.ctx.unknown_loc());
        let message = match f.error.rank {
            Some(r) if f.loc.is_some() => format!("rank {r}: {}", f.error.message),
            _ => f.error.to_string(),
        };
        self.error(&Diagnostic::error(loc, message));
    }
}
