//! An outside dialect and pass, written only against `fuser::extend`: the `trace` dialect of
//! a (pretend) model tracer, whose `trace.tag` op names a tensor after the model code that
//! produced it, and the pass `trace-strip-tags`, which removes the tags before fuser lowers
//! the program, reporting each removed tag as a remark.
//!
//! `trace.tag` has no custom syntax; it is written in the generic form:
//! `%t = "trace.tag"(%y) <{name = "mlp.out"}> : (tensor<...>) -> tensor<...>`.

use fuser::extend::{
    AttrConstraint, Context, Diagnostic, DialectDef, Ir, OpId, Pass, PassInfo, PassOutcome, TypeConstraint, TypeKind,
    WalkOrder, declare_op,
};

/// Any ranked tensor.
const RANKED_TENSOR: TypeConstraint =
    TypeConstraint::new("ranked tensor", |ctx, t| matches!(ctx.type_kind(t), TypeKind::RankedTensor { .. }));
/// A string attribute.
const STRING: AttrConstraint = AttrConstraint::new("string attribute", |ctx, a| ctx.attr_str(a).is_some());

declare_op! {
    /// `trace.tag`: names a tensor; returns it unchanged.
    pub static TAG: "trace.tag" {
        summary: "Names a tensor after the model code that produced it",
        description: "Returns its operand unchanged; `name` is the tracer's label.",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { input: RANKED_TENSOR },
        results: { result: RANKED_TENSOR },
        properties: { name: STRING },
    }
}

/// The `trace` dialect: just `trace.tag`.
pub static TRACE: DialectDef = DialectDef {
    namespace: "trace",
    summary: "Labels a model tracer attaches to tensors",
    description: "",
    ops: &[&TAG],
    materialize_constant: None,
    types: &[],
    attrs: &[],
    opaque_attrs: false,
};

/// `trace-strip-tags`: replaces every `trace.tag` by its operand.
pub static STRIP_TAGS: PassInfo = PassInfo {
    name: "trace-strip-tags",
    display: "TraceStripTags",
    summary: "Removes trace.tag ops, reporting each as a remark",
    description: "",
    anchor: None,
    options: &[],
    create: |_| Ok(Box::new(StripTags)),
};

struct StripTags;

impl Pass for StripTags {
    fn info(&self) -> &'static PassInfo {
        &STRIP_TAGS
    }

    fn run(&self, ctx: &Context, ir: &mut Ir, root: OpId) -> Result<PassOutcome, Diagnostic> {
        let tags: Vec<OpId> =
            ir.collect_ops(root, WalkOrder::PreOrder).into_iter().filter(|&op| is_tag(ctx, ir, op)).collect();
        let mut outcome = PassOutcome::from_changed(!tags.is_empty());
        for op in tags {
            let label = tag_name(ctx, ir, op);
            outcome = outcome.with_diagnostic(Diagnostic::remark(ir.loc(op), format!("removed tag '{label}'")));
            let (input, result) = (ir.operand(op, 0), ir.result(op, 0));
            ir.replace_all_uses(result, input);
            ir.erase_op(op);
        }
        Ok(outcome)
    }
}

fn is_tag(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_name_str(ir.op_name(op)) == TAG.name
}

fn tag_name(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let name = ir.props(op).and_then(|p| ctx.dict_get(p, "name")).and_then(|a| ctx.attr_str(a));
    name.unwrap_or("?").to_string()
}
