//! The pass manager: passes declared with metadata ([`PassInfo`]), typed options, MLIR's
//! textual pipeline grammar, nested pipelines anchored on op names run in parallel over
//! isolated ops, instrumentation (IR printing, timing, verify-each, crash reproducers) and the
//! registry of passes and named pipelines.
//!
//! Files: [`pass`] (trait and metadata), [`options`] (typed options), [`pipeline`] (textual
//! grammar), [`manager`] (execution), [`instrument`] (printing, timing, panics, reproducers),
//! [`registry`] (lookup and help text), [`adapters`] (the printer and verifier it calls, and
//! [`op_error`], a pass's error about an op).

pub mod adapters;
pub mod instrument;
pub mod manager;
pub mod options;
#[allow(clippy::module_inception)]
pub mod pass;
pub mod pipeline;
pub mod registry;

pub use adapters::{IrPrintFlags, op_error};
pub use instrument::{IrPrintConfig, PassFilter, TimingNode, catch_panic, panic_is_being_caught, record_panic};
pub use manager::{
    Anchor, LogEntry, OpPassManager, PassEntry, PassManager, PassManagerConfig, PipelineElement, RunOutput,
};
pub use options::{EnumCase, OptionDef, OptionType, OptionValue, OptionValues};
pub use pass::{CreatePassFn, Pass, PassInfo, PassOutcome};
pub use pipeline::{PipelineError, parse_pass_pipeline};
pub use registry::{BuildPipelineFn, PassRegistry, PipelineInfo};

#[cfg(test)]
mod tests;
