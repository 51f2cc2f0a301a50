// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func private @target(i32) -> i32
func.func @f(%a: i32) {
  // expected-error @+1 {{'func.constant' op reference to function with mismatched type}}
  %f = func.constant @target : (i32) -> i64
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'func.constant' op reference to undefined function 'nope'}}
  %f = func.constant @nope : (i32) -> i64
  return
}

// -----

func.func @f(%a: i32, %f: (i32) -> i32) {
  // expected-error @+1 {{'func.call_indirect' op failed to verify that callee input types match argument types}}
  %r = "func.call_indirect"(%f, %f) : ((i32) -> i32, (i32) -> i32) -> i32
  return
}

// -----

func.func @f(%a: i32, %f: (i32) -> i32) {
  // expected-error @+1 {{'func.call_indirect' op failed to verify that callee result types match result types}}
  %r = "func.call_indirect"(%f, %a) : ((i32) -> i32, i32) -> i64
  return
}

// -----

func.func @f(%a: i32, %f: i32) {
  // expected-error @+1 {{'func.call_indirect' op operand #0 must be function type, but got 'i32'}}
  %r = "func.call_indirect"(%f, %a) : (i32, i32) -> i64
  return
}
