//! The ops a backward pass needs beyond the forward ones (docs/dev/autodiff.md):
//! `fusion.sdpa_grad` (the gradient of `fusion.sdpa` from its output and log-sum-exp),
//! `fusion.embedding_grad` (rows of a cotangent added into a zero table, the gradient of
//! `fusion.embedding`) and `fusion.one_hot` (the label matrix of the cross-entropy's gradient),
//! with their verifiers, result-type inference and custom syntax.
//!
//! All three lower to the generic `host.kernel` with the global origin of their result's local
//! piece: `dq`'s (the causal mask of a split query sequence), a vocab-parallel table
//! gradient's rows, a class axis split over devices.

use super::attention::{infer_sdpa, parse_sdpa_like, print_sdpa_like, sdpa_check_scale};
use super::clauses::{Clause, ClauseKind, I64_PROP, parse_clause_op, print_clause_op, prop_int};
use super::lookup::{FLOAT_TENSOR, ID_TENSOR, is_id_type};
use super::verify::{
    TENSOR, expect_tensor, extent_text, extents_compatible, operand_types, plain_tensor, shape_text, shapes_compatible,
    verify_shardings, verify_with,
};
use crate::support::{inherent_attr, type_str};
use fuser_ir::Attr;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::AttrKind;
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{Type, TypeKind};

/// `causal`: a unit attribute.
const UNIT: AttrConstraint =
    AttrConstraint::new("unit attribute", |ctx, a| *ctx.attr_kind(a) == AttrKind::Unit).optional();
/// `scale`: a 64-bit float attribute.
const F64_ATTR: AttrConstraint =
    AttrConstraint::new("64-bit float attribute", |ctx, a| super::clauses::f64_value(ctx, a).is_some()).optional();

fuser_ir::declare_op! {
    pub static SDPA_GRAD: "fusion.sdpa_grad" {
        summary: "The gradient of scaled dot-product attention (flash-attention's backward)",
        description: "The gradients `(dq, dk, dv)` of `out = fusion.sdpa(q, k, v)` for the \
cotangent `dout` of `out`, from the forward's `out` and `lse` (the scores are recomputed, never \
stored): with `g = h / (H / Hkv)` the key/value head of query head `h`, per `(b, h)`\n\n\
```\nP[i, j]  = exp(scale * q[i] . k[j] - lse[i])          (0 where causal masks j > i)\n\
dv[j]   += sum_i P[i, j] * dout[i]                     (summed over the H/Hkv query heads of g)\n\
dP[i, j] = dout[i] . v[j]\n\
D[i]     = dout[i] . out[i]\n\
dS[i, j] = P[i, j] * (dP[i, j] - D[i])\n\
dq[i]    = scale * sum_j dS[i, j] * k[j]\n\
dk[j]   += scale * sum_i dS[i, j] * q[i]                (summed over the query heads of g)\n```\n\n\
Operands: `q [B, H, S, D]`, `k [B, Hkv, Skv, D]`, `v [B, Hkv, Skv, Dv]` as `fusion.sdpa` takes \
them (one float element type), `out` and `dout` `[B, H, S, Dv]` in that type, `lse [B, H, S]` \
`f32` (the forward's second result). Results: `dq`, `dk`, `dv` with the types of `q`, `k`, \
`v`. `causal` and `scale` must be the forward's (the same top-left causal mask; `scale` \
defaults to `1/sqrt(D)`).\n\n\
Numerics: everything accumulates in `f32` or more (the check in `f64`) and each gradient is \
rounded once to the element type. A query row whose `lse` is `-inf` (no key attended) \
contributes nothing. The cuda kernel (one thread per query row, at most `D = 256`) adds the \
contributions of the query rows to `dk` and `dv` with `f32` (`f64` for `f64`) atomics, into \
the outputs themselves (`f32`, `f64`) or an `f32` scratch buffer rounded once (`bf16`, `f16`): \
the summation order, hence the last bits, may vary between runs.\n\n\
Sharding: `B` and `H` may be split over devices or streams (`k`, `v` and `dk`, `dv` then have \
their `Hkv` heads split the same way, as for `fusion.sdpa`); `dk` and `dv` take `dq`'s splits on \
their two leading axes. The query sequence `S` (of `q`, `out`, `lse`, `dout`, `dq`) may be split \
over devices (context parallelism): each rank computes `dq` of its query rows (the causal mask \
at their global indices) and partial sums of `dk` and `dv` over them, `partial` results that \
an allreduce (or a reduce-scatter onto a head split) completes; a stream split of `S` is \
refused (the chunks would overwrite `dk`, `dv`). `Skv` and the head dimensions are read \
whole (a split there is gathered).\n\n\
```mlir\n%dq, %dk, %dv = fusion.sdpa_grad %q, %k, %v, %o, %lse, %do causal\n    \
: (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, \
tensor<1x4x8xf32>, tensor<1x4x8x16xf32>)\n    \
-> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>)\n```\n\n\
Generic form: `causal` is a unit property, `scale` an `f64` property.",
        traits: [PURE],
        operands: { query: TENSOR, key: TENSOR, value: TENSOR, out: TENSOR, lse: TENSOR, grad_out: TENSOR },
        results: { grad_query: TENSOR, grad_key: TENSOR, grad_value: TENSOR },
        properties: { causal: UNIT, scale: F64_ATTR },
        hooks: {
            verify: verify_sdpa_grad,
            parse: parse_sdpa_like,
            print: print_sdpa_like,
            infer_result_types: infer_sdpa_grad_types,
        },
    }
}

