//! Tests of `declare_op!` (what the expansion holds) and of the structural verifier it feeds
//! (counts, segments, optional groups, attributes, type constraints), on generic-form IR with
//! test-only ops. Expected messages are those of mlir-opt-19 for the same situations.

use super::*;
use crate::diag::SourceFile;
use crate::registry::{DialectDef, OpDef, Registry, Traits, VerifyCtx};
use std::sync::Arc;

fn is_index(ctx: &Context, t: Type) -> bool {
    ctx.type_kind(t).is_index()
}
fn is_i32(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { width: 32, .. })
}
fn is_string(ctx: &Context, a: Attr) -> bool {
    ctx.attr_str(a).is_some()
}

const INDEX: TypeConstraint = TypeConstraint::new("index", is_index);
const I32: TypeConstraint = TypeConstraint::new("32-bit integer", is_i32);
const STRING: AttrConstraint = AttrConstraint::new("string attribute", is_string);

/// Counts calls of the hook, to check it runs after the declared structure.
fn verify_gather(v: &VerifyCtx<'_>, op: OpId) -> Result<(), crate::diag::Diagnostic> {
    // The declaration guarantees a `source` operand; the hook may rely on it.
    let source = GATHER.operand_named(v.ctx, v.ir, op, "source").expect("checked by the declaration");
    if v.ir.value_type(source) == v.ctx.integer_type(7) {
        return Err(v.op_error(op, "hook ran"));
    }
    Ok(())
}

crate::declare_op! {
    /// A test op with one variadic and one optional group (so segment sizes are needed).
    static GATHER: "t.gather" {
        summary: "gathers",
        description: "A test op.",
        traits: [PURE | COMMUTATIVE],
        operands: { source: ANY_TYPE, indices: INDEX.variadic(), mask: I32.optional() },
        results: { result: ANY_TYPE },
        properties: { label: STRING, note: STRING.optional() },
        hooks: { verify: verify_gather },
    }
}

crate::declare_op! {
    /// Fixed counts: two i32 operands, no results, one region, a required attribute.
    static FIXED: "t.fixed" {
        summary: "fixed",
        operands: { a: I32, b: I32 },
        attributes: { name: STRING },
        regions: { body: ANY_REGION },
    }
}

crate::declare_op! {
    /// One optional operand after a single one: no segments needed.
    static OPT: "t.opt" {
        summary: "optional",
        traits: [TERMINATOR],
        operands: { a: I32, maybe: I32.optional() },
        results: { r: ANY_TYPE.variadic(), s: INDEX },
        successors: { dest: ANY_SUCCESSOR },
    }
}

crate::declare_op! {
    static ONE: "t.one" {
        summary: "one operand, two results, two regions",
        operands: { a: ANY_TYPE },
        results: { x: ANY_TYPE, y: ANY_TYPE },
        regions: { r0: ANY_REGION, r1: ANY_REGION },
    }
}

crate::declare_op! {
    static NONE: "t.none" { summary: "nothing" }
}

static T: DialectDef = DialectDef {
    namespace: "t",
    summary: "",
    description: "",
    ops: &[&GATHER, &FIXED, &OPT, &ONE, &NONE],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: None,
};

fn ctx() -> Context {
    let mut r = Registry::new();
    r.register(&T);
    let c = Context::new(r);
    c.set_allow_unregistered(true);
    c
}

/// Parses `body` (generic ops using `%i: index`, `%n: i32`, `%f: f32`) inside an unregistered
/// wrapper and returns the verifier's first message, or "ok".
fn check(body: &str) -> String {
    let c = ctx();
    let src = format!("\"u.wrap\"() ({{\n^bb0(%i: index, %n: i32, %f: f32, %s: i7):\n{body}\n}}) : () -> ()\n");
    let mut ir = Ir::new();
    let file = SourceFile::new("t.mlir", Arc::from(src.as_str()));
    let root = crate::parser::parse_source(&c, &mut ir, &file).unwrap_or_else(|d| panic!("parse: {}", d.message));
    match crate::verifier::verify(&c, &ir, root) {
        Ok(()) => "ok".into(),
        Err(d) => d[0].message.clone(),
    }
}

#[test]
fn expansion_fills_the_op_def() {
    assert_eq!(GATHER.name, "t.gather");
    assert_eq!(GATHER.summary, "gathers");
    assert_eq!(GATHER.description, "A test op.");
    assert!(GATHER.has(Traits::PURE) && GATHER.has(Traits::COMMUTATIVE) && !GATHER.has(Traits::TERMINATOR));
    let operands: Vec<_> = GATHER.operands.iter().map(|a| (a.name, a.constraint, a.kind)).collect();
    assert_eq!(
        operands,
        [
            ("source", "any type", ArgKind::Single),
            ("indices", "index", ArgKind::Variadic),
            ("mask", "32-bit integer", ArgKind::Optional)
        ]
    );
    assert_eq!(GATHER.properties, &["label", "note"]);
    assert_eq!(GATHER.attributes.iter().map(|a| a.name).collect::<Vec<_>>(), ["label", "note"]);
    assert!(GATHER.verify.is_some() && GATHER.fold.is_none());
    let decl = GATHER.declared().unwrap();
    assert!(decl.uses_segments(ValueList::Operands) && !decl.uses_segments(ValueList::Results));
    assert_eq!(FIXED.regions.len(), 1);
    assert_eq!(FIXED.properties, &[] as &[&str]);
    assert_eq!(FIXED.attributes[0].name, "name");
    assert!(!OPT.declared().unwrap().uses_segments(ValueList::Operands));
    assert_eq!(NONE.operands.len() + NONE.results.len(), 0);
}

