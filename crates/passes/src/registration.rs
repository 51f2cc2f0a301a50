//! Declarative metadata of the generic passes (name, summary, description, options) and their
//! registration. The metadata feeds the pass manager, `--help`, `--list-passes` and
//! `--dump-pass-pipeline`; the algorithms live in one file per pass.

use crate::canonicalize::{CanonicalizeOptions, run_canonicalize};
use crate::cse::run_cse;
use crate::dce::{DceOptions, run_dce};
use crate::symbol_dce::{SymbolDceOptions, run_symbol_dce};
use fuser_ir::pass::{EnumCase, OptionDef, OptionType, OptionValues, Pass, PassInfo, PassOutcome, PassRegistry};
use fuser_ir::rewrite::RegionSimplify;
use fuser_ir::{Context, Diagnostic, Ir, OpId};

/// Registers every pass and named pipeline of this crate.
pub fn register_all(registry: &mut PassRegistry) -> Result<(), String> {
    for info in [
        &CANONICALIZE,
        &CSE,
        &DCE,
        &SYMBOL_DCE,
        &crate::comm_verify::COMM_VERIFY,
        &crate::fusion::autodiff::FUSION_AUTODIFF,
        &crate::fusion::propagate::FUSION_PROPAGATE_SHARDING,
        &crate::fusion::decompose::FUSION_DECOMPOSE_RESHARDING,
        &crate::fusion::stream_chunks::FUSION_SET_STREAM_CHUNKS,
        &crate::comm::p2p_ring::COMM_P2P_RING,
        &crate::comm::collective_backend::COMM_COLLECTIVE_BACKEND,
        &crate::fusion::to_host::FUSION_TO_HOST,
        &crate::host::assign_streams::HOST_ASSIGN_STREAMS,
        &crate::host::forward_copies::HOST_FORWARD_COPIES,
        &crate::host::insert_dealloc::HOST_INSERT_DEALLOC,
        &crate::host::hoist_alloc::HOST_HOIST_ALLOC,
        &crate::host::licm::LICM,
        &crate::host::fuse::HOST_FUSE,
        &crate::host::fuse_epilogue::HOST_FUSE_EPILOGUE,
    ] {
        registry.register_pass(info)?;
    }
    for info in crate::pipelines::all() {
        registry.register_pipeline(info)?;
    }
    Ok(())
}

// ----- canonicalize ---------------------------------------------------------------------------

static REGION_SIMPLIFY_CASES: &[EnumCase] = &[
    EnumCase { name: "disabled", description: "Leave blocks and control flow alone." },
    EnumCase { name: "normal", description: "Erase unreachable blocks and dead ops after each iteration." },
    EnumCase { name: "aggressive", description: "Like normal (identical-block merging is not implemented yet)." },
];

static CANONICALIZE_OPTIONS: &[OptionDef] = &[
    OptionDef::new(
        "max-iterations",
        OptionType::Int,
        "10",
        "Rounds of pattern application and region simplification before giving up (-1: no limit)",
    ),
    OptionDef::new(
        "max-num-rewrites",
        OptionType::Int,
        "-1",
        "Pattern applications allowed in one round (-1: no limit)",
    ),
    OptionDef::new(
        "region-simplify",
        OptionType::Enum(REGION_SIMPLIFY_CASES),
        "normal",
        "How much block-level simplification to do between rounds",
    ),
    OptionDef::new(
        "test-convergence",
        OptionType::Bool,
        "false",
        "Fail when no fixpoint is reached within max-iterations (finds patterns that undo each other)",
    ),
    OptionDef::new(
        "top-down",
        OptionType::Bool,
        "true",
        "Visit ops in program order when filling the worklist (false: reverse order)",
    ),
];

