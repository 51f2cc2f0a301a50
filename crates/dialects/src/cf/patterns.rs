//! Canonicalization patterns of the `cf` ops, in MLIR 19's order (the driver tries them in
//! order; the first that applies counts):
//!
//! - `cf.assert`: erase an assertion of the constant `true`.
//! - `cf.br`: merge the destination into this block when this branch is its only predecessor
//!   edge; else skip a destination that only branches on (*pass-through*).
//! - `cf.cond_br`: a constant condition becomes a `cf.br`; pass-through destinations are
//!   skipped; identical destinations become a `cf.br` (with `arith.select`s for differing
//!   operands when this block is the destination's only predecessor); a branch on the
//!   condition its single predecessor already branched on becomes a `cf.br`; uses of the
//!   condition in a destination reached only from here become `true`/`false` constants.
//! - `cf.switch`: only a default becomes a `cf.br`; cases equal to the default are dropped; a
//!   constant flag selects its destination; pass-through destinations are skipped; a switch on
//!   the flag its single predecessor switched on is resolved (case taken) or loses the cases
//!   that predecessor already handled (default taken).
//!
//! Invariant: patterns only rewrite ops whose successor operands are well formed
//! ([`successor_operands`] is `Some`), so malformed IR is left alone.

use super::{
    BR, COND_BR, SWITCH, br_state, case_values, cond_br_state, single_predecessor, successor_operands, switch_state,
    unique_predecessor,
};
use crate::arith::constant_state;
use crate::support::{IntConst, empty_state, int_const};
use fuser_ir::apint::ApInt;
use fuser_ir::ir::{BlockId, OpId, Value};
use fuser_ir::registry::PatternDef;
use fuser_ir::rewrite::fold::constant_value;
use fuser_ir::rewrite_api::Rewriter;

pub(super) const ASSERT_PATTERNS: &[PatternDef] = &[PatternDef { name: "EraseTrueAssert", apply: erase_true_assert }];
pub(super) const BR_PATTERNS: &[PatternDef] = &[PatternDef { name: "BranchOp::canonicalize", apply: canonicalize_br }];
pub(super) const COND_BR_PATTERNS: &[PatternDef] = &[
    PatternDef { name: "SimplifyConstCondBranchPred", apply: const_cond_branch },
    PatternDef { name: "SimplifyPassThroughCondBranch", apply: pass_through_cond_branch },
    PatternDef { name: "SimplifyCondBranchIdenticalSuccessors", apply: cond_branch_identical_successors },
    PatternDef { name: "SimplifyCondBranchFromCondBranchOnSameCondition", apply: cond_branch_same_condition },
    PatternDef { name: "CondBranchTruthPropagation", apply: cond_branch_truth_propagation },
];
pub(super) const SWITCH_PATTERNS: &[PatternDef] = &[
    PatternDef { name: "simplifySwitchWithOnlyDefault", apply: switch_only_default },
    PatternDef { name: "dropSwitchCasesThatMatchDefault", apply: switch_drop_default_cases },
    PatternDef { name: "simplifyConstSwitchValue", apply: switch_const_flag },
    PatternDef { name: "simplifyPassThroughSwitch", apply: switch_pass_through },
    PatternDef { name: "simplifySwitchFromSwitchOnSameCondition", apply: switch_from_switch },
    PatternDef { name: "simplifySwitchFromDefaultSwitchOnSameCondition", apply: switch_from_default_switch },
];

// ----- shared -------------------------------------------------------------------------------

/// The integer constant defining `v`, if any.
fn const_int(rw: &dyn Rewriter, v: Value) -> Option<IntConst> {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    let d = ir.defining_op(v)?;
    int_const(ctx, constant_value(ctx, ir, d)?).map(|c| c.0)
}

/// Each successor of a `cf` branch with the values it receives.
fn dests(rw: &dyn Rewriter, op: OpId) -> Option<Vec<(BlockId, Vec<Value>)>> {
    let ir = rw.ir();
    let ranges = successor_operands(rw.ctx(), ir, op)?;
    let operands = ir.operands(op);
    Some(ir.successors(op).iter().zip(ranges).map(|(&b, r)| (b, operands[r].to_vec())).collect())
}