fuser_ir::declare_op! {
    pub static EMBEDDING_GRAD: "fusion.embedding_grad" {
        summary: "Adds rows of a cotangent into a zero table at the ids (the gradient of fusion.embedding)",
        description: "`result[r, e] = sum over i with ids[i...] = r of grad[i..., e]` for ids of \
any rank (`i32` or `i64`) and `grad [ids..., E]` (a float element type), giving the table \
gradient `[num_rows, E]` in `grad`'s element type: torch's `embedding_backward` (a scatter-add \
into zeros). An id outside `[0, num_rows)` (negative ones included) adds nothing, matching \
the zeros the forward gathers for it. `num_rows` (an `i64`, at least 0) is the table's row \
count `V`.\n\n\
Numerics: the sums accumulate in `f64` in the reference and the cpu backend (in id order, \
deterministic) and in `f32` atomics on cuda (`f64` for `f64`), into the output itself (`f32`, \
`f64`) or an `f32` scratch buffer rounded once to the element type (`bf16`, `f16`): the order of the additions, hence the last bits, may vary \
between cuda runs.\n\n\
Sharding: the ids' axes (and the same leading axes of `grad`) are contracted: split over \
devices alike in both, they make the result `partial` (sum; an allreduce or a \
reduce-scatter completes it). `grad`'s last axis maps to the result's. The result's row axis \
may be split over `DIDx` (vocab-parallel, the layout of the forward's table): each rank adds \
only the rows it holds (the kernel gets the global row of its first row), from the whole ids \
and `grad`. Linear in `grad` (a partial `grad` passes through), not in the ids.\n\n\
```mlir\n%dt = fusion.embedding_grad %ids, %g num_rows = 64 : (tensor<4x8xi64>, tensor<4x8x16xf32>) -> tensor<64x16xf32>\n\
%p = fusion.embedding_grad %ids, %g num_rows = 64 : (tensor<8xi32>, tensor<8x16xf32>) -> tensor<64x16xf32, #fusion.shard<@tp, [[DIDx], []]>>\n```\n\n\
Generic form: `num_rows` is an `i64` property.",
        traits: [PURE],
        operands: { ids: ID_TENSOR, grad: FLOAT_TENSOR },
        results: { result: TENSOR },
        properties: { num_rows: I64_PROP },
        hooks: {
            verify: verify_embedding_grad,
            parse: parse_embedding_grad,
            print: print_embedding_grad,
            infer_result_types: infer_embedding_grad_types,
        },
    }
}

