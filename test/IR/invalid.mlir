// RUN: fuser-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// Several undeclared values in one file: each is reported, in source order.

// expected-error @+1 {{use of undeclared SSA value name}}
"fz.a"(%x) : (i32) -> ()
// expected-error @+1 {{use of undeclared SSA value name}}
"fz.b"(%y, %x) : (i32, i32) -> ()
// expected-error @+1 {{use of undeclared SSA value name}}
"fz.c"(%z) : (i64) -> ()

// -----

// Several undefined blocks of one region: each reference is reported.

"fz.r"() ({
  // expected-error @+1 {{reference to an undefined block}}
  "fz.br"() [^bb5] : () -> ()
^bb1:
  // expected-error @+1 {{reference to an undefined block}}
  "fz.br"() [^bb7,
             ^bb6] : () -> () // expected-error {{reference to an undefined block}}
}) : () -> ()

// -----

func.func @bad_flag(%a: i32) -> i32 {
  // expected-error @+2 {{custom op 'arith.addi' expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
  // expected-error @+1 {{custom op 'arith.addi' failed to parse Arith_IntegerOverflowAttr parameter 'value' which is to be a `::mlir::arith::IntegerOverflowFlags`}}
  %0 = arith.addi %a, %a overflow<wrap> : i32
  return %0 : i32
}

// -----

func.func @unknown_arith_op(%a: i32) -> i32 {
  // expected-error @+1 {{unregistered operation 'arith.foo' found in dialect ('arith') that does not allow unknown operations}}
  %0 = "arith.foo"(%a) : (i32) -> i32
  return %0 : i32
}

// -----

// expected-error @+1 {{unregistered operation 'builtin.whatever' found in dialect ('builtin') that does not allow unknown operations}}
"builtin.whatever"() : () -> ()

// -----

func.func @type_mismatch(%a: i32, %b: i64) -> i32 {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return %0 : i32
}

// -----

func.func @dominance() {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "fz.use"(%v) : (i32) -> ()
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %v = "fz.def"() : () -> i32
  return
}

// -----

func.func @redefined() {
  // expected-note @+1 {{previously defined here}}
  %0 = "fz.a"() : () -> i32
  // expected-error @+1 {{redefinition of SSA value '%0'}}
  %0 = "fz.b"() : () -> i32
  return
}

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"fz.a"() {v = 256 : i8} : () -> ()

// -----

// A tab before the error does not change the column.
	// expected-error @+1 {{expected non-function type}}
"fz.a"() :	(i32) -> (%y)

// -----

// expected-error @+1 {{expected '"' in string literal}}
"fz.a"() {s = "abc
