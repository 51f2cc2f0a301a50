//! Instrumentation of pass runs: IR printing around passes (MLIR's `--mlir-print-ir-*`
//! headers), operation fingerprints (for "print after change" and for skipping the copy-back of
//! unchanged functions after a parallel run), timing trees and their report (`--mlir-timing`),
//! panic capture (a panicking pass becomes a diagnostic), and the crash reproducer text.
//!
//! Everything here is deterministic: the manager collects output per anchor op and merges it
//! in op order, so threading never reorders dumps or diagnostics.

use super::adapters::{self, IrPrintFlags};
use crate::attrs::AttrKind;
use crate::context::Context;
use crate::ir::{Ir, OpId, WalkOrder, WalkResult};
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::time::Duration;

// ----- IR printing -------------------------------------------------------------------------

/// Which passes a print option applies to.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PassFilter {
    #[default]
    None,
    All,
    /// Pass names (pipeline names, e.g. `cse`).
    Names(Vec<String>),
}

impl PassFilter {
    pub fn matches(&self, pass_name: &str) -> bool {
        match self {
            PassFilter::None => false,
            PassFilter::All => true,
            PassFilter::Names(names) => names.iter().any(|n| n == pass_name),
        }
    }
    /// Adds names (from `--mlir-print-ir-before=a,b`); `All` stays `All`.
    pub fn add_names(&mut self, names: impl IntoIterator<Item = String>) {
        match self {
            PassFilter::All => {}
            PassFilter::Names(v) => v.extend(names),
            PassFilter::None => *self = PassFilter::Names(names.into_iter().collect()),
        }
    }
}

/// What to print around passes (MLIR's `--mlir-print-ir-*` options).
#[derive(Clone, Debug, Default)]
pub struct IrPrintConfig {
    pub before: PassFilter,
    pub after: PassFilter,
    /// Print "after" dumps only when the pass changed the IR (fingerprint differs).
    pub after_only_on_change: bool,
    /// Print the IR after a pass that failed.
    pub after_failure: bool,
    pub flags: IrPrintFlags,
}

impl IrPrintConfig {
    pub fn is_active(&self) -> bool {
        self.before != PassFilter::None || self.after != PassFilter::None || self.after_failure
    }
}

/// `// -----// IR Dump Before CSE (cse) //----- //` followed by the op and a blank line.
/// `nested` says that `op` is below the root of the run (possibly detached into its own `Ir`
/// for a parallel run).
#[allow(clippy::too_many_arguments)]
pub fn ir_dump(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    nested: bool,
    flags: &IrPrintFlags,
    when: &str,
    display: &str,
    name: &str,
) -> String {
    let mut flags = flags.clone();
    // Ops below the top are printed with their aliases inline, as MLIR does.
    flags.local_scope |= nested;
    let text = adapters::print_op(ctx, ir, op, &flags);
    // MLIR's module-scope printer of a top-level op ends with an empty line, so the dump of
    // the root ends with two empty lines, and that of a nested op (or in local scope) with one.
    let extra = if flags.local_scope { "" } else { "\n" };
    format!("// -----// IR Dump {when} {display} ({name}) //----- //\n{}\n{extra}\n", text.trim_end_matches('\n'))
}

// ----- fingerprints ------------------------------------------------------------------------

/// A hash of `op` and everything nested in it: names, attributes, properties, locations,
/// operand and result identities and types, successors and block structure. Equal
/// fingerprints mean "unchanged" up to a 2^-64 collision chance (MLIR's
/// `OperationFingerPrint` makes the same trade).
pub fn fingerprint(ir: &Ir, op: OpId) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    ir.walk(op, WalkOrder::PreOrder, |o| {
        o.hash(&mut h);
        ir.op_name(o).hash(&mut h);
        ir.attrs(o).hash(&mut h);
        ir.props(o).hash(&mut h);
        ir.loc(o).hash(&mut h);
        ir.op_block(o).hash(&mut h);
        for i in 0..ir.num_operands(o) {
            ir.operand(o, i).hash(&mut h);
        }
        for &r in ir.results(o) {
            (r, ir.value_type(r)).hash(&mut h);
        }
        ir.successors(o).hash(&mut h);
        for &r in ir.regions(o) {
            for &b in ir.region_blocks(r) {
                b.hash(&mut h);
                for &a in ir.block_args(b) {
                    (a, ir.value_type(a), ir.value_loc(a)).hash(&mut h);
                }
            }
        }
        WalkResult::Advance
    });
    h.finish()
}

