//! `fusion.slice` (a static strided window, as `tensor.extract_slice`) and `fusion.concat`
//! (joins tensors along one axis, as `tensor.concat` / `torch.cat`), with their result-type
//! inference. Both only move data; they lower to copies through `host.slice` views.
//!
//! Folders: a slice of every axis whole and a concat of one operand, to the operand's very type
//! (encoding included), fold to the operand.
//!
//! Sharding: the sliced axes of a slice (those whose window is not the whole axis) and the
//! concatenated axis of a concat are read across (`whole`): they may carry no device or stream
//! split; the other axes keep theirs (docs/dev/ops.md).

use super::clauses::{
    Clause, ClauseKind, I64_ARRAY_PROP, I64_PROP, parse_clause_op, print_clause_op, prop_int, prop_ints,
};
use super::syntax::i64_array;
use super::verify::{
    TENSOR, expect_tensor, extents_compatible, merge_extent, operand_types, plain_tensor, shape_text, verify_with,
};
use crate::support::type_str;
use fuser_ir::Attr;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState};
use fuser_ir::registry::{FoldResult, VerifyCtx};
use fuser_ir::types::{DYNAMIC, Type};

fuser_ir::declare_op! {
    pub static SLICE: "fusion.slice" {
        summary: "A static strided window of a tensor",
        description: "`result[i0, i1, ...] = input[offsets[0] + i0 * strides[0], offsets[1] + \
i1 * strides[1], ...]`, of shape `sizes` (as `tensor.extract_slice` with static parameters; \
torch's basic indexing `x[o:o+n*s:s]`). `offsets`, `sizes` and the optional `strides` (all 1 \
when absent) have one entry per axis; offsets and sizes are non-negative, strides positive, and \
the window stays inside the operand (`offset + (size - 1) * stride < extent` for a non-empty \
size; `offset <= extent` for an empty one). The element type is kept; values are copied \
exactly. A slice of every axis whole to the operand's very type folds away.\n\n\
Sharding: an axis whose window is not the whole axis (offset 0, size = extent, stride 1) is read \
across: a device split there is gathered first (`fusion-decompose-resharding` inserts the \
allgather), a stream split there is refused (`fusion-to-host`). Other axes keep their splits. \
The QKV split of a fused projection is three slices of its last axis (q and k shown, v at offset \
128), and a strided slice takes every other column:\n\n\
```mlir\n%q = fusion.slice %qkv offsets = [0, 0] sizes = [8, 64] : (tensor<8x192xbf16>) -> tensor<8x64xbf16>\n\
%k = fusion.slice %qkv offsets = [0, 64] sizes = [8, 64] : (tensor<8x192xbf16>) -> tensor<8x64xbf16>\n\
%e = fusion.slice %x offsets = [0, 0] sizes = [8, 32] strides = [1, 2] : (tensor<8x64xf32>) -> tensor<8x32xf32>\n```\n\n\
Generic form: `offsets`, `sizes` and `strides` are `array<i64: ...>` properties.",
        traits: [PURE],
        operands: { input: TENSOR },
        results: { result: TENSOR },
        properties: { offsets: I64_ARRAY_PROP, sizes: I64_ARRAY_PROP, strides: I64_ARRAY_PROP.optional() },
        hooks: { verify: verify_slice, fold: fold_slice, parse: parse_slice, print: print_slice, infer_result_types: infer_slice_types },
    }
}

fuser_ir::declare_op! {
    pub static CONCAT: "fusion.concat" {
        summary: "Joins tensors along one axis",
        description: "Concatenates one or more tensors of one rank and element type along axis \
`dim` (as `tensor.concat` and `torch.cat`): the extents of the other axes agree, the result's \
extent along `dim` is the sum of the operands'. Values are copied exactly. A concat of one \
operand to its very type folds away.\n\n\
Sharding: axis `dim` is read across in every operand and the result: a device split there is \
gathered first, a stream split there is refused; the other axes keep their splits, the same in \
every operand. The rotary halves of a \
head are joined with:\n\n\
```mlir\n%r = fusion.concat %x2, %x1 dim = 1 : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x64xf32>\n```\n\n\
Generic form: `dim` is an `i64` property.",
        traits: [PURE],
        operands: { inputs: TENSOR.variadic() },
        results: { result: TENSOR },
        properties: { dim: I64_PROP },
        hooks: { verify: verify_concat, fold: fold_concat, parse: parse_concat, print: print_concat, infer_result_types: infer_concat_types },
    }
}

