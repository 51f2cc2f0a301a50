//! Checks shared by every fusion tensor op: the type constraint of operands and results, the
//! sharding of each tensor (against its mesh), shape compatibility helpers, and the comparison
//! of a result type with the type an op infers.
//!
//! Mesh-dependent checks run only when the op sits in a symbol table (a detached function
//! copy cannot see the module's meshes; the module-level verification then checks them).
//! Shapes ignore encodings; a dynamic (`?`) extent is compatible with any extent. Messages name
//! the value (`operand #1`, `result`) and, for shardings, the tensor axis and its extent.

use super::sharding::{Mesh, Sharding, split_product};
use crate::support::type_str;
use crate::symbols::nearest_symbol_table;
use fuser_ir::context::Context;
use fuser_ir::declare::TypeConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::OpId;
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{DYNAMIC, TypeKind};
use fuser_ir::{Attr, Type};

fn is_int_or_float(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { .. } | TypeKind::Float(_))
}

/// A ranked tensor of integers or floats (any encoding; the op verifiers check shardings).
pub const TENSOR: TypeConstraint = TypeConstraint::new(
    "ranked tensor of integer or float values",
    |ctx, t| matches!(ctx.type_kind(t), TypeKind::RankedTensor { elem, .. } if is_int_or_float(ctx, *elem)),
);

/// Shape and element type of a ranked tensor.
pub fn tensor_parts(ctx: &Context, t: Type) -> Option<(Vec<i64>, Type)> {
    match ctx.type_kind(t) {
        TypeKind::RankedTensor { shape, elem, .. } => Some((shape.clone(), *elem)),
        _ => None,
    }
}

/// The encoding of a ranked tensor.
fn encoding(ctx: &Context, t: Type) -> Option<Attr> {
    match ctx.type_kind(t) {
        TypeKind::RankedTensor { encoding, .. } => *encoding,
        _ => None,
    }
}

/// Like [`tensor_parts`], with an error message naming `what` for other types.
pub fn expect_tensor(ctx: &Context, what: &str, t: Type) -> Result<(Vec<i64>, Type), String> {
    tensor_parts(ctx, t).ok_or_else(|| format!("{what} must be a ranked tensor, got '{}'", type_str(ctx, t)))
}

/// Two extents agree (equal, or one is dynamic).
pub fn extents_compatible(a: i64, b: i64) -> bool {
    a == b || a == DYNAMIC || b == DYNAMIC
}

/// Two shapes have the same rank and compatible extents.
pub fn shapes_compatible(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| extents_compatible(x, y))
}

/// `5` or `?`.
pub fn extent_text(d: i64) -> String {
    if d == DYNAMIC { "?".into() } else { d.to_string() }
}

/// `[5, ?, 7]`.
pub fn shape_text(shape: &[i64]) -> String {
    let parts: Vec<String> = shape.iter().map(|&d| extent_text(d)).collect();
    format!("[{}]", parts.join(", "))
}

/// The more precise of two compatible extents.
pub fn merge_extent(a: i64, b: i64) -> i64 {
    if a == DYNAMIC { b } else { a }
}

/// The unsharded tensor type of `shape` x `elem`.
pub fn plain_tensor(ctx: &Context, shape: Vec<i64>, elem: Type) -> Type {
    ctx.tensor_type(shape, elem, None)
}

