// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
^bb0(%x: i64):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
func.func @f(i32) {
  return
}

// -----

// expected-error @+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @decl(i32)

// -----

// expected-error @+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"func.func"() <{arg_attrs = [{}, {}], function_type = (i32) -> (), sym_name = "g", sym_visibility = "private"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op visibility expected to be one of ["public", "private", "nested"], but got "hidden"}}
"func.func"() <{function_type = () -> (), sym_name = "g", sym_visibility = "hidden"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op attribute 'function_type' failed to satisfy constraint: type attribute of function type}}
"func.func"() <{function_type = i32, sym_name = "g", sym_visibility = "private"}> ({
}) : () -> ()

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'func.return' op has 1 operands, but enclosing function (@f) returns 0}}
  return %a : i32
}

// -----

func.func @f(%a: i64) -> i32 {
  // expected-error @+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @f}}
  return %a : i64
}

// -----

// expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
"func.return"() : () -> ()

// -----

func.func @f(%a: i32) -> i32 {
  // expected-error @+1 {{'func.call' op 'foo' does not reference a valid function}}
  %0 = call @foo(%a) : (i32) -> i32
  return %0 : i32
}

// -----

func.func @f(%a: i32) -> i32 {
  // expected-error @+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = call @f(%a, %a) : (i32, i32) -> i32
  return %0 : i32
}

// -----

func.func private @g(i32) -> i32
func.func @f(%a: i64) -> i32 {
  // expected-error @+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  %0 = call @g(%a) : (i64) -> i32
  return %0 : i32
}

// -----

func.func @f(%a: i32) -> i32 {
  // expected-error @+1 {{'func.call' op incorrect number of results for callee}}
  %0:2 = call @f(%a) : (i32) -> (i32, i32)
  return %a : i32
}

// -----

func.func @f(%a: i32) -> i32 {
  // expected-error @+3 {{'func.call' op result type mismatch at index 0}}
  // expected-note @+2 {{      op result types: 'i64'}}
  // expected-note @+1 {{function result types: 'i32'}}
  %0 = call @f(%a) : (i32) -> i64
  return %a : i32
}

// -----

func.func @f(%a: i32) -> i32 {
  // expected-error @+1 {{'func.call' op requires attribute 'callee'}}
  %0 = "func.call"(%a) : (i32) -> i32
  return %0 : i32
}

// -----

// expected-error @+1 {{'sym_visibility' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func @f() attributes {sym_visibility = "private"} {
  return
}

// -----

// expected-error @+1 {{expected SSA identifier}}
func.func @f(%a: i32, i32) {
  return
}
