//! `host.reduce`: the reductions other than the sum (`host.sum`), in destination-passing style.
//!
//! Syntax: `host.reduce KIND %a into %c dims = [1] (count = N | correction = C)? : Ta, Tc` with
//! `KIND` one of `max`, `min`, `mean`, `var`. `mean` divides the sum by `count`, which the
//! lowering sets to the number of elements the *global* reduction sums (on a device-split axis
//! each rank then holds a partial sum of the mean); `var` divides the squared deviations from
//! the mean by `max(0, N - correction)`, `N` the local count (its axes are never split).

use super::common::{
    BUFFER_LIKE, I64_ARRAY_ATTR, STRING_ATTR, buffer_of, finish_attrs, fmt_dims, i64_array_attr, i64_attr,
    int_list_text, operand_types, parse_attr_dict, parse_int_list, parse_keyword_int, parse_n_types, print_attr_dict,
    print_types, prop, prop_i64, prop_i64_array, shapes_compatible,
};
use super::compute::sum_result_shape;
use crate::support::{dict_of, empty_state, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::TypeKind;

/// An optional `i64` property.
const OPT_I64: AttrConstraint =
    AttrConstraint::new("64-bit signless integer attribute", |ctx, a| ctx.attr_i64(a).is_some()).optional();

fuser_ir::declare_op! {
    pub static REDUCE: "host.reduce" {
        summary: "Maximum, minimum, mean or variance over dimensions into a given buffer",
        description: "Reduces `input` over `dims` (strictly increasing, in range) and writes \
`output`, whose shape is the input's with those dimensions dropped; element types agree. `kind` \
is `max` or `min` (NaN propagates; integers exact), `mean` (floats: the sum, accumulated in \
`f64`, divided by the property `count`, the element count of the global reduction), or `var` \
(floats: two-pass in `f64`, the squared deviations from the mean divided by `max(0, N - \
correction)`, `N` the elements reduced). Results are rounded once to the element type.\n\n\
```mlir\nhost.reduce max %a into %c dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf32>\n\
host.reduce mean %a into %c dims = [1] count = 16 : !host.buf<4x8xf32>, !host.buf<4xf32>\n\
host.reduce var %a into %c dims = [1] correction = 1 : !host.buf<4x8xf32>, !host.buf<4xf32>\n```",
        operands: { input: BUFFER_LIKE, output: BUFFER_LIKE },
        properties: { kind: STRING_ATTR, dims: I64_ARRAY_ATTR, count: OPT_I64, correction: OPT_I64 },
        hooks: { verify: verify_reduce, parse: parse_reduce, print: print_reduce },
    }
}

/// What `host.reduce` computes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ReduceKind {
    Max,
    Min,
    /// The sum divided by `count`.
    Mean {
        count: i64,
    },
    /// `sum((x - mean)²) / max(0, N - correction)`.
    Var {
        correction: i64,
    },
}

impl ReduceKind {
    /// The keyword in the text form.
    pub fn keyword(self) -> &'static str {
        match self {
            ReduceKind::Max => "max",
            ReduceKind::Min => "min",
            ReduceKind::Mean { .. } => "mean",
            ReduceKind::Var { .. } => "var",
        }
    }

    /// The kind of a `host.reduce` op, from its properties.
    pub fn of_op(ctx: &Context, ir: &Ir, op: OpId) -> Result<ReduceKind, String> {
        let kind = prop(ctx, ir, op, "kind").and_then(|a| ctx.attr_str(a).map(str::to_string));
        match kind.as_deref() {
            Some("max") => Ok(ReduceKind::Max),
            Some("min") => Ok(ReduceKind::Min),
            Some("mean") => match prop_i64(ctx, ir, op, "count") {
                Some(count) if count >= 0 => Ok(ReduceKind::Mean { count }),
                Some(count) => Err(format!("mean needs a count >= 0, got {count}")),
                None => Err("mean needs the property 'count'".into()),
            },
            Some("var") => prop_i64(ctx, ir, op, "correction")
                .map(|correction| ReduceKind::Var { correction })
                .ok_or_else(|| "var needs the property 'correction'".into()),
            Some(k) => Err(format!("unknown reduction kind '{k}' (expected max, min, mean or var)")),
            None => Err("requires a string 'kind'".into()),
        }
    }
}

