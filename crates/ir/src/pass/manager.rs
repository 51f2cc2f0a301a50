//! Pass managers: [`OpPassManager`] (a pipeline anchored on an op name: passes and nested
//! pipelines) and [`PassManager`] (a root pipeline plus run settings and instrumentation).
//!
//! Execution rules (MLIR's):
//! - a pipeline runs on one op whose name matches its anchor (`any` matches every op);
//! - a pass restricted to an op name runs only on ops of that name;
//! - a nested pipeline runs on every op *directly* nested in the current op's regions that
//!   matches its anchor; a named anchor requires the matched op to be registered and
//!   `IsolatedFromAbove` (else an error), `any` silently skips ops that are not;
//! - a failing pass stops its pipeline on that op; with threading, the other ops of the same
//!   nested run still run (as MLIR does), sequentially the run stops at the first failure.
//!
//! Parallelism: with threading on and two or more matching ops, each op is copied into its own
//! [`Ir`] with [`Ir::clone_op_into`] (the subtree of an isolated op without operands reads
//! nothing from outside), the nested pipeline runs on the
//! copies in parallel on a rayon pool with large stacks, and every copy that changed (some pass
//! said so, or its fingerprint differs) is cloned back in place of the original. Output (IR
//! dumps, diagnostics, timing) is collected per op and merged in op order, so results do not
//! depend on scheduling. The only observable difference from the in-place sequential mode is
//! the order of use lists inside copied ops. Ops with operands, and subtrees that read values
//! from outside (broken isolation), fall back to the sequential in-place mode.

use super::adapters::{self, IrPrintFlags};
use super::instrument::{self, IrPrintConfig, TimingNode};
use super::options::OptionValues;
use super::pass::Pass;
use super::pipeline::{self, PipelineError};
use super::registry::PassRegistry;
use crate::context::Context;
use crate::diag::Diagnostic;
use crate::ir::{Ir, IrMapping, OpId, Value, ValueDef, WalkOrder, WalkResult};
use crate::registry::Traits;
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// The op a pipeline is anchored on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    Any,
    Op(String),
}

impl Anchor {
    pub fn parse(name: &str) -> Anchor {
        if name == "any" { Anchor::Any } else { Anchor::Op(name.to_string()) }
    }
    pub fn name(&self) -> &str {
        match self {
            Anchor::Any => "any",
            Anchor::Op(n) => n,
        }
    }
    fn matches(&self, op_name: &str) -> bool {
        match self {
            Anchor::Any => true,
            Anchor::Op(n) => n == op_name,
        }
    }
}

/// A pass with the option values it was created with.
pub struct PassEntry {
    pub pass: Box<dyn Pass>,
    pub options: OptionValues,
}

/// One step of a pipeline.
pub enum PipelineElement {
    Pass(PassEntry),
    Nested(OpPassManager),
}

/// A pipeline anchored on an op name.
pub struct OpPassManager {
    anchor: Anchor,
    elements: Vec<PipelineElement>,
}

impl OpPassManager {
    /// An empty pipeline on `anchor` (an op name, or `any`).
    pub fn new(anchor: &str) -> Self {
        OpPassManager { anchor: Anchor::parse(anchor), elements: Vec::new() }
    }

    /// Parses `anchor(elements)` (MLIR's textual pipeline).
    pub fn parse(text: &str, registry: &PassRegistry) -> Result<Self, PipelineError> {
        pipeline::parse_pass_pipeline(text, registry)
    }

    /// Parses `elements` (e.g. `func.func(cse),canonicalize`) and appends them.
    pub fn add_pipeline_text(&mut self, elements: &str, registry: &PassRegistry) -> Result<(), PipelineError> {
        pipeline::add_pipeline_elements(self, elements, registry)
    }

    pub fn anchor(&self) -> &Anchor {
        &self.anchor
    }
    /// Re-anchors the pipeline on `anchor` (mlir-opt anchors pass flags on the root op, which
    /// is not `builtin.module` under `--no-implicit-module`).
    pub fn set_anchor(&mut self, anchor: &str) {
        self.anchor = Anchor::parse(anchor);
    }
    pub fn elements(&self) -> &[PipelineElement] {
        &self.elements
    }
    /// Number of top-level elements (MLIR's "Pass Manager with N passes").
    pub fn len(&self) -> usize {
        self.elements.len()
    }
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// Appends a pass with the options it reports.
    pub fn add_pass(&mut self, pass: Box<dyn Pass>) {
        let options = pass.options();
        self.add_pass_with_options(pass, options);
    }

