// The README's main example: examples/fold.mlir through canonicalize and cse.
// RUN: fuser-opt %S/../../examples/fold.mlir --pass-pipeline='builtin.module(func.func(canonicalize,cse))' | FileCheck %s

// CHECK-LABEL: func.func @fold(%arg0: i32, %arg1: index) -> (i32, i1, index)
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT:    %0 = arith.muli %arg0, %c5_i32 : i32
// CHECK-NEXT:    %1 = arith.addi %0, %0 : i32
// CHECK-NEXT:    %2 = arith.addi %arg1, %c3 : index
// CHECK-NEXT:    return %1, %true, %2 : i32, i1, index
// CHECK-NEXT:  }
