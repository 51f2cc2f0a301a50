//! Every fuser pass and named pipeline as an MLIR external pass (`melior::pass::external`).
//!
//! A run on an op: copy the op into its symbol context ([`crate::shell`]), hand the text
//! to fuser ([`fuser_mlir_text::run_on_text`]: parse, verify, run the pass as `fuser-opt`
//! would), emit fuser's diagnostics as MLIR diagnostics ([`crate::emit`]), and, when the
//! text changed, parse it in MLIR and move the result into the op ([`crate::transfer`]).
//! An error (from fuser, or from the crossing) signals failure to MLIR's pass manager.
//! Nothing unwinds into MLIR: a panic is caught and reported as an error diagnostic.

use crate::emit::emit;
use crate::error::BridgeError;
use crate::handover::{hand_over, parse_op};
use crate::transfer::replace_contents;
use fuser_mlir_text::catalog::DEFAULT_PREFIX;
use fuser_mlir_text::{Catalog, Entry, TextDiagnostic, run_on_text};
use melior::ContextRef;
use melior::ir::OperationRef;
use melior::ir::r#type::TypeId;
use melior::pass::{ExternalPass, Pass, RunExternalPass, create_external};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// The passes on offer, with their MLIR arguments (`fuser-` + the fuser name by default).
#[derive(Clone)]
pub struct FuserPasses {
    catalog: Arc<Catalog>,
}

impl FuserPasses {
    /// Every registered fuser pass and pipeline, arguments prefixed with `fuser-`.
    pub fn new() -> Result<FuserPasses, BridgeError> {
        Self::with_prefix(DEFAULT_PREFIX)
    }

    /// The same, with another argument prefix.
    pub fn with_prefix(prefix: &str) -> Result<FuserPasses, BridgeError> {
        let catalog = Catalog::new(prefix).map_err(BridgeError::new)?;
        if catalog.entries.len() > PASS_IDS.len() {
            return Err(BridgeError::new("more fuser passes than MLIR pass ids"));
        }
        Ok(FuserPasses { catalog: Arc::new(catalog) })
    }

    /// The passes and pipelines on offer.
    pub fn entries(&self) -> &[Entry] {
        &self.catalog.entries
    }

    /// The MLIR pass for `element`: a fuser pass or pipeline name with its options, as in
    /// a fuser pipeline (`cse`, `tp-default{streams=2}`). Options are checked here.
    pub fn pass(&self, element: &str) -> Result<Pass, BridgeError> {
        let name = element.split('{').next().unwrap_or(element).trim();
        let index = self
            .catalog
            .entries
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| BridgeError::new(format!("no fuser pass or pipeline named '{name}'")))?;
        check_options(&self.catalog, element)?;
        let entry = &self.catalog.entries[index];
        let runner = FuserExternalPass { catalog: Arc::clone(&self.catalog), element: element.trim().to_string() };
        Ok(create_external(
            runner,
            TypeId::create(&PASS_IDS[index]),
            &entry.argument,
            &entry.argument,
            entry.summary,
            entry.anchor.unwrap_or(""),
            &[],
        ))
    }
}

/// A pass with its options, for one fresh [`FuserPasses`] (see [`FuserPasses::pass`]).
pub fn create_pass(element: &str) -> Result<Pass, BridgeError> {
    FuserPasses::new()?.pass(element)
}

/// Builds the element into a throwaway pipeline: unknown options fail here, not later.
fn check_options(catalog: &Catalog, element: &str) -> Result<(), BridgeError> {
    let mut pm = fuser_ir::pass::OpPassManager::new("any");
    pm.add_pipeline_text(element, &catalog.registry).map(|_| ()).map_err(|e| BridgeError::new(e.to_string()))
}

/// One MLIR type id per catalog entry: the addresses of these 8-byte-aligned slots.
#[repr(align(8))]
struct PassId(#[allow(dead_code)] u8);
static PASS_IDS: [PassId; 64] = [const { PassId(0) }; 64];

/// The state MLIR clones per pass instance: the catalog and the element to run.
#[derive(Clone)]
struct FuserExternalPass {
    catalog: Arc<Catalog>,
    element: String,
}

impl<'c> RunExternalPass<'c> for FuserExternalPass {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, op: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        let context = op.context();
        let at = op.location();
        let ok = catch_unwind(AssertUnwindSafe(|| run_on_op(&self.catalog, &self.element, op))).unwrap_or_else(|p| {
            let what = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned());
            let message = format!("internal error: fuser pass panicked: {}", what.unwrap_or_default());
            emit(context, &TextDiagnostic::error_at_unknown(message), at);
            false
        });
        if !ok {
            pass.signal_failure();
        }
    }
}

/// Runs the element on `op`; diagnostics are emitted; returns success.
fn run_on_op(catalog: &Catalog, element: &str, op: OperationRef<'_, '_>) -> bool {
    let context = op.context();
    let at = op.location();
    let fail = |e: BridgeError| {
        emit(context, &TextDiagnostic::error_at_unknown(e.to_string()), at);
        false
    };
    let handed = match hand_over(op) {
        Ok(h) => h,
        Err(e) => return fail(e),
    };
    let report = run_on_text(&catalog.registry, element, &handed, "<mlir>");
    for d in &report.diagnostics {
        emit(context, d, at);
    }
    if !report.success {
        return false;
    }
    match report.output {
        None => true,
        Some(out) => match write_back(context, op, &out) {
            Ok(()) => true,
            Err(e) => fail(e),
        },
    }
}

/// Parses the op fuser produced and moves it into `op`.
fn write_back(context: ContextRef<'_>, op: OperationRef<'_, '_>, text: &str) -> Result<(), BridgeError> {
    let source = parse_op(context, text)?;
    let source = source.into_raw();
    // SAFETY: `op` is the op this pass owns; `source` is a separate op owned here, destroyed
    // once its contents moved.
    unsafe {
        let moved = replace_contents(op.to_raw(), source);
        mlir_sys::mlirOperationDestroy(source);
        moved
    }
}