    /// Appends a pass with explicit option values (used by the pipeline parser).
    pub fn add_pass_with_options(&mut self, pass: Box<dyn Pass>, options: OptionValues) {
        self.elements.push(PipelineElement::Pass(PassEntry { pass, options }));
    }

    /// Appends a nested pipeline anchored on `anchor` and returns it.
    pub fn nest(&mut self, anchor: &str) -> &mut OpPassManager {
        self.elements.push(PipelineElement::Nested(OpPassManager::new(anchor)));
        match self.elements.last_mut() {
            Some(PipelineElement::Nested(pm)) => pm,
            _ => unreachable!("a nested manager was just pushed"),
        }
    }

    /// The canonical textual form with all options (`--dump-pass-pipeline`).
    pub fn to_pipeline_string(&self) -> String {
        pipeline::print_pipeline(self, ",")
    }
}

impl std::fmt::Display for OpPassManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_pipeline_string())
    }
}

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct PassManagerConfig {
    /// Run nested pipelines on several isolated ops in parallel.
    pub threading: bool,
    /// Verify the op after every pass.
    pub verify_each: bool,
    /// Attach `see current operation:` notes (the op, generic form) to pass errors.
    pub print_op_on_diagnostic: bool,
    pub ir_printing: IrPrintConfig,
    /// Record a timing tree.
    pub timing: bool,
    /// Write a reproducer here when the pipeline fails.
    pub crash_reproducer: Option<String>,
}

impl Default for PassManagerConfig {
    fn default() -> Self {
        PassManagerConfig {
            threading: true,
            verify_each: true,
            print_op_on_diagnostic: true,
            ir_printing: IrPrintConfig::default(),
            timing: false,
            crash_reproducer: None,
        }
    }
}

/// What a run produced, in order: IR dumps and diagnostics interleaved as they happened.
#[derive(Clone, Debug)]
pub enum LogEntry {
    Text(String),
    Diagnostic(Diagnostic),
}

/// The result of [`PassManager::run`].
#[derive(Clone, Debug, Default)]
pub struct RunOutput {
    pub success: bool,
    pub log: Vec<LogEntry>,
    /// Timers of the pipeline (children of the given root name), when timing was on.
    pub timing: Option<TimingNode>,
}

impl RunOutput {
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.log.iter().filter_map(|e| match e {
            LogEntry::Diagnostic(d) => Some(d),
            LogEntry::Text(_) => None,
        })
    }
}

/// A root pipeline with its run settings.
pub struct PassManager {
    pub pipeline: OpPassManager,
    pub config: PassManagerConfig,
}

impl PassManager {
    pub fn new(pipeline: OpPassManager) -> Self {
        PassManager { pipeline, config: PassManagerConfig::default() }
    }

    /// Runs the pipeline on `op`.
    pub fn run(&self, ctx: &Context, ir: &mut Ir, op: OpId) -> RunOutput {
        // The input as it was handed over, printed as is (no verification before printing).
        let reproducer_input = self.config.crash_reproducer.as_ref().map(|_| {
            adapters::print_op(ctx, ir, op, &IrPrintFlags { assume_verified: true, ..IrPrintFlags::default() })
        });
        let mut exec = Exec::new(ctx, &self.config);
        let start = Instant::now();
        let ok = exec.run_manager(&self.pipeline, ir, op, true).is_ok();
        let mut timing = None;
        if self.config.timing {
            let mut t = exec.timer;
            t.add(start.elapsed());
            timing = Some(t);
        }
        let mut log = exec.log;
        if !ok && let (Some(path), Some(input)) = (&self.config.crash_reproducer, reproducer_input) {
            log.push(LogEntry::Diagnostic(self.write_reproducer(ctx, path, &input, &exec.failures)));
        }
        RunOutput { success: ok, log, timing }
    }

    fn write_reproducer(&self, ctx: &Context, path: &str, input: &str, failures: &[Failure]) -> Diagnostic {
        let text = instrument::reproducer_text(
            input,
            &pipeline::print_pipeline(&self.pipeline, ", "),
            !self.config.threading,
            self.config.verify_each,
        );
        let loc = failures.first().map(|f| f.loc).unwrap_or_else(|| ctx.unknown_loc());
        if let Err(e) = std::fs::write(path, text) {
            return Diagnostic::error(loc, format!("failed to write the crash reproducer to `{path}`: {e}"));
        }
        let list: Vec<String> = failures.iter().map(|f| format!("`{}` on {}", f.pass, f.op)).collect();
        Diagnostic::error(loc, "Failures have been detected while processing an MLIR pass pipeline").with_note(
            loc,
            format!("Pipeline failed while executing [{}]: reproducer generated at `{path}`", list.join(", ")),
        )
    }
}

