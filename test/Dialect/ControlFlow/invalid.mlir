// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @too_many_operands(%a: i32) {
  // expected-error @+1 {{branch has 2 operands for successor #0, but target block has 1}}
  cf.br ^bb1(%a, %a : i32, i32)
^bb1(%x: i32):
  return
}

// -----

func.func @wrong_type(%c: i1) {
  // expected-error @+1 {{type mismatch for bb argument #0 of successor #1}}
  cf.cond_br %c, ^bb1, ^bb2(%c : i1)
^bb1:
  return
^bb2(%x: i32):
  return
}

// -----

func.func @case_type(%c: i32) {
  // expected-error @+1 {{'cf.switch' op 'flag' type ('i32') should match case value type ('i64')}}
  "cf.switch"(%c)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<[1]> : vector<1xi64>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @case_count(%c: i32) {
  // expected-error @+1 {{'cf.switch' op number of case values (2) should match number of case destinations (1)}}
  "cf.switch"(%c)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<[1, 2]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @case_segments(%c: i32) {
  // expected-error @+1 {{'cf.switch' op caseOperands count (0) does not match with the total size (1) specified in attribute 'case_operand_segments'}}
  "cf.switch"(%c)[^bb1, ^bb1] <{case_operand_segments = array<i32: 1>, case_values = dense<[1]> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @assert_not_i1(%c: i32) {
  // expected-error @+1 {{'cf.assert' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "cf.assert"(%c) <{msg = "x"}> : (i32) -> ()
  return
}

// -----

func.func @assert_no_msg(%c: i1) {
  // expected-error @+1 {{'cf.assert' op requires attribute 'msg'}}
  "cf.assert"(%c) : (i1) -> ()
  return
}

// -----

func.func @switch_float_flag(%c: f32) {
  // expected-error @+1 {{invalid kind of type specified}}
  cf.switch %c : f32, [ default: ^bb1 ]
^bb1:
  return
}

// -----

func.func @switch_no_default(%c: i32) {
  cf.switch %c : i32, [
    // expected-error @+1 {{expected 'default'}}
    4: ^bb1
  ]
^bb1:
  return
}

// -----

func.func @switch_bad_case(%c: i32) {
  cf.switch %c : i32, [
    default: ^bb1,
    // expected-error @+1 {{expected integer value}}
    "x": ^bb1
  ]
^bb1:
  return
}
