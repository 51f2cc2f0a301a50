//! The split of a joint `@NAME_vjp` into `@NAME_fwd` (the forward, returning its results and
//! then the saved values) and `@NAME_bwd` (the saved values and the cotangents in, the
//! gradients out). A saved value is a forward value (argument or op result) that a backward op
//! reads, in the order the backward first reads them. **Saved or recomputed:** a value made by
//! a cheap op ([`recomputable`]: elementwise and math ops, cast, compare, broadcast, reshape,
//! permute, slice, full) whose operands are saved anyway (or recomputed themselves) is not
//! saved: `@NAME_bwd` recomputes it first, in forward order. Repeated until nothing changes,
//! this never saves more than before and never needs a new saved value. `@NAME_fwd` carries
//! `fusion.saved = ["...", ...]` naming each saved value.

use super::joint::Joint;
use fuser_dialects::func;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, IrMapping, OpId, Value, ValueDef};
use fuser_ir::types::Type;
use rustc_hash::FxHashSet;

/// Adds `@NAME_fwd` and `@NAME_bwd` after the joint function.
pub fn split(ctx: &Context, ir: &mut Ir, joint: &Joint, name: &str) {
    let forward: FxHashSet<OpId> = joint.forward.iter().copied().collect();
    let args: Vec<Value> = ir.block_args(joint.body).to_vec();
    let (primal, cotangents) = args.split_at(joint.num_args);
    let primal_set: FxHashSet<Value> = primal.iter().copied().collect();
    let all: Vec<OpId> = ir.block_ops(joint.body).collect();
    let ret = *all.last().expect("the joint ends in func.return");
    let backward: Vec<OpId> = all.iter().copied().filter(|o| !forward.contains(o) && *o != ret).collect();
    let is_forward_value = |ir: &Ir, v: Value| match ir.value_def(v) {
        ValueDef::BlockArg { .. } => primal_set.contains(&v),
        _ => ir.defining_op(v).is_some_and(|o| forward.contains(&o)),
    };
    let mut saved: Vec<Value> = Vec::new();
    let mut seen = FxHashSet::default();
    let grads: Vec<Value> = ir.operands(ret)[joint.results.len()..].to_vec();
    let reads = backward.iter().flat_map(|&o| ir.operands(o).to_vec()).chain(grads.iter().copied());
    for v in reads.collect::<Vec<_>>() {
        if is_forward_value(ir, v) && seen.insert(v) {
            saved.push(v);
        }
    }
    let recomputed = recompute(ctx, ir, &forward, &mut saved);
    let types = |ir: &Ir, vs: &[Value]| -> Vec<Type> { vs.iter().map(|&v| ir.value_type(v)).collect() };
    let loc = ir.loc(joint.func);

    // @NAME_fwd
    let mut outs_ty = types(ir, &joint.results);
    outs_ty.extend(types(ir, &saved));
    let (state, entry) = func::func_state(ctx, ir, &format!("{name}_fwd"), types(ir, primal), outs_ty, true, loc);
    let fwd = ir.create_op(state);
    ir.insert_op_after(joint.func, fwd);
    let entry = entry.expect("a body");
    let mut map = IrMapping::new();
    for (&a, &n) in primal.iter().zip(ir.block_args(entry).to_vec().iter()) {
        map.map_value(a, n);
    }
    for &op in &joint.forward {
        let c = ir.clone_op(op, &mut map);
        ir.append_op(entry, c);
    }
    let outs: Vec<Value> = joint.results.iter().chain(&saved).map(|&v| map.lookup_value(v)).collect();
    let r = ir.create_op(func::return_state(ctx, &outs, loc));
    ir.append_op(entry, r);
    let what: Vec<_> = saved.iter().map(|&v| ctx.string_attr(&describe(ctx, ir, joint, v))).collect();
    let attrs = ctx.dict_set(ir.attrs(fwd), "fusion.saved", Some(ctx.array_attr(what)));
    ir.set_attrs(fwd, attrs);

    // @NAME_bwd
    let mut in_ty = types(ir, &saved);
    in_ty.extend(types(ir, cotangents));
    let (state, entry) = func::func_state(ctx, ir, &format!("{name}_bwd"), in_ty, types(ir, &grads), true, loc);
    let bwd = ir.create_op(state);
    ir.insert_op_after(fwd, bwd);
    let entry = entry.expect("a body");
    let mut map = IrMapping::new();
    let new_args = ir.block_args(entry).to_vec();
    for (&a, &n) in saved.iter().chain(cotangents).zip(new_args.iter()) {
        map.map_value(a, n);
    }
    let replay: Vec<OpId> = joint.forward.iter().copied().filter(|o| recomputed.contains(o)).collect();
    for &op in replay.iter().chain(&backward) {
        let c = ir.clone_op(op, &mut map);
        ir.append_op(entry, c);
    }
    let outs: Vec<Value> = grads.iter().map(|&v| map.lookup_value(v)).collect();
    let r = ir.create_op(func::return_state(ctx, &outs, loc));
    ir.append_op(entry, r);
}

/// Whether `@NAME_bwd` recomputes the result of `op` rather than reading it from `@NAME_fwd`
/// when its operands are available there: a cheap, pure op with no communication: every op
/// that lowers to one `host.elementwise` (the dialect's list, `fusion::math::elementwise_kind`:
/// arithmetic, math, cast, compare, where), the views and `full`.
fn recomputable(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    const VIEWS_AND_FILLS: [&str; 5] =
        ["fusion.broadcast", "fusion.reshape", "fusion.permute", "fusion.slice", "fusion.full"];
    fuser_dialects::fusion::math::elementwise_kind(ctx, ir, op).is_some()
        || VIEWS_AND_FILLS.contains(&ctx.op_name_str(ir.op_name(op)))
}

/// Takes out of `saved` the values of [`recomputable`] forward ops whose operands are saved
/// (or recomputed); returns those ops.
fn recompute(ctx: &Context, ir: &Ir, forward: &FxHashSet<OpId>, saved: &mut Vec<Value>) -> FxHashSet<OpId> {
    let mut ops = FxHashSet::default();
    loop {
        let available: FxHashSet<Value> = saved.iter().copied().collect();
        let cheap = saved.iter().position(|&v| {
            ir.defining_op(v).is_some_and(|op| {
                forward.contains(&op)
                    && ir.num_results(op) == 1
                    && recomputable(ctx, ir, op)
                    && ir.operands(op).iter().all(|o| available.contains(o))
            })
        });
        let Some(i) = cheap else { return ops };
        let v = saved.remove(i);
        ops.insert(ir.defining_op(v).expect("an op result"));
        // Its operands stay saved: they are what the recomputation reads.
    }
}

/// What a saved value is: `"argument N"` or `"result R of fusion.OP (forward op I)"`.
fn describe(ctx: &Context, ir: &Ir, joint: &Joint, v: Value) -> String {
    match ir.defining_op(v) {
        None => {
            let i = ir.block_args(joint.body).iter().position(|&a| a == v).unwrap_or(0);
            format!("argument {i}")
        }
        Some(op) => {
            let r = ir.results(op).iter().position(|&x| x == v).unwrap_or(0);
            let i = joint.forward.iter().position(|&o| o == op).unwrap_or(0);
            format!("result {r} of {} (forward op {i})", ctx.op_name_str(ir.op_name(op)))
        }
    }
}