fuser_ir::declare_op! {
    pub static ONE_HOT: "fusion.one_hot" {
        summary: "One-hot rows of integer labels, in a float element type",
        description: "`result[i..., c] = 1.0 if labels[i...] == c else 0.0` for labels of any \
rank (`i32` or `i64`) and `c` in `[0, num_classes)`, giving `[labels..., num_classes]` in the \
float element type of the written result type (torch's `one_hot(labels, V).to(dtype)`). A \
label outside `[0, num_classes)` (negative ones included, `ignore_index` = -100 among them) \
gives a row of zeros (torch raises instead). `num_classes` is an `i64`, at least 0. Values are \
exact.\n\n\
Sharding: the labels' axes map to the leading result axes. The class axis may be split over \
devices (the layout of vocab-parallel logits): each rank writes its columns, knowing their \
global index (the kernel gets the global column of its first column). Linear in nothing (the \
labels are integers).\n\n\
```mlir\n%oh = fusion.one_hot %labels num_classes = 32 : (tensor<4x8xi64>) -> tensor<4x8x32xbf16>\n```\n\n\
Generic form: `num_classes` is an `i64` property; the element type comes from the result type \
(there is no result-type inference).",
        traits: [PURE],
        operands: { labels: ID_TENSOR },
        results: { result: FLOAT_TENSOR },
        properties: { num_classes: I64_PROP },
        hooks: { verify: verify_one_hot, parse: parse_one_hot, print: print_one_hot },
    }
}

const EMBEDDING_GRAD_CLAUSES: &[Clause] = &[Clause { name: "num_rows", kind: ClauseKind::Int, optional: false }];
const ONE_HOT_CLAUSES: &[Clause] = &[Clause { name: "num_classes", kind: ClauseKind::Int, optional: false }];

fn parse_embedding_grad(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_clause_op(p, state, EMBEDDING_GRAD_CLAUSES)
}
fn print_embedding_grad(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_clause_op(p, op, EMBEDDING_GRAD_CLAUSES)
}
fn parse_one_hot(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_clause_op(p, state, ONE_HOT_CLAUSES)
}
fn print_one_hot(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_clause_op(p, op, ONE_HOT_CLAUSES)
}

// ----- inference ----------------------------------------------------------------------------

/// Checks that operand `what` of type `have` has the shape and element type of `want`.
fn expect_like(ctx: &Context, what: &str, have: Type, want: Type) -> Result<(), String> {
    let (s, e) = expect_tensor(ctx, what, have)?;
    let (ws, we) = expect_tensor(ctx, what, want)?;
    if !shapes_compatible(&s, &ws) {
        return Err(format!("{what} must have shape {}, got {}", shape_text(&ws), shape_text(&s)));
    }
    if e != we {
        return Err(format!("{what} must have element type '{}', got '{}'", type_str(ctx, we), type_str(ctx, e)));
    }
    Ok(())
}

/// The unsharded result types `(dq, dk, dv)` of `sdpa_grad(q, k, v, out, lse, dout)`.
pub fn infer_sdpa_grad(ctx: &Context, operands: &[Type]) -> Result<[Type; 3], String> {
    let [q, k, v, out, lse, dout] = operands[..] else {
        return Err(format!("expects q, k, v, out, lse and dout, got {} operands", operands.len()));
    };
    let (want_out, want_lse) = infer_sdpa(ctx, q, k, v)?;
    expect_like(ctx, "out", out, want_out)?;
    expect_like(ctx, "lse", lse, want_lse)?;
    expect_like(ctx, "dout", dout, want_out)?;
    let plain = |t: Type| -> Result<Type, String> {
        let (s, e) = expect_tensor(ctx, "operand", t)?;
        Ok(plain_tensor(ctx, s, e))
    };
    Ok([plain(q)?, plain(k)?, plain(v)?])
}

fn infer_sdpa_grad_types(ctx: &Context, types: &[Type], props: Option<Attr>) -> Result<Vec<Type>, String> {
    if let Some(a) = props.and_then(|p| ctx.dict_get(p, "scale")) {
        sdpa_check_scale(super::clauses::f64_value(ctx, a))?;
    }
    Ok(infer_sdpa_grad(ctx, types)?.to_vec())
}

fn verify_sdpa_grad(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_shardings(v, op)?;
    let ctx = v.ctx;
    let err = |m: String| v.op_error(op, m);
    if let Some(a) = inherent_attr(ctx, v.ir, op, "scale") {
        sdpa_check_scale(super::clauses::f64_value(ctx, a)).map_err(err)?;
    }
    let inferred = infer_sdpa_grad(ctx, &operand_types(v, op)).map_err(err)?;
    for (j, (&r, want)) in v.ir.results(op).iter().zip(inferred).enumerate() {
        let what = ["dq", "dk", "dv"][j];
        expect_like(ctx, &format!("result #{j} ({what})"), v.ir.value_type(r), want).map_err(err)?;
    }
    Ok(())
}

