// --mlir-print-ir-after-failure dumps the op a failing pass ran on, with "Failed" in the
// header. canonicalize{test-convergence} fails when one iteration is not enough.
// (fuser-opt also reports why it failed; mlir-opt-19 fails silently.)

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(cse),canonicalize{test-convergence max-iterations=1})' --mlir-print-ir-after-failure -o %t 2>&1 | FileCheck %s

// CHECK-NOT:  IR Dump After CSE
// CHECK:      // -----// IR Dump After Canonicalizer Failed (canonicalize) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:     return %arg0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-EMPTY:
// CHECK-NOT:  IR Dump

func.func @f(%a: i32) -> i32 {
  %c = arith.constant 0 : i32
  %0 = arith.addi %a, %c : i32
  %1 = arith.addi %0, %c : i32
  return %1 : i32
}
