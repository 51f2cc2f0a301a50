//! Greedy pattern rewriting and folding (MLIR's `applyPatternsAndFoldGreedily`, as used by the
//! `canonicalize` pass of mlir-opt-19).
//!
//! Patterns are the `canonicalize` lists of registered op definitions; folding uses
//! `OpDef::fold` and the op's dialect's `materialize_constant`. See [`driver`] for the algorithm,
//! [`fold`] for constants and folding, [`simplify`] for region simplification.

pub mod driver;
pub mod fold;
pub mod simplify;

use crate::context::Context;
use crate::diag::Diagnostic;
use crate::ir::{Ir, OpId};

/// How much region simplification runs after each iteration.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum RegionSimplify {
    Disabled,
    /// Erase unreachable blocks and dead ops.
    #[default]
    Normal,
    /// MLIR also merges identical blocks at this level; we do what `Normal` does.
    Aggressive,
}

impl RegionSimplify {
    /// Parses MLIR's option spelling (`disabled`, `normal`, `aggressive`).
    pub fn parse(s: &str) -> Option<RegionSimplify> {
        match s {
            "disabled" => Some(RegionSimplify::Disabled),
            "normal" => Some(RegionSimplify::Normal),
            "aggressive" => Some(RegionSimplify::Aggressive),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            RegionSimplify::Disabled => "disabled",
            RegionSimplify::Normal => "normal",
            RegionSimplify::Aggressive => "aggressive",
        }
    }
}

/// Configuration of [`apply_patterns_greedily`] (MLIR's `GreedyRewriteConfig`).
#[derive(Clone, Debug, PartialEq)]
pub struct GreedyConfig {
    /// Iterations before giving up (-1: no limit).
    pub max_iterations: i64,
    /// Successful pattern applications per iteration before stopping it (-1: no limit).
    pub max_num_rewrites: i64,
    /// Visit ops in program order (pre-order) rather than post-order.
    pub top_down: bool,
    pub region_simplify: RegionSimplify,
    /// Fold ops (else only patterns and dead-op erasure).
    pub fold: bool,
    /// Deduplicate and hoist pre-existing constants when filling the worklist.
    pub cse_constants: bool,
    /// Report non-convergence as an error.
    pub test_convergence: bool,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            max_iterations: 10,
            max_num_rewrites: -1,
            top_down: true,
            region_simplify: RegionSimplify::Normal,
            fold: true,
            cse_constants: true,
            test_convergence: false,
        }
    }
}

/// Applies the canonicalization patterns (`OpDef::canonicalize` of every registered op) and
/// folding (`OpDef::fold` + dialect `materialize_constant`) to everything nested in `root` (not
/// `root` itself), region by region, until a fixpoint. Returns whether the IR changed, or an
/// error when it did not converge within `max_iterations` and `cfg.test_convergence` is set
/// (mlir-opt fails the pass silently in that case; the message is ours).
pub fn apply_patterns_greedily(ctx: &Context, ir: &mut Ir, root: OpId, cfg: &GreedyConfig) -> Result<bool, Diagnostic> {
    let mut changed = false;
    let mut converged = true;
    let regions = ir.regions(root).to_vec();
    for r in regions {
        let (c, conv) = driver::Driver::new(ctx, ir, cfg, r).simplify();
        changed |= c;
        converged &= conv;
    }
    if !converged && cfg.test_convergence {
        return Err(Diagnostic::error(
            ir.loc(root),
            format!("greedy pattern rewrite did not converge within {} iterations", cfg.max_iterations),
        ));
    }
    Ok(changed)
}

#[cfg(test)]
mod tests;
