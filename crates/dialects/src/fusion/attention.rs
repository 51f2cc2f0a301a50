//! `fusion.sdpa`: scaled dot-product attention as one op (torch's
//! `scaled_dot_product_attention` with grouped-query attention), with its result-type inference
//! and its custom syntax.
//!
//! Shape rules: `q [B, H, S, D]`, `k [B, Hkv, Skv, D]`, `v [B, Hkv, Skv, Dv]`, one float element
//! type, `H` a multiple of `Hkv`; results `out [B, H, S, Dv]` (q's element type) and, optionally,
//! `lse [B, H, S]` (`f32`). Properties: `causal` (unit) and `scale` (`f64`, default `1/sqrt(D)`).
//!
//! Syntax: `%o, %l = fusion.sdpa %q, %k, %v [causal] [scale = 0.125] attr-dict : (tq, tk, tv)
//! -> (to, tl)` (or `-> to` with one result).

use super::verify::{
    TENSOR, expect_tensor, extent_text, extents_compatible, merge_extent, operand_types, plain_tensor, shape_text,
    shapes_compatible, verify_shardings,
};
use crate::support::{inherent_attr, printed_attr_dict, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::AttrKind;
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::{DYNAMIC, FloatKind, Type, TypeKind};

/// `causal`: a unit attribute.
const UNIT: AttrConstraint =
    AttrConstraint::new("unit attribute", |ctx, a| *ctx.attr_kind(a) == AttrKind::Unit).optional();
/// `scale`: a 64-bit float attribute.
const F64_ATTR: AttrConstraint =
    AttrConstraint::new("64-bit float attribute", |ctx, a| f64_value(ctx, a).is_some()).optional();

fuser_ir::declare_op! {
    pub static SDPA: "fusion.sdpa" {
        summary: "Scaled dot-product attention (grouped-query, optionally causal)",
        description: "Attention of queries `q [B, H, S, D]` over keys `k [B, Hkv, Skv, D]` and \
values `v [B, Hkv, Skv, Dv]`, as torch's `scaled_dot_product_attention(q, k, v, \
is_causal=causal, scale=scale, enable_gqa=True)`:\n\n\
```\nout[b, h, i, :] = sum_j softmax_j(scale * q[b, h, i, :] . k[b, g, j, :]) * v[b, g, j, :]\n\
lse[b, h, i]    = log(sum_j exp(scale * q[b, h, i, :] . k[b, g, j, :]))      (natural log)\n```\n\n\
with `g = h / (H / Hkv)` (grouped-query attention: each group of `H / Hkv` consecutive query \
heads shares one key/value head; `H` must be a multiple of `Hkv`, `Hkv = H` is multi-head \
attention). The operands have one float element type (`bf16`, `f16`, `f32`, `f64`); `out` has \
that type and shape `[B, H, S, Dv]`; the optional second result `lse [B, H, S]` is `f32` (as \
flash-attention returns it), the log-sum-exp of the scaled scores of each query row.\n\n\
- `causal` (unit): query `i` attends only keys `j <= i`: torch's `is_causal`, whose mask is \
aligned to the top-left corner (`torch.ones(S, Skv).tril(diagonal=0)`), also when `S != Skv`. \
With a query sequence split over devices or streams, `i` is the global query index.\n\
- `scale` (`f64`): the factor of the scores; absent, `1/sqrt(D)`.\n\n\
Numerics: scores, the softmax and the weighted sum are computed with a running maximum (a \
stable softmax: large scores do not overflow) and accumulate in `f32` or more (the check in \
`f64`); `out` is rounded once to the element type. A row with no key to attend (only when \
`Skv = 0`) gives `out = 0` and `lse = -inf` (torch gives NaN there). NaN in a score propagates \
to its row. Sharding: `B` and `H` may be split over devices (heads split over `DIDx` is the \
attention-parallel layout; `k` and `v` then have their `Hkv` heads split the same way, so \
`Hkv` must be divisible by the split), `S` over devices or streams; `D` and `Skv` are read \
across and never split (the lowering gathers them).\n\n\
```mlir\n%o, %lse = fusion.sdpa %q, %k, %v causal scale = 1.250000e-01\n    \
: (tensor<2x8x16x64xbf16>, tensor<2x2x16x64xbf16>, tensor<2x2x16x64xbf16>)\n    \
-> (tensor<2x8x16x64xbf16>, tensor<2x8x16xf32>)\n\
%a = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) \
-> tensor<1x4x8x16xf32>\n```\n\n\
Generic form: `causal` is a unit property, `scale` an `f64` property.",
        traits: [PURE],
        operands: { query: TENSOR, key: TENSOR, value: TENSOR },
        results: { out: TENSOR, lse: TENSOR.optional() },
        properties: { causal: UNIT, scale: F64_ATTR },
        hooks: {
            verify: verify_sdpa,
            parse: parse_sdpa_like,
            print: print_sdpa_like,
            infer_result_types: infer_sdpa_types,
        },
    }
}

/// The value of an `f64` float attribute.
fn f64_value(ctx: &Context, a: fuser_ir::Attr) -> Option<f64> {
    match ctx.attr_kind(a) {
        AttrKind::Float { bits, ty } if matches!(ctx.type_kind(*ty), TypeKind::Float(FloatKind::F64)) => {
            Some(f64::from_bits(*bits as u64))
        }
        _ => None,
    }
}

/// The `f64` attribute holding `v`.
pub fn f64_attr(ctx: &Context, v: f64) -> fuser_ir::Attr {
    ctx.intern_attr(AttrKind::Float { bits: u128::from(v.to_bits()), ty: ctx.float_type(FloatKind::F64) })
}

/// Whether the `causal` property of a `fusion.sdpa` is set.
pub fn sdpa_causal(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    inherent_attr(ctx, ir, op, "causal").is_some()
}

/// The `scale` property of a `fusion.sdpa` as written (`None`: absent or not an `f64`).
pub fn sdpa_scale(ctx: &Context, ir: &Ir, op: OpId) -> Option<f64> {
    f64_value(ctx, inherent_attr(ctx, ir, op, "scale")?)
}

fn is_attention_float(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(FloatKind::BF16 | FloatKind::F16 | FloatKind::F32 | FloatKind::F64))
}

