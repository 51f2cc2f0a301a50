//! Unit tests of the parser: structure of parsed IR, diagnostics (messages and line:col as
//! mlir-opt-19 reports them), robustness against mutated inputs, nesting limits.

use super::*;
use crate::attrs::{DenseArrayData, DenseData};
use crate::diag::file_line_col;
use crate::types::{DYNAMIC, FloatKind, Signedness, TypeKind};

fn ctx() -> Context {
    let c = Context::empty();
    c.set_allow_unregistered(true);
    c
}

fn parse(ctx: &Context, src: &str) -> (Ir, OpId) {
    let mut ir = Ir::new();
    let file = SourceFile::new("t.mlir", Arc::from(src));
    match parse_source(ctx, &mut ir, &file) {
        Ok(m) => (ir, m),
        Err(d) => panic!("unexpected error: {}", render_diag(ctx, &d)),
    }
}

fn render_diag(ctx: &Context, d: &Diagnostic) -> String {
    let (_, l, c) = file_line_col(ctx, d.loc).unwrap_or_default();
    let mut s = format!("{l}:{c}: {}", d.message);
    for n in &d.notes {
        let (_, l, c) = file_line_col(ctx, n.loc).unwrap_or_default();
        s.push_str(&format!(" | note {l}:{c}: {}", n.message));
    }
    s
}

/// The diagnostic of a failing parse as `line:col: message | note line:col: message`.
fn err_in(ctx: &Context, src: &str) -> String {
    let mut ir = Ir::new();
    let file = SourceFile::new("t.mlir", Arc::from(src));
    match parse_source(ctx, &mut ir, &file) {
        Ok(_) => "<parsed>".to_string(),
        Err(d) => render_diag(ctx, &d),
    }
}

fn err(src: &str) -> String {
    err_in(&ctx(), src)
}

/// Ops of the module body, in order.
fn body_ops(ir: &Ir, module: OpId) -> Vec<OpId> {
    let b = ir.region_blocks(ir.region(module, 0))[0];
    ir.block_ops(b).collect()
}

fn name(ctx: &Context, ir: &Ir, op: OpId) -> String {
    ctx.op_name_str(ir.op_name(op)).to_string()
}

#[test]
fn generic_ops_values_and_implicit_module() {
    let c = ctx();
    let src = r#"%a, %b:2 = "fz.src"() : () -> (i32, f32, index)
"fz.use"(%a, %b#1, %b) {x = 1 : i32} : (i32, index, f32) -> ()
"#;
    let (ir, m) = parse(&c, src);
    assert_eq!(name(&c, &ir, m), "builtin.module");
    assert_eq!(file_line_col(&c, ir.loc(m)), Some(("t.mlir".into(), 0, 0)));
    let ops = body_ops(&ir, m);
    assert_eq!(ops.len(), 2);
    let src_op = ops[0];
    assert_eq!(ir.num_results(src_op), 3);
    assert_eq!(ir.operands(ops[1]).as_slice(), &[ir.result(src_op, 0), ir.result(src_op, 2), ir.result(src_op, 1)]);
    assert_eq!(ir.uses(ir.result(src_op, 0)).count(), 1);
    assert_eq!(file_line_col(&c, ir.loc(src_op)), Some(("t.mlir".into(), 1, 12)));
    assert_eq!(file_line_col(&c, ir.loc(ops[1])), Some(("t.mlir".into(), 2, 1)));
    assert_eq!(c.dict_get(ir.attrs(ops[1]), "x").and_then(|a| c.attr_i64(a)), Some(1));
}

#[test]
fn explicit_module_is_returned_and_regions_blocks_parse() {
    let c = ctx();
    let src = r#""builtin.module"() ({
  %0 = "fz.c"() : () -> i1
  "fz.cond"(%0) <{p = 3 : i64}> ({
  ^bb0(%x: i32 loc("arg":1:2), %y: i32):
    "fz.br"(%x) [^bb2] : (i32) -> ()
  ^bb1:
    "fz.ret"() : () -> ()
  ^bb2:
    "fz.br"() [^bb1] : () -> ()
  }, {
  }) : (i1) -> ()
}) {sym_name = "m"} : () -> ()
"#;
    let (ir, m) = parse(&c, src);
    assert_eq!(name(&c, &ir, m), "builtin.module");
    assert!(ir.op_block(m).is_none());
    let ops = body_ops(&ir, m);
    let cond = ops[1];
    assert_eq!(ir.regions(cond).len(), 2);
    let r0 = ir.region(cond, 0);
    let blocks = ir.region_blocks(r0).to_vec();
    assert_eq!(blocks.len(), 3);
    assert!(ir.region_blocks(ir.region(cond, 1)).is_empty());
    let args = ir.block_args(blocks[0]).to_vec();
    assert_eq!(args.len(), 2);
    assert_eq!(file_line_col(&c, ir.value_loc(args[0]).unwrap()), Some(("arg".into(), 1, 2)));
    assert_eq!(file_line_col(&c, ir.value_loc(args[1]).unwrap()), Some(("t.mlir".into(), 4, 32)));
    let br = ir.first_op(blocks[0]).unwrap();
    assert_eq!(ir.successors(br), &[blocks[2]]);
    assert_eq!(ir.successors(ir.first_op(blocks[2]).unwrap()), &[blocks[1]]);
    assert_eq!(c.dict_get(ir.props(cond).unwrap(), "p").and_then(|a| c.attr_i64(a)), Some(3));
}

