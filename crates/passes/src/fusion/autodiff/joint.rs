//! The joint function `@NAME_vjp`: a clone of `@NAME` whose body is followed by the backward
//! (each op's vector-Jacobian product, in reverse op order), taking one cotangent per
//! floating-point result after the arguments and returning the gradients after the results.

use super::builder::Builder;
use super::rules;
use fuser_dialects::func;
use fuser_dialects::fusion::{NormKind, Sharding, Split, norm_state, strip_sharding};
use fuser_ir::attrs::AttrKind;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{BlockId, Ir, IrMapping, OpId, Value};
use fuser_ir::types::{DYNAMIC, Type, TypeKind};
use rustc_hash::{FxHashMap, FxHashSet};

/// What the split into `_fwd`/`_bwd` needs to know about a joint function.
pub struct Joint {
    /// The `@NAME_vjp` function.
    pub func: OpId,
    /// Its body block.
    pub body: BlockId,
    /// The number of primal arguments (the cotangents follow).
    pub num_args: usize,
    /// The forward ops (the clone of `@NAME`'s body, norms rebuilt with their statistics).
    pub forward: Vec<OpId>,
    /// The primal results (values of the forward).
    pub results: Vec<Value>,
}

/// Whether `t` is a tensor (or scalar) of a floating-point element type.
pub fn is_float_type(ctx: &Context, t: Type) -> bool {
    match ctx.type_kind(t) {
        TypeKind::RankedTensor { elem, .. } => matches!(ctx.type_kind(*elem), TypeKind::Float(_)),
        TypeKind::Float(_) => true,
        _ => false,
    }
}

/// The error `fusion-autodiff: MESSAGE` at `op`'s location.
pub fn error_at(ir: &Ir, op: OpId, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(ir.loc(op), format!("fusion-autodiff: {message}"))
}