/// Merges two extents of one named axis, or says that they differ.
fn same_extent(what: &str, a: (&str, &[i64], usize), b: (&str, &[i64], usize)) -> Result<i64, String> {
    let (x, y) = (a.1[a.2], b.1[b.2]);
    if extents_compatible(x, y) {
        return Ok(merge_extent(x, y));
    }
    Err(format!(
        "{what} differs: {} {} has {}, {} {} has {}",
        a.0,
        shape_text(a.1),
        extent_text(x),
        b.0,
        shape_text(b.1),
        extent_text(y)
    ))
}

/// The unsharded result types `(out, lse)` of `sdpa(q, k, v)`, or why the operands do not fit.
pub fn infer_sdpa(ctx: &Context, q: Type, k: Type, v: Type) -> Result<(Type, Type), String> {
    let (sq, eq) = expect_tensor(ctx, "query", q)?;
    let (sk, ek) = expect_tensor(ctx, "key", k)?;
    let (sv, ev) = expect_tensor(ctx, "value", v)?;
    for (what, s) in [("query", &sq), ("key", &sk), ("value", &sv)] {
        if s.len() != 4 {
            let layout = match what {
                "query" => "[B, H, S, D]",
                "key" => "[B, Hkv, Skv, D]",
                _ => "[B, Hkv, Skv, Dv]",
            };
            return Err(format!("{what} must have rank 4 ({layout}), got shape {}", shape_text(s)));
        }
    }
    if !is_attention_float(ctx, eq) {
        return Err(format!("element type must be bf16, f16, f32 or f64, got '{}'", type_str(ctx, eq)));
    }
    for (what, e) in [("key", ek), ("value", ev)] {
        if e != eq {
            return Err(format!(
                "{what} element type '{}' differs from the query's '{}'",
                type_str(ctx, e),
                type_str(ctx, eq)
            ));
        }
    }
    let b = same_extent("batch B", ("query", &sq, 0), ("key", &sk, 0))?;
    let b = merge_extent(b, same_extent("batch B", ("query", &sq, 0), ("value", &sv, 0))?);
    let hkv = same_extent("kv heads Hkv", ("key", &sk, 1), ("value", &sv, 1))?;
    same_extent("key sequence Skv", ("key", &sk, 2), ("value", &sv, 2))?;
    same_extent("head dimension D", ("query", &sq, 3), ("key", &sk, 3))?;
    let h = sq[1];
    if hkv == 0 && h != 0 && h != DYNAMIC {
        return Err(format!("key has 0 heads but query has {h}"));
    }
    if h != DYNAMIC && hkv != DYNAMIC && hkv != 0 && h % hkv != 0 {
        return Err(format!(
            "query heads H = {h} must be a multiple of the key/value heads Hkv = {hkv} (grouped-query attention)"
        ));
    }
    let out = plain_tensor(ctx, vec![b, h, sq[2], sv[3]], eq);
    let lse = plain_tensor(ctx, vec![b, h, sq[2]], ctx.float_type(FloatKind::F32));
    Ok((out, lse))
}