const SLICE_CLAUSES: &[Clause] = &[
    Clause { name: "offsets", kind: ClauseKind::Ints, optional: false },
    Clause { name: "sizes", kind: ClauseKind::Ints, optional: false },
    Clause { name: "strides", kind: ClauseKind::Ints, optional: true },
];

const CONCAT_CLAUSES: &[Clause] = &[Clause { name: "dim", kind: ClauseKind::Int, optional: false }];

fn parse_slice(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_clause_op(p, state, SLICE_CLAUSES)
}
fn print_slice(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_clause_op(p, op, SLICE_CLAUSES)
}
fn parse_concat(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_clause_op(p, state, CONCAT_CLAUSES)
}
fn print_concat(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_clause_op(p, op, CONCAT_CLAUSES)
}

// ----- inference ----------------------------------------------------------------------------

/// The strides of a slice: the given ones, or 1 per axis.
pub fn slice_strides(strides: Option<&[i64]>, rank: usize) -> Vec<i64> {
    strides.map_or_else(|| vec![1; rank], <[i64]>::to_vec)
}

/// The unsharded result type of `slice(x, offsets, sizes, strides)` (`strides = None`: 1).
pub fn infer_slice(
    ctx: &Context,
    x: Type,
    offsets: &[i64],
    sizes: &[i64],
    strides: Option<&[i64]>,
) -> Result<Type, String> {
    let (shape, elem) = expect_tensor(ctx, "operand", x)?;
    let rank = shape.len();
    let strides = slice_strides(strides, rank);
    for (what, v) in [("offsets", offsets), ("sizes", sizes), ("strides", &strides[..])] {
        if v.len() != rank {
            return Err(format!("'{what}' has {} entries, but the operand has rank {rank}", v.len()));
        }
    }
    for a in 0..rank {
        let (o, n, s, e) = (offsets[a], sizes[a], strides[a], shape[a]);
        if o < 0 || n < 0 {
            return Err(format!("axis {a}: offset {o} and size {n} must be non-negative"));
        }
        if s <= 0 {
            return Err(format!("axis {a}: stride {s} must be positive"));
        }
        if e == DYNAMIC {
            continue;
        }
        let fits =
            if n == 0 { o <= e } else { (n - 1).checked_mul(s).and_then(|x| x.checked_add(o)).is_some_and(|l| l < e) };
        if !fits {
            return Err(format!("axis {a}: the window (offset {o}, size {n}, stride {s}) does not fit extent {e}"));
        }
    }
    Ok(plain_tensor(ctx, sizes.to_vec(), elem))
}

/// Whether axis `a` of a slice reads a proper window (not the whole axis in order).
pub fn slice_cuts_axis(extent: i64, offset: i64, size: i64, stride: i64) -> bool {
    !(offset == 0 && stride == 1 && size == extent)
}

/// The unsharded result type of `concat(xs, dim)`.
pub fn infer_concat(ctx: &Context, xs: &[Type], dim: i64) -> Result<Type, String> {
    let Some((&first, rest)) = xs.split_first() else { return Err("expects at least one operand".into()) };
    let (mut shape, elem) = expect_tensor(ctx, "operand #0", first)?;
    let rank = shape.len();
    if dim < 0 || dim >= rank as i64 {
        return Err(format!("dim {dim} is out of range for rank {rank}"));
    }
    let d = dim as usize;
    for (i, &t) in rest.iter().enumerate() {
        let i = i + 1;
        let (s, e) = expect_tensor(ctx, &format!("operand #{i}"), t)?;
        if e != elem {
            return Err(format!(
                "operand #{i} has element type '{}', but operand #0 has '{}'",
                type_str(ctx, e),
                type_str(ctx, elem)
            ));
        }
        if s.len() != rank {
            return Err(format!("operand #{i} has rank {}, but operand #0 has rank {rank}", s.len()));
        }
        for a in (0..rank).filter(|&a| a != d) {
            if !extents_compatible(shape[a], s[a]) {
                return Err(format!(
                    "operand #{i} has shape {}, which differs from {} outside dim {dim} (axis {a})",
                    shape_text(&s),
                    shape_text(&shape)
                ));
            }
            shape[a] = merge_extent(shape[a], s[a]);
        }
        shape[d] = if shape[d] == DYNAMIC || s[d] == DYNAMIC { DYNAMIC } else { shape[d] + s[d] };
    }
    Ok(plain_tensor(ctx, shape, elem))
}

