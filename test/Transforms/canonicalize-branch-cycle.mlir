// RUN: fuser-opt --canonicalize %s | FileCheck %s

// A branch into a cycle of empty blocks: forwarding it through the cycle never reaches a
// fixpoint (mlir-opt-19 runs forever on this input). canonicalize stops after its rewrite
// budget and prints a valid function with the cycle kept; the expected output is fuser's own.

// CHECK-LABEL: func.func @f(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1, ^bb3
// CHECK-NEXT:  ^bb1:  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:    cf.br ^bb2
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    cf.br ^bb1
// CHECK-NEXT:  ^bb3:  // pred: ^bb0
// CHECK-NEXT:    return %arg0 : i32
func.func @f(%x: i32, %p: i1) -> i32 {
  cf.cond_br %p, ^bb1, ^bb4
^bb1:
  cf.br ^bb3(%x : i32)
^bb3(%a4: i32):
  cf.br ^bb1
^bb4:
  return %x : i32
}
