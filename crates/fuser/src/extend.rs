//! What an embedder needs to add its own dialect, ops and passes: the definition types, the
//! `declare_op!` macro, the IR they work on, and the pass interface. Register the results with
//! [`CompilerBuilder`](crate::CompilerBuilder).
//!
//! These are fuser's own IR types, re-exported as they are: an outside pass manipulates the
//! same [`Ir`] and [`Context`] fuser's passes do. Everything else of the internal crates stays
//! hidden behind the facade. Note the two diagnostics: a pass returns this module's
//! [`Diagnostic`] (pointing at a location attribute of the context); the facade hands the
//! embedder [`crate::Diagnostic`], resolved to file, line and column.
//!
//! ```
//! use fuser::extend::{Context, Diagnostic, Ir, OpId, Pass, PassInfo, PassOutcome};
//!
//! /// Counts nothing, changes nothing.
//! struct Noop;
//! impl Pass for Noop {
//!     fn info(&self) -> &'static PassInfo { &NOOP }
//!     fn run(&self, _: &Context, _: &mut Ir, _: OpId) -> Result<PassOutcome, Diagnostic> {
//!         Ok(PassOutcome::unchanged())
//!     }
//! }
//! static NOOP: PassInfo = PassInfo {
//!     name: "my-noop",
//!     display: "MyNoop",
//!     summary: "does nothing",
//!     description: "",
//!     anchor: None,
//!     options: &[],
//!     create: |_| Ok(Box::new(Noop)),
//! };
//!
//! let compiler = fuser::Compiler::builder().pass(&NOOP).build()?;
//! let mut module = compiler.parse("m.mlir", "")?;
//! compiler.run_pipeline(&mut module, "builtin.module(my-noop, canonicalize)")?;
//! # Ok::<(), fuser::Error>(())
//! ```

pub use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
pub use fuser_ir::declare::{AttrConstraint, SlotConstraint, TypeConstraint};
pub use fuser_ir::declare_op;
pub use fuser_ir::diag::{Diagnostic, Severity};
pub use fuser_ir::ir::{IrMapping, OperationState, WalkOrder, WalkResult};
/// Runs a closure, turning a panic into `Err(message)` (with the panic's source location).
/// Once a [`Compiler`](crate::Compiler) exists, such a panic prints nothing.
pub use fuser_ir::pass::catch_panic;
pub use fuser_ir::pass::{OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome, PipelineInfo};
pub use fuser_ir::registry::{DialectDef, OpDef, Traits, VerifyCtx};
pub use fuser_ir::{Attr, AttrKind, BlockId, Context, Ir, OpId, RegionId, Type, TypeKind, Value};