/// `InferTypeOpInterface` of `fusion.slice` (the properties `offsets`, `sizes`, `strides`).
fn infer_slice_types(ctx: &Context, types: &[Type], props: Option<Attr>) -> Result<Vec<Type>, String> {
    let get = |key: &str| props.and_then(|p| ctx.dict_get(p, key)).and_then(|a| i64_array(ctx, a));
    let (Some(offsets), Some(sizes)) = (get("offsets"), get("sizes")) else {
        return Err("requires 'offsets' and 'sizes' arrays".into());
    };
    match types {
        [x] => Ok(vec![infer_slice(ctx, *x, &offsets, &sizes, get("strides").as_deref())?]),
        _ => Err(format!("expects one operand, got {}", types.len())),
    }
}

/// `InferTypeOpInterface` of `fusion.concat` (the property `dim`).
fn infer_concat_types(ctx: &Context, types: &[Type], props: Option<Attr>) -> Result<Vec<Type>, String> {
    let dim =
        props.and_then(|p| ctx.dict_get(p, "dim")).and_then(|a| ctx.attr_i64(a)).ok_or("requires an integer 'dim'")?;
    Ok(vec![infer_concat(ctx, types, dim)?])
}

// ----- folders ------------------------------------------------------------------------------

/// A slice of every axis whole (offsets 0, full sizes, strides 1) to the operand's very type
/// is the operand (`tensor.extract_slice`'s identity fold). A slice that changes the encoding
/// is a resharding and stays.
fn fold_slice(ctx: &Context, ir: &Ir, op: OpId, _: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let (&x, &r) = (ir.operands(op).first()?, ir.results(op).first()?);
    if ir.value_type(x) != ir.value_type(r) {
        return None;
    }
    let shape = ctx.type_kind(ir.value_type(x)).shape()?.to_vec();
    let (offsets, sizes) = (prop_ints(ctx, ir, op, "offsets")?, prop_ints(ctx, ir, op, "sizes")?);
    let strides = slice_strides(prop_ints(ctx, ir, op, "strides").as_deref(), shape.len());
    let whole = shape.len() == offsets.len()
        && shape.len() == sizes.len()
        && (0..shape.len())
            .all(|a| shape[a] != DYNAMIC && !slice_cuts_axis(shape[a], offsets[a], sizes[a], strides[a]));
    whole.then(|| vec![FoldResult::Value(x)])
}

/// A concat of one operand to its very type is the operand (`tensor.concat`'s fold).
fn fold_concat(_: &Context, ir: &Ir, op: OpId, _: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let (&[x], Some(&r)) = (&ir.operands(op)[..], ir.results(op).first()) else { return None };
    (ir.value_type(x) == ir.value_type(r)).then(|| vec![FoldResult::Value(x)])
}

// ----- verifiers ----------------------------------------------------------------------------

fn verify_slice(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let offsets = prop_ints(v.ctx, v.ir, op, "offsets").ok_or("requires an 'offsets' array")?;
        let sizes = prop_ints(v.ctx, v.ir, op, "sizes").ok_or("requires a 'sizes' array")?;
        let strides = prop_ints(v.ctx, v.ir, op, "strides");
        match operand_types(v, op)[..] {
            [x] => infer_slice(v.ctx, x, &offsets, &sizes, strides.as_deref()),
            _ => Err("expects one operand".into()),
        }
    })
}