/// The `infer_result_types` hook: `out` alone (`lse` is a result a program asks for by writing
/// it; a generic builder gets the attention output).
fn infer_sdpa_types(ctx: &Context, types: &[Type], props: Option<fuser_ir::Attr>) -> Result<Vec<Type>, String> {
    if let Some(a) = props.and_then(|p| ctx.dict_get(p, "scale")) {
        sdpa_check_scale(f64_value(ctx, a))?;
    }
    match types {
        [q, k, v] => Ok(vec![infer_sdpa(ctx, *q, *k, *v)?.0]),
        _ => Err(format!("expects query, key and value, got {} operands", types.len())),
    }
}

/// A written `scale` must be a finite `f64`.
pub(crate) fn sdpa_check_scale(scale: Option<f64>) -> Result<(), String> {
    match scale {
        Some(s) if s.is_finite() => Ok(()),
        Some(s) => Err(format!("scale must be finite, got {s}")),
        None => Err("scale must be an f64 attribute".into()),
    }
}

fn check_result(ctx: &Context, what: &str, have: Type, want: Type) -> Result<(), String> {
    let (Some((s, e)), Some((ws, we))) =
        (super::verify::tensor_parts(ctx, have), super::verify::tensor_parts(ctx, want))
    else {
        return Ok(());
    };
    if !shapes_compatible(&s, &ws) {
        return Err(format!("{what} shape {} does not match inferred {}", shape_text(&s), shape_text(&ws)));
    }
    if e != we {
        return Err(format!(
            "{what} element type '{}' does not match inferred '{}'",
            type_str(ctx, e),
            type_str(ctx, we)
        ));
    }
    Ok(())
}

fn verify_sdpa(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_shardings(v, op)?;
    let ctx = v.ctx;
    let err = |m: String| v.op_error(op, m);
    if let Some(a) = inherent_attr(ctx, v.ir, op, "scale") {
        sdpa_check_scale(f64_value(ctx, a)).map_err(err)?;
    }
    let [q, k, val] = operand_types(v, op)[..] else { return Err(err("expects query, key and value".into())) };
    let (out, lse) = infer_sdpa(ctx, q, k, val).map_err(err)?;
    let results: Vec<Type> = v.ir.results(op).iter().map(|&r| v.ir.value_type(r)).collect();
    if let Some(&r) = results.first() {
        check_result(ctx, "result #0 (out)", r, out).map_err(err)?;
    }
    if let Some(&r) = results.get(1) {
        check_result(ctx, "result #1 (lse)", r, lse).map_err(err)?;
    }
    Ok(())
}