fn verify_reduce(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let kind = ReduceKind::of_op(v.ctx, v.ir, op).map_err(|m| v.op_error(op, m))?;
    let buffers: Option<Vec<_>> = v.ir.operands(op).iter().map(|&x| buffer_of(v.ctx, v.ir, x)).collect();
    let Some(t) = buffers else { return Ok(()) };
    let dims = prop_i64_array(v.ctx, v.ir, op, "dims").unwrap_or_default();
    let expected = sum_result_shape(&t[0].shape, &dims).map_err(|m| v.op_error(op, m))?;
    if t[0].elem != t[1].elem {
        let msg = format!(
            "input and output element types differ: '{}' vs '{}'",
            type_str(v.ctx, t[0].elem),
            type_str(v.ctx, t[1].elem)
        );
        return Err(v.op_error(op, msg));
    }
    if matches!(kind, ReduceKind::Mean { .. } | ReduceKind::Var { .. })
        && !matches!(v.ctx.type_kind(t[0].elem), TypeKind::Float(_))
    {
        let msg = format!("{} needs float buffers, got '{}'", kind.keyword(), type_str(v.ctx, t[0].elem));
        return Err(v.op_error(op, msg));
    }
    if !shapes_compatible(&t[1].shape, &expected) {
        let msg = format!("output shape {} does not match the expected {}", fmt_dims(&t[1].shape), fmt_dims(&expected));
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

fn parse_reduce(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let kind_at = p.current_offset();
    let Some(kind) = p.parse_optional_bare_id() else {
        return Err(p.emit_error("expected a reduction kind"));
    };
    if !matches!(kind.as_str(), "max" | "min" | "mean" | "var") {
        let msg = format!("unknown reduction kind '{kind}' (expected max, min, mean or var)");
        return Err(p.emit_error_at(kind_at, &msg));
    }
    let input = p.parse_operand()?;
    p.parse_keyword("into")?;
    let output = p.parse_operand()?;
    p.parse_keyword("dims")?;
    p.parse_punct(Punct::Equal)?;
    let dims = parse_int_list(p)?;
    let extra = match kind.as_str() {
        "mean" => Some(("count", parse_keyword_int(p, "count")?)),
        "var" => Some(("correction", parse_keyword_int(p, "correction")?)),
        _ => None,
    };
    let ctx = p.ctx();
    let mut own = vec![("kind", ctx.string_attr(&kind)), ("dims", i64_array_attr(ctx, &dims))];
    own.extend(extra.map(|(k, v)| (k, i64_attr(ctx, v))));
    let dict = parse_attr_dict(p, state)?;
    p.parse_punct(Punct::Colon)?;
    let types = parse_n_types(p, 2)?;
    state.operands.push(p.resolve_operand(&input, types[0])?);
    state.operands.push(p.resolve_operand(&output, types[1])?);
    finish_attrs(p.ctx(), state, own, dict);
    Ok(())
}

fn print_reduce(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let kind = prop(ctx, ir, op, "kind").and_then(|a| ctx.attr_str(a).map(str::to_string)).unwrap_or_default();
    let dims = prop_i64_array(ctx, ir, op, "dims").unwrap_or_default();
    let count = prop_i64(ctx, ir, op, "count");
    let correction = prop_i64(ctx, ir, op, "correction");
    let operands = ir.operands(op).to_vec();
    let types = operand_types(ir, op);
    p.write(" ");
    p.write(&kind);
    p.write(" ");
    p.print_operand(operands[0]);
    p.write(" into ");
    p.print_operand(operands[1]);
    p.write(" dims = ");
    p.write(&int_list_text(&dims));
    let mut elided = vec!["kind", "dims"];
    match (kind.as_str(), count, correction) {
        ("mean", Some(c), _) => {
            p.write(&format!(" count = {c}"));
            elided.push("count");
        }
        ("var", _, Some(c)) => {
            p.write(&format!(" correction = {c}"));
            elided.push("correction");
        }
        _ => {}
    }
    print_attr_dict(p, op, &elided);
    p.write(" : ");
    print_types(p, &types);
}

/// The state of `host.reduce KIND input into output dims = [...]`.
pub fn reduce_state(
    ctx: &Context,
    kind: ReduceKind,
    input: Value,
    output: Value,
    dims: &[i64],
    loc: Attr,
) -> OperationState {
    let mut state = empty_state(ctx, REDUCE.name, loc);
    state.operands = vec![input, output];
    let mut props = vec![("kind", ctx.string_attr(kind.keyword())), ("dims", i64_array_attr(ctx, dims))];
    match kind {
        ReduceKind::Mean { count } => props.push(("count", i64_attr(ctx, count))),
        ReduceKind::Var { correction } => props.push(("correction", i64_attr(ctx, correction))),
        ReduceKind::Max | ReduceKind::Min => {}
    }
    state.props = Some(dict_of(ctx, &props));
    state
}