/// A failed pass, for the reproducer note.
#[derive(Clone, Debug)]
struct Failure {
    pass: String,
    op: String,
    loc: crate::attrs::Attr,
}

/// The marker of a failed step (its diagnostics are already in the log).
struct Failed;

/// The state of one thread of a run.
struct Exec<'a> {
    ctx: &'a Context,
    config: &'a PassManagerConfig,
    log: Vec<LogEntry>,
    failures: Vec<Failure>,
    /// The timer of the pipeline being run (children are passes and nested pipelines).
    timer: TimingNode,
    /// Some pass reported a change (drives the copy-back after parallel runs).
    changed: bool,
    /// A pass panicked: the IR it ran on may be inconsistent.
    panicked: bool,
    /// This thread runs on an op detached from the root (a parallel nested run).
    detached: bool,
}

/// The pool used for parallel nested pipelines: worker stacks as large as the tools' main
/// thread, because passes may recurse as deep as the IR nests.
fn thread_pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<Arc<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        Arc::new(
            rayon::ThreadPoolBuilder::new()
                .stack_size(256 << 20)
                .thread_name(|i| format!("fuser-pass-{i}"))
                .build()
                .unwrap_or_else(|_| rayon::ThreadPoolBuilder::new().build().expect("a default rayon pool")),
        )
    })
}

/// An op copied into its own `Ir` for a parallel run.
struct Detached {
    original: OpId,
    ir: Ir,
    op: OpId,
}

/// What a parallel worker hands back.
struct WorkerResult {
    detached: Detached,
    ok: bool,
    panicked: bool,
    changed: bool,
    log: Vec<LogEntry>,
    failures: Vec<Failure>,
    timer: TimingNode,
}

impl<'a> Exec<'a> {
    fn new(ctx: &'a Context, config: &'a PassManagerConfig) -> Self {
        Exec {
            ctx,
            config,
            log: Vec::new(),
            failures: Vec::new(),
            timer: TimingNode::new("root"),
            changed: false,
            panicked: false,
            detached: false,
        }
    }

