//! Greedy pattern rewriting and folding (MLIR's `applyPatternsAndFoldGreedily`, as used by the
//! `canonicalize` pass of mlir-opt-19).
//!
//! Patterns are the `canonicalize` lists of registered op definitions; folding uses
//! `OpDef::fold` and the op's dialect's `materialize_constant`. See [`driver`] for the algorithm,
//! [`fold`] for constants and folding, [`simplify`] for region simplification.
//!
//! Layer: above the verifier (region simplification uses its dominance helpers) and below the
//! pass manager. Inside: `config.rs` ([`GreedyConfig`]) → `fold.rs`, `simplify.rs` →
//! `driver.rs` → this file (the entry point).

pub mod block_merge;
mod config;
pub mod driver;
pub mod fold;
pub mod predecessors;
pub mod redundant_args;
pub mod simplify;

pub use config::{GreedyConfig, RegionSimplify};

use crate::context::Context;
use crate::diag::Diagnostic;
use crate::ir::{Ir, OpId};

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
