//! `fusion.embedding` (a row gather from a table, torch's `embedding`) and `fusion.dropout`
//! (a mask from a counter-based generator, Philox4x32-10), with their result-type inference.
//!
//! Both lower to the generic `host.kernel`: the embedding with the global first row of the
//! table's local piece as its origin (vocab-parallel tables), the dropout with the global
//! coordinates of its result's local piece (the mask is a function of the global element index,
//! so every sharding and chunking draws the same mask as the unsharded program).

use super::clauses::{Clause, ClauseKind, F64_PROP, f64_value, parse_clause_op, print_clause_op, prop_float};
use super::sharding::Sharding;
use super::verify::{TENSOR, expect_tensor, operand_types, plain_tensor, verify_with};
use crate::support::type_str;
use fuser_ir::Attr;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::context::Context;
use fuser_ir::declare::TypeConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{Signedness, Type, TypeKind};

/// A ranked tensor of 32- or 64-bit integers (signless or signed): embedding ids.
pub const ID_TENSOR: TypeConstraint = TypeConstraint::new(
    "ranked tensor of 32- or 64-bit integer values",
    |ctx, t| matches!(ctx.type_kind(t), TypeKind::RankedTensor { elem, .. } if is_id_type(ctx, *elem)),
);

/// A ranked tensor of floats.
pub const FLOAT_TENSOR: TypeConstraint = TypeConstraint::new(
    "ranked tensor of floating-point values",
    |ctx, t| matches!(ctx.type_kind(t), TypeKind::RankedTensor { elem, .. } if matches!(ctx.type_kind(*elem), TypeKind::Float(_))),
);

/// Whether `t` is an id type: a 32- or 64-bit signless or signed integer.
pub fn is_id_type(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { width: 32 | 64, signedness } if *signedness != Signedness::Unsigned)
}

fuser_ir::declare_op! {
    pub static EMBEDDING: "fusion.embedding" {
        summary: "Gathers rows of a table by index",
        description: "`result[i..., e] = table[ids[i...], e]` for a table `[V, E]` and ids of any \
rank (`i32` or `i64`), giving `[ids..., E]` in the table's element type (torch's \
`embedding`). Values are copied exactly.\n\n\
An id outside `[0, V)` (negative ones included) gives a row of zeros. torch raises an error \
instead; a GPU kernel cannot raise cheaply, and zeros are what a vocab-parallel table gives \
anyway (no rank holds the row), so every backend and the check agree on them.\n\n\
Sharding: ids axes map to the leading result axes, the table's `E` axis to the last one. The \
table's vocabulary axis is contracted: a table split over `DIDx` on axis 0 (vocab-parallel) \
holds rows `[origin, origin + V/d)` on each rank, which writes its rows and zeros for the other \
ids, so the result is `partial = [DIDx]` (sum): an allreduce (or a reduce-scatter) completes it.\n\n\
```mlir\n%e = fusion.embedding %table, %ids : (tensor<64x16xf32>, tensor<4x8xi64>) -> tensor<4x8x16xf32>\n\
%p = fusion.embedding %t, %ids : (tensor<64x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xi32>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>\n```",
        traits: [PURE],
        operands: { table: TENSOR, ids: ID_TENSOR },
        results: { result: TENSOR },
        hooks: { verify: verify_embedding, parse: parse_embedding, print: print_embedding, infer_result_types: infer_embedding_types },
    }
}

