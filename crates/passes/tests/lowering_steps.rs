//! The work of every pass of `tp-default` grows linearly with the program, measured in IR
//! traversal steps (`fuser_ir::ir::traversal_steps`, feature `step-count`), not in time.
//!
//! Each pass runs alone on the output of the previous one, on a program of `n` and of `8n`
//! layers; a pass whose cost is `a·n + b` makes about 8 times the steps on the
//! larger program, one that scans a block or a use list per op about 64 times. The
//! passes' own data structures are not counted (a list scanned per op stays invisible), so
//! this guards the IR side of the complexity; benches/results/lowering-scaling.md has the times.
//!
//! The step count is process-wide: this file holds a single test so that nothing else runs
//! while it counts.

use fuser_ir::diag::SourceFile;
use fuser_ir::ir::traversal_steps;
use fuser_ir::pass::{OpPassManager, PassManager, PassRegistry};
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::{Context, Ir, OpId};
use std::sync::Arc;

/// The passes of `tp-default` (pipelines.rs), each as its own module-level pipeline.
const TP_DEFAULT_STEPS: [&str; 7] = [
    "func.func(fusion-propagate-sharding)",
    "func.func(fusion-decompose-resharding)",
    "func.func(fusion-to-host)",
    "func.func(host-assign-streams{streams=4})",
    "func.func(host-insert-dealloc)",
    "canonicalize",
    "cse",
];

struct Lowering {
    ctx: Context,
    registry: PassRegistry,
}

impl Lowering {
    fn new() -> Self {
        let mut registry = PassRegistry::new();
        fuser_passes::register_all(&mut registry).expect("unique pass names");
        Lowering { ctx: Context::new(fuser_dialects::registry()), registry }
    }

    fn parse(&self, text: &str) -> (Ir, OpId) {
        let mut ir = Ir::new();
        let src = SourceFile::new("layers.mlir", Arc::from(text));
        let module = fuser_ir::parser::parse_source(&self.ctx, &mut ir, &src).expect("generated program parses");
        (ir, module)
    }

    /// Runs `builtin.module(elements)` single-threaded without verification; the traversal steps
    /// it took.
    fn run(&self, ir: &mut Ir, module: OpId, elements: &str) -> u64 {
        let text = format!("builtin.module({elements})");
        let pipeline = OpPassManager::parse(&text, &self.registry).expect("pipeline parses");
        let mut pm = PassManager::new(pipeline);
        pm.config.threading = false;
        pm.config.verify_each = false;
        let before = traversal_steps();
        let out = pm.run(&self.ctx, ir, module);
        let steps = traversal_steps() - before;
        let errors: Vec<String> = out.diagnostics().map(|d| format!("{d:?}")).collect();
        assert!(out.success, "{text} failed: {errors:?}");
        steps
    }

    /// The steps of each pass of tp-default on `text`, and the lowered program.
    fn steps_per_pass(&self, text: &str) -> (Vec<u64>, String) {
        let (mut ir, module) = self.parse(text);
        let steps = TP_DEFAULT_STEPS.iter().map(|p| self.run(&mut ir, module, p)).collect();
        (steps, print_module(&self.ctx, &ir, module, &PrintOptions::default()))
    }

    fn lowered_by_tp_default(&self, text: &str) -> String {
        let (mut ir, module) = self.parse(text);
        self.run(&mut ir, module, "tp-default");
        print_module(&self.ctx, &ir, module, &PrintOptions::default())
    }
}

/// How much larger the large program is.
const GROWTH: u64 = 8;

/// Every pass takes steps, and at most [`GROWTH`] times as many (plus 1% of the small count,
/// for constant terms) on [`GROWTH`] times the program; a per-op scan would make about
/// `GROWTH²` times as many.
fn assert_linear(what: &str, small: &[u64], large: &[u64]) {
    for ((pass, &s), &l) in TP_DEFAULT_STEPS.iter().zip(small).zip(large) {
        eprintln!("{what}: {pass}: {s} -> {l} steps ({:.3}x per layer)", l as f64 / (GROWTH * s) as f64);
        assert!(s > 0, "{what}: {pass} took no counted step (is the step-count feature on?)");
        assert!(
            l <= GROWTH * s + s / 100,
            "{what}: {pass} took {s} steps on n and {l} on {GROWTH}n layers: more than linear"
        );
    }
}

#[test]
fn tp_default_passes_take_linear_steps() {
    let lowering = Lowering::new();
    let n = 20;
    let programs = [
        (
            "MLP layers",
            fuser_benches::mlp_layers(n, Default::default()),
            fuser_benches::mlp_layers(GROWTH as usize * n, Default::default()),
        ),
        ("stream chain", fuser_benches::stream_chain(n), fuser_benches::stream_chain(GROWTH as usize * n)),
    ];
    for (what, small, large) in &programs {
        let (s, lowered) = lowering.steps_per_pass(small);
        assert_eq!(lowered, lowering.lowered_by_tp_default(small), "{what}: the steps are not tp-default");
        assert!(lowered.contains("host.linear") && !lowered.contains("fusion.linear"), "{what}: not lowered");
        let (l, _) = lowering.steps_per_pass(large);
        assert_linear(what, &s, &l);
    }
}