fn is_op(rw: &dyn Rewriter, op: OpId, name: &str) -> bool {
    rw.ctx().op_name_str(rw.ir().op_name(op)) == name
}

/// Replaces the terminator `op` by `cf.br ^dest(values)`.
fn replace_with_br(rw: &mut dyn Rewriter, op: OpId, dest: BlockId, values: &[Value]) {
    let state = br_state(rw.ctx(), dest, values, rw.ir().loc(op));
    rw.set_insertion_point_before(op);
    rw.create_op(state);
    rw.erase_op(op);
}

/// MLIR's `collapseBranch`: when `dest` holds only a `cf.br` (to another block) whose block
/// arguments feed nothing but that branch, the destination and values that branch forwards to.
fn collapse_branch(rw: &dyn Rewriter, dest: BlockId, values: &[Value]) -> Option<(BlockId, Vec<Value>)> {
    let ir = rw.ir();
    let term = ir.first_op(dest)?;
    if ir.last_op(dest) != Some(term) || !is_op(rw, term, BR.name) {
        return None;
    }
    let args = ir.block_args(dest);
    if args.iter().any(|&a| ir.uses(a).any(|u| u.op != term)) {
        return None;
    }
    let next = *ir.successors(term).first()?;
    if next == dest {
        return None;
    }
    let forwarded: Vec<Value> = ir
        .operands(term)
        .iter()
        .map(|&v| match args.iter().position(|&a| a == v) {
            Some(i) => values.get(i).copied().unwrap_or(v),
            None => v,
        })
        .collect();
    Some((next, forwarded))
}

// ----- cf.assert ----------------------------------------------------------------------------

fn erase_true_assert(rw: &mut dyn Rewriter, op: OpId) -> bool {
    if rw.ir().num_operands(op) != 1 || !const_int(rw, rw.ir().operand(op, 0)).is_some_and(|c| c.is_one()) {
        return false;
    }
    rw.erase_op(op);
    true
}

// ----- cf.br --------------------------------------------------------------------------------

fn canonicalize_br(rw: &mut dyn Rewriter, op: OpId) -> bool {
    merge_into_single_predecessor(rw, op) || pass_through_br(rw, op)
}

/// `cf.br ^succ(v)` where this is `^succ`'s only predecessor edge: `^succ`'s ops move to the end
/// of this block with its arguments replaced by `v`, and the branch goes.
fn merge_into_single_predecessor(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let ir = rw.ir();
    let (Some(&succ), Some(block)) = (ir.successors(op).first(), ir.op_block(op)) else { return false };
    if succ == block || ir.num_branch_uses(succ) != 1 || ir.block_args(succ).len() != ir.num_operands(op) {
        return false;
    }
    let values = ir.operands(op);
    let args = ir.block_args(succ).to_vec();
    let mut users = Vec::new();
    for &a in &args {
        users.extend(ir.uses(a).map(|u| u.op));
    }
    let moved: Vec<OpId> = ir.block_ops(succ).collect();
    let irm = rw.ir_mut();
    for (&a, &v) in args.iter().zip(values.iter()) {
        irm.replace_all_uses(a, v);
    }
    irm.splice_block_ops(succ, block);
    irm.erase_block(succ);
    for u in users {
        rw.notify_changed(u);
    }
    for m in moved {
        rw.notify_changed(m);
    }
    rw.erase_op(op);
    true
}

fn pass_through_br(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some(d) = dests(rw, op) else { return false };
    let [(dest, values)] = &d[..] else { return false };
    if Some(*dest) == rw.ir().op_block(op) {
        return false;
    }
    let Some((next, forwarded)) = collapse_branch(rw, *dest, values) else { return false };
    replace_with_br(rw, op, next, &forwarded);
    true
}

// ----- cf.cond_br ---------------------------------------------------------------------------

/// The condition and the two destinations of a well-formed `cf.cond_br`.
type CondBr = (Value, (BlockId, Vec<Value>), (BlockId, Vec<Value>));