fuser_ir::declare_op! {
    pub static DROPOUT: "fusion.dropout" {
        summary: "Zeroes elements with probability p and scales the others by 1/(1-p)",
        description: "`y = x * mask / (1 - p)` with `mask = uniform(seed, offset, i) >= p`, where \
`i` is the element's global row-major index in `x` and `uniform` comes from the counter-based \
generator Philox4x32-10 (Salmon et al., SC'11; Random123, as torch's CUDA generator), one call \
serving four consecutive elements: key `(lo32(seed), hi32(seed))`, counter \
`(lo32(c), hi32(c), 0, 0)` with `c = offset + floor(i / 4)` (wrapping 64-bit), and \
`uniform = word (i mod 4) of the output / 2^32`, a value in `[0, 1)`. `seed` and `offset` are \
rank-0 `i64` tensors (replicated, never partial); `p` is an `f64` in `[0, 1)`: `p = 0` is the \
identity. The scale `1 / (1 - p)` is computed in `f64` and the product rounded once to the \
element type (float element types only). NaN and infinities in `x` pass through kept \
elements; a dropped element is written as `+0` whatever `x` holds (a select, not a product: \
torch's `x * mask` gives NaN for a dropped NaN).\n\n\
Because the mask depends only on `(seed, offset, i)` and not on where an element is computed, \
every sharding of `x` (device splits, stream chunks) gives bit-identical masks to the unsharded \
program, and a backward pass recomputes the same mask from the same `seed` and `offset` (there \
is no mask result). A tensor of `n` elements uses the counters `offset .. offset + ceil(n / 4)`: \
advancing `offset` by `ceil(n / 4)` (or more) between calls gives fresh masks. \
Dropout is linear in `x`: a `partial` `x` passes through.\n\n\
```mlir\n%y = fusion.dropout %x, %seed, %offset p = 1.000000e-01 : (tensor<8x16xf32>, tensor<i64>, tensor<i64>) -> tensor<8x16xf32>\n```\n\n\
Generic form: `p` is an `f64` property.",
        traits: [PURE],
        operands: { input: FLOAT_TENSOR, seed: TENSOR, offset: TENSOR },
        results: { result: TENSOR },
        properties: { p: F64_PROP },
        hooks: { verify: verify_dropout, parse: parse_dropout, print: print_dropout, infer_result_types: infer_dropout_types },
    }
}

const DROPOUT_CLAUSES: &[Clause] = &[Clause { name: "p", kind: ClauseKind::Float, optional: false }];

fn parse_embedding(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_clause_op(p, state, &[])
}
fn print_embedding(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_clause_op(p, op, &[])
}
fn parse_dropout(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_clause_op(p, state, DROPOUT_CLAUSES)
}
fn print_dropout(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_clause_op(p, op, DROPOUT_CLAUSES)
}

// ----- inference ----------------------------------------------------------------------------

/// The unsharded result type of `embedding(table, ids)`.
pub fn infer_embedding(ctx: &Context, table: Type, ids: Type) -> Result<Type, String> {
    let (t_shape, elem) = expect_tensor(ctx, "table", table)?;
    let (mut shape, id_elem) = expect_tensor(ctx, "ids", ids)?;
    if t_shape.len() != 2 {
        return Err(format!("the table must have rank 2 ([V, E]), got rank {}", t_shape.len()));
    }
    if !is_id_type(ctx, id_elem) {
        return Err(format!("ids must be i32 or i64, got '{}'", type_str(ctx, id_elem)));
    }
    shape.push(t_shape[1]);
    Ok(plain_tensor(ctx, shape, elem))
}

/// The unsharded result type of `dropout(x, seed, offset, p)`.
pub fn infer_dropout(ctx: &Context, x: Type, seed: Type, offset: Type, p: f64) -> Result<Type, String> {
    let (shape, elem) = expect_tensor(ctx, "input", x)?;
    if !matches!(ctx.type_kind(elem), TypeKind::Float(_)) {
        return Err(format!("the input must have a float element type, got '{}'", type_str(ctx, elem)));
    }
    for (what, t) in [("seed", seed), ("offset", offset)] {
        let (s, e) = expect_tensor(ctx, what, t)?;
        if !s.is_empty() || !matches!(ctx.type_kind(e), TypeKind::Integer { width: 64, .. }) {
            return Err(format!("{what} must be a rank-0 i64 tensor, got '{}'", type_str(ctx, t)));
        }
    }
    if !(0.0..1.0).contains(&p) {
        return Err(format!("p must be in [0, 1), got {p}"));
    }
    Ok(plain_tensor(ctx, shape, elem))
}

/// `InferTypeOpInterface` of `fusion.embedding`.
fn infer_embedding_types(ctx: &Context, types: &[Type], _: Option<Attr>) -> Result<Vec<Type>, String> {
    match types {
        [table, ids] => Ok(vec![infer_embedding(ctx, *table, *ids)?]),
        _ => Err(format!("expects a table and ids, got {} operands", types.len())),
    }
}