    fn op_name(&self, ir: &Ir, op: OpId) -> &'a str {
        self.ctx.op_name_str(ir.op_name(op))
    }

    fn error(&mut self, d: Diagnostic) {
        self.log.push(LogEntry::Diagnostic(d));
    }

    /// An error at `op` with MLIR's `'name' op ` prefix and, if configured, the op attached.
    fn op_error(&self, ir: &Ir, op: OpId, msg: &str) -> Diagnostic {
        let d = Diagnostic::error(ir.loc(op), format!("'{}' op {msg}", self.op_name(ir, op)));
        self.with_current_op_note(d, ir, op)
    }

    fn with_current_op_note(&self, d: Diagnostic, ir: &Ir, op: OpId) -> Diagnostic {
        if !self.config.print_op_on_diagnostic || !d.is_error() {
            return d;
        }
        instrument::catch_panic(|| crate::verifier::with_current_op_note(self.ctx, ir, op, d.clone())).unwrap_or(d)
    }

    /// A diagnostic of a pass as it is logged. The pass attaches the op it is about (see
    /// [`adapters::op_error`]), as MLIR's `op->emitError` does; the anchor op is not attached:
    /// after a failed lowering it is a half-rewritten function, which says less than the op.
    /// Without `print_op_on_diagnostic`, the pass's op notes are dropped.
    fn pass_diagnostic(&self, mut d: Diagnostic) -> Diagnostic {
        if !self.config.print_op_on_diagnostic {
            d.notes.retain(|n| !adapters::is_current_op_note(n));
        }
        d
    }

    /// Runs a pipeline on `op` (checking the anchor first when `check_anchor`).
    fn run_manager(&mut self, pm: &OpPassManager, ir: &mut Ir, op: OpId, check_anchor: bool) -> Result<(), Failed> {
        let name = self.op_name(ir, op);
        if check_anchor && !pm.anchor.matches(name) {
            let d =
                Diagnostic::error(ir.loc(op), format!("can't run '{}' pass manager on '{name}' op", pm.anchor.name()));
            self.error(d);
            return Err(Failed);
        }
        for element in &pm.elements {
            match element {
                PipelineElement::Pass(entry) => self.run_pass(entry.pass.as_ref(), ir, op)?,
                PipelineElement::Nested(nested) => self.run_nested(nested, ir, op)?,
            }
        }
        Ok(())
    }

    fn run_pass(&mut self, pass: &dyn Pass, ir: &mut Ir, op: OpId) -> Result<(), Failed> {
        let info = pass.info();
        let op_name = self.op_name(ir, op);
        if let Some(restricted) = info.anchor
            && restricted != op_name
        {
            let msg = format!("trying to schedule pass '{}' restricted to '{restricted}' on it", info.display);
            let d = self.op_error(ir, op, &msg);
            self.error(d);
            return Err(Failed);
        }
        let config = self.config;
        let printing = &config.ir_printing;
        if printing.before.matches(info.name) {
            let text = instrument::ir_dump(
                self.ctx,
                ir,
                op,
                self.detached || ir.op_block(op).is_some(),
                &printing.flags,
                "Before",
                info.display,
                info.name,
            );
            self.log.push(LogEntry::Text(text));
        }
        let wants_after = printing.after.matches(info.name);
        let before_print = (wants_after && printing.after_only_on_change).then(|| instrument::fingerprint(ir, op));

        let start = Instant::now();
        let result = instrument::catch_panic(|| pass.run(self.ctx, ir, op));
        if self.config.timing {
            self.timer.child_mut(info.display).add(start.elapsed());
        }
        // Diagnostics of the pass, logged after an "after failure" dump (MLIR's order).
        let mut pending: Vec<Diagnostic> = Vec::new();
        let mut failed = match result {
            Ok(Ok(outcome)) => {
                self.changed |= outcome.changed;
                let has_error = outcome.diagnostics.iter().any(|d| d.is_error());
                pending = outcome.diagnostics.into_iter().map(|d| self.pass_diagnostic(d)).collect();
                has_error
            }
            Ok(Err(d)) => {
                self.changed = true;
                pending.push(self.pass_diagnostic(d));
                true
            }
            Err(panic) => {
                self.changed = true;
                self.panicked = true;
                let msg = format!("internal error: pass '{}' ({}) panicked: {panic}", info.display, info.name);
                self.error(Diagnostic::error(ir.loc(op), msg));
                self.record_failure(info.display, ir, op);
                // The IR may be inconsistent after a panic: print nothing more of it.
                return Err(Failed);
            }
        };
        if !failed
            && self.config.verify_each
            && let Err(diags) = self.verify(ir, op)
        {
            pending.extend(diags);
            failed = true;
        }
        if failed && printing.after_failure {
            self.dump_after_failure(ir, op, info.display, info.name);
        }
        self.log.extend(pending.into_iter().map(LogEntry::Diagnostic));
        if failed {
            self.record_failure(info.display, ir, op);
            return Err(Failed);
        }
        if wants_after && before_print.is_none_or(|fp| fp != instrument::fingerprint(ir, op)) {
            let text = instrument::ir_dump(
                self.ctx,
                ir,
                op,
                self.detached || ir.op_block(op).is_some(),
                &printing.flags,
                "After",
                info.display,
                info.name,
            );
            self.log.push(LogEntry::Text(text));
        }
        Ok(())
    }

    fn dump_after_failure(&mut self, ir: &Ir, op: OpId, display: &str, name: &str) {
        let flags = &self.config.ir_printing.flags;
        let when = format!("{display} Failed");
        if let Ok(text) = instrument::catch_panic(|| {
            let nested = self.detached || ir.op_block(op).is_some();
            instrument::ir_dump(self.ctx, ir, op, nested, flags, "After", &when, name)
        }) {
            self.log.push(LogEntry::Text(text));
        }
    }

    fn record_failure(&mut self, display: &str, ir: &Ir, op: OpId) {
        let op_desc = instrument::describe_op(self.ctx, ir, op);
        self.failures.push(Failure { pass: display.to_string(), op: op_desc, loc: ir.loc(op) });
    }

    /// Runs the verifier on `op`, returning its diagnostics on failure.
    fn verify(&self, ir: &Ir, op: OpId) -> Result<(), Vec<Diagnostic>> {
        match instrument::catch_panic(|| adapters::verify_op(self.ctx, ir, op)) {
            Ok(result) => result,
            Err(panic) => {
                Err(vec![Diagnostic::error(ir.loc(op), format!("internal error: the verifier panicked: {panic}"))])
            }
        }
    }

    /// The ops directly nested in `op` on which `pm` must run; errors for ops that match a
    /// named anchor but cannot be scheduled.
    fn nested_targets(&mut self, pm: &OpPassManager, ir: &Ir, op: OpId) -> Result<Vec<OpId>, Failed> {
        let mut targets = Vec::new();
        for &r in ir.regions(op) {
            for &b in ir.region_blocks(r) {
                for child in ir.block_ops(b) {
                    let name = self.op_name(ir, child);
                    if !pm.anchor.matches(name) {
                        continue;
                    }
                    let def = self.ctx.op_def(ir.op_name(child));
                    let problem = match def {
                        None => Some("trying to schedule a pass on an unregistered operation"),
                        Some(d) if !d.has(Traits::ISOLATED_FROM_ABOVE) => {
                            Some("trying to schedule a pass on an operation not marked as 'IsolatedFromAbove'")
                        }
                        Some(_) => None,
                    };
                    match (problem, &pm.anchor) {
                        (None, _) => targets.push(child),
                        (Some(_), Anchor::Any) => {}
                        (Some(msg), Anchor::Op(_)) => {
                            let d = self.op_error(ir, child, msg);
                            self.error(d);
                            return Err(Failed);
                        }
                    }
                }
            }
        }
        Ok(targets)
    }

    fn run_nested(&mut self, pm: &OpPassManager, ir: &mut Ir, op: OpId) -> Result<(), Failed> {
        let targets = self.nested_targets(pm, ir, op)?;
        let timer_name = format!("'{}' Pipeline", pm.anchor.name());
        let outer_timer = std::mem::replace(&mut self.timer, TimingNode::new(timer_name.clone()));
        let start = Instant::now();
        let parallel = self.config.threading && targets.len() > 1 && targets.iter().all(|&t| is_self_contained(ir, t));
        let result = if parallel { self.run_parallel(pm, ir, &targets) } else { self.run_sequential(pm, ir, &targets) };
        let mut pipeline_timer = std::mem::replace(&mut self.timer, outer_timer);
        if self.config.timing {
            // Wall time is the real elapsed time; user time sums the workers' times.
            let elapsed = start.elapsed();
            pipeline_timer.wall = elapsed;
            if !parallel {
                pipeline_timer.user = elapsed;
            }
            self.timer.child_mut(&timer_name).merge(pipeline_timer);
        }
        result
    }

    fn run_sequential(&mut self, pm: &OpPassManager, ir: &mut Ir, targets: &[OpId]) -> Result<(), Failed> {
        for &t in targets {
            self.run_manager(pm, ir, t, false)?;
        }
        Ok(())
    }

    fn run_parallel(&mut self, pm: &OpPassManager, ir: &mut Ir, targets: &[OpId]) -> Result<(), Failed> {
        let (ctx, config) = (self.ctx, self.config);
        let shared: &Ir = ir;
        let results: Vec<WorkerResult> = thread_pool().install(|| {
            targets
                .par_iter()
                .map(|&t| {
                    let detached = detach_copy(shared, t);
                    run_detached(ctx, config, pm, detached)
                })
                .collect()
        });
        let mut ok = true;
        for r in results {
            ok &= r.ok;
            self.log.extend(r.log);
            self.failures.extend(r.failures);
            self.timer.merge(r.timer);
            self.changed |= r.changed;
            if r.changed
                && !r.panicked
                && let Err(msg) = instrument::catch_panic(|| copy_back(ir, r.detached))
            {
                self.error(Diagnostic::error(
                    ctx.unknown_loc(),
                    format!("internal error: copying a function back after a parallel pass run failed: {msg}"),
                ));
                ok = false;
            }
        }
        if ok { Ok(()) } else { Err(Failed) }
    }
}