#[test]
fn forward_references_and_graph_like_use() {
    let c = ctx();
    let src = r#""fz.graph"() ({
  "fz.use"(%v, %w#1) : (i32, i64) -> ()
  %v = "fz.def"() : () -> i32
  %w:2 = "fz.def2"() : () -> (i1, i64)
}) : () -> ()
%later = "fz.outer_use"() ({ "fz.u"(%z) : (f32) -> () }) : () -> f32
%z = "fz.z"() : () -> f32
"#;
    let (ir, m) = parse(&c, src);
    let ops = body_ops(&ir, m);
    let inner: Vec<_> = ir.block_ops(ir.region_blocks(ir.region(ops[0], 0))[0]).collect();
    assert_eq!(ir.operand(inner[0], 0), ir.result(inner[1], 0));
    assert_eq!(ir.operand(inner[0], 1), ir.result(inner[2], 1));
    let u = ir.first_op(ir.region_blocks(ir.region(ops[1], 0))[0]).unwrap();
    assert_eq!(ir.operand(u, 0), ir.result(ops[2], 0));
}

#[test]
fn scoping_and_ssa_errors() {
    assert_eq!(
        err("%x = \"fz.a\"() : () -> i32\n%x = \"fz.b\"() : () -> i32\n"),
        "2:1: redefinition of SSA value '%x' | note 1:1: previously defined here"
    );
    // A value of a region is not visible after it.
    assert_eq!(
        err("\"fz.r\"() ({\n  %x = \"fz.a\"() : () -> i32\n}) : () -> ()\n\"fz.u\"(%x) : (i32) -> ()\n"),
        "4:8: use of undeclared SSA value name"
    );
    // ... but outer values are visible inside, and a name may be reused after the region.
    let c = ctx();
    parse(
        &c,
        "%y = \"fz.a\"() : () -> i32\n\"fz.r\"() ({\n  %x = \"fz.u\"(%y) : (i32) -> i32\n}) : () -> ()\n%x = \"fz.b\"() : () -> i32\n",
    );
    assert_eq!(
        err(
            "\"fz.graph\"() ({\n  \"fz.use\"(%v) : (i32) -> ()\n  \"fz.use\"(%v) : (i64) -> ()\n  %v = \"fz.def\"() : () -> i32\n}) : () -> ()\n"
        ),
        "3:12: use of value '%v' expects different type than prior uses: 'i64' vs 'i32' | note 2:12: prior use here"
    );
    assert_eq!(
        err("%v = \"fz.def\"() : () -> i32\n\"fz.use\"(%v) : (f32) -> ()\n"),
        "2:10: use of value '%v' expects different type than prior uses: 'f32' vs 'i32' | note 1:1: prior use here"
    );
    assert_eq!(
        err("\"fz.use\"(%v) : (f32) -> ()\n%v = \"fz.def\"() : () -> i32\n"),
        "2:1: definition of SSA value '%v#0' has type 'i32' | note 1:10: previously used here with type 'f32'"
    );
    assert_eq!(
        err("%0:2 = \"fz.a\"() : () -> (i32, i32)\n\"fz.b\"(%0#2) : (i32) -> ()\n"),
        "2:8: reference to invalid result number"
    );
    assert_eq!(err("%0:2 = \"fz.a\"() : () -> i32\n"), "1:1: operation defines 1 results but was provided 2 to bind");
    assert_eq!(err("%0 = \"fz.a\"() : () -> ()\n"), "1:1: cannot name an operation with no results");
    assert_eq!(
        err("%0 = \"fz.a\"() : () -> i32\n\"fz.b\"(%0) : () -> ()\n"),
        "2:14: expected 1 operand type\0 but had 0"
    );
    assert_eq!(err("\"fz.b\"() : (i32, i32) -> ()\n"), "1:12: expected 0 operand types but had 2");
    assert_eq!(
        err(
            "\"fz.cfg\"() ({\n^bb0(%x: i32):\n  \"fz.br\"(%x) [^bb1] : (i32) -> ()\n^bb1(%x: i32):\n  \"fz.ret\"() : () -> ()\n}) : () -> ()\n"
        ),
        "4:6: redefinition of SSA value '%x' | note 2:6: previously defined here"
    );
}

#[test]
fn block_errors() {
    assert_eq!(
        err(
            "\"fz.cfg\"() ({\n  \"fz.br\"() [^bb1] : () -> ()\n^bb1:\n  \"fz.ret\"() : () -> ()\n^bb1:\n  \"fz.ret\"() : () -> ()\n}) : () -> ()\n"
        ),
        "5:1: redefinition of block '^bb1'"
    );
    assert_eq!(
        err("\"fz.cfg\"() ({\n  \"fz.br\"() [^nowhere] : () -> ()\n}) : () -> ()\n"),
        "2:14: reference to an undefined block"
    );
    assert_eq!(err("\"fz.r\"() ({\n  \"fz.a\"() : () -> ()\n"), "2:22: expected operation name in quotes");
}