/// `InferTypeOpInterface` of `fusion.dropout` (the property `p`).
fn infer_dropout_types(ctx: &Context, types: &[Type], props: Option<Attr>) -> Result<Vec<Type>, String> {
    let p = props.and_then(|d| ctx.dict_get(d, "p")).and_then(|a| f64_value(ctx, a)).ok_or("requires an f64 'p'")?;
    match types {
        [x, seed, offset] => Ok(vec![infer_dropout(ctx, *x, *seed, *offset, p)?]),
        _ => Err(format!("expects input, seed and offset, got {} operands", types.len())),
    }
}

// ----- verifiers ----------------------------------------------------------------------------

fn verify_embedding(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| match operand_types(v, op)[..] {
        [table, ids] => infer_embedding(v.ctx, table, ids),
        _ => Err("expects a table and ids".into()),
    })
}

fn verify_dropout(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let p = prop_float(v.ctx, v.ir, op, "p").ok_or("requires an f64 'p'")?;
        let [x, seed, offset] = operand_types(v, op)[..] else { return Err("expects input, seed and offset".into()) };
        for (what, t) in [("seed", seed), ("offset", offset)] {
            if Sharding::of_type(v.ctx, t).is_some_and(|s| !s.partial.is_empty()) {
                return Err(format!("{what} must be replicated, not partial"));
            }
        }
        infer_dropout(v.ctx, x, seed, offset, p)
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
    fn embedding_shapes() {
        let c = ctx();
        let t = parse_type_str(&c, "tensor<64x16xbf16>").unwrap();
        let ids = parse_type_str(&c, "tensor<4x8xi32>").unwrap();
        assert_eq!(print_type(&c, infer_embedding(&c, t, ids).unwrap()), "tensor<4x8x16xbf16>");
        let scalar = parse_type_str(&c, "tensor<i64>").unwrap();
        assert_eq!(print_type(&c, infer_embedding(&c, t, scalar).unwrap()), "tensor<16xbf16>");
        let bad = parse_type_str(&c, "tensor<4xi16>").unwrap();
        assert!(infer_embedding(&c, t, bad).unwrap_err().contains("i32 or i64"));
        let t3 = parse_type_str(&c, "tensor<2x64x16xf32>").unwrap();
        assert!(infer_embedding(&c, t3, ids).unwrap_err().contains("rank 2"));
    }

    #[test]
    fn dropout_checks() {
        let c = ctx();
        let x = parse_type_str(&c, "tensor<8x16xf32>").unwrap();
        let s = parse_type_str(&c, "tensor<i64>").unwrap();
        assert_eq!(infer_dropout(&c, x, s, s, 0.5).unwrap(), x);
        assert!(infer_dropout(&c, x, s, s, 1.0).unwrap_err().contains("[0, 1)"));
        assert!(infer_dropout(&c, x, s, s, f64::NAN).is_err());
        assert!(infer_dropout(&c, x, s, s, -0.1).is_err());
        let v = parse_type_str(&c, "tensor<1xi64>").unwrap();
        assert!(infer_dropout(&c, x, v, s, 0.5).unwrap_err().contains("seed must be a rank-0 i64"));
        let i = parse_type_str(&c, "tensor<8xi32>").unwrap();
        assert!(infer_dropout(&c, i, s, s, 0.5).unwrap_err().contains("float element type"));
        let p = crate::support::dict_of(&c, &[("p", super::super::clauses::f64_attr(&c, 0.25))]);
        let infer = DROPOUT.infer_result_types.unwrap();
        assert_eq!(infer(&c, &[x, s, s], Some(p)).unwrap(), vec![x]);
        assert!(infer(&c, &[x, s, s], None).unwrap_err().contains("'p'"));
        let t = parse_type_str(&c, "tensor<64x16xf32>").unwrap();
        let ids = parse_type_str(&c, "tensor<3xi64>").unwrap();
        let infer = EMBEDDING.infer_result_types.unwrap();
        assert_eq!(print_type(&c, infer(&c, &[t, ids], None).unwrap()[0]), "tensor<3x16xf32>");
    }
}
