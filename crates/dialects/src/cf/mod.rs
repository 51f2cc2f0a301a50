//! The `cf` dialect (MLIR's ControlFlow dialect as of LLVM 19): unstructured control flow
//! between the blocks of a region. `cf.br`, `cf.cond_br` and `cf.switch` are terminators whose
//! successors take operands (the block arguments of the destination); `cf.assert` checks an
//! `i1` at run time.
//!
//! Files: this one (the dialect), `branches.rs` (the operand ranges each successor receives,
//! the checks of MLIR's `BranchOpInterface`, builders), `ops.rs` (the op declarations, custom syntax and
//! verifiers), `patterns.rs` (the canonicalization patterns).
//!
//! Storage (as mlir-opt-19 prints it generically): successor operands are ordinary operands.
//! `cf.cond_br` splits them with `operandSegmentSizes = array<i32: 1, t, f>`; `cf.switch` with
//! `operandSegmentSizes = array<i32: 1, d, c>` (flag, default operands, all case operands) and
//! `case_operand_segments` (one entry per case), its case values in the optional `case_values`
//! (`dense<[...]> : vector<Nxiw>`, the flag's type).
//!
//! Invariant: [`successor_operands`] returns, for a verified op, one in-bounds range per
//! successor; for malformed IR it returns `None` instead of panicking.

mod branches;
mod ops;
mod patterns;

pub use branches::*;
pub use ops::{ASSERT, BR, COND_BR, SWITCH};

use fuser_ir::registry::DialectDef;

/// The `cf` dialect.
pub static CF: DialectDef = DialectDef {
    namespace: "cf",
    summary: "Unstructured control flow: branches between blocks and assertions",
    description: "MLIR's ControlFlow dialect: `cf.br`, `cf.cond_br` and `cf.switch` end a block \
and transfer control to successor blocks of the same region, passing values to their block \
arguments; `cf.assert` aborts with a message when its `i1` operand is false. Canonicalization \
folds constant conditions, forwards branches through blocks that only branch on, merges a block \
into its single predecessor, and propagates a condition's value into the blocks it guards.",
    ops: &[&ASSERT, &BR, &COND_BR, &SWITCH],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: None,
};
