// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @f(%a: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.elementwise' op 'lt' writes an 'i1' output, got 'f32'}}
  host.elementwise lt %a, %a into %a : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>, %i: !host.buf<4xi32>, %m: !host.buf<4xi1>) {
  // expected-error @+1 {{'host.elementwise' op input #0 and input #1 element types differ: 'f32' vs 'i32'}}
  host.elementwise eq %a, %i into %m : !host.buf<4xf32>, !host.buf<4xi32>, !host.buf<4xi1>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.elementwise' op the condition (input #0) must have element type 'i1', got 'f32'}}
  host.elementwise where %a, %a, %a into %a : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%i: !host.buf<4xi32>) {
  // expected-error @+1 {{'host.elementwise' op 'exp' needs a float element type, got 'i32'}}
  host.elementwise exp %i into %i : !host.buf<4xi32>, !host.buf<4xi32>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.elementwise' op 'where' takes 3 input(s), got 2}}
  host.elementwise where %a, %a into %a : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.fill' op 'value' has type 'i32', but the element type is 'f32'}}
  host.fill %a {value = 1 : i32} : !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.fill' op requires attribute 'value'}}
  host.fill %a : !host.buf<4xf32>
  return
}