/// Builds `@NAME_vjp` next to `func` (named `name`), differentiating with respect to the
/// arguments `wrt`.
pub fn build_joint(ctx: &Context, ir: &mut Ir, func: OpId, name: &str, wrt: &[usize]) -> Result<Joint, Diagnostic> {
    let Some((inputs, _)) = func::signature(ctx, ir, func) else {
        return Err(error_at(ir, func, format!("@{name} has no well-formed function_type")));
    };
    let inputs = inputs.to_vec();
    for &i in wrt {
        let Some(&t) = inputs.get(i) else {
            return Err(error_at(
                ir,
                func,
                format!("wrt names argument {i}, but @{name} has {} arguments", inputs.len()),
            ));
        };
        if !is_float_type(ctx, t) {
            return Err(error_at(
                ir,
                func,
                format!(
                    "argument {i} of @{name} (of type '{}') is not floating-point: it has no gradient (remove it from wrt)",
                    fuser_ir::printer::print_type(ctx, t)
                ),
            ));
        }
    }
    if ir.regions(func).first().is_none_or(|&r| ir.region_blocks(r).len() != 1) {
        return Err(error_at(ir, func, format!("@{name} must have a body of exactly one block")));
    }
    let mut map = IrMapping::new();
    let vjp = ir.clone_op(func, &mut map);
    ir.insert_op_after(func, vjp);
    let props = ir.props(vjp).unwrap_or_else(|| ctx.empty_dict());
    ir.set_props(vjp, Some(ctx.dict_set(props, "sym_name", Some(ctx.string_attr(&format!("{name}_vjp"))))));
    let body = ir.region_entry(ir.region(vjp, 0)).expect("a body of one block");
    let Some(ret) = ir.last_op(body).filter(|&r| ctx.op_name_str(ir.op_name(r)) == "func.return") else {
        return Err(error_at(ir, func, format!("@{name} does not end in func.return")));
    };
    let args: Vec<Value> = ir.block_args(body).to_vec();
    let num_args = args.len();
    // The rules compute counts and fill zeros from static extents.
    let dynamic = |ir: &Ir, v: &Value| matches!(ctx.type_kind(ir.value_type(*v)), TypeKind::RankedTensor { shape, .. } if shape.contains(&DYNAMIC));
    if let Some(&a) = args.iter().find(|a| dynamic(ir, a)) {
        let t = fuser_ir::printer::print_type(ctx, ir.value_type(a));
        return Err(error_at(ir, func, format!("dynamic extents are not supported (an argument of type '{t}')")));
    }
    for op in ir.block_ops(body).collect::<Vec<_>>() {
        if let Some(r) = ir.results(op).iter().find(|r| dynamic(ir, r)) {
            let t = fuser_ir::printer::print_type(ctx, ir.value_type(*r));
            return Err(error_at(ir, op, format!("dynamic extents are not supported (a result of type '{t}')")));
        }
    }

    // Activity: the values that depend on a wrt argument through floating-point operands.
    let mut active: FxHashSet<Value> = wrt.iter().map(|&i| args[i]).collect();
    let mut forward: Vec<OpId> = ir.block_ops(body).filter(|&o| o != ret).collect();
    for op in forward.clone() {
        let feeds = ir.operands(op).iter().any(|v| active.contains(v) && is_float_type(ctx, ir.value_type(*v)));
        if feeds {
            for &r in ir.results(op) {
                if is_float_type(ctx, ir.value_type(r)) {
                    active.insert(r);
                }
            }
        }
    }
    // Usefulness: the values a floating-point result depends on (a cotangent can reach them).
    let ret_operands: Vec<Value> = ir.operands(ret).to_vec();
    let mut useful: FxHashSet<Value> =
        ret_operands.iter().copied().filter(|v| is_float_type(ctx, ir.value_type(*v))).collect();
    for &op in forward.iter().rev() {
        if ir.results(op).iter().any(|r| useful.contains(r)) {
            useful.extend(ir.operands(op).iter().copied());
        }
    }
    // Norms whose backward is needed (an active input, a result a cotangent reaches) get their
    // statistics results; a dead norm stays as it is.
    for slot in forward.iter_mut() {
        let op = *slot;
        if ir.operands(op).iter().any(|v| active.contains(v))
            && ir.results(op).first().is_some_and(|r| useful.contains(r))
            && let Some(new) = with_statistics(ctx, ir, op).or_else(|| with_lse(ctx, ir, op))
        {
            // The rebuilt op's results are as active as the old one's.
            active.extend(ir.results(new).iter().copied());
            *slot = new;
        }
    }

    // The cotangents of the floating-point results.
    let results: Vec<Value> = ir.operands(ret).to_vec();
    let mut cot: FxHashMap<Value, Value> = FxHashMap::default();
    let loc = ir.loc(ret);
    ir.erase_op(ret);
    let mut b = Builder::new(ctx, ir, body, loc);
    for &r in &results {
        let t = b.ir.value_type(r);
        if is_float_type(ctx, t) {
            let c = b.ir.add_block_arg(body, t, None);
            accumulate(&mut b, &mut cot, r, c);
        }
    }

    // The backward, in reverse op order.
    for (index, &op) in forward.iter().enumerate().rev() {
        let res: Vec<Value> = b.ir.results(op).to_vec();
        // The cotangent of a stream-chunked activation takes its primal's layout before the
        // rule reads it: the backward's unannotated values then meet one chunked layout per
        // activation (as in the forward) instead of the contributions' natural layouts (a
        // partial dgrad `[Stream(2)]` next to a sequence-split `[Stream(2), DIDx]` residual),
        // which propagation refuses to reconcile ("conflicting shardings"). Unchunked and
        // partial primals keep the natural layouts (a set into them may not lower).
        let g: Vec<Option<Value>> = res
            .iter()
            .map(|r| {
                let c = *cot.get(r)?;
                let want = b.ir.value_type(*r);
                Some(if is_chunked(ctx, want) && b.ir.value_type(c) != want { b.set(c, want) } else { c })
            })
            .collect();
        if g.iter().all(Option::is_none) {
            continue;
        }
        let operands: Vec<Value> = b.ir.operands(op).to_vec();
        let needed: Vec<bool> =
            operands.iter().map(|v| active.contains(v) && is_float_type(ctx, b.ir.value_type(*v))).collect();
        if !needed.iter().any(|&n| n) {
            continue;
        }
        b.loc = b.ir.loc(op);
        b.origin = format!("{} (forward op {index})", ctx.op_name_str(b.ir.op_name(op)));
        let grads = rules::vjp(&mut b, op, &g).map_err(|m| error_at(b.ir, op, m))?;
        for ((&v, n), gv) in operands.iter().zip(needed).zip(grads) {
            if let (true, Some(gv)) = (n, gv) {
                // A contribution to a stream-chunked activation takes its layout right away,
                // next to the op that made it (a partial dgrad is reduce-scattered in its GEMM's
                // stream loop, GEMM + RS, instead of being allreduced after it has been added to
                // another contribution); the sum is then computed in that layout.
                let want = b.ir.value_type(v);
                let gv = if is_chunked(ctx, want) && b.ir.value_type(gv) != want { b.set(gv, want) } else { gv };
                accumulate(&mut b, &mut cot, v, gv);
            }
        }
    }

    // The gradients, typed (and sharded) like their arguments; a partial argument's gradient
    // is the same split without the pending reduction (every summand's gradient is the
    // gradient of the sum; a resharding into a partial value does not lower).
    b.loc = loc;
    let mut grads = Vec::new();
    for &i in wrt {
        let arg = args[i];
        let t = match Sharding::of_type(ctx, inputs[i]) {
            Some(s) if !s.partial.is_empty() => {
                Sharding { partial: Vec::new(), ..s }.apply_to(ctx, strip_sharding(ctx, inputs[i]))
            }
            _ => inputs[i],
        };
        let g = match cot.get(&arg) {
            Some(&g) => g,
            None => {
                let TypeKind::RankedTensor { shape, elem, .. } = ctx.type_kind(t).clone() else {
                    return Err(error_at(b.ir, func, format!("argument {i} of @{name} is not a tensor")));
                };
                b.full(shape, elem, 0.0)
            }
        };
        grads.push(if b.ir.value_type(g) == t { g } else { b.set(g, t) });
    }
    let created = std::mem::take(&mut b.created);
    let outs: Vec<Value> = results.iter().copied().chain(grads).collect();
    let ret = ir.create_op(func::return_state(ctx, &outs, loc));
    ir.append_op(body, ret);
    func::sync_signature(ctx, ir, vjp);
    pad_attr_arrays(ctx, ir, vjp, num_args, results.len());
    // Rules may compute a contribution to an operand that needs none: erase what is unused.
    for &op in created.iter().rev() {
        if ir.is_live_op(op) && ir.results_unused(op) {
            ir.erase_op(op);
        }
    }
    Ok(Joint { func: vjp, body, num_args, forward, results })
}