/// The custom form of `fusion.sdpa` and `fusion.sdpa_grad`: operands, `[causal] [scale = S]`,
/// then the shared tail.
pub(crate) fn parse_sdpa_like(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let operands = p.parse_operand_list()?;
    let mut props = Vec::new();
    if p.parse_optional_keyword("causal") {
        props.push((p.ctx().ident("causal"), p.ctx().unit_attr()));
    }
    if p.parse_optional_keyword("scale") {
        p.parse_punct(Punct::Equal)?;
        let at = p.current_offset();
        let f64t = p.ctx().float_type(FloatKind::F64);
        let a = p.parse_attribute(Some(f64t))?;
        if f64_value(p.ctx(), a).is_none() {
            return Err(p.emit_error_at(at, "expected a float for 'scale'"));
        }
        props.push((p.ctx().ident("scale"), a));
    }
    super::syntax::parse_tail(p, state, &operands, props)
}

/// Prints what [`parse_sdpa_like`] reads (one result bare, several in parentheses).
pub(crate) fn print_sdpa_like(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, types, results, causal, scale, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let operands = ir.operands(op).to_vec();
        let types: Vec<Type> = operands.iter().map(|&v| ir.value_type(v)).collect();
        let results: Vec<Type> = ir.results(op).iter().map(|&r| ir.value_type(r)).collect();
        let scale = inherent_attr(ctx, ir, op, "scale").filter(|&a| f64_value(ctx, a).is_some());
        (operands, types, results, sdpa_causal(ctx, ir, op), scale, printed_attr_dict(ctx, ir, op))
    };
    p.write(" ");
    p.print_operands(&operands);
    let mut elided = vec!["causal"];
    if causal {
        p.write(" causal");
    }
    if let Some(s) = scale {
        p.write(" scale = ");
        p.print_attribute_without_type(s);
        elided.push("scale");
    }
    p.print_optional_attr_dict(dict, &elided);
    p.write(" : (");
    for (i, &t) in types.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
    }
    p.write(") -> ");
    if results.len() == 1 {
        p.print_type(results[0]);
    } else {
        p.write("(");
        for (i, &t) in results.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.print_type(t);
        }
        p.write(")");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ctx: &Context, shape: &[i64], elem: Type) -> Type {
        ctx.tensor_type(shape.to_vec(), elem, None)
    }

    #[test]
    fn inference_and_the_generic_hook() {
        let ctx = Context::new(crate::registry());
        let (bf, f32t) = (ctx.float_type(FloatKind::BF16), ctx.float_type(FloatKind::F32));
        let (q, k, v) = (t(&ctx, &[2, 8, 5, 16], bf), t(&ctx, &[2, 2, 7, 16], bf), t(&ctx, &[2, 2, 7, 4], bf));
        let (out, lse) = infer_sdpa(&ctx, q, k, v).unwrap();
        assert_eq!((out, lse), (t(&ctx, &[2, 8, 5, 4], bf), t(&ctx, &[2, 8, 5], f32t)));
        // The hook gives `out` alone and checks a written scale.
        assert_eq!(infer_sdpa_types(&ctx, &[q, k, v], None).unwrap(), vec![out]);
        let props = |s: f64| Some(ctx.dictionary(vec![(ctx.ident("scale"), f64_attr(&ctx, s))]));
        assert_eq!(infer_sdpa_types(&ctx, &[q, k, v], props(0.25)).unwrap(), vec![out]);
        assert!(infer_sdpa_types(&ctx, &[q, k, v], props(f64::NAN)).unwrap_err().contains("finite"));
        assert!(infer_sdpa_types(&ctx, &[q, k], None).unwrap_err().contains("got 2 operands"));
        // 8 query heads over 3 key/value heads do not group.
        let k3 = t(&ctx, &[2, 3, 7, 16], bf);
        let v3 = t(&ctx, &[2, 3, 7, 4], bf);
        assert!(infer_sdpa(&ctx, q, k3, v3).unwrap_err().contains("multiple of the key/value heads"));
        // Dynamic extents are compatible with anything and the known one wins.
        let kd = t(&ctx, &[DYNAMIC, 2, DYNAMIC, 16], bf);
        assert_eq!(infer_sdpa(&ctx, q, kd, v).unwrap().0, out);
    }
}