fn cond_br_parts(rw: &dyn Rewriter, op: OpId) -> Option<CondBr> {
    let mut d = dests(rw, op)?;
    if d.len() != 2 {
        return None;
    }
    let f = d.pop()?;
    let t = d.pop()?;
    Some((rw.ir().operand(op, 0), t, f))
}

fn const_cond_branch(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some((cond, t, f)) = cond_br_parts(rw, op) else { return false };
    let Some(c) = const_int(rw, cond) else { return false };
    let (dest, values) = if c.is_zero() { f } else { t };
    replace_with_br(rw, op, dest, &values);
    true
}

fn pass_through_cond_branch(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some((cond, t, f)) = cond_br_parts(rw, op) else { return false };
    let ct = collapse_branch(rw, t.0, &t.1);
    let cf = collapse_branch(rw, f.0, &f.1);
    if ct.is_none() && cf.is_none() {
        return false;
    }
    let (t, f) = (ct.unwrap_or(t), cf.unwrap_or(f));
    let state = cond_br_state(rw.ctx(), cond, (t.0, &t.1), (f.0, &f.1), rw.ir().loc(op));
    rw.set_insertion_point_before(op);
    rw.create_op(state);
    rw.erase_op(op);
    true
}

fn cond_branch_identical_successors(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some((cond, t, f)) = cond_br_parts(rw, op) else { return false };
    if t.0 != f.0 {
        return false;
    }
    if t.1 == f.1 {
        replace_with_br(rw, op, t.0, &t.1);
        return true;
    }
    if unique_predecessor(rw.ir(), t.0) != rw.ir().op_block(op) || t.1.len() != f.1.len() {
        return false;
    }
    let loc = rw.ir().loc(op);
    rw.set_insertion_point_before(op);
    let mut merged = Vec::with_capacity(t.1.len());
    for (&a, &b) in t.1.iter().zip(&f.1) {
        if a == b {
            merged.push(a);
            continue;
        }
        let mut state = empty_state(rw.ctx(), "arith.select", loc);
        state.operands = vec![cond, a, b];
        state.result_types = vec![rw.ir().value_type(a)];
        let sel = rw.create_op(state);
        merged.push(rw.ir().result(sel, 0));
    }
    replace_with_br(rw, op, t.0, &merged);
    true
}

fn cond_branch_same_condition(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some((cond, t, f)) = cond_br_parts(rw, op) else { return false };
    let ir = rw.ir();
    let Some(block) = ir.op_block(op) else { return false };
    let Some(pred) = single_predecessor(ir, block) else { return false };
    let Some(pred_term) = ir.last_op(pred) else { return false };
    if !is_op(rw, pred_term, COND_BR.name) || ir.num_operands(pred_term) == 0 || ir.operand(pred_term, 0) != cond {
        return false;
    }
    let (dest, values) = if ir.successors(pred_term).first() == Some(&block) { t } else { f };
    replace_with_br(rw, op, dest, &values);
    true
}

fn cond_branch_truth_propagation(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some((cond, t, f)) = cond_br_parts(rw, op) else { return false };
    let loc = rw.ir().loc(op);
    let mut replaced = false;
    for (dest, truth) in [(t.0, true), (f.0, false)] {
        if single_predecessor(rw.ir(), dest).is_none() {
            continue;
        }
        let ir = rw.ir();
        let uses: Vec<_> = ir.uses(cond).filter(|u| ir.op_block(u.op) == Some(dest)).collect();
        if uses.is_empty() {
            continue;
        }
        replaced = true;
        rw.set_insertion_point_before(op);
        let ctx = rw.ctx();
        let Some(state) = constant_state(ctx, ctx.bool_attr(truth), loc) else { return replaced };
        let c = rw.create_op(state);
        let value = rw.ir().result(c, 0);
        for u in uses {
            rw.ir_mut().set_operand(u.op, u.index as usize, value);
            rw.notify_changed(u.op);
        }
    }
    replaced
}

// ----- cf.switch ----------------------------------------------------------------------------

/// The flag, default destination and cases of a well-formed `cf.switch`.
struct Switch {
    flag: Value,
    default: (BlockId, Vec<Value>),
    cases: Vec<(ApInt, (BlockId, Vec<Value>))>,
}