/// Checks the sharding of one tensor value (`what` names it in messages) used by `op`.
fn check_value_sharding(v: &VerifyCtx<'_>, op: OpId, what: &str, t: Type) -> Result<(), Diagnostic> {
    let ctx = v.ctx;
    let Some(enc) = encoding(ctx, t) else { return Ok(()) };
    let Some(sharding) = Sharding::of_attr(ctx, enc) else {
        let msg = format!("{what} has encoding {}, expected a #fusion.shard", fuser_ir::printer::print_attr(ctx, enc));
        return Err(v.op_error(op, msg));
    };
    sharding.validate().map_err(|m| v.op_error(op, format!("{what}: {m}")))?;
    let shape = tensor_parts(ctx, t).map(|(s, _)| s).unwrap_or_default();
    if sharding.axes.len() != shape.len() {
        let msg = format!(
            "{what}: sharding has {} split lists, but the tensor has rank {}",
            sharding.axes.len(),
            shape.len()
        );
        return Err(v.op_error(op, msg));
    }
    // An op outside any symbol table (a function verified on its own, e.g. a copy a parallel
    // pass works on) cannot see its meshes: the checks against the mesh wait for the module.
    if nearest_symbol_table(ctx, v.ir, op).is_none() {
        return Ok(());
    }
    let Some(mesh) = Mesh::lookup(ctx, v.ir, op, &sharding.mesh) else {
        return Err(v.op_error(op, format!("mesh {} not found", crate::support::symbol_display(&sharding.mesh))));
    };
    for (axis, (splits, &extent)) in sharding.axes.iter().zip(&shape).enumerate() {
        let divisor = split_product(splits, &mesh, true).map_err(|m| v.op_error(op, format!("{what}: {m}")))?;
        if extent != DYNAMIC && (divisor <= 0 || extent % divisor != 0) {
            let msg = format!(
                "{what}: axis {axis} of extent {extent} is not divisible by {divisor}, the product of its splits"
            );
            return Err(v.op_error(op, msg));
        }
    }
    for &d in &sharding.partial {
        if mesh.axis_size(d).is_none() {
            let msg = format!(
                "{what}: partial device axis {} is not in mesh @{} of rank {}",
                d.keyword(),
                mesh.name,
                mesh.shape.len()
            );
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

/// Checks the shardings in the signature of `func` (a `func.func`) that name mesh `mesh`, for
/// the values no fusion op checks: an argument no fusion op uses, a result no fusion op
/// defines (a function that passes a value through). Called from [`crate::fusion::mesh`]'s
/// verifier; the error is at the function, or at the argument when it has a location of its
/// own. Values a fusion op sees keep their error at that op.
pub fn verify_signature_shardings(v: &VerifyCtx<'_>, func: OpId, mesh: &str) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let Some((inputs, results)) = crate::func::signature(ctx, ir, func) else { return Ok(()) };
    let names_mesh = |t: Type| encoding(ctx, t).and_then(|e| Sharding::of_attr(ctx, e)).is_some_and(|s| s.mesh == mesh);
    let is_fusion = |op: OpId| ctx.op_name_str(ir.op_name(op)).starts_with("fusion.");
    let entry = ir.regions(func).first().and_then(|&r| ir.region_blocks(r).first().copied());
    let args = entry.map(|b| ir.block_args(b)).unwrap_or_default();
    let returned = entry.and_then(|b| ir.last_op(b)).map(|ret| ir.operands(ret)).unwrap_or_default();
    for (i, &t) in inputs.iter().enumerate() {
        let seen = args.get(i).is_some_and(|&a| ir.uses(a).any(|u| is_fusion(u.op)));
        if names_mesh(t) && !seen {
            // At the argument's own location when it has one (a frontend's input line).
            let arg_loc = args.get(i).and_then(|&a| ir.value_loc(a)).filter(|&l| l != ctx.unknown_loc());
            check_value_sharding(v, func, &format!("argument #{i}"), t).map_err(|mut d| {
                if let Some(l) = arg_loc {
                    d.loc = l;
                }
                d
            })?;
        }
    }
    for (i, &t) in results.iter().enumerate() {
        let seen = returned.get(i).and_then(|&r| ir.defining_op(r)).is_some_and(is_fusion);
        if names_mesh(t) && !seen {
            check_value_sharding(v, func, &format!("result #{i}"), t)?;
        }
    }
    Ok(())
}

/// Checks the sharding of every operand and result of `op`.
pub fn verify_shardings(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let ir = v.ir;
    for (i, &x) in ir.operands(op).iter().enumerate() {
        check_value_sharding(v, op, &format!("operand #{i}"), ir.value_type(x))?;
    }
    for &r in ir.results(op) {
        check_value_sharding(v, op, "result", ir.value_type(r))?;
    }
    Ok(())
}

/// Compares the result of `op` with the inferred type (shape with dynamic extents compatible,
/// then element type).
pub fn check_inferred(v: &VerifyCtx<'_>, op: OpId, inferred: Type) -> Result<(), Diagnostic> {
    let ctx = v.ctx;
    let Some(&r) = v.ir.results(op).first() else { return Ok(()) };
    let (Some((shape, elem)), Some((want_shape, want_elem))) =
        (tensor_parts(ctx, v.ir.value_type(r)), tensor_parts(ctx, inferred))
    else {
        return Ok(());
    };
    if !shapes_compatible(&shape, &want_shape) {
        let msg = format!("result shape {} does not match inferred {}", shape_text(&shape), shape_text(&want_shape));
        return Err(v.op_error(op, msg));
    }
    if elem != want_elem {
        let msg = format!(
            "result element type '{}' does not match inferred '{}'",
            type_str(ctx, elem),
            type_str(ctx, want_elem)
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// The verify hook body of a tensor op: shardings, then the op's own inference (an error
/// message is reported on the op), then the comparison with the result.
pub fn verify_with(
    v: &VerifyCtx<'_>,
    op: OpId,
    infer: impl FnOnce(&VerifyCtx<'_>, OpId) -> Result<Type, String>,
) -> Result<(), Diagnostic> {
    verify_shardings(v, op)?;
    let inferred = infer(v, op).map_err(|m| v.op_error(op, m))?;
    check_inferred(v, op, inferred)
}

/// The types of the operands of `op`.
pub fn operand_types(v: &VerifyCtx<'_>, op: OpId) -> Vec<Type> {
    v.ir.operands(op).iter().map(|&x| v.ir.value_type(x)).collect()
}

/// The result type of `op` (the ops have exactly one, checked by the declaration).
pub fn result_type(v: &VerifyCtx<'_>, op: OpId) -> Option<Type> {
    v.ir.results(op).first().map(|&r| v.ir.value_type(r))
}