#[test]
fn token_level_errors_match_mlir_columns() {
    assert_eq!(err("\"fz.a\"()\n\"fz.b\"() : () -> ()\n"), "1:9: expected ':' followed by operation type");
    assert_eq!(err("\"fz.a\"() {s = \"bad \\q escape\"} : () -> ()\n"), "1:20: unknown escape in string literal");
    assert_eq!(err("\"fz.a\"() : () -> () loc(\"f.mlir\":1)\n"), "1:35: expected ':' in FileLineColLoc");
    assert_eq!(err("%0 = \"fz.a\"() : () -> i32x\n"), "1:22: expected non-function type");
    assert_eq!(err("%0 = \"fz.a\"() : () -> tensor<[4]xf32>\n"), "1:30: expected non-function type");
    assert_eq!(err("%0 = \"fz.a\"() : () -> tensor<2xtensor<3xi8>>\n"), "1:32: invalid tensor element type");
    assert_eq!(err("\"fz.b\"(%0) {k = [1, 2\n"), "1:22: expected ',' or ']'");
    assert_eq!(
        err("\"fz.a\"() {dup = 1 : i32, dup = 2 : i32} : () -> ()\n"),
        "1:26: duplicate key 'dup' in dictionary attribute"
    );
    assert_eq!(err("\"fz.a\"() {v = #nope} : () -> ()\n"), "1:20: undefined symbol alias id 'nope'");
    assert_eq!(err("%0 = \"fz.a\"() : () -> !fz.t<[1, 2>\n"), "1:28: unbalanced '[' character in pretty dialect name");
    assert_eq!(err("!t = i32\n!t = i64\n"), "2:1: redefinition of type alias id 't'");
    assert_eq!(err("\"fz.a\"() : () -> () $"), "1:21: unexpected character");
    assert_eq!(err("% = 1"), "1:1: invalid SSA name");
    assert_eq!(err("\"fz.a\"() {s = \"abc} : () -> ()"), "1:31: expected '\"' in string literal");
    // An error on the next line is reported after the previous token, before comments.
    assert_eq!(
        err("\"fz.a\"() // comment\n\n  // more\n  \"fz.b\"() : () -> ()"),
        "1:9: expected ':' followed by operation type"
    );
}

#[test]
fn numeric_attribute_errors() {
    assert_eq!(
        err("\"fz.a\"() {v = 0x7FC000000 : f32} : () -> ()\n"),
        "1:15: hexadecimal float constant out of range for type"
    );
    assert_eq!(err("\"fz.a\"() {v = 2 : i1} : () -> ()\n"), "1:15: integer constant out of range for attribute");
    assert_eq!(err("\"fz.a\"() {v = 256 : i8} : () -> ()\n"), "1:15: integer constant out of range for attribute");
    assert_eq!(err("\"fz.a\"() {v = -0 : i32} : () -> ()\n"), "1:16: integer constant out of range for attribute");
    assert_eq!(
        err("\"fz.a\"() {v = 1 : f32} : () -> ()\n"),
        "1:15: unexpected decimal integer literal for a floating point value | note 1:15: add a trailing dot to make the literal a float"
    );
    assert_eq!(
        err("\"fz.a\"() {v = dense<[1, 2]> : tensor<2xf32>} : () -> ()\n"),
        "1:44: expected floating-point elements, but parsed integer"
    );
    assert_eq!(
        err("\"fz.a\"() {v = dense<[1, 2, 3]> : tensor<2xi32>} : () -> ()\n"),
        "1:32: inferred shape of elements literal ([3]) does not match type ([2])"
    );
    assert_eq!(
        err("\"fz.a\"() {v = dense<> : tensor<2xi32>} : () -> ()"),
        "1:23: parsed zero elements, but type ('tensor<2xi32>') expected at least 1"
    );
    assert_eq!(
        err("\"fz.a\"() {v = 99999999999999999999999} : () -> ()"),
        "1:15: integer constant out of range for attribute"
    );
    assert_eq!(
        err("\"fz.a\"() {a = array<f32: 1.0, 2>} : () -> ()"),
        "1:31: unexpected decimal integer literal for a floating point value | note 1:31: add a trailing dot to make the literal a float"
    );
    assert_eq!(err("\"fz.a\"() {m = affine_map<(d0) -> (d1)>} : () -> ()\n"), "1:35: use of undeclared identifier");
    assert_eq!(
        err("\"fz.a\"() {v = 1.0 : i32} : () -> ()\n"),
        "1:24: floating point value not valid for specified type"
    );
}

#[test]
fn type_errors() {
    let e = |t: &str| err(&format!("%0 = \"fz.a\"() : () -> {t}\n"));
    assert_eq!(e("vector<0x4xf32>"), "1:34: vector types must have positive constant sizes");
    assert_eq!(e("vector<[4x]xf32>"), "1:32: missing ']' closing scalable dimension");
    assert_eq!(
        e("memref<4xf32, affine_map<(d0,d1)->(d0)>>"),
        "1:23: memref layout mismatch between rank and affine map: 1 != 2"
    );
    assert_eq!(e("memref<4xf32, strided<[1, 2]>>"), "1:23: expected the number of strides to match the rank");
    assert_eq!(e("memref<*xf32, strided<[1]>>"), "1:49: cannot have affine map for unranked memref type");
    assert_eq!(e("memref<4xf32, 1, 2>"), "1:41: multiple memory spaces specified in memref type");
    assert_eq!(e("memref<4xf32, 1, strided<[1]>>"), "1:52: expected memory space to be last in memref type");
    assert_eq!(e("tensor<*xf32, \"e\">"), "1:41: cannot apply encoding to unranked tensor");
    assert_eq!(e("complex<index>"), "1:31: invalid element type for complex");
    assert_eq!(e("i99999999999"), "1:23: invalid integer width");
    assert_eq!(e("i16777216"), "1:23: integer bitwidth is limited to 16777215 bits");
    assert_eq!(e("tensor<99999999999999999999xf32>"), "1:30: invalid dimension");
    assert_eq!(e("memref<4xf32,>"), "1:36: expected list element");
    assert_eq!(e("memref<4x!fz.x>"), "1:32: invalid memref element type");
    assert_eq!(e("memref<4xf32, #fz.space<global>>"), "1:23: unsupported memory space Attribute");
    assert_eq!(e("!fz.x->i32"), "1:29: expected operation name in quotes");
}