/// `canonicalize`.
pub static CANONICALIZE: PassInfo = PassInfo {
    name: "canonicalize",
    display: "Canonicalizer",
    summary: "Fold ops and apply their canonicalization patterns to a fixpoint",
    description: "Applies every registered op's canonicalization patterns and folders with a \
greedy worklist driver until a fixpoint (or `max-iterations`). Folded constants are materialized \
by the op's dialect, deduplicated and hoisted to the start of the nearest isolated region; \
trivially dead ops and unreachable blocks are erased. Between rounds, region simplification erases unreachable blocks and dead ops and block arguments; with `region-simplify=aggressive` it also merges identical blocks and drops block arguments every branch passes the same value. \
Without `max-num-rewrites`, a round stops after 64 pattern applications per op (plus 10,000): \
on inputs where two patterns undo each other forever (a branch into a cycle of empty blocks), \
mlir-opt-19 never finishes and fuser stops there. With the bound in place, every input of the \
tests, the upstream corpus and the random differentials still gives mlir-opt-19's output.",
    anchor: None,
    options: CANONICALIZE_OPTIONS,
    create: |o| {
        let region_simplify = RegionSimplify::parse(o.get_str("region-simplify"))
            .ok_or_else(|| format!("invalid region-simplify value '{}'", o.get_str("region-simplify")))?;
        let opts = CanonicalizeOptions {
            max_iterations: o.get_int("max-iterations"),
            max_num_rewrites: o.get_int("max-num-rewrites"),
            region_simplify,
            test_convergence: o.get_bool("test-convergence"),
            top_down: o.get_bool("top-down"),
        };
        Ok(Box::new(CanonicalizePass { opts, values: o.clone() }))
    },
};

struct CanonicalizePass {
    opts: CanonicalizeOptions,
    values: OptionValues,
}

impl Pass for CanonicalizePass {
    fn info(&self) -> &'static PassInfo {
        &CANONICALIZE
    }
    fn options(&self) -> OptionValues {
        self.values.clone()
    }
    fn run(&self, ctx: &Context, ir: &mut Ir, op: OpId) -> Result<PassOutcome, Diagnostic> {
        run_canonicalize(ctx, ir, op, &self.opts).map(PassOutcome::from_changed)
    }
}

// ----- option-less passes ---------------------------------------------------------------------

macro_rules! simple_pass {
    ($pass:ident, $info:ident, $name:literal, $display:literal, $summary:literal, $desc:literal, |$ctx:ident, $ir:ident, $op:ident| $body:expr) => {
        #[doc = concat!("`", $name, "`.")]
        pub static $info: PassInfo = PassInfo {
            name: $name,
            display: $display,
            summary: $summary,
            description: $desc,
            anchor: None,
            options: &[],
            create: |_| Ok(Box::new($pass)),
        };
        struct $pass;
        impl Pass for $pass {
            fn info(&self) -> &'static PassInfo {
                &$info
            }
            fn run(&self, $ctx: &Context, $ir: &mut Ir, $op: OpId) -> Result<PassOutcome, Diagnostic> {
                $body
            }
        }
    };
}

simple_pass!(
    CsePass,
    CSE,
    "cse",
    "CSE",
    "Merge identical side-effect-free ops",
    "Merges identical side-effect-free ops (same name, operands, attributes, properties, result \
types and regions) when one dominates the other, walking the dominator tree with a scoped table. \
Ops of unregistered dialects may have side effects and are never merged; unused pure ops are erased.",
    |ctx, ir, op| Ok(PassOutcome::from_changed(run_cse(ctx, ir, op)))
);

simple_pass!(
    DcePass,
    DCE,
    "dce",
    "DCE",
    "Erase dead operations and unreachable blocks",
    "Erases side-effect-free ops whose results are unused (including dead cycles, by liveness from \
the ops that must stay) and blocks unreachable from their region's entry.",
    |ctx, ir, op| Ok(PassOutcome::from_changed(run_dce(ctx, ir, op, &DceOptions::default())))
);

simple_pass!(
    SymbolDcePass,
    SYMBOL_DCE,
    "symbol-dce",
    "SymbolDCE",
    "Erase private symbols nothing refers to",
    "Erases private symbols (ops with `sym_visibility = \"private\"`) of symbol tables nested in \
the anchor that no live symbol references, iterating until no more can go. Public symbols are \
always live; nested references (`@a::@b`) count as uses.",
    |ctx, ir, op| run_symbol_dce(ctx, ir, op, &SymbolDceOptions::default()).map(PassOutcome::from_changed)
);