/// A row or class count property: present, an `i64`, not negative.
fn count_prop(v: &VerifyCtx<'_>, op: OpId, name: &str) -> Result<i64, String> {
    match prop_int(v.ctx, v.ir, op, name) {
        Some(n) if n >= 0 => Ok(n),
        Some(n) => Err(format!("'{name}' must be at least 0, got {n}")),
        None => Err(format!("requires an i64 '{name}'")),
    }
}

/// The unsharded result type of `embedding_grad(ids, grad)` for a table of `num_rows` rows.
pub fn infer_embedding_grad(ctx: &Context, ids: Type, grad: Type, num_rows: i64) -> Result<Type, String> {
    let (id_shape, id_elem) = expect_tensor(ctx, "ids", ids)?;
    let (g_shape, elem) = expect_tensor(ctx, "grad", grad)?;
    if !is_id_type(ctx, id_elem) {
        return Err(format!("ids must be i32 or i64, got '{}'", type_str(ctx, id_elem)));
    }
    if !matches!(ctx.type_kind(elem), TypeKind::Float(_)) {
        return Err(format!("grad must have a float element type, got '{}'", type_str(ctx, elem)));
    }
    if g_shape.len() != id_shape.len() + 1 {
        return Err(format!(
            "grad must have the ids' shape and one more axis ([ids..., E]), got ids {} and grad {}",
            shape_text(&id_shape),
            shape_text(&g_shape)
        ));
    }
    if let Some(a) = (0..id_shape.len()).find(|&a| !extents_compatible(id_shape[a], g_shape[a])) {
        return Err(format!(
            "axis {a} of grad has {} but the ids have {} (grad must be [ids..., E])",
            extent_text(g_shape[a]),
            extent_text(id_shape[a])
        ));
    }
    if num_rows < 0 {
        return Err(format!("'num_rows' must be at least 0, got {num_rows}"));
    }
    Ok(plain_tensor(ctx, vec![num_rows, g_shape[id_shape.len()]], elem))
}

fn infer_embedding_grad_types(ctx: &Context, types: &[Type], props: Option<Attr>) -> Result<Vec<Type>, String> {
    let rows = props
        .and_then(|d| ctx.dict_get(d, "num_rows"))
        .and_then(|a| ctx.attr_i64(a))
        .ok_or("requires an i64 'num_rows'")?;
    match types {
        [ids, grad] => Ok(vec![infer_embedding_grad(ctx, *ids, *grad, rows)?]),
        _ => Err(format!("expects ids and grad, got {} operands", types.len())),
    }
}

fn verify_embedding_grad(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let rows = count_prop(v, op, "num_rows")?;
        match operand_types(v, op)[..] {
            [ids, grad] => infer_embedding_grad(v.ctx, ids, grad, rows),
            _ => Err("expects ids and grad".into()),
        }
    })
}

/// The shape of `one_hot(labels)` with `num_classes` classes (the element type is the
/// result's own).
pub fn one_hot_shape(ctx: &Context, labels: Type, num_classes: i64) -> Result<Vec<i64>, String> {
    let (mut shape, elem) = expect_tensor(ctx, "labels", labels)?;
    if !is_id_type(ctx, elem) {
        return Err(format!("labels must be i32 or i64, got '{}'", type_str(ctx, elem)));
    }
    if num_classes < 0 {
        return Err(format!("'num_classes' must be at least 0, got {num_classes}"));
    }
    shape.push(num_classes);
    Ok(shape)
}

