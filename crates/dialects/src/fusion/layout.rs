//! Ops that move data without arithmetic: `fusion.set` (a copy; the point where a sharding may
//! change), `fusion.broadcast` (new axes), `fusion.reshape` and `fusion.permute`, with their
//! result-type inference and folders.
//!
//! Folders: a `set` or `reshape` whose result type equals its operand's type, and a `permute`
//! with identity `dims` and equal types, fold to the operand. A `set` that changes the encoding
//! is a resharding and stays.

use super::reduce::{DIMS, check_axes};
use super::syntax::{Extra, op_dims, parse_tensor_op, print_tensor_op};
use super::verify::{
    TENSOR, expect_tensor, operand_types, plain_tensor, result_type, shape_text, shapes_compatible, tensor_parts,
    verify_with,
};
use crate::support::type_str;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState};
use fuser_ir::registry::{FoldResult, VerifyCtx};
use fuser_ir::types::{DYNAMIC, Type};

fuser_ir::declare_op! {
    pub static SET: "fusion.set" {
        summary: "Copy, possibly to another sharding",
        description: "Returns its operand, with the same shape and element type; only the \
encoding may differ. A `set` that changes the sharding is a resharding point: the lowering turns \
it into communication (e.g. allgather from `[[DIDx], []]` to `[[], []]`). A `set` to the same type \
folds away.\n\n\
```mlir\n%g = fusion.set %x : (tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x128xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        hooks: {
            verify: verify_set,
            fold: fold_same_type,
            parse: parse_plain,
            print: print_plain,
            infer_result_types: |ctx, t, _| match t {
                [x] => Ok(vec![infer_set(ctx, *x)?]),
                _ => Err(format!("expects one operand, got {}", t.len())),
            },
        },
    }
}

fuser_ir::declare_op! {
    pub static BROADCAST: "fusion.broadcast" {
        summary: "Inserts new axes",
        description: "The result has the operand's rank plus `len(dims)`; the axes listed in \
`dims` (result positions) are new, of any extent, and the others are the operand's axes in \
order.\n\n\
```mlir\n%b = fusion.broadcast %x dims = [0] : (tensor<8xf32>) -> tensor<4x8xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: DIMS },
        hooks: { verify: verify_broadcast, parse: parse_dims, print: print_dims },
    }
}

fuser_ir::declare_op! {
    pub static RESHAPE: "fusion.reshape" {
        summary: "Reinterprets the shape",
        description: "Same elements in row-major order, another shape: same element type, and \
the same element count when both shapes are static. A reshape to the same type folds away.\n\n\
```mlir\n%r = fusion.reshape %x : (tensor<4x8xf32>) -> tensor<32xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        hooks: { verify: verify_reshape, fold: fold_same_type, parse: parse_plain, print: print_plain },
    }
}

fuser_ir::declare_op! {
    pub static PERMUTE: "fusion.permute" {
        summary: "Permutes the axes",
        description: "`result[i] = input[dims[i]]`; `dims` is a permutation of the axes. An \
identity permutation to the same type folds away.\n\n\
```mlir\n%t = fusion.permute %x dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>\n```",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { dims: DIMS },
        hooks: {
            verify: verify_permute,
            fold: fold_permute,
            parse: parse_dims,
            print: print_dims,
            infer_result_types: |ctx, t, props| {
                let dims = props.and_then(|p| ctx.dict_get(p, "dims")).and_then(|a| super::syntax::i64_array(ctx, a));
                match (t, dims) {
                    ([x], Some(d)) => Ok(vec![infer_permute(ctx, *x, &d)?]),
                    (_, None) => Err("requires a 'dims' array".into()),
                    _ => Err(format!("expects one operand, got {}", t.len())),
                }
            },
        },
    }
}

fn parse_plain(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::None)
}
fn print_plain(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::None)
}
fn parse_dims(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_tensor_op(p, state, Extra::Dims)
}
fn print_dims(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_tensor_op(p, op, Extra::Dims)
}

// ----- inference ----------------------------------------------------------------------------

/// The unsharded result type of `set(x)`.
pub fn infer_set(ctx: &Context, x: Type) -> Result<Type, String> {
    let (shape, elem) = expect_tensor(ctx, "operand", x)?;
    Ok(plain_tensor(ctx, shape, elem))
}

/// The unsharded result type of `broadcast(x, dims)` where `new_extents[j]` is the extent of the
/// `j`-th new axis (in the order of `dims` sorted).
pub fn infer_broadcast(ctx: &Context, x: Type, dims: &[i64], new_extents: &[i64]) -> Result<Type, String> {
    let (shape, elem) = expect_tensor(ctx, "operand", x)?;
    let rank = shape.len() + dims.len();
    check_axes(dims, rank)?;
    if new_extents.len() != dims.len() {
        return Err(format!("{} new axes need {} extents, got {}", dims.len(), dims.len(), new_extents.len()));
    }
    let (mut old, mut new) = (shape.iter(), new_extents.iter());
    let out = (0..rank)
        .map(|i| if dims.contains(&(i as i64)) { new.next() } else { old.next() }.copied().unwrap_or(DYNAMIC))
        .collect();
    Ok(plain_tensor(ctx, out, elem))
}

