// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'arith.andi' op operand #0 must be signless-integer-like, but got 'f32'}}
func.func @f(%a: f32) { %0 = arith.andi %a, %a : f32
 return }

// -----

// expected-error @+1 {{'arith.ori' op requires the same type for all operands and results}}
func.func @f(%a: i32, %b: i64) { %0 = "arith.ori"(%a, %b) : (i32, i64) -> i32
 return }

// -----

// expected-error @+1 {{'arith.xori' op expected 2 operands, but found 1}}
func.func @f(%a: i32) { %0 = "arith.xori"(%a) : (i32) -> i32
 return }

// -----

// expected-error @+2 {{expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
// expected-error @+1 {{failed to parse Arith_IntegerOverflowAttr parameter 'value' which is to be a `::mlir::arith::IntegerOverflowFlags`}}
func.func @f(%a: i32) { %0 = arith.shli %a, %a overflow<bogus> : i32
 return }

// -----

// expected-error @+1 {{'arith.shrsi' op requires the same type for all operands and results}}
func.func @f(%a: i32) { %0 = "arith.shrsi"(%a, %a) : (i32, i32) -> i64
 return }

// -----

// expected-error @+1 {{'arith.shrui' op operand #0 must be signless-integer-like, but got 'si32'}}
func.func @f(%a: si32) { %0 = "arith.shrui"(%a, %a) : (si32, si32) -> si32
 return }

// -----

// expected-error @+1 {{expected ':'}}
func.func @f(%a: i32) { %0 = arith.shrui %a, %a overflow<nsw> : i32
 return }

// -----

// expected-error @+2 {{expected valid keyword}}
// expected-error @+1 {{failed to parse Arith_IntegerOverflowAttr parameter 'value' which is to be a `::mlir::arith::IntegerOverflowFlags`}}
func.func @f(%a: i32) { %0 = arith.shli %a, %a overflow<> : i32
 return }