#[test]
fn unregistered_dialect_rules() {
    let strict = Context::empty();
    assert_eq!(
        err_in(&strict, "%0 = \"fz.a\"() : () -> i32\n"),
        "1:12: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used"
    );
    assert_eq!(
        err_in(&strict, "!t = !fz.thing\n"),
        "1:10: `!\"fz\"<\"thing\">` type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"
    );
    assert_eq!(
        err_in(&strict, "#a = #fz<\"x y\">\n"),
        "1:6: #\"fz\"<\"\"x y\"\"> : 'none' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"
    );
    let e = err("fz.bad\n");
    assert!(
        e.starts_with("1:1: Dialect `fz' not found for custom op 'fz.bad'  | note 1:1: Registered dialects:"),
        "{e}"
    );
    assert!(
        err("foo\n").starts_with("1:1: Dialect `builtin' not found for custom op 'foo'  (tried 'builtin.foo' as well)")
    );
}

#[test]
fn custom_module_form_without_registered_builtin() {
    let c = ctx();
    let (ir, m) = parse(&c, "module @m attributes {a = 1} {\n  \"fz.x\"() : () -> ()\n  module {\n  }\n}\n");
    assert_eq!(name(&c, &ir, m), "builtin.module");
    assert_eq!(c.attr_str(c.dict_get(ir.attrs(m), "sym_name").unwrap()), Some("m"));
    let ops = body_ops(&ir, m);
    assert_eq!(ops.len(), 2);
    assert_eq!(name(&c, &ir, ops[1]), "builtin.module");
    assert_eq!(ir.region_blocks(ir.region(ops[1], 0)).len(), 1);
    assert_eq!(file_line_col(&c, ir.loc(m)), Some(("t.mlir".into(), 1, 1)));
}

#[test]
fn types_parse_into_the_model() {
    let c = ctx();
    let t = |s: &str| parse_type_str(&c, s).unwrap_or_else(|e| panic!("{s}: {e}"));
    let k = |s: &str| c.type_kind(t(s)).clone();
    assert_eq!(k("si8"), TypeKind::Integer { width: 8, signedness: Signedness::Signed });
    assert_eq!(k("ui64"), TypeKind::Integer { width: 64, signedness: Signedness::Unsigned });
    assert_eq!(k("i0"), TypeKind::Integer { width: 0, signedness: Signedness::Signless });
    for f in FloatKind::ALL {
        if f.in_mlir_19() {
            assert_eq!(k(f.keyword()), TypeKind::Float(f));
        } else {
            assert!(parse_type_str(&c, f.keyword()).is_err(), "{} is not an MLIR 19 type", f.keyword());
        }
    }
    assert_eq!(k("tensor<4x?xf32>").shape(), Some(&[4, DYNAMIC][..]));
    assert_eq!(k("tensor<f32>").shape(), Some(&[][..]));
    assert_eq!(k("tensor<0xf32>").shape(), Some(&[0][..]));
    assert!(matches!(k("tensor<*xf32>"), TypeKind::UnrankedTensor { .. }));
    assert!(matches!(k("tensor<4xf32, #fz.enc<1>>"), TypeKind::RankedTensor { encoding: Some(_), .. }));
    assert!(matches!(k("vector<4x[8]xf32>"), TypeKind::Vector { ref scalable, .. } if scalable == &[false, true]));
    assert!(matches!(
        k("memref<4x?xf32, strided<[?, 1], offset: ?>, 1>"),
        TypeKind::MemRef { layout: Some(_), memory_space: Some(_), .. }
    ));
    assert!(matches!(k("memref<4xf32, 0>"), TypeKind::MemRef { layout: None, memory_space: None, .. }));
    assert!(matches!(k("memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>"), TypeKind::MemRef { layout: None, .. }));
    assert!(matches!(k("memref<*xf32, 1>"), TypeKind::UnrankedMemRef { memory_space: Some(_), .. }));
    assert!(matches!(k("complex<f32>"), TypeKind::Complex(_)));
    assert_eq!(k("tuple<>"), TypeKind::Tuple(vec![]));
    assert!(matches!(k("(i32, f32) -> (i1)"), TypeKind::Function { ref results, .. } if results.len() == 1));
    assert!(matches!(k("() -> ((i32) -> i1)"), TypeKind::Function { .. }));
    assert_eq!(t("tensor<0xf32>"), t("tensor<0xf32>"));
    assert_eq!(t("tensor<2x0xf32>"), c.tensor_type(vec![2, 0], c.float_type(FloatKind::F32), None));
    let o = |s: &str| match k(s) {
        TypeKind::Opaque { dialect, body, pretty } => (dialect.to_string(), body.to_string(), pretty),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        o("!fz.tile<128x32xbf16, \"l1>\", [(a)], {b}>"),
        ("fz".into(), "tile<128x32xbf16, \"l1>\", [(a)], {b}>".into(), true)
    );
    assert_eq!(o("!fz<\"abc\">"), ("fz".into(), "\"abc\"".into(), false));
    assert_eq!(o("!fz<abc>"), ("fz".into(), "abc".into(), true));
    assert_eq!(t("!fz<abc>"), t("!fz.abc"));
    assert!(parse_type_str(&c, "tensor<4xf32").is_err());
}