fn verify_concat(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let dim = prop_int(v.ctx, v.ir, op, "dim").ok_or("requires an integer 'dim'")?;
        infer_concat(v.ctx, &operand_types(v, op), dim)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::parser::parse_type_str;
    use fuser_ir::printer::print_type;

    fn ctx() -> Context {
        Context::new(crate::registry())
    }

    #[test]
    fn slice_shapes_and_bounds() {
        let c = ctx();
        let x = parse_type_str(&c, "tensor<8x48xf32>").unwrap();
        let t = infer_slice(&c, x, &[0, 16], &[8, 16], None).unwrap();
        assert_eq!(print_type(&c, t), "tensor<8x16xf32>");
        let t = infer_slice(&c, x, &[0, 1], &[4, 24], Some(&[2, 2])).unwrap();
        assert_eq!(print_type(&c, t), "tensor<4x24xf32>");
        assert!(infer_slice(&c, x, &[0, 1], &[4, 24], Some(&[2, 3])).unwrap_err().contains("does not fit extent 48"));
        assert!(infer_slice(&c, x, &[0, 40], &[8, 16], None).unwrap_err().contains("axis 1"));
        assert!(infer_slice(&c, x, &[0, 48], &[8, 0], None).is_ok());
        assert!(infer_slice(&c, x, &[0, 49], &[8, 0], None).is_err());
        assert!(infer_slice(&c, x, &[0], &[8], None).unwrap_err().contains("rank 2"));
        assert!(infer_slice(&c, x, &[0, 0], &[8, 8], Some(&[1, 0])).unwrap_err().contains("positive"));
        assert!(infer_slice(&c, x, &[-1, 0], &[8, 8], None).unwrap_err().contains("non-negative"));
        assert!(infer_slice(&c, x, &[0, i64::MAX], &[8, 2], Some(&[1, i64::MAX])).is_err());
        assert!(slice_cuts_axis(48, 0, 16, 1));
        assert!(!slice_cuts_axis(8, 0, 8, 1));
    }

    #[test]
    fn concat_shapes() {
        let c = ctx();
        let a = parse_type_str(&c, "tensor<4x8xf32>").unwrap();
        let b = parse_type_str(&c, "tensor<4x3xf32>").unwrap();
        let d = parse_type_str(&c, "tensor<4x?xf32>").unwrap();
        assert_eq!(print_type(&c, infer_concat(&c, &[a, b], 1).unwrap()), "tensor<4x11xf32>");
        assert_eq!(print_type(&c, infer_concat(&c, &[a], 0).unwrap()), "tensor<4x8xf32>");
        assert_eq!(print_type(&c, infer_concat(&c, &[a, d], 1).unwrap()), "tensor<4x?xf32>");
        assert!(infer_concat(&c, &[a, b], 0).unwrap_err().contains("outside dim 0"));
        assert!(infer_concat(&c, &[a, b], 2).unwrap_err().contains("out of range"));
        assert!(infer_concat(&c, &[], 0).unwrap_err().contains("at least one"));
        let i = parse_type_str(&c, "tensor<4x8xi32>").unwrap();
        assert!(infer_concat(&c, &[a, i], 1).unwrap_err().contains("element type"));
    }

    #[test]
    fn result_types_from_properties() {
        let c = ctx();
        let x = parse_type_str(&c, "tensor<8x48xf32>").unwrap();
        let ints = |v: &[i64]| super::super::syntax::i64_array_attr(&c, v);
        let props = crate::support::dict_of(
            &c,
            &[("offsets", ints(&[0, 1])), ("sizes", ints(&[8, 24])), ("strides", ints(&[1, 2]))],
        );
        let infer = SLICE.infer_result_types.unwrap();
        assert_eq!(print_type(&c, infer(&c, &[x], Some(props)).unwrap()[0]), "tensor<8x24xf32>");
        assert!(infer(&c, &[x], None).unwrap_err().contains("offsets"));
        let dim = crate::support::dict_of(&c, &[("dim", c.int_attr(c.i64_type(), 0))]);
        let infer = CONCAT.infer_result_types.unwrap();
        assert_eq!(print_type(&c, infer(&c, &[x, x], Some(dim)).unwrap()[0]), "tensor<16x48xf32>");
        assert!(infer(&c, &[x], None).unwrap_err().contains("dim"));
    }
}