/// Extends the joint's `arg_attrs`/`res_attrs` (cloned from `@NAME`, one entry per primal
/// argument and result) with empty dictionaries for the cotangents and the gradients.
fn pad_attr_arrays(ctx: &Context, ir: &mut Ir, vjp: OpId, num_args: usize, num_results: usize) {
    let Some((inputs, results)) = func::signature(ctx, ir, vjp) else { return };
    let (n_in, n_out) = (inputs.len(), results.len());
    let mut props = ir.props(vjp).unwrap_or_else(|| ctx.empty_dict());
    for (key, primal, total) in [("arg_attrs", num_args, n_in), ("res_attrs", num_results, n_out)] {
        let Some(a) = ctx.dict_get(props, key) else { continue };
        let AttrKind::Array(items) = ctx.attr_kind(a).clone() else { continue };
        if items.len() != primal {
            continue;
        }
        let mut items = items;
        items.resize(total, ctx.empty_dict());
        props = ctx.dict_set(props, key, Some(ctx.array_attr(items)));
    }
    ir.set_props(vjp, Some(props));
}

/// Whether `t` is a stream-chunked layout without a pending reduction (the layout the
/// cotangents of such activations take, see [`build_joint`]).
fn is_chunked(ctx: &Context, t: Type) -> bool {
    Sharding::of_type(ctx, t)
        .is_some_and(|s| s.partial.is_empty() && s.axes.iter().flatten().any(|x| matches!(x, Split::Stream(_))))
}