/// The unsharded result type of `reshape(x)` to `shape`.
pub fn infer_reshape(ctx: &Context, x: Type, shape: &[i64]) -> Result<Type, String> {
    let (in_shape, elem) = expect_tensor(ctx, "operand", x)?;
    let count = |s: &[i64]| s.iter().try_fold(1i64, |acc, &d| if d == DYNAMIC { None } else { acc.checked_mul(d) });
    if let (Some(a), Some(b)) = (count(&in_shape), count(shape))
        && a != b
    {
        return Err(format!(
            "reshape changes the element count: {} has {a}, {} has {b}",
            shape_text(&in_shape),
            shape_text(shape)
        ));
    }
    Ok(plain_tensor(ctx, shape.to_vec(), elem))
}

/// The unsharded result type of `permute(x, dims)`.
pub fn infer_permute(ctx: &Context, x: Type, dims: &[i64]) -> Result<Type, String> {
    let (shape, elem) = expect_tensor(ctx, "operand", x)?;
    if dims.len() != shape.len() {
        return Err(format!("dims {} is not a permutation of the {} axes", shape_text(dims), shape.len()));
    }
    check_axes(dims, shape.len()).map_err(|m| format!("dims {} is not a permutation: {m}", shape_text(dims)))?;
    Ok(plain_tensor(ctx, dims.iter().map(|&d| shape[d as usize]).collect(), elem))
}

// ----- verifiers ----------------------------------------------------------------------------

fn single_operand(v: &VerifyCtx<'_>, op: OpId) -> Result<Type, String> {
    match operand_types(v, op)[..] {
        [x] => Ok(x),
        _ => Err("expects one operand".into()),
    }
}

fn result_parts(v: &VerifyCtx<'_>, op: OpId) -> Result<(Vec<i64>, Type), String> {
    result_type(v, op).and_then(|t| tensor_parts(v.ctx, t)).ok_or_else(|| "expects a tensor result".to_string())
}

fn verify_set(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| infer_set(v.ctx, single_operand(v, op)?))
}

fn verify_broadcast(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let x = single_operand(v, op)?;
        let dims = op_dims(v.ctx, v.ir, op).ok_or("requires a 'dims' array")?;
        let (out, _) = result_parts(v, op)?;
        let in_rank = tensor_parts(v.ctx, x).map_or(0, |(s, _)| s.len());
        if out.len() != in_rank + dims.len() {
            return Err(format!(
                "result rank {} is not the operand rank {in_rank} plus {} new axes",
                out.len(),
                dims.len()
            ));
        }
        check_axes(&dims, out.len())?;
        let mut sorted = dims.clone();
        sorted.sort_unstable();
        let new_extents: Vec<i64> = sorted.iter().map(|&d| out[d as usize]).collect();
        infer_broadcast(v.ctx, x, &sorted, &new_extents)
    })
}

fn verify_reshape(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let x = single_operand(v, op)?;
        let (out, elem) = result_parts(v, op)?;
        let (_, in_elem) = expect_tensor(v.ctx, "operand", x)?;
        if elem != in_elem {
            return Err(format!(
                "element type changes from '{}' to '{}'",
                type_str(v.ctx, in_elem),
                type_str(v.ctx, elem)
            ));
        }
        infer_reshape(v.ctx, x, &out)
    })
}

fn verify_permute(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let dims = op_dims(v.ctx, v.ir, op).ok_or("requires a 'dims' array")?;
        infer_permute(v.ctx, single_operand(v, op)?, &dims)
    })
}

// ----- folders ------------------------------------------------------------------------------

/// `op(x) -> T` with `x: T` is `x`.
fn fold_same_type(_: &Context, ir: &Ir, op: OpId, _: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let (&x, &r) = (ir.operands(op).first()?, ir.results(op).first()?);
    (ir.value_type(x) == ir.value_type(r)).then(|| vec![FoldResult::Value(x)])
}

fn fold_permute(ctx: &Context, ir: &Ir, op: OpId, consts: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let dims = op_dims(ctx, ir, op)?;
    let identity = dims.iter().enumerate().all(|(i, &d)| d == i as i64);
    if !identity {
        return None;
    }
    fold_same_type(ctx, ir, op, consts)
}

/// True when `a` and `b` have compatible shapes (used by passes that compare types modulo
/// encodings).
pub fn same_shape_modulo_encoding(ctx: &Context, a: Type, b: Type) -> bool {
    match (tensor_parts(ctx, a), tensor_parts(ctx, b)) {
        (Some((sa, ea)), Some((sb, eb))) => ea == eb && shapes_compatible(&sa, &sb),
        _ => false,
    }
}