fn switch_parts(rw: &dyn Rewriter, op: OpId) -> Option<Switch> {
    let mut d = dests(rw, op)?.into_iter();
    let default = d.next()?;
    let values = case_values(rw.ctx(), rw.ir(), op);
    let rest: Vec<_> = d.collect();
    if values.len() != rest.len() {
        return None;
    }
    Some(Switch { flag: rw.ir().operand(op, 0), default, cases: values.into_iter().zip(rest).collect() })
}

fn replace_with_switch(rw: &mut dyn Rewriter, op: OpId, s: Switch) {
    let state = switch_state(rw.ctx(), rw.ir(), s.flag, s.default, &s.cases, rw.ir().loc(op));
    rw.set_insertion_point_before(op);
    rw.create_op(state);
    rw.erase_op(op);
}

/// Branches to the destination of the case equal to `value`, else to the default.
fn fold_switch(rw: &mut dyn Rewriter, op: OpId, s: Switch, value: &ApInt) {
    let (dest, values) = match s.cases.into_iter().find(|(v, _)| v == value) {
        Some((_, d)) => d,
        None => s.default,
    };
    replace_with_br(rw, op, dest, &values);
}

fn switch_only_default(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some(s) = switch_parts(rw, op) else { return false };
    if !s.cases.is_empty() {
        return false;
    }
    replace_with_br(rw, op, s.default.0, &s.default.1);
    true
}

fn switch_drop_default_cases(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some(mut s) = switch_parts(rw, op) else { return false };
    let before = s.cases.len();
    let default = s.default.clone();
    s.cases.retain(|(_, d)| *d != default);
    if s.cases.len() == before {
        return false;
    }
    replace_with_switch(rw, op, s);
    true
}

fn switch_const_flag(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some(s) = switch_parts(rw, op) else { return false };
    let Some(c) = const_int(rw, s.flag) else { return false };
    fold_switch(rw, op, s, &c);
    true
}

fn switch_pass_through(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some(mut s) = switch_parts(rw, op) else { return false };
    let mut changed = false;
    for (_, d) in s.cases.iter_mut() {
        if let Some(c) = collapse_branch(rw, d.0, &d.1) {
            *d = c;
            changed = true;
        }
    }
    if let Some(c) = collapse_branch(rw, s.default.0, &s.default.1) {
        s.default = c;
        changed = true;
    }
    if !changed {
        return false;
    }
    replace_with_switch(rw, op, s);
    true
}

/// The `cf.switch` ending the single predecessor of `op`'s block, on the same flag.
fn predecessor_switch(rw: &dyn Rewriter, op: OpId, flag: Value) -> Option<(BlockId, Switch)> {
    let ir = rw.ir();
    let block = ir.op_block(op)?;
    let pred = single_predecessor(ir, block)?;
    let term = ir.last_op(pred)?;
    if !is_op(rw, term, SWITCH.name) {
        return None;
    }
    let s = switch_parts(rw, term)?;
    (s.flag == flag).then_some((block, s))
}

fn switch_from_switch(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some(s) = switch_parts(rw, op) else { return false };
    let Some((block, pred)) = predecessor_switch(rw, op, s.flag) else { return false };
    if pred.default.0 == block {
        return false;
    }
    match pred.cases.iter().find(|(_, d)| d.0 == block) {
        Some((v, _)) => {
            let v = v.clone();
            fold_switch(rw, op, s, &v);
        }
        None => replace_with_br(rw, op, s.default.0, &s.default.1),
    }
    true
}

fn switch_from_default_switch(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let Some(mut s) = switch_parts(rw, op) else { return false };
    let Some((block, pred)) = predecessor_switch(rw, op, s.flag) else { return false };
    if pred.default.0 != block {
        return false;
    }
    let impossible: Vec<ApInt> = pred.cases.iter().filter(|(_, d)| d.0 != block).map(|(v, _)| v.clone()).collect();
    let before = s.cases.len();
    s.cases.retain(|(v, _)| !impossible.contains(v));
    if s.cases.len() == before {
        return false;
    }
    replace_with_switch(rw, op, s);
    true
}