#[test]
fn attributes_parse_into_the_model() {
    let c = ctx();
    let a = |s: &str| parse_attr_str(&c, s).unwrap_or_else(|e| panic!("{s}: {e}"));
    let k = |s: &str| c.attr_kind(a(s)).clone();
    assert_eq!(c.attr_i64(a("42")), Some(42));
    assert_eq!(c.attr_type(a("42")), Some(c.i64_type()));
    assert_eq!(c.attr_i64(a("-0x80 : i8")), Some(-128));
    assert_eq!(k("1 : i1"), AttrKind::Bool(true));
    assert_eq!(a("true"), a("-1 : i1"));
    match k("340282366920938463463374607431768211455 : ui128") {
        AttrKind::Integer { value, .. } => {
            assert_eq!(value.to_string_unsigned(), "340282366920938463463374607431768211455")
        }
        o => panic!("{o:?}"),
    }
    let fbits = |s: &str| match k(s) {
        AttrKind::Float { bits, .. } => bits,
        o => panic!("{o:?}"),
    };
    assert_eq!(fbits("1.5 : f16"), 0x3E00);
    assert_eq!(fbits("0x7FC00000 : f32"), 0x7FC0_0000);
    assert_eq!(fbits("-2.5"), (-2.5f64).to_bits() as u128);
    assert_eq!(fbits("1.0 : bf16"), 0x3F80);
    assert_eq!(k("unit"), AttrKind::Unit);
    match k(r#""a\n\"\FF" : i32"#) {
        AttrKind::String { value, ty } => {
            assert_eq!(&*value, b"a\n\"\xFF");
            assert!(ty.is_some());
        }
        o => panic!("{o:?}"),
    }
    let d = a(r#"{b = 1, "quoted key" = 2, flag}"#);
    let keys: Vec<&str> = c.dict_entries(d).iter().map(|(k, _)| c.ident_str(*k)).collect();
    assert_eq!(keys, ["b", "flag", "quoted key"]);
    assert!(matches!(k("[1, \"x\", [], {}]"), AttrKind::Array(v) if v.len() == 4));
    assert!(matches!(k("dense<1.0> : tensor<4xf32>"), AttrKind::DenseElements { data: DenseData::Splat(_), .. }));
    assert!(
        matches!(k("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"), AttrKind::DenseElements { data: DenseData::Elements(v), .. } if v.len() == 4)
    );
    assert_eq!(a("dense<[7, 7]> : tensor<2xi32>"), a("dense<7> : tensor<2xi32>"));
    assert_eq!(a("dense<\"0x0100000002000000\"> : tensor<2xi32>"), a("dense<[1, 2]> : tensor<2xi32>"));
    assert_eq!(a("dense<\"0x01000000\"> : tensor<3xi32>"), a("dense<1> : tensor<3xi32>"));
    assert!(matches!(
        k("dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>"),
        AttrKind::DenseElements { data: DenseData::Splat(_), .. }
    ));
    assert!(matches!(
        k("dense<[true, false]> : tensor<2xi1>"),
        AttrKind::DenseElements { data: DenseData::Elements(_), .. }
    ));
    assert!(
        matches!(k("dense<> : tensor<0xi32>"), AttrKind::DenseElements { data: DenseData::Elements(v), .. } if v.is_empty())
    );
    assert!(
        matches!(k("array<i64: 1, -2>"), AttrKind::DenseArray { data: DenseArrayData::Int(v), .. } if v == [1, -2])
    );
    assert!(matches!(k("array<i32>"), AttrKind::DenseArray { data: DenseArrayData::Int(v), .. } if v.is_empty()));
    assert!(
        matches!(k("array<i1: true, false>"), AttrKind::DenseArray { data: DenseArrayData::Int(v), .. } if v == [1, 0])
    );
    assert!(
        matches!(k("array<f32: 1.0, 0x3F800000>"), AttrKind::DenseArray { data: DenseArrayData::Float(v), .. } if v == [0x3F80_0000, 0x3F80_0000])
    );
    match k("@a::@b::@\"q q\"") {
        AttrKind::SymbolRef { root, nested } => {
            assert_eq!(c.ident_str(root), "a");
            assert_eq!(nested.iter().map(|n| c.ident_str(*n)).collect::<Vec<_>>(), ["b", "q q"]);
        }
        o => panic!("{o:?}"),
    }
    assert!(matches!(k("i32"), AttrKind::Type(_)));
    assert!(matches!(k("(i32) -> i1"), AttrKind::Type(_)));
    assert_eq!(k("strided<[1, ?], offset: ?>"), AttrKind::Strided { strides: vec![1, DYNAMIC], offset: DYNAMIC });
    assert_eq!(k("#fz.x<1, [2]>"), AttrKind::Opaque { dialect: "fz".into(), body: "x<1, [2]>".into(), pretty: true });
    assert_eq!(
        k("affine_map<(d0,d1)[s0]->(d1,  d0 + s0*2, d0 floordiv 2, 2*d0, d0 + -1, -d0, (d0+1) mod 3)>"),
        AttrKind::AffineMap(
            "(d0, d1)[s0] -> (d1, d0 + s0 * 2, d0 floordiv 2, d0 * 2, d0 - 1, -d0, (d0 + 1) mod 3)".into(),
            None
        )
    );
    assert_eq!(k("affine_map<() -> ()>"), AttrKind::AffineMap("() -> ()".into(), None));
    assert_eq!(
        k("affine_set<(d0)[s0]:(d0-s0>=0,d0==0)>"),
        AttrKind::IntegerSet("(d0)[s0] : (d0 - s0 >= 0, d0 == 0)".into(), None)
    );
}

#[test]
fn locations() {
    let c = ctx();
    let a = |s: &str| parse_attr_str(&c, s).unwrap_or_else(|e| panic!("{s}: {e}"));
    let k = |s: &str| c.attr_kind(a(s)).clone();
    assert_eq!(k("loc(unknown)"), AttrKind::UnknownLoc);
    assert_eq!(a("loc(\"f\":1:2)"), c.file_loc("f", 1, 2));
    assert!(matches!(k("loc(\"n\")"), AttrKind::NameLoc { child: None, .. }));
    assert!(matches!(k("loc(\"n\"(\"f\":1:2))"), AttrKind::NameLoc { child: Some(_), .. }));
    assert!(matches!(k("loc(callsite(\"a\" at \"b\":1:2))"), AttrKind::CallSiteLoc { .. }));
    assert_eq!(k("loc(fused[])"), AttrKind::UnknownLoc);
    assert_eq!(a("loc(fused[\"a\"])"), a("loc(\"a\")"));
    assert!(
        matches!(k("loc(fused[fused[\"a\", \"b\"], \"c\", unknown])"), AttrKind::FusedLoc { locs, metadata: None } if locs.len() == 3)
    );
    assert!(matches!(k("loc(fused<\"m\">[])"), AttrKind::FusedLoc { locs, metadata: Some(_) } if locs.len() == 1));
    // Trailing location aliases may be defined after their use (mlir-opt prints them last).
    let (ir, m) = parse(
        &c,
        "\"fz.a\"() ({\n^bb0(%x: i32 loc(#loc2)):\n  \"fz.t\"() : () -> () loc(#loc1)\n}) : () -> () loc(#loc1)\n#loc1 = loc(\"x.py\":3:4)\n#loc2 = loc(\"y\")\n",
    );
    let op = body_ops(&ir, m)[0];
    assert_eq!(ir.loc(op), c.file_loc("x.py", 3, 4));
    let b = ir.region_blocks(ir.region(op, 0))[0];
    assert_eq!(ir.loc(ir.first_op(b).unwrap()), c.file_loc("x.py", 3, 4));
    assert!(matches!(c.attr_kind(ir.value_loc(ir.block_args(b)[0]).unwrap()), AttrKind::NameLoc { .. }));
    assert_eq!(err("\"fz.a\"() : () -> () loc(#nope)\n"), "1:25: operation location alias was never defined");
    assert_eq!(err("#a = 1\n\"fz.a\"() : () -> () loc(#a)\n"), "2:25: expected location, but found '1 : i64'");
}

#[test]
fn aliases_and_metadata() {
    let c = ctx();
    let (ir, m) = parse(
        &c,
        "!bf = tensor<4xbf16>\n#one = 1 : i32\n#arr = [#one]\n{-# dialect_resources: { builtin: { r: \"0x0100000001\" } } #-}\n%0 = \"fz.a\"() {a = #arr} : () -> !bf\n",
    );
    let op = body_ops(&ir, m)[0];
    assert_eq!(ir.value_type(ir.result(op, 0)), parse_type_str(&c, "tensor<4xbf16>").unwrap());
    assert_eq!(c.dict_get(ir.attrs(op), "a"), Some(parse_attr_str(&c, "[1 : i32]").unwrap()));
    assert_eq!(err("#a.b = 1\n"), "1:1: attribute names with a '.' are reserved for dialect-defined names");
    assert_eq!(c.resources().blobs, vec![("r".to_string(), "\"0x0100000001\"".to_string())]);
    assert_eq!(
        err("{-# dialect_resources: { builtin: { r: \"0x01\" } } #-}\n"),
        "1:40: expected hex string blob for key 'r' to encode alignment in first 4 bytes"
    );
}

#[test]
fn nul_bytes_and_unicode_are_tolerated() {
    let c = ctx();
    let (ir, m) = parse(&c, "\"fz.a\"() : () -> ()\0\n\"fz.b\"() {s = \"é\0\"} : () -> () // ü\n");
    assert_eq!(body_ops(&ir, m).len(), 2);
    assert_eq!(err("\"fz.a\"() : () -> () é"), "1:21: unexpected character");
}

#[test]
fn unregistered_op_in_registered_dialect_parses_and_the_verifier_rejects_it() {
    use crate::registry::{DialectDef, Registry};
    static D: DialectDef = DialectDef {
        namespace: "arith",
        summary: "",
        description: "",
        ops: &[],
        types: &[],
        attrs: &[],
        opaque_attrs: true,
        materialize_constant: None,
    };
    let mut r = Registry::new();
    r.register(&D);
    let c = Context::new(r);
    let src = "\"arith.foo\"() : () -> ()\n\"arith.bar\"() : () -> ()\n";
    let mut ir = Ir::new();
    let file = SourceFile::new("t.mlir", Arc::from(src));
    let m = parse_source(&c, &mut ir, &file).expect("parses");
    let errors = crate::verifier::verify(&c, &ir, m).expect_err("verifier rejects arith.foo");
    assert_eq!(
        errors[0].message,
        "unregistered operation 'arith.foo' found in dialect ('arith') that does not allow unknown operations"
    );
    assert_eq!(file_line_col(&c, errors[0].loc).map(|(_, l, col)| (l, col)), Some((1, 1)));
    assert!(errors[0].notes[0].message.starts_with("see current operation: "));
    assert_eq!(
        err_in(&c, "\"arith.foo\"() : () -> ()\n%x = \"arith.b\"(%y) : (i32) -> i32\n"),
        "2:16: use of undeclared SSA value name"
    );
    assert_eq!(err_in(&c, "arith.foo\n"), "1:1: custom op 'arith.foo' is unknown");
}

#[test]
fn nesting_is_capped() {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let c = ctx();
            let deep_region = "\"fz.r\"() ({\n".repeat(600) + &"}) : () -> ()\n".repeat(600);
            assert!(err_in(&c, &deep_region).contains("nesting too deep (more than 512 levels)"));
            let ok_region = "\"fz.r\"() ({\n".repeat(200) + &"}) : () -> ()\n".repeat(200);
            parse(&c, &ok_region);
            let deep_attr = format!("\"fz.a\"() {{a = {}{}}} : () -> ()", "[".repeat(10_000), "]".repeat(10_000));
            assert!(err_in(&c, &deep_attr).contains("nesting too deep"));
            let deep_type = format!("%0 = \"fz.a\"() : () -> {}i32{}", "complex<".repeat(3000), ">".repeat(3000));
            assert!(err_in(&c, &deep_type).contains("nesting too deep"));
            let deep_fn = format!("%0 = \"fz.a\"() : () -> {}i32{}", "(() -> ".repeat(3000), ")".repeat(3000));
            let msg = err_in(&c, &deep_fn);
            assert!(msg.contains("nesting too deep"), "{msg}");
            let deep_dense =
                format!("\"fz.a\"() {{a = dense<{}1{}> : tensor<i32>}} : () -> ()", "[".repeat(3000), "]".repeat(3000));
            assert!(err_in(&c, &deep_dense).contains("nesting too deep"));
            let deep_affine = format!(
                "\"fz.a\"() {{a = affine_map<(d0) -> ({}d0{})>}} : () -> ()",
                "(".repeat(3000),
                ")".repeat(3000)
            );
            assert!(err_in(&c, &deep_affine).contains("nesting too deep"));
        })
        .expect("spawn")
        .join()
        .expect("no panic");
}

