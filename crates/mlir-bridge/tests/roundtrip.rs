//! Lossless conversion: MLIR's generic text with debug info and fuser's text of the
//! converted IR are byte-identical, from MLIR to fuser and from fuser to MLIR, on the
//! examples and on a module with every kind of location.

mod common;

use common::*;
use fuser_mlir_bridge::text::{generic_text, parse_module};
use fuser_mlir_bridge::{to_fuser, to_mlir};
use fuser_mlir_text::runner::generic_text as fuser_generic_text;

/// Every location kind, a nested region, block arguments and successors, an unregistered
/// op with an attribute alias, and a fusion op.
const LOCATIONS: &str = r##"#map = affine_map<(d0) -> (d0 * 2)>
module attributes {test.flag} {
  "fusion.mesh"() <{devices = array<i64: 0, 1>, shape = array<i64: 2>, sym_name = "tp"}> : () -> () loc("mesh")
  func.func @f(%a: i32 loc("arg"("x.mlir":1:2)), %b: i32) -> i32 {
    %c = arith.addi %a, %b : i32 loc(callsite("callee" at "caller.mlir":7:9))
    cf.br ^bb1(%c : i32) loc(fused["a.mlir":1:1, "b.mlir":2:2])
  ^bb1(%d: i32):
    "test.unknown"() {m = #map} : () -> () loc(fused<"meta">["c.mlir":3:3])
    return %d : i32 loc(unknown)
  } loc("f.mlir":4:5)
}
"##;

fn assert_lossless(source: &str) {
    let context = mlir_context();
    let module = parse_module(&context, source).unwrap_or_else(|e| panic!("MLIR parses: {e}"));
    let mlir_text = generic_text(&module.as_operation()).unwrap();
    assert!(mlir_text.contains("loc("), "debug info is printed");

    // MLIR -> fuser: fuser prints the converted IR exactly as MLIR printed it.
    let ctx = fuser_context();
    let (ir, root) = to_fuser(&ctx, module.as_operation()).unwrap_or_else(|e| panic!("to fuser: {e}"));
    assert_eq!(fuser_generic_text(&ctx, &ir, root), mlir_text, "MLIR -> fuser");

    // fuser -> MLIR: MLIR prints the converted IR exactly as fuser printed it.
    let back = to_mlir(&context, &ctx, &ir, root).unwrap_or_else(|e| panic!("to MLIR: {e}"));
    assert_eq!(generic_text(&back.as_operation()).unwrap(), mlir_text, "fuser -> MLIR");
}

#[test]
fn examples_convert_losslessly_both_ways() {
    for name in EXAMPLES {
        assert_lossless(&generic_example(name));
    }
}

#[test]
fn every_location_kind_survives_both_ways() {
    assert_lossless(LOCATIONS);
}

#[test]
fn fuser_parsed_programs_convert_losslessly() {
    // Starting from fuser: a file parsed by fuser, with its file locations, crosses to MLIR
    // and MLIR prints what fuser prints.
    let ctx = fuser_context();
    let context = mlir_context();
    for name in EXAMPLES {
        let (ir, root) = parse_fuser(&ctx, name, &example(name));
        let fuser_text = fuser_generic_text(&ctx, &ir, root);
        assert!(fuser_text.contains(&format!("loc(\"{name}\":")), "file locations are printed");
        let module = to_mlir(&context, &ctx, &ir, root).unwrap();
        assert_eq!(generic_text(&module.as_operation()).unwrap(), fuser_text, "{name}");
    }
}

#[test]
fn conversion_errors_carry_the_other_sides_diagnostics() {
    let context = mlir_context();
    let err = parse_module(&context, "func.func @f() { %0 = arith.constant 1 : i32 }").unwrap_err();
    assert!(!err.diagnostics.is_empty(), "{err}");

    // An op fuser knows but MLIR does not verify the same way: fuser's verifier is not
    // run by the conversion, so the failure comes from fuser's parser only for bad text.
    let ctx = fuser_context();
    let module = parse_module(&context, "\"test.op\"() {a = #fusion.shard<@tp, [[DIDq]]>} : () -> ()").unwrap();
    let Err(err) = to_fuser(&ctx, module.as_operation()) else { panic!("fuser accepted a bad shard") };
    assert!(err.to_string().contains("fuser could not parse"), "{err}");
    assert!(!err.diagnostics.is_empty());
}
