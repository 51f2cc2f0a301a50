//! The generic structural verifier of declared ops (those with an
//! [`OpDecl`], made by [`declare_op!`](crate::declare_op)).
//!
//! It runs before the op's trait checks and `verify` hook and follows the order and wording of
//! `mlir-opt`'s ODS-generated verifiers: region count, result count, successor count, operand
//! count (MLIR's `ZeroRegions`/`OneResult`/`NOperands<N>`/`AtLeastNOperands<N>`... traits),
//! then operand and result segment sizes (`AttrSizedOperandSegments`), then `OpInvariants`:
//! required inherent attributes and their constraints, optional groups of at most one value,
//! and operand/result type constraints. The first failure is returned.
//!
//! Layer: verifier (above the printer, which spells types in messages). It also defines
//! [`OpDef::verify_structure_and_hook`], which joins an op's definition to this check.

use crate::declare::{
    Decl, OpDecl, SegmentError, SlotConstraint, TypeConstraint, ValueList, attr_accepts, inherent_attr, type_accepts,
};
use crate::diag::Diagnostic;
use crate::ir::OpId;
use crate::registry::{ArgKind, OpDef, VerifyCtx};

impl OpDef {
    /// The declared structure (if any), then the op's `verify` hook: what the verifier runs for
    /// the op itself, less the trait checks. Hooks of declared ops may assume the structure is
    /// valid, so call this rather than `verify` directly.
    pub fn verify_structure_and_hook(&self, v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
        if let Some(decl) = self.decl {
            verify_declared(v, decl, op)?;
        }
        self.verify.map_or(Ok(()), |hook| hook(v, op))
    }
}

/// Checks `op` against its declaration.
pub fn verify_declared(v: &VerifyCtx<'_>, decl: &OpDecl, op: OpId) -> Result<(), Diagnostic> {
    let ir = v.ir;
    check_count(v, op, ir.regions(op).len(), &slot_counts(decl.regions), region_count_message)?;
    check_count(v, op, ir.num_results(op), &value_counts(decl.results), result_count_message)?;
    check_count(v, op, ir.successors(op).len(), &slot_counts(decl.successors), successor_count_message)?;
    check_count(v, op, ir.num_operands(op), &value_counts(decl.operands), operand_count_message)?;
    for list in [ValueList::Operands, ValueList::Results] {
        if decl.uses_segments(list) {
            check_segments(v, decl, op, list)?;
        }
    }
    check_attributes(v, decl, op)?;
    for list in [ValueList::Operands, ValueList::Results] {
        check_value_types(v, decl, op, list)?;
    }
    Ok(())
}

/// The number of single groups and whether any group is variable-sized.
struct Counts {
    fixed: usize,
    variable: bool,
}

fn value_counts(groups: &[Decl<TypeConstraint>]) -> Counts {
    let fixed = groups.iter().filter(|d| d.constraint.kind == ArgKind::Single).count();
    Counts { fixed, variable: fixed < groups.len() }
}

fn slot_counts(groups: &[Decl<SlotConstraint>]) -> Counts {
    let fixed = groups.iter().filter(|d| d.constraint.kind == ArgKind::Single).count();
    Counts { fixed, variable: fixed < groups.len() }
}

/// Fails with `message(expected, found, variable)` when `found` does not fit the counts.
fn check_count(
    v: &VerifyCtx<'_>,
    op: OpId,
    found: usize,
    counts: &Counts,
    message: fn(usize, usize, bool) -> String,
) -> Result<(), Diagnostic> {
    let fits = if counts.variable { found >= counts.fixed } else { found == counts.fixed };
    if fits { Ok(()) } else { Err(v.op_error(op, message(counts.fixed, found, counts.variable))) }
}

fn operand_count_message(n: usize, found: usize, variable: bool) -> String {
    match (n, variable) {
        (0, false) => "requires zero operands".into(),
        (1, false) => "requires a single operand".into(),
        (_, false) => format!("expected {n} operands, but found {found}"),
        (_, true) => format!("expected {n} or more operands, but found {found}"),
    }
}