fn verify_one_hot(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_with(v, op, |v, op| {
        let n = count_prop(v, op, "num_classes")?;
        let [labels] = operand_types(v, op)[..] else { return Err("expects labels".into()) };
        let shape = one_hot_shape(v.ctx, labels, n)?;
        let result = v.ir.results(op).first().map(|&r| v.ir.value_type(r)).ok_or("expects one result")?;
        let (_, elem) = expect_tensor(v.ctx, "result", result)?;
        if !matches!(v.ctx.type_kind(elem), TypeKind::Float(_)) {
            return Err(format!("the result must have a float element type, got '{}'", type_str(v.ctx, elem)));
        }
        Ok(plain_tensor(v.ctx, shape, elem))
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
    fn sdpa_grad_types() {
        let c = ctx();
        let t = |s: &str| parse_type_str(&c, s).unwrap();
        let (q, k, v) = (t("tensor<2x4x5x8xbf16>"), t("tensor<2x2x7x8xbf16>"), t("tensor<2x2x7x6xbf16>"));
        let (o, l) = (t("tensor<2x4x5x6xbf16>"), t("tensor<2x4x5xf32>"));
        assert_eq!(infer_sdpa_grad(&c, &[q, k, v, o, l, o]).unwrap(), [q, k, v]);
        let infer = SDPA_GRAD.infer_result_types.unwrap();
        assert_eq!(infer(&c, &[q, k, v, o, l, o], None).unwrap(), vec![q, k, v]);
        let e = infer_sdpa_grad(&c, &[q, k, v, o, t("tensor<2x4x5xbf16>"), o]).unwrap_err();
        assert!(e.contains("lse must have element type 'f32'"), "{e}");
        let e = infer_sdpa_grad(&c, &[q, k, v, o, l, t("tensor<2x4x5x8xbf16>")]).unwrap_err();
        assert!(e.contains("dout must have shape [2, 4, 5, 6]"), "{e}");
        assert!(infer_sdpa_grad(&c, &[q, k, v]).unwrap_err().contains("got 3 operands"));
        let k3 = t("tensor<2x3x7x8xbf16>");
        let v3 = t("tensor<2x3x7x6xbf16>");
        assert!(infer_sdpa_grad(&c, &[q, k3, v3, o, l, o]).unwrap_err().contains("multiple"));
    }

    #[test]
    fn embedding_grad_types() {
        let c = ctx();
        let t = |s: &str| parse_type_str(&c, s).unwrap();
        let r = infer_embedding_grad(&c, t("tensor<4x8xi64>"), t("tensor<4x8x16xbf16>"), 64).unwrap();
        assert_eq!(print_type(&c, r), "tensor<64x16xbf16>");
        let r = infer_embedding_grad(&c, t("tensor<i32>"), t("tensor<16xf32>"), 3).unwrap();
        assert_eq!(print_type(&c, r), "tensor<3x16xf32>");
        let e = infer_embedding_grad(&c, t("tensor<4x8xi64>"), t("tensor<4x16xf32>"), 64).unwrap_err();
        assert!(e.contains("one more axis"), "{e}");
        let e = infer_embedding_grad(&c, t("tensor<4x8xi64>"), t("tensor<4x7x16xf32>"), 64).unwrap_err();
        assert!(e.contains("axis 1 of grad has 7"), "{e}");
        let e = infer_embedding_grad(&c, t("tensor<4xi16>"), t("tensor<4x16xf32>"), 64).unwrap_err();
        assert!(e.contains("i32 or i64"), "{e}");
        let e = infer_embedding_grad(&c, t("tensor<4xi32>"), t("tensor<4x16xi32>"), 64).unwrap_err();
        assert!(e.contains("float element type"), "{e}");
        assert!(infer_embedding_grad(&c, t("tensor<4xi32>"), t("tensor<4x16xf32>"), -1).is_err());
        let props = crate::support::dict_of(&c, &[("num_rows", c.int_attr(c.i64_type(), 10))]);
        let infer = EMBEDDING_GRAD.infer_result_types.unwrap();
        let r = infer(&c, &[t("tensor<3xi64>"), t("tensor<3x2xf32>")], Some(props)).unwrap();
        assert_eq!(print_type(&c, r[0]), "tensor<10x2xf32>");
        assert!(infer(&c, &[t("tensor<3xi64>"), t("tensor<3x2xf32>")], None).unwrap_err().contains("num_rows"));
    }

    #[test]
    fn one_hot_shapes() {
        let c = ctx();
        let t = |s: &str| parse_type_str(&c, s).unwrap();
        assert_eq!(one_hot_shape(&c, t("tensor<4x8xi64>"), 32).unwrap(), vec![4, 8, 32]);
        assert_eq!(one_hot_shape(&c, t("tensor<i32>"), 5).unwrap(), vec![5]);
        assert!(one_hot_shape(&c, t("tensor<4xf32>"), 5).unwrap_err().contains("i32 or i64"));
        assert!(one_hot_shape(&c, t("tensor<4xi64>"), -2).unwrap_err().contains("at least 0"));
    }
}