// ----- timing ------------------------------------------------------------------------------

/// A node of the timing tree: a name, wall and user (summed over threads) time, children in
/// first-seen order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimingNode {
    pub name: String,
    pub wall: Duration,
    pub user: Duration,
    pub children: Vec<TimingNode>,
}

impl TimingNode {
    pub fn new(name: impl Into<String>) -> Self {
        TimingNode { name: name.into(), ..Default::default() }
    }

    /// The child with this name, created at the end if absent.
    pub fn child_mut(&mut self, name: &str) -> &mut TimingNode {
        let i = match self.children.iter().position(|c| c.name == name) {
            Some(i) => i,
            None => {
                self.children.push(TimingNode::new(name));
                self.children.len() - 1
            }
        };
        &mut self.children[i]
    }

    /// Adds `d` of wall and user time.
    pub fn add(&mut self, d: Duration) {
        self.wall += d;
        self.user += d;
    }

    /// Adds another tree's times into this one, matching children by name.
    pub fn merge(&mut self, other: TimingNode) {
        self.wall += other.wall;
        self.user += other.user;
        for c in other.children {
            self.child_mut(&c.name.clone()).merge(c);
        }
    }

    /// MLIR's `--mlir-timing` report for a root node whose `wall` is the total time: the
    /// children as a tree, then `Rest` (time not covered by any child) and `Total`. With
    /// `show_user`, a user-time column comes first (as MLIR prints when threading is on).
    pub fn report(&self, show_user: bool) -> String {
        let total_wall = self.wall;
        let total_user = self.user.max(self.children.iter().map(|c| c.user).sum());
        let rule = format!("==={}===", "-".repeat(73));
        let mut out = String::new();
        let _ = writeln!(out, "{rule}\n{:>25}... Execution time report ...\n{rule}", "");
        let _ = writeln!(out, "  Total Execution Time: {:.4} seconds\n", total_wall.as_secs_f64());
        let _ =
            writeln!(out, "{}  ----Wall Time----  ----Name----", if show_user { "  ----User Time----" } else { "" });
        let row = |out: &mut String, user: Duration, wall: Duration, depth: usize, name: &str| {
            if show_user {
                let _ = write!(out, "  {:8.4} ({:5.1}%)", user.as_secs_f64(), percent(user, total_user));
            }
            let _ = writeln!(
                out,
                "  {:8.4} ({:5.1}%)  {}{name}",
                wall.as_secs_f64(),
                percent(wall, total_wall),
                "  ".repeat(depth)
            );
        };
        let mut stack: Vec<(&TimingNode, usize)> = self.children.iter().rev().map(|c| (c, 0)).collect();
        while let Some((node, depth)) = stack.pop() {
            row(&mut out, node.user, node.wall, depth, &node.name);
            stack.extend(node.children.iter().rev().map(|c| (c, depth + 1)));
        }
        let covered_wall: Duration = self.children.iter().map(|c| c.wall).sum();
        let covered_user: Duration = self.children.iter().map(|c| c.user).sum();
        row(&mut out, total_user.saturating_sub(covered_user), total_wall.saturating_sub(covered_wall), 0, "Rest");
        row(&mut out, total_user, total_wall, 0, "Total");
        out
    }
}

fn percent(part: Duration, total: Duration) -> f64 {
    if total.is_zero() { 0.0 } else { 100.0 * part.as_secs_f64() / total.as_secs_f64() }
}

// ----- panics ------------------------------------------------------------------------------

