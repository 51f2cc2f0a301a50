// With --mlir-print-ir-after-change, an "after" dump is printed only when the pass changed
// the op it ran on: the second cse and the canonicalize on the unchanged @g print nothing.

// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse,cse,canonicalize))' --mlir-print-ir-after-all --mlir-print-ir-after-change -o %t 2>&1 | FileCheck %s

// CHECK:      // -----// IR Dump After CSE (cse) //----- //
// CHECK-NEXT: func.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:   %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:   %0 = arith.addi %arg0, %c0_i32 : i32
// CHECK-NEXT:   return %0 : i32
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// CHECK-NEXT: func.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:   return %arg0 : i32
// CHECK-NEXT: }
// CHECK-NOT:  IR Dump

func.func @f(%a: i32) -> i32 {
  %c = arith.constant 0 : i32
  %0 = arith.addi %a, %c : i32
  %1 = arith.addi %a, %c : i32
  return %1 : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