/// Adds the contribution `c` to the cotangent of `v`; a sum of two contributions of `v`'s
/// stream-chunked type keeps that type.
fn accumulate(b: &mut Builder<'_>, cot: &mut FxHashMap<Value, Value>, v: Value, c: Value) {
    let sum = match cot.get(&v) {
        Some(&old) => {
            let sum = b.add(old, c);
            let t = b.ir.value_type(v);
            if is_chunked(b.ctx, t) && b.ir.value_type(old) == t && b.ir.value_type(c) == t {
                b.ir.set_value_type(sum, t);
            }
            sum
        }
        None => c,
    };
    cot.insert(v, sum);
}

/// A norm op without its statistics results, rebuilt with them (the backward reads `mean` and
/// `rstd`); returns the new op, or `None` when `op` is no such norm.
fn with_statistics(ctx: &Context, ir: &mut Ir, op: OpId) -> Option<OpId> {
    let kind = NormKind::of_name(ctx.op_name_str(ir.op_name(op)))?;
    if ir.num_results(op) != 1 {
        return None;
    }
    let (has_w, has_b) = fuser_dialects::fusion::norm::norm_operands(ctx, ir, op)?;
    let x = ir.operand(op, 0);
    let weight = has_w.then(|| ir.operand(op, 1));
    let bias = has_b.then(|| ir.operand(op, 1 + has_w as usize));
    let dims = fuser_dialects::fusion::syntax::op_dims(ctx, ir, op)?;
    let eps = fuser_dialects::fusion::norm::op_epsilon(ctx, ir, op);
    let TypeKind::RankedTensor { shape, elem, .. } = ctx.type_kind(ir.value_type(x)).clone() else { return None };
    let TypeKind::Float(k) = ctx.type_kind(elem) else { return None };
    let lead = shape[..shape.len() - dims.len()].to_vec();
    let stat = ctx.tensor_type(lead, fuser_dialects::fusion::norm::stats_elem(ctx, *k), None);
    let y = ir.result(op, 0);
    let mut types = vec![ir.value_type(y)];
    types.extend(std::iter::repeat_n(stat, kind.num_stats()));
    let mut state = norm_state(ctx, kind, x, weight, bias, &dims, eps, types, ir.loc(op));
    state.attrs = ir.attrs(op);
    let new = ir.create_op(state);
    ir.insert_op_before(op, new);
    let ny = ir.result(new, 0);
    ir.replace_all_uses(y, ny);
    ir.erase_op(op);
    Some(new)
}

/// A `fusion.sdpa` without its `lse` result rebuilt with it (`f32 [B, H, S]`, unannotated: it
/// takes `out`'s leading layout), so that its backward reads the log-sum-exp instead of
/// recomputing the scores; `None` for other ops and for an sdpa that has it.
fn with_lse(ctx: &Context, ir: &mut Ir, op: OpId) -> Option<OpId> {
    if ctx.op_name_str(ir.op_name(op)) != "fusion.sdpa" || ir.num_results(op) != 1 {
        return None;
    }
    let out = ir.result(op, 0);
    let TypeKind::RankedTensor { shape, .. } = ctx.type_kind(ir.value_type(out)).clone() else { return None };
    let lse = ctx.tensor_type(shape[..3].to_vec(), ctx.float_type(fuser_ir::types::FloatKind::F32), None);
    let mut state = fuser_dialects::fusion::tensor_op_state(
        ctx,
        "fusion.sdpa",
        ir.operands(op).to_vec(),
        ir.value_type(out),
        None,
        false,
        ir.loc(op),
    );
    state.result_types.push(lse);
    state.props = ir.props(op);
    state.attrs = ir.attrs(op);
    let new = ir.create_op(state);
    ir.insert_op_before(op, new);
    let ny = ir.result(new, 0);
    ir.replace_all_uses(out, ny);
    ir.erase_op(op);
    Some(new)
}
