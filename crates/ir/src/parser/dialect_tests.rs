//! Unit tests of registered dialect types and attributes, with a test-only dialect `test_d`:
//! `!test_d.pair<T, U>`, `!test_d.token` (no parameters), `#test_d.level<N>` (N >= 0). Covers
//! parsing (pretty and quoted forms, nesting, aliases), canonical printing by the print hooks,
//! parameter accessors and builders, diagnostics pointing into the type, strictness for
//! undeclared symbols of registered dialects, and unchanged opaque behaviour otherwise.

use super::*;
use crate::asm::{DialectAsmParser, DialectAsmPrinter, ParseResult, Punct};
use crate::attrs::DialectParam;
use crate::diag::file_line_col;
use crate::printer::{PrintOptions, print_attr, print_module, print_type};
use crate::registry::{AttrDef, DialectDef, Registry, TypeDef};

fn parse_pair(p: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    p.parse_punct(Punct::Less)?;
    let first = p.parse_type()?;
    p.parse_punct(Punct::Comma)?;
    let second = p.parse_type()?;
    p.parse_punct(Punct::Greater)?;
    Ok(vec![DialectParam::Type(first), DialectParam::Type(second)])
}
fn print_pair(p: &mut dyn DialectAsmPrinter, params: &[DialectParam]) {
    p.write("<");
    for (i, t) in params.iter().filter_map(DialectParam::as_type).enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
    }
    p.write(">");
}
fn parse_nothing(_: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    Ok(Vec::new())
}
fn print_nothing(_: &mut dyn DialectAsmPrinter, _: &[DialectParam]) {}
fn parse_level(p: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    p.parse_punct(Punct::Less)?;
    let n = p.parse_integer()?;
    p.parse_punct(Punct::Greater)?;
    Ok(vec![DialectParam::Int(n)])
}
fn verify_level(_: &Context, params: &[DialectParam]) -> Result<(), String> {
    match params.first().and_then(DialectParam::as_int) {
        Some(n) if n >= 0 => Ok(()),
        _ => Err("level must be non-negative".into()),
    }
}
fn print_level(p: &mut dyn DialectAsmPrinter, params: &[DialectParam]) {
    p.write(&format!("<{}>", params[0].as_int().unwrap_or(0)));
}

static PAIR: TypeDef = TypeDef {
    mnemonic: "pair",
    summary: "two types",
    description: "",
    parse: parse_pair,
    verify: None,
    print: print_pair,
};
static TOKEN: TypeDef = TypeDef {
    mnemonic: "token",
    summary: "",
    description: "",
    parse: parse_nothing,
    verify: None,
    print: print_nothing,
};
static LEVEL: AttrDef = AttrDef {
    mnemonic: "level",
    summary: "a level",
    description: "",
    parse: parse_level,
    verify: Some(verify_level),
    print: print_level,
};
static TEST_D: DialectDef = DialectDef {
    namespace: "test_d",
    summary: "",
    description: "",
    ops: &[],
    types: &[&PAIR, &TOKEN],
    attrs: &[&LEVEL],
    opaque_attrs: false,
    materialize_constant: None,
};
static PLAIN: DialectDef = DialectDef {
    namespace: "plain",
    summary: "",
    description: "",
    ops: &[],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: None,
};
static LEGACY: DialectDef = DialectDef {
    namespace: "legacy",
    summary: "",
    description: "",
    ops: &[],
    types: &[],
    attrs: &[],
    opaque_attrs: true,
    materialize_constant: None,
};

fn ctx() -> Context {
    let mut r = Registry::new();
    r.register(&TEST_D);
    r.register(&PLAIN);
    r.register(&LEGACY);
    let c = Context::new(r);
    c.set_allow_unregistered(true);
    c
}

