// RUN: fuser-opt --allow-unregistered-dialect %s --pass-pipeline='builtin.module(dce)' --split-input-file | FileCheck %s

// `dce` is fuser's own pass (no mlir-opt equivalent): unused pure ops are erased, transitively;
// ops that may have side effects (unregistered ones included) stay.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[X:.*]] = "fz.src"() : () -> i32
// CHECK-NEXT:    %[[K:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:    "fz.sink"(%[[K]]) : (i32) -> ()
// CHECK-NEXT:    return
func.func @chain() {
  %x = "fz.src"() : () -> i32
  %a = arith.addi %x, %x : i32
  %b = arith.muli %a, %a : i32
  %c = arith.subi %b, %x : i32
  %k = arith.addi %x, %x : i32
  "fz.sink"(%k) : (i32) -> ()
  return
}

// -----

// Blocks unreachable from the entry block are erased.
// CHECK-LABEL: func.func @blocks
// CHECK-NEXT:    "fz.br"()[^bb1] : () -> ()
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @blocks(%arg0: i32) {
  "fz.br"() [^bb2] : () -> ()
^bb1:
  "fz.sink"(%arg0) : (i32) -> ()
  "fz.br"() [^bb2] : () -> ()
^bb2:
  return
}