fn result_count_message(n: usize, _found: usize, variable: bool) -> String {
    match (n, variable) {
        (0, false) => "requires zero results".into(),
        (1, false) => "requires one result".into(),
        (_, false) => format!("expected {n} results"),
        (_, true) => format!("expected {n} or more results"),
    }
}

fn region_count_message(n: usize, _found: usize, variable: bool) -> String {
    match (n, variable) {
        (0, false) => "requires zero regions".into(),
        (1, false) => "requires one region".into(),
        (_, false) => format!("expected {n} regions"),
        (_, true) => format!("expected {n} or more regions"),
    }
}

fn successor_count_message(n: usize, found: usize, variable: bool) -> String {
    match (n, variable) {
        (1, false) => format!("requires 1 successor but found {found}"),
        (_, false) => format!("requires {n} successors but found {found}"),
        (_, true) => format!("requires at least {n} successors but found {found}"),
    }
}

/// The segment-sizes attribute of `list` is a dense i32 array with one non-negative entry per
/// group, summing to the number of values.
fn check_segments(v: &VerifyCtx<'_>, decl: &OpDecl, op: OpId, list: ValueList) -> Result<(), Diagnostic> {
    let Err(e) = decl.group_ranges(v.ctx, v.ir, op, list) else { return Ok(()) };
    let attr = list.segment_attr();
    let msg = match e {
        SegmentError::NotI32Array => format!("requires dense i32 array attribute '{attr}'"),
        SegmentError::Negative => format!("'{attr}' attribute cannot have negative elements"),
        SegmentError::WrongLength { expected, found } => format!(
            "'{attr}' attribute for specifying {} segments must have {expected} elements, but got {found}",
            list.noun()
        ),
        SegmentError::CountMismatch { count, total } => format!(
            "{} count ({count}) does not match with the total size ({total}) specified in attribute '{attr}'",
            list.noun()
        ),
    };
    Err(v.op_error(op, msg))
}

/// Required inherent attributes are present; present ones satisfy their constraint.
fn check_attributes(v: &VerifyCtx<'_>, decl: &OpDecl, op: OpId) -> Result<(), Diagnostic> {
    for d in decl.attributes {
        match inherent_attr(v.ctx, v.ir, op, d.name) {
            None if d.constraint.is_required() => {
                return Err(v.op_error(op, format!("requires attribute '{}'", d.name)));
            }
            Some(a) if !attr_accepts(&d.constraint, v.ctx, a) => {
                return Err(v.op_error(
                    op,
                    format!("attribute '{}' failed to satisfy constraint: {}", d.name, d.constraint.description),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Optional groups hold at most one value; every value's type satisfies its group's
/// constraint (`operand #3 must be ..., but got 'f32'`).
fn check_value_types(v: &VerifyCtx<'_>, decl: &OpDecl, op: OpId, list: ValueList) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let Ok(ranges) = decl.group_ranges(ctx, ir, op, list) else { return Ok(()) };
    let noun = list.noun();
    for (d, range) in decl.groups(list).iter().zip(ranges) {
        if d.constraint.kind == ArgKind::Optional && range.len() > 1 {
            return Err(v.op_error(
                op,
                format!("{noun} group starting at #{} requires 0 or 1 element, but found {}", range.start, range.len()),
            ));
        }
        for i in range {
            let value = match list {
                ValueList::Operands => ir.operand(op, i),
                ValueList::Results => ir.result(op, i),
            };
            let ty = ir.value_type(value);
            if !type_accepts(&d.constraint, ctx, ty) {
                let spelled = crate::printer::print_type(ctx, ty);
                return Err(
                    v.op_error(op, format!("{noun} #{i} must be {}, but got '{spelled}'", d.constraint.description))
                );
            }
        }
    }
    Ok(())
}