use crate::test_rng::Rng;

const FUZZ_SEEDS: &[&str] = &[
    r#"#map = affine_map<(d0, d1)[s0] -> (d1, d0 + s0 * 2)>
!t = tensor<4x?xf32, #fz.enc<"a", [1, 2]>>
"builtin.module"() ({
  %a, %b:2 = "fz.src"() {x = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, y = array<i64: 1, 2>, m = #map} : () -> (i32, !t, memref<4x4xf32, strided<[4, 1], offset: ?>, 1>)
  "fz.cfg"(%a, %b#0) <{p = [unit, true, -3 : si8]}> ({
  ^bb0(%x: i32 loc("f":1:2), %y: !t):
    "fz.br"(%x) [^bb1] : (i32) -> ()
  ^bb1:
    %c = "fz.c"() {f = 1.5 : f16, h = 0x7FC00000 : f32, s = "q\"\0A", u, r = @a::@b} : () -> complex<f32>
    "fz.ret"(%c) : (complex<f32>) -> () loc(fused<"m">[callsite("a" at "b":1:2), "n"("f":3:4)])
  }) : (i32, !t) -> ()
}) : () -> () loc(#loc)
#loc = loc("x.mlir":1:1)
"#,
    "module @m attributes {k = vector<4x[8]xf32>} {\n  %0 = \"fz.a\"() : () -> tuple<i1, (i32) -> (f64), none, index, !fz<\"v\">>\n  \"fz.b\"(%0) {d = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>, e = dense<\"0x0102\"> : tensor<2xi8>} : (tuple<i1, (i32) -> (f64), none, index, !fz<\"v\">>) -> ()\n}\n",
];

#[test]
fn random_mutations_never_panic() {
    let c = ctx();
    let strict = Context::empty();
    for seed_src in FUZZ_SEEDS {
        parse(&c, seed_src);
    }
    let alphabet: &[u8] = b"%^#!@\"(){}[]<>:,=-x0123456789.?*\\ \n\0abcdefiu";
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..6000 {
        let seed = FUZZ_SEEDS[i % FUZZ_SEEDS.len()].as_bytes();
        let mut bytes = seed.to_vec();
        let edits = 1 + rng.below(4);
        for _ in 0..edits {
            match rng.below(5) {
                0 => {
                    let p = rng.below(bytes.len());
                    bytes[p] = alphabet[rng.below(alphabet.len())];
                }
                1 => {
                    let p = rng.below(bytes.len());
                    bytes.truncate(p);
                }
                2 => {
                    let p = rng.below(bytes.len() + 1);
                    bytes.insert(p.min(bytes.len()), alphabet[rng.below(alphabet.len())]);
                }
                3 if !bytes.is_empty() => {
                    let p = rng.below(bytes.len());
                    bytes.remove(p);
                }
                _ => {
                    // Duplicate a random slice.
                    let a = rng.below(bytes.len());
                    let b = (a + rng.below(40)).min(bytes.len());
                    let chunk = bytes[a..b].to_vec();
                    let p = rng.below(bytes.len() + 1).min(bytes.len());
                    bytes.splice(p..p, chunk);
                }
            }
            if bytes.is_empty() {
                break;
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let ctx = if i % 3 == 0 { &strict } else { &c };
        let mut ir = Ir::new();
        let file = SourceFile::new("fuzz.mlir", Arc::from(text.as_str()));
        let _ = parse_source(ctx, &mut ir, &file);
    }
}

#[test]
fn large_inputs() {
    let c = ctx();
    let long_string = format!("\"fz.a\"() {{s = \"{}\"}} : () -> ()", "x".repeat(1 << 20));
    parse(&c, &long_string);
    let long_int = format!("\"fz.a\"() {{s = {} : i64}} : () -> ()", "9".repeat(1 << 20));
    assert_eq!(err_in(&c, &long_int), "1:15: integer constant out of range for attribute");
    let mut many = String::new();
    for i in 0..2000 {
        many.push_str(&format!("%v{i} = \"fz.op\"() : () -> i32 "));
    }
    let (ir, m) = parse(&c, &many);
    assert_eq!(body_ops(&ir, m).len(), 2000);
}

#[test]
fn split_chunk_lines_are_offset() {
    let c = ctx();
    let mut file = SourceFile::new("t.mlir", Arc::from("\n\"fz.a\"()\n"));
    file.first_line = 10;
    let mut ir = Ir::new();
    let d = parse_source(&c, &mut ir, &file).unwrap_err();
    assert_eq!(file_line_col(&c, d.loc), Some(("t.mlir".into(), 11, 9)));
}

/// Parse throughput on the benchmark shape (run with `--ignored --nocapture` in release).
#[test]
#[ignore]
fn bench_200k_generic_ops() {
    let t = "tensor<128x64xbf16>";
    let mut s =
        String::from("\"builtin.module\"() ({\n  %s0 = \"fz.src\"() {shape = [128, 64]} : () -> tensor<128x64xbf16>\n");
    let mut rng = Rng(7);
    let n: usize = std::env::var("FUSER_BENCH_OPS").ok().and_then(|v| v.parse().ok()).unwrap_or(200_000);
    let runs: usize = std::env::var("FUSER_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    for i in 1..n {
        let a = i - 1 - rng.below(i.min(64));
        let b = i - 1 - rng.below(i.min(64));
        match rng.below(10) {
            0..=4 => s.push_str(&format!("  %s{i} = \"fz.matmul\"(%s{a}, %s{b}) {{mesh = [0, 1], tile = array<i64: 32, 32>}} : ({t}, {t}) -> {t}\n")),
            5..=7 => s.push_str(&format!("  %s{i} = \"fz.add\"(%s{a}, %s{b}) : ({t}, {t}) -> {t}\n")),
            _ => s.push_str(&format!("  %s{i} = \"fz.cast\"(%s{a}) {{kind = \"bf16_to_f32\", axis = {} : i64}} : ({t}) -> {t}\n", i % 7)),
        }
    }
    s.push_str("}) : () -> ()\n");
    let c = ctx();
    let file = SourceFile::new("bench.mlir", Arc::from(s.as_str()));
    for _ in 0..runs {
        let mut ir = Ir::new();
        let cpu = || {
            std::fs::read_to_string("/proc/thread-self/schedstat")
                .ok()
                .and_then(|s| s.split(' ').next()?.parse::<u64>().ok())
                .unwrap_or(0)
        };
        let (t0, c0) = (std::time::Instant::now(), cpu());
        parse_source(&c, &mut ir, &file).expect("parses");
        eprintln!("200k ops ({} MB): wall {:?}, cpu {} ms", s.len() >> 20, t0.elapsed(), (cpu() - c0) / 1_000_000);
    }
}

/// Prints the first diagnostic for each `*.mlir` in `$FUSER_PARSE_DIR` as mlir-opt would
/// (`file:line:col: error: message`), for side-by-side comparison with mlir-opt-19.
#[test]
#[ignore]
fn dump_diagnostics_of_dir() {
    let Ok(dir) = std::env::var("FUSER_PARSE_DIR") else { return };
    let mut paths: Vec<_> = std::fs::read_dir(&dir).expect("dir").filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for p in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "mlir")) {
        let text = String::from_utf8_lossy(&std::fs::read(&p).expect("read")).into_owned();
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let c = ctx();
        let mut ir = Ir::new();
        let file = SourceFile::new(name.clone(), Arc::from(text.as_str()));
        match parse_source(&c, &mut ir, &file) {
            Ok(_) => println!("{name}: <parsed>"),
            Err(d) => {
                let (f, l, col) = file_line_col(&c, d.loc).unwrap_or_default();
                println!("{f}:{l}:{col}: error: {}", d.message.replace('\0', "\\0"));
            }
        }
    }
}

#[test]
fn compat_attribute_canonical_forms() {
    let c = ctx();
    c.set_allow_unregistered(true);
    let a = |s: &str| parse_attr_str(&c, s).unwrap_or_else(|e| panic!("{s}: {e}"));
    let k = |s: &str| c.attr_kind(a(s)).clone();
    // Every 1-bit integer type takes true/false; equal elements make a splat.
    assert!(matches!(k("dense<[1, true]> : tensor<2xui1>"), AttrKind::DenseElements { data: DenseData::Splat(_), .. }));
    assert_eq!(a("dense<[true]> : tensor<1xsi1>"), a("dense<true> : tensor<1xsi1>"));
    // i1 hex payloads are bit-packed (LSB first); one byte 0x00/0xFF is a splat.
    assert_eq!(a("dense<\"0x02\"> : tensor<3xi1>"), a("dense<[false, true, false]> : tensor<3xi1>"));
    assert_eq!(a("dense<\"0xFF\"> : tensor<16xi1>"), a("dense<true> : tensor<16xi1>"));
    assert!(parse_attr_str(&c, "dense<\"0x01\"> : tensor<9xi1>").is_err());
    // A lone string is a splat string element.
    assert!(matches!(k("dense<\"ab\"> : tensor<2x!fz.s>"), AttrKind::DenseElements { data: DenseData::Splat(_), .. }));
    // Dense arrays wider than 64 bits keep their values.
    assert!(
        matches!(k("array<ui128: 340282366920938463463374607431768211455>"), AttrKind::DenseArray { data: DenseArrayData::WideInt(v), .. } if v[0].to_string_unsigned() == "340282366920938463463374607431768211455")
    );
    assert!(
        matches!(k("array<f80: 0x401396B4380000000000>"), AttrKind::DenseArray { data: DenseArrayData::WideFloat(v), .. } if v == [0x4013_96B4_3800_0000_0000])
    );
    // An opaque attribute's trailing type is kept apart from its body; `none` is no type.
    assert!(matches!(k("#x<\"]\"> : f16"), AttrKind::TypedOpaque { body, .. } if &*body == "\"]\""));
    assert!(matches!(k("#x<\"a\"> : none"), AttrKind::Opaque { .. }));
}

#[test]
fn compat_location_canonical_forms() {
    let c = ctx();
    let a = |s: &str| parse_attr_str(&c, s).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(a("loc(\"\":1:2)"), c.file_loc("-", 1, 2));
    assert_eq!(a("loc(\"n\"(unknown))"), a("loc(\"n\")"));
    assert_eq!(a("loc(\"n\"(fused[]))"), a("loc(\"n\")"));
}