/// True if `op` has no operands and every operand inside it is defined inside it: the
/// subtree can then be copied into another `Ir` on its own and verified there. (An isolated
/// op with operands runs in place: in a copy its operands would have no definition.)
fn is_self_contained(ir: &Ir, op: OpId) -> bool {
    ir.num_operands(op) == 0
        && ir.walk(op, WalkOrder::PreOrder, |o| {
            for i in 0..ir.num_operands(o) {
                let v = ir.operand(o, i);
                let inside = match ir.value_def(v) {
                    ValueDef::OpResult { op: def, .. } => ir.is_ancestor(op, def) && def != op,
                    ValueDef::BlockArg { block, .. } => {
                        ir.block_parent_op(block).is_some_and(|p| ir.is_ancestor(op, p))
                    }
                    ValueDef::Placeholder => false,
                };
                if !inside {
                    return WalkResult::Interrupt;
                }
            }
            WalkResult::Advance
        })
}

/// Copies a self-contained op into a fresh `Ir`, inside a *symbol context*: shells of its
/// ancestors holding copies of the sibling ops a pass may look up (symbols such as meshes and
/// function signatures), so that symbol lookups from the copy see what they would see in
/// place. Siblings with regions are copied as empty shells (a function becomes a declaration);
/// siblings with operands are left out. Only the op itself is verified and copied back.
fn detach_copy(ir: &Ir, op: OpId) -> Detached {
    let mut copy = Ir::new();
    let new_op = ir.clone_op_into(op, &mut copy, &mut IrMapping::new());
    place_in_symbol_context(ir, op, &mut copy, new_op);
    Detached { original: op, ir: copy, op: new_op }
}

