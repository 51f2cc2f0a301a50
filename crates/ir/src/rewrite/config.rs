//! The configuration of the greedy pattern driver: [`GreedyConfig`] (MLIR's
//! `GreedyRewriteConfig`) and [`RegionSimplify`].
//!
//! Layer: the lowest of `rewrite/` (plain data, importing nothing), so that the driver and the
//! entry point in `mod.rs` can both use it without importing each other.

/// How much region simplification runs after each iteration.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum RegionSimplify {
    Disabled,
    /// Erase unreachable blocks and dead ops.
    #[default]
    Normal,
    /// Also merge identical blocks and drop redundant block arguments (MLIR's level of the
    /// same name).
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

/// Configuration of [`apply_patterns_greedily`](super::apply_patterns_greedily) (MLIR's `GreedyRewriteConfig`).
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
