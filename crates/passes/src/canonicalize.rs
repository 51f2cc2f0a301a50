//! `canonicalize`: applies every registered op's canonicalization patterns and folders greedily
//! until a fixpoint, as mlir-opt-19's Canonicalizer does, through
//! [`fuser_ir::rewrite::apply_patterns_greedily`] (see its driver for the exact algorithm:
//! top-down worklist, dead-op erasure, folding with constants materialized before the folded op
//! and then deduplicated and hoisted to the entry block of the nearest isolated region, patterns,
//! region simplification after each iteration).
//!
//! Options (MLIR's spelling and defaults): `max-iterations=10 max-num-rewrites=-1
//! region-simplify=normal test-convergence=false top-down=true`. Non-convergence is not an error
//! unless `test-convergence` is set.
//!
//! One deliberate difference: with `max-num-rewrites=-1` (no limit), mlir-opt-19 never finishes
//! on some inputs, where two patterns undo each other forever (a branch into a cycle of empty
//! blocks, `^a: cf.br ^b` / `^b: cf.br ^a`, is forwarded around the cycle without end). fuser
//! bounds each iteration at [`SAFETY_REWRITES_PER_OP`] pattern applications per op (plus
//! [`SAFETY_REWRITES_BASE`]), and stops there as at
//! `max-iterations`. With the bound in place, every input of the tests, the upstream corpus and
//! the random differentials still gives mlir-opt-19's output.

use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, WalkOrder, WalkResult};
use fuser_ir::rewrite::{GreedyConfig, RegionSimplify, apply_patterns_greedily};

/// Options of `canonicalize`.
#[derive(Clone, Debug, PartialEq)]
pub struct CanonicalizeOptions {
    /// `max-iterations`: iterations of the driver (-1: no limit).
    pub max_iterations: i64,
    /// `max-num-rewrites`: pattern applications per iteration (-1: no limit).
    pub max_num_rewrites: i64,
    /// `region-simplify`: `disabled`, `normal` or `aggressive`.
    pub region_simplify: RegionSimplify,
    /// `test-convergence`: fail if no fixpoint is reached within `max-iterations`.
    pub test_convergence: bool,
    /// `top-down`: visit ops in program order.
    pub top_down: bool,
}

impl Default for CanonicalizeOptions {
    fn default() -> Self {
        CanonicalizeOptions {
            max_iterations: 10,
            max_num_rewrites: -1,
            region_simplify: RegionSimplify::Normal,
            test_convergence: false,
            top_down: true,
        }
    }
}

impl CanonicalizeOptions {
    /// The driver configuration these options describe.
    pub fn greedy_config(&self) -> GreedyConfig {
        GreedyConfig {
            max_iterations: self.max_iterations,
            max_num_rewrites: self.max_num_rewrites,
            top_down: self.top_down,
            region_simplify: self.region_simplify,
            fold: true,
            cse_constants: true,
            test_convergence: self.test_convergence,
        }
    }
}

/// Pattern applications per op in one iteration before a run without `max-num-rewrites` stops.
pub const SAFETY_REWRITES_PER_OP: i64 = 64;
/// Pattern applications allowed on top of the per-op budget.
pub const SAFETY_REWRITES_BASE: i64 = 10_000;

/// Canonicalizes everything nested in `root`; returns whether the IR changed, or an error when
/// `test_convergence` is set and no fixpoint was reached.
pub fn run_canonicalize(
    ctx: &Context,
    ir: &mut Ir,
    root: OpId,
    opts: &CanonicalizeOptions,
) -> Result<bool, Diagnostic> {
    let mut cfg = opts.greedy_config();
    if cfg.max_num_rewrites == -1 {
        let mut ops: i64 = 0;
        ir.walk(root, WalkOrder::PreOrder, |_| {
            ops += 1;
            WalkResult::Advance
        });
        cfg.max_num_rewrites = SAFETY_REWRITES_BASE + SAFETY_REWRITES_PER_OP * ops;
    }
    apply_patterns_greedily(ctx, ir, root, &cfg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::T;

    #[test]
    fn folds_and_hoists() {
        let mut t = T::new();
        let (f, b) = t.root();
        let x = t.val(b, "u.src", &[]);
        let c1 = t.cst(b, 1);
        let c1b = t.cst(b, 1);
        let s = t.val(b, "p.add", &[c1, c1b]);
        t.op(b, "u.sink", &[x, s], 0);
        assert_eq!(run_canonicalize(&t.ctx, &mut t.ir, f, &CanonicalizeOptions::default()), Ok(true));
        assert_eq!(t.dump(b), ["p.const =2", "u.src", "u.sink %1 %0"]);
    }

    #[test]
    fn test_convergence_reports_failure() {
        let mut t = T::new();
        let (f, b) = t.root();
        let c1 = t.cst(b, 1);
        let s = t.val(b, "p.add", &[c1, c1]);
        t.op(b, "u.sink", &[s], 0);
        let opts = CanonicalizeOptions { max_iterations: 1, test_convergence: true, ..Default::default() };
        assert!(run_canonicalize(&t.ctx, &mut t.ir, f, &opts).is_err());
    }
}
