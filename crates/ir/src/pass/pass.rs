//! The [`Pass`] trait and the declarative metadata of a pass ([`PassInfo`]).
//!
//! A pass is described once, as `'static` data: its pipeline name (`cse`), display name (`CSE`,
//! used in IR dumps and timing), docs, the op it is restricted to (its anchor), its options, and
//! a constructor from parsed option values. The pass manager, the registry, `--help`,
//! `--list-passes` and `--dump-pass-pipeline` all read this metadata.
//!
//! Contract (MLIR's): a pass run on an op may change that op and everything nested in it, and
//! nothing else; it keeps no mutable state across runs, because one pass object is shared by the
//! threads that run a nested pipeline on several isolated ops at once (hence `Send + Sync`).

use super::options::{OptionDef, OptionValues};
use crate::context::Context;
use crate::diag::Diagnostic;
use crate::ir::{Ir, OpId};

/// Constructor of a pass from its parsed options.
pub type CreatePassFn = fn(&OptionValues) -> Result<Box<dyn Pass>, String>;

/// Everything about one pass, declared as a `static`.
pub struct PassInfo {
    /// The pipeline name (MLIR's "argument"), e.g. `cse`.
    pub name: &'static str,
    /// The display name used in IR dumps and timing reports, e.g. `CSE`.
    pub display: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    /// The op name the pass must run on (`func.func`); `None` runs on any op.
    pub anchor: Option<&'static str>,
    pub options: &'static [OptionDef],
    pub create: CreatePassFn,
}

impl PassInfo {
    /// Creates the pass with its options parsed from `text` (the part between `{}`).
    pub fn instantiate(&'static self, text: &str) -> Result<Box<dyn Pass>, String> {
        let values = OptionValues::parse(self.options, text)?;
        (self.create)(&values)
    }

    /// Creates the pass with default options.
    pub fn instantiate_default(&'static self) -> Result<Box<dyn Pass>, String> {
        self.instantiate("")
    }
}

impl std::fmt::Debug for PassInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PassInfo").field("name", &self.name).field("anchor", &self.anchor).finish()
    }
}

/// What a successful pass run reports.
#[derive(Clone, Debug, Default)]
pub struct PassOutcome {
    /// Whether the IR may have changed. `false` is a promise (the manager may skip work
    /// on it, e.g. copying a function back after a parallel run when its fingerprint also
    /// matches).
    pub changed: bool,
    /// Diagnostics to report. Any error among them makes the pass fail, like returning `Err`.
    pub diagnostics: Vec<Diagnostic>,
}

impl PassOutcome {
    pub fn changed() -> Self {
        PassOutcome { changed: true, diagnostics: Vec::new() }
    }
    pub fn unchanged() -> Self {
        PassOutcome { changed: false, diagnostics: Vec::new() }
    }
    pub fn from_changed(changed: bool) -> Self {
        PassOutcome { changed, diagnostics: Vec::new() }
    }
    /// Adds a diagnostic (a warning or remark; an error fails the pass).
    pub fn with_diagnostic(mut self, d: Diagnostic) -> Self {
        self.diagnostics.push(d);
        self
    }
}

/// A transformation or analysis run on one op.
pub trait Pass: Send + Sync {
    fn info(&self) -> &'static PassInfo;

    /// The option values this pass was created with (for `--dump-pass-pipeline`). The default
    /// reports the declared defaults; a pass with options should return its own.
    fn options(&self) -> OptionValues {
        OptionValues::defaults(self.info().options)
            .unwrap_or_else(|_| OptionValues::defaults(&[]).expect("an empty option list always has defaults"))
    }

    /// Runs on `op` (whose name matches the pass's anchor, if it has one).
    fn run(&self, ctx: &Context, ir: &mut Ir, op: OpId) -> Result<PassOutcome, Diagnostic>;
}