/// Puts `copied` (the copy of `orig`) into shells of `orig`'s ancestors, next to copies of
/// their cheap siblings, recursively up to the top.
fn place_in_symbol_context(ir: &Ir, orig: OpId, copy: &mut Ir, copied: OpId) {
    let (Some(block), Some(parent)) = (ir.op_block(orig), ir.parent_op(orig)) else { return };
    let Some(region) = ir.block_region(block) else { return };
    let region_index = ir.region_index(region).unwrap_or(0);
    let arg_types: Vec<crate::types::Type> = ir.block_args(block).iter().map(|&v| ir.value_type(v)).collect();
    let new_block = copy.create_block(&arg_types);
    for sib in ir.block_ops(block) {
        if sib == orig {
            copy.append_op(new_block, copied);
        } else if ir.num_operands(sib) == 0 {
            let c = if ir.regions(sib).is_empty() {
                ir.clone_op_into(sib, copy, &mut IrMapping::new())
            } else {
                shell_of(ir, sib, copy)
            };
            copy.append_op(new_block, c);
        }
    }
    let shell = shell_of(ir, parent, copy);
    let target = copy.regions(shell)[region_index];
    copy.append_block(target, new_block);
    place_in_symbol_context(ir, parent, copy, shell);
}

/// An op like `op` (name, attributes, properties, location, result types) with as many regions,
/// all empty, and no operands.
fn shell_of(ir: &Ir, op: OpId, copy: &mut Ir) -> OpId {
    let regions = (0..ir.regions(op).len()).map(|_| copy.create_region()).collect();
    copy.create_op(crate::ir::OperationState {
        name: ir.op_name(op),
        operands: Vec::new(),
        result_types: ir.results(op).iter().map(|&v| ir.value_type(v)).collect(),
        successors: Vec::new(),
        regions,
        attrs: ir.attrs(op),
        props: ir.props(op),
        loc: ir.loc(op),
    })
}

/// Runs `pm` on a detached copy (on a worker thread).
fn run_detached(ctx: &Context, config: &PassManagerConfig, pm: &OpPassManager, mut d: Detached) -> WorkerResult {
    let mut exec = Exec::new(ctx, config);
    exec.detached = true;
    let before = instrument::fingerprint(&d.ir, d.op);
    let start = Instant::now();
    let run = instrument::catch_panic(|| exec.run_manager(pm, &mut d.ir, d.op, false).is_ok());
    let elapsed = start.elapsed();
    let (ok, panicked) = match run {
        Ok(ok) => (ok, false),
        Err(msg) => {
            exec.error(Diagnostic::error(
                ctx.unknown_loc(),
                format!("internal error: a pass pipeline panicked: {msg}"),
            ));
            (false, true)
        }
    };
    let panicked = panicked || exec.panicked;
    let changed =
        !panicked && (exec.changed || !d.ir.is_live_op(d.op) || instrument::fingerprint(&d.ir, d.op) != before);
    exec.timer.user = elapsed;
    exec.timer.wall = std::time::Duration::ZERO;
    WorkerResult { detached: d, ok, panicked, changed, log: exec.log, failures: exec.failures, timer: exec.timer }
}

/// Replaces the original op by the (changed) copy.
fn copy_back(ir: &mut Ir, d: Detached) {
    let new_op = d.ir.clone_op_into(d.op, ir, &mut IrMapping::new());
    ir.insert_op_before(d.original, new_op);
    let new_results: Vec<Value> = ir.results(new_op).to_vec();
    if new_results.len() == ir.num_results(d.original) {
        ir.replace_op_results(d.original, &new_results);
    }
    ir.erase_op(d.original);
}