fn ty(c: &Context, s: &str) -> Type {
    parse_type_str(c, s).unwrap_or_else(|e| panic!("{s}: {e}"))
}
fn attr(c: &Context, s: &str) -> Attr {
    parse_attr_str(c, s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// `line:col: message` of parsing `src` as a file.
fn err_in(c: &Context, src: &str) -> String {
    let mut ir = Ir::new();
    let file = SourceFile::new("t.mlir", Arc::from(src));
    match parse_source(c, &mut ir, &file) {
        Ok(_) => "<parsed>".into(),
        Err(d) => {
            let (_, l, col) = file_line_col(c, d.loc).unwrap_or_default();
            format!("{l}:{col}: {}", d.message)
        }
    }
}

#[test]
fn registered_type_parses_into_params_and_prints_canonically() {
    let c = ctx();
    let t = ty(&c, "!test_d.pair<i32,f32>");
    assert_eq!(print_type(&c, t), "!test_d.pair<i32, f32>");
    let params = c.dialect_type_params(t, "test_d", "pair").expect("a test_d.pair");
    assert_eq!(params, &[DialectParam::Type(c.integer_type(32)), DialectParam::Type(ty(&c, "f32"))]);
    assert!(c.dialect_type_params(t, "test_d", "token").is_none());
    // Spelling does not matter: one uniqued type.
    assert_eq!(ty(&c, "!test_d.pair< i32 , f32 >"), t);
    assert_eq!(ty(&c, "!test_d<\"pair<i32, f32>\">"), t);
    assert_eq!(ty(&c, "!test_d<pair<i32, f32>>"), t);
    assert_eq!(c.dialect_type("test_d", "pair", params.to_vec()), Ok(t));
    let token = ty(&c, "!test_d.token");
    assert_eq!(print_type(&c, token), "!test_d.token");
    assert_eq!(c.dialect_type_params(token, "test_d", "token"), Some(&[][..]));
}

#[test]
fn registered_symbols_nest_in_each_other_and_in_builtin_types() {
    let c = ctx();
    let text = "!test_d.pair<!test_d.pair<i1, !test_d.token>, tensor<2xf32, #test_d.level<1>>>";
    assert_eq!(print_type(&c, ty(&c, text)), text);
    let tensor = ty(&c, "tensor<4x!test_d.token>");
    assert_eq!(print_type(&c, tensor), "tensor<4x!test_d.token>");
}

#[test]
fn registered_attribute_parses_verifies_and_prints() {
    let c = ctx();
    let a = attr(&c, "#test_d.level< 3 >");
    assert_eq!(print_attr(&c, a), "#test_d.level<3>");
    assert_eq!(c.dialect_attr_params(a, "test_d", "level"), Some(&[DialectParam::Int(3)][..]));
    assert_eq!(c.dialect_attr("test_d", "level", vec![DialectParam::Int(3)]), Ok(a));
    assert_eq!(
        c.dialect_attr("test_d", "level", vec![DialectParam::Int(-1)]),
        Err("level must be non-negative".to_string())
    );
    assert_eq!(
        c.dialect_attr("test_d", "nope", vec![]),
        Err("dialect 'test_d' declares no attribute 'nope'".to_string())
    );
}

#[test]
fn malformed_registered_symbols_are_reported_inside_the_type() {
    let c = ctx();
    // The hook's own error, at the offending token.
    assert_eq!(err_in(&c, "\"x.op\"() : () -> !test_d.pair<oops>\n"), "1:31: expected non-function type");
    assert_eq!(err_in(&c, "\"x.op\"() : () -> !test_d.pair<i32>\n"), "1:34: expected ','");
    // The verify hook's error, at the mnemonic.
    assert_eq!(err_in(&c, "\"x.op\"() {a = #test_d.level<-1>} : () -> ()\n"), "1:23: level must be non-negative");
    // Parameters the hook does not consume.
    assert_eq!(err_in(&c, "\"x.op\"() {a = #test_d.level<3 4>} : () -> ()\n"), "1:30: expected '>'");
    assert_eq!(
        err_in(&c, "\"x.op\"() : () -> !test_d.token<1>\n"),
        "1:31: unexpected text in the parameters of 'token'"
    );
    // The quoted form reports at the string.
    assert_eq!(err_in(&c, "\"x.op\"() : () -> !test_d<\"pair<i32>\">\n"), "1:26: expected ','");
}

#[test]
fn undeclared_symbols_of_registered_dialects_are_errors_even_when_unregistered_is_allowed() {
    let c = ctx();
    assert_eq!(err_in(&c, "\"x.op\"() : () -> !test_d.nope\n"), "1:26: unknown test_d type: nope");
    assert_eq!(
        err_in(&c, "\"x.op\"() : () -> !plain.nope<1>\n"),
        "1:25: dialect 'plain' provides no type parsing hook"
    );
    assert_eq!(
        err_in(&c, "\"x.op\"() {a = #test_d.nope} : () -> ()\n"),
        "1:23: unknown attribute `nope` in dialect `test_d`"
    );
    assert_eq!(
        err_in(&c, "\"x.op\"() {a = #plain.nope} : () -> ()\n"),
        "1:22: dialect 'plain' provides no attribute parsing hook"
    );
    // A dialect whose attributes are still text keeps undeclared ones opaque.
    let a = attr(&c, "#legacy.thing<1,2>");
    assert!(matches!(c.attr_kind(a), AttrKind::Opaque { .. }));
    assert_eq!(print_attr(&c, a), "#legacy.thing<1,2>");
}

#[test]
fn unregistered_dialects_stay_opaque() {
    let c = ctx();
    let t = ty(&c, "!zz.pair<i32,f32>");
    assert!(matches!(c.type_kind(t), crate::types::TypeKind::Opaque { .. }));
    assert_eq!(print_type(&c, t), "!zz.pair<i32,f32>");
}

#[test]
fn aliases_inside_parameters_are_used_and_printed() {
    let c = ctx();
    let src = "#m = affine_map<(d0) -> (d0 + 1)>\n\"x.op\"() : () -> !test_d.pair<memref<4xf32, #m>, i32>\n";
    let mut ir = Ir::new();
    let file = SourceFile::new("t.mlir", Arc::from(src));
    let m = parse_source(&c, &mut ir, &file).expect("parses");
    let out = print_module(&c, &ir, m, &PrintOptions::default());
    assert!(out.starts_with("#map = affine_map<(d0) -> (d0 + 1)>\n"), "{out}");
    assert!(out.contains("!test_d.pair<memref<4xf32, #map>, i32>"), "{out}");
}
