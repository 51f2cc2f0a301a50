// RUN: fuser-opt --cse %s | FileCheck %s

// A commutative op with its operands swapped is the same expression (mlir-opt-19 sorts the
// operands of `Commutative` ops when it hashes and compares them), in one block and across a
// dominating block; a non-commutative op with swapped operands is not. Expected output from
// mlir-opt-19.

// CHECK-LABEL: func.func @same_block(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i32) {
// CHECK-NEXT:    %0 = arith.xori %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.subi %arg0, %arg1 : i32
// CHECK-NEXT:    %2 = arith.subi %arg1, %arg0 : i32
// CHECK-NEXT:    return %0, %0, %1, %2 : i32, i32, i32, i32
func.func @same_block(%x: i32, %y: i32) -> (i32, i32, i32, i32) {
  %a = arith.xori %x, %y : i32
  %b = arith.xori %y, %x : i32
  %c = arith.subi %x, %y : i32
  %d = arith.subi %y, %x : i32
  return %a, %b, %c, %d : i32, i32, i32, i32
}

// CHECK-LABEL: func.func @dominating(%arg0: i32, %arg1: i32, %arg2: i1) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    cf.cond_br %arg2, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    return %0 : i32
func.func @dominating(%x: i32, %y: i32, %p: i1) -> i32 {
  %a = arith.addi %x, %y : i32
  cf.cond_br %p, ^bb1, ^bb2
^bb1:
  %b = arith.addi %y, %x : i32
  return %b : i32
^bb2:
  return %a : i32
}
