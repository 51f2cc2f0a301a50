// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.maxsi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = arith.maxsi %a, %a : f32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.addui_extended' op result #1 must be bool-like, but got 'i32'}}
  %r:2 = arith.addui_extended %a, %a : i32, i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.addui_extended' op failed to verify that all of {lhs, rhs, sum} have same type}}
  %r:2 = "arith.addui_extended"(%a, %a) : (i32, i32) -> (i64, i1)
  return
}

// -----

func.func @f(%v: vector<3xi32>) {
  // expected-error @+1 {{'arith.addui_extended' op if an operand is non-scalar, then all results must be non-scalar}}
  %r:2 = arith.addui_extended %v, %v : vector<3xi32>, i1
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.addui_extended' op if a result is non-scalar, then at least one operand must be non-scalar}}
  %r:2 = arith.addui_extended %a, %a : i32, vector<3xi1>
  return
}

// -----

func.func @f(%t: tensor<3xi32>) {
  // expected-error @+1 {{'arith.addui_extended' op all non-scalar operands/results must have the same shape and base type}}
  %r:2 = arith.addui_extended %t, %t : tensor<3xi32>, vector<3xi1>
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.mulsi_extended' op failed to verify that all of {lhs, rhs, low, high} have same type}}
  %r:2 = "arith.mulsi_extended"(%a, %a) : (i32, i32) -> (i32, i64)
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{custom op 'arith.cmpi' 'lhs' must be signless-integer-like, but got 'f32'}}
  %r = arith.cmpi eq, %a, %a : f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{custom op 'arith.cmpf' 'lhs' must be floating-point-like, but got 'i32'}}
  %r = arith.cmpf oeq, %a, %a : i32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'arith.constant' op intializing scalable vectors with elements attribute is not supported unless it's a vector splat}}
  %c = arith.constant dense<[1, 2]> : vector<[2]xi32>
  return
}

// -----

func.func @f(%a: vector<[4]xi32>) {
  // expected-error @+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %a : vector<[4]xi32> to vector<4xi64>
  return
}

// -----

func.func @f(%a: tensor<2xf32, "enc">) {
  // expected-error @+1 {{'arith.extf' op operand type 'tensor<2xf32, "enc">' and result type 'tensor<2xf64, "other">' are cast incompatible}}
  %0 = arith.extf %a : tensor<2xf32, "enc"> to tensor<2xf64, "other">
  return
}

// -----

func.func @f(%a: tensor<index>) {
  // expected-error @+1 {{'arith.index_cast' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.index_cast %a : tensor<index> to tensor<2xi64>
  return
}

// -----

func.func @f(%c: tensor<8xi1, "a">, %x: tensor<8xi32, "b">) {
  // expected-error @+1 {{'arith.select' op expected condition type to have the same shape as the result type, expected 'tensor<8xi1, "b">', but got 'tensor<8xi1, "a">'}}
  %0 = arith.select %c, %x, %x : tensor<8xi1, "a">, tensor<8xi32, "b">
  return
}

// -----

func.func @f(%c: vector<4xi1>, %t: tensor<4xi32>) {
  // expected-error @+1 {{'arith.select' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "arith.select"(%c, %t, %t) : (vector<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @f(%t: tensor<4xi32, "a">) {
  // expected-error @+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%t, %t) {predicate = 0 : i64} : (tensor<4xi32, "a">, tensor<4xi32, "a">) -> tensor<4xi1, "b">
  return
}