#[test]
fn counts_use_mlir_wording() {
    let ok = r#""t.fixed"(%n, %n) ({}) {name = "x"} : (i32, i32) -> ()"#;
    assert_eq!(check(ok), "ok");
    assert_eq!(
        check(r#""t.fixed"(%n) ({}) {name = "x"} : (i32) -> ()"#),
        "'t.fixed' op expected 2 operands, but found 1"
    );
    assert_eq!(check(r#""t.fixed"(%n, %n) {name = "x"} : (i32, i32) -> ()"#), "'t.fixed' op requires one region");
    assert_eq!(
        check(r#"%r = "t.fixed"(%n, %n) ({}) {name = "x"} : (i32, i32) -> i32"#),
        "'t.fixed' op requires zero results"
    );
    assert_eq!(check(r#""t.none"(%n) : (i32) -> ()"#), "'t.none' op requires zero operands");
    assert_eq!(check(r#""t.none"() ({}) : () -> ()"#), "'t.none' op requires zero regions");
    assert_eq!(check(r#""t.one"() ({}, {}) : () -> (i32, i32)"#), "'t.one' op requires a single operand");
    assert_eq!(check(r#"%x = "t.one"(%n) ({}, {}) : (i32) -> i32"#), "'t.one' op expected 2 results");
    assert_eq!(check(r#"%x:2 = "t.one"(%n) ({}) : (i32) -> (i32, i32)"#), "'t.one' op expected 2 regions");
    // Regions are checked before results, results before operands (MLIR's trait order).
    assert_eq!(check(r#""t.one"() : () -> ()"#), "'t.one' op expected 2 regions");
    assert_eq!(check(r#""t.gather"() : () -> ()"#), "'t.gather' op requires one result");
    assert_eq!(check(r#"%g = "t.gather"() : () -> i32"#), "'t.gather' op expected 1 or more operands, but found 0");
}

#[test]
fn successors_and_variadic_results() {
    let tail = "^bb1:\n  \"u.end\"() : () -> ()";
    let ok = format!("%r:2 = \"t.opt\"(%n)[^bb1] : (i32) -> (i32, index)\n{tail}");
    assert_eq!(check(&ok), "ok");
    let none = format!("\"t.opt\"(%n)[^bb1] : (i32) -> ()\n{tail}");
    assert_eq!(check(&none), "'t.opt' op expected 1 or more results");
    let no_succ = "%r = \"t.opt\"(%n) : (i32) -> index";
    assert_eq!(check(no_succ), "'t.opt' op requires 1 successor but found 0");
    let bad_type = format!("%r:2 = \"t.opt\"(%n)[^bb1] : (i32) -> (i32, i32)\n{tail}");
    assert_eq!(check(&bad_type), "'t.opt' op result #1 must be index, but got 'i32'");
}

#[test]
fn single_optional_group_takes_the_remainder() {
    let tail = "^bb1:\n  \"u.end\"() : () -> ()";
    let two = format!("%r = \"t.opt\"(%n, %n)[^bb1] : (i32, i32) -> index\n{tail}");
    assert_eq!(check(&two), "ok");
    let three = format!("%r = \"t.opt\"(%n, %n, %n)[^bb1] : (i32, i32, i32) -> index\n{tail}");
    assert_eq!(check(&three), "'t.opt' op operand group starting at #1 requires 0 or 1 element, but found 2");
    let bad = format!("%r = \"t.opt\"(%n, %f)[^bb1] : (i32, f32) -> index\n{tail}");
    assert_eq!(check(&bad), "'t.opt' op operand #1 must be 32-bit integer, but got 'f32'");
}

#[test]
fn segment_sizes_are_checked() {
    let g = |args: &str, types: &str, props: &str| {
        check(&format!("%g = \"t.gather\"({args}) <{{label = \"l\"{props}}}> : ({types}) -> i32"))
    };
    assert_eq!(g("%n, %i, %i, %n", "i32, index, index, i32", ", operandSegmentSizes = array<i32: 1, 2, 1>"), "ok");
    assert_eq!(g("%n, %i", "i32, index", ", operandSegmentSizes = array<i32: 1, 1, 0>"), "ok");
    assert_eq!(
        g("%n, %i, %i", "i32, index, index", ", operandSegmentSizes = array<i32: 1, 1, 0>"),
        "'t.gather' op operand count (3) does not match with the total size (2) specified in attribute 'operandSegmentSizes'"
    );
    assert_eq!(
        g("%n", "i32", ""),
        "'t.gather' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'"
    );
    assert_eq!(
        g("%n", "i32", ", operandSegmentSizes = array<i32: 1, 0>"),
        "'t.gather' op 'operandSegmentSizes' attribute for specifying operand segments must have 3 elements, but got 2"
    );
    assert_eq!(
        g("%n", "i32", ", operandSegmentSizes = array<i32: 1, -1, 1>"),
        "'t.gather' op 'operandSegmentSizes' attribute cannot have negative elements"
    );
    assert_eq!(
        g("%n", "i32", ", operandSegmentSizes = array<i64: 1, 0, 0>"),
        "'t.gather' op requires dense i32 array attribute 'operandSegmentSizes'"
    );
    assert_eq!(
        g("%n, %n, %n", "i32, i32, i32", ", operandSegmentSizes = array<i32: 1, 0, 2>"),
        "'t.gather' op operand group starting at #1 requires 0 or 1 element, but found 2"
    );
    assert_eq!(
        g("%n, %n", "i32, i32", ", operandSegmentSizes = array<i32: 1, 1, 0>"),
        "'t.gather' op operand #1 must be index, but got 'i32'"
    );
}

#[test]
fn attributes_are_checked_before_types_and_the_hook_runs_last() {
    let seg = "operandSegmentSizes = array<i32: 1, 0, 0>";
    assert_eq!(
        check(&format!("%g = \"t.gather\"(%f) <{{{seg}}}> : (f32) -> i32")),
        "'t.gather' op requires attribute 'label'"
    );
    assert_eq!(
        check(&format!("%g = \"t.gather\"(%f) <{{label = 1 : i32, {seg}}}> : (f32) -> i32")),
        "'t.gather' op attribute 'label' failed to satisfy constraint: string attribute"
    );
    assert_eq!(
        check(&format!("%g = \"t.gather\"(%f) <{{label = \"l\", note = 2 : i32, {seg}}}> : (f32) -> i32")),
        "'t.gather' op attribute 'note' failed to satisfy constraint: string attribute"
    );
    // Inherent attributes may also sit in the discardable dictionary.
    assert_eq!(check(&format!("%g = \"t.gather\"(%f) <{{{seg}}}> {{label = \"l\"}} : (f32) -> i32")), "ok");
    assert_eq!(
        check(&format!("%g = \"t.gather\"(%s) <{{label = \"l\", {seg}}}> : (i7) -> i32")),
        "'t.gather' op hook ran"
    );
    assert_eq!(check(r#""t.fixed"(%f, %n) ({}) : (f32, i32) -> ()"#), "'t.fixed' op requires attribute 'name'");
    assert_eq!(
        check(r#""t.fixed"(%f, %n) ({}) {name = "x"} : (f32, i32) -> ()"#),
        "'t.fixed' op operand #0 must be 32-bit integer, but got 'f32'"
    );
}

#[test]
fn accessors_are_segment_aware() {
    let c = ctx();
    let src = "\"u.wrap\"() ({\n^bb0(%i: index, %j: index, %n: i32, %m: i32):\n\
        %g = \"t.gather\"(%n, %i, %j, %m) <{label = \"l\", operandSegmentSizes = array<i32: 1, 2, 1>}> : (i32, index, index, i32) -> i32\n\
        %h = \"t.gather\"(%n) <{label = \"l\", operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> i32\n\
        }) : () -> ()\n";
    let mut ir = Ir::new();
    let file = SourceFile::new("t.mlir", Arc::from(src));
    let root = crate::parser::parse_source(&c, &mut ir, &file).unwrap();
    let first_nested = |op: OpId| ir.block_ops(ir.region_blocks(ir.regions(op)[0])[0]).next().unwrap();
    let wrap = if c.op_name_str(ir.op_name(root)) == "u.wrap" { root } else { first_nested(root) };
    let region = ir.regions(wrap)[0];
    let block = ir.region_blocks(region)[0];
    let args = ir.block_args(block).to_vec();
    let ops: Vec<OpId> = ir.block_ops(block).collect();
    let (g, h) = (ops[0], ops[1]);
    assert_eq!(GATHER.operand_named(&c, &ir, g, "source"), Some(args[2]));
    assert_eq!(GATHER.operands_named(&c, &ir, g, "indices"), Some(vec![args[0], args[1]]));
    assert_eq!(GATHER.operand_group(&c, &ir, g, 2), Some(vec![args[3]]));
    assert_eq!(GATHER.operand_named(&c, &ir, g, "mask"), Some(args[3]));
    assert_eq!(GATHER.operand_named(&c, &ir, h, "mask"), None);
    assert_eq!(GATHER.operands_named(&c, &ir, h, "indices"), Some(vec![]));
    assert_eq!(GATHER.operands_named(&c, &ir, h, "nope"), None);
    assert_eq!(GATHER.result_named(&c, &ir, g, "result"), Some(ir.result(g, 0)));
    assert_eq!(GATHER.attr_named(&c, &ir, g, "label").and_then(|a| c.attr_str(a)), Some("l"));
    // An op without a declaration has no typed accessors.
    static PLAIN: OpDef = OpDef::new("t.plain", Traits::NONE);
    assert_eq!(PLAIN.operand_group(&c, &ir, g, 0), None);
}
