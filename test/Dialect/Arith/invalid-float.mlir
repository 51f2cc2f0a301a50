// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %a, %a : i32
  return
}

// -----

func.func @f(%a: f32, %b: f64) {
  // expected-error @+1 {{'arith.subf' op requires the same type for all operands and results}}
  %0 = "arith.subf"(%a, %b) : (f32, f64) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.mulf' op expected 2 operands, but found 1}}
  %0 = "arith.mulf"(%a) : (f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.divf' op result #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.divf"(%a, %a) : (f32, f32) -> i32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.remf' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "arith.remf"(%a, %a) {fastmath = 3 : i32} : (f32, f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+2 {{expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  // expected-error @+1 {{failed to parse Arith_FastMathAttr parameter 'value' which is to be a `::mlir::arith::FastMathFlags`}}
  %0 = arith.maximumf %a, %a fastmath<bogus> : f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+2 {{expected valid keyword}}
  // expected-error @+1 {{failed to parse Arith_FastMathAttr parameter 'value' which is to be a `::mlir::arith::FastMathFlags`}}
  %0 = arith.minimumf %a, %a fastmath<> : f32
  return
}

// -----

func.func @f(%a: vector<4xf32>) {
  // expected-error @+1 {{'arith.maxnumf' op requires the same type for all operands and results}}
  %0 = "arith.maxnumf"(%a, %a) : (vector<4xf32>, vector<4xf32>) -> vector<2xf32>
  return
}

// -----

func.func @f(%a: f32, %i: index) {
  // expected-error @+1 {{'arith.minnumf' op operand #1 must be floating-point-like, but got 'index'}}
  %0 = "arith.minnumf"(%a, %i) : (f32, index) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.negf' op requires the same type for all operands and results}}
  %0 = "arith.negf"(%a) : (f32) -> f64
  return
}

// -----

func.func @f(%a: i64) {
  // expected-error @+1 {{'arith.negf' op operand #0 must be floating-point-like, but got 'i64'}}
  %0 = arith.negf %a : i64
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.negf' op requires a single operand}}
  %0 = "arith.negf"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]}}
  %0 = arith.cmpf slt, %a, %a : f32
  return
}

// -----

func.func @f(%a: f32, %b: f64) {
  // expected-error @+1 {{'arith.cmpf' op requires all operands to have the same type}}
  %0 = "arith.cmpf"(%a, %b) {predicate = 1 : i64} : (f32, f64) -> i1
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.cmpf' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
  %0 = "arith.cmpf"(%a, %a) {predicate = 16 : i64} : (f32, f32) -> i1
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.cmpf' op requires attribute 'predicate'}}
  %0 = "arith.cmpf"(%a, %a) : (f32, f32) -> i1
  return
}

// -----

func.func @f(%a: vector<4xf32>) {
  // expected-error @+1 {{'arith.cmpf' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpf"(%a, %a) {predicate = 1 : i64} : (vector<4xf32>, vector<4xf32>) -> i1
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.cmpf' op result #0 must be bool-like, but got 'f32'}}
  %0 = "arith.cmpf"(%a, %a) {predicate = 1 : i64} : (f32, f32) -> f32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.cmpf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "arith.cmpf"(%a, %a) {predicate = 1 : i64} : (i32, i32) -> i1
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.cmpf' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "arith.cmpf"(%a, %a) {fastmath = #arith.overflow<nsw>, predicate = 1 : i64} : (f32, f32) -> i1
  return
}