thread_local! {
    static CATCHING: Cell<usize> = const { Cell::new(0) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// True while the current thread runs code under [`catch_panic`]. A process-wide panic hook
/// (installed by a tool) should then call [`record_panic`] and stay quiet, because the panic
/// becomes a diagnostic.
pub fn panic_is_being_caught() -> bool {
    CATCHING.with(|c| c.get() > 0)
}

/// Remembers a panic's message and source location for the enclosing [`catch_panic`].
pub fn record_panic(info: &std::panic::PanicHookInfo<'_>) {
    let mut msg = payload_message(info.payload());
    if let Some(l) = info.location() {
        let _ = write!(msg, " (at {}:{}:{})", l.file(), l.line(), l.column());
    }
    LAST_PANIC.with(|p| *p.borrow_mut() = Some(msg));
}

fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_string()
    }
}

/// Runs `f`, turning a panic into `Err(message)`.
pub fn catch_panic<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    CATCHING.with(|c| c.set(c.get() + 1));
    LAST_PANIC.with(|p| p.borrow_mut().take());
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(c.get() - 1));
    result.map_err(|payload| {
        LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_else(|| payload_message(payload.as_ref()))
    })
}

// ----- crash reproducer --------------------------------------------------------------------

/// The reproducer file's text: the IR, then MLIR's `external_resources` trailer naming the
/// pipeline and the run settings, so `mlir-opt --run-reproducer` style tools can replay it.
pub fn reproducer_text(ir_text: &str, pipeline: &str, disable_threading: bool, verify_each: bool) -> String {
    let escaped = pipeline.replace('\\', "\\\\").replace('"', "\\\"");
    let mut ir_text = ir_text.trim_end_matches('\n').to_string();
    ir_text.push('\n');
    format!(
        "{ir_text}\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n      pipeline: \"{escaped}\",\n      disable_threading: {disable_threading},\n      verify_each: {verify_each}\n    }}\n  }}\n#-}}\n"
    )
}

/// How MLIR names an op in failure notes: `'func.func' operation: @f` or `'builtin.module'
/// operation`.
pub fn describe_op(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let name = ctx.op_name_str(ir.op_name(op));
    let sym = [ir.props(op), Some(ir.attrs(op))]
        .into_iter()
        .flatten()
        .find_map(|dict| ctx.dict_get(dict, "sym_name"))
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::String { .. } => ctx.attr_str(a),
            _ => None,
        });
    match sym {
        Some(s) => format!("'{name}' operation: @{s}"),
        None => format!("'{name}' operation"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_report_layout() {
        let mut root = TimingNode::new("root");
        root.wall = Duration::from_millis(100);
        root.user = Duration::from_millis(100);
        root.child_mut("Parser").add(Duration::from_millis(10));
        let p = root.child_mut("'func.func' Pipeline");
        p.add(Duration::from_millis(50));
        p.child_mut("CSE").add(Duration::from_millis(20));
        let text = root.report(false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("==={}===", "-".repeat(73)));
        assert_eq!(lines[1], "                         ... Execution time report ...");
        assert_eq!(lines[3], "  Total Execution Time: 0.1000 seconds");
        assert_eq!(lines[5], "  ----Wall Time----  ----Name----");
        assert_eq!(lines[6], "    0.0100 ( 10.0%)  Parser");
        assert_eq!(lines[7], "    0.0500 ( 50.0%)  'func.func' Pipeline");
        assert_eq!(lines[8], "    0.0200 ( 20.0%)    CSE");
        assert_eq!(lines[9], "    0.0400 ( 40.0%)  Rest");
        assert_eq!(lines[10], "    0.1000 (100.0%)  Total");
        assert!(root.report(true).contains("  ----User Time----  ----Wall Time----  ----Name----"));
    }

    #[test]
    fn caught_panic_becomes_message() {
        let r: Result<(), String> = catch_panic(|| panic!("boom"));
        assert_eq!(r.unwrap_err(), "boom");
        assert!(!panic_is_being_caught());
    }

    #[test]
    fn reproducer_trailer() {
        let t = reproducer_text("module {\n}\n", "builtin.module(cse, func.func(x{a=\"b c\"}))", true, true);
        assert_eq!(
            t,
            "module {\n}\n\n{-#\n  external_resources: {\n    mlir_reproducer: {\n      pipeline: \"builtin.module(cse, func.func(x{a=\\\"b c\\\"}))\",\n      disable_threading: true,\n      verify_each: true\n    }\n  }\n#-}\n"
        );
    }
}
