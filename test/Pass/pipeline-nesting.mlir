// A nested pipeline runs on the direct children of its parent op that have the named op
// type; `builtin.module(func.func(...))` does not reach functions of an inner module.

// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse))' | FileCheck %s --check-prefix=FUNC
// RUN: fuser-opt %s --pass-pipeline='builtin.module(builtin.module(func.func(cse)))' | FileCheck %s --check-prefix=INNER
// RUN: fuser-opt %s --pass-pipeline='builtin.module(cse)' | FileCheck %s --check-prefix=ALL

// FUNC-LABEL: func.func @outer
// FUNC-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// FUNC-NEXT:    return %[[A]], %[[A]]
// FUNC-LABEL: func.func @inner
// FUNC-NEXT:    arith.addi
// FUNC-NEXT:    arith.addi
// FUNC-NEXT:    return

// INNER-LABEL: func.func @outer
// INNER-NEXT:    arith.addi
// INNER-NEXT:    arith.addi
// INNER-NEXT:    return
// INNER-LABEL: func.func @inner
// INNER-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// INNER-NEXT:    return %[[A]], %[[A]]

// ALL-LABEL: func.func @outer
// ALL-NEXT:    arith.addi
// ALL-NEXT:    return
// ALL-LABEL: func.func @inner
// ALL-NEXT:    arith.addi
// ALL-NEXT:    return

func.func @outer(%a: i32) -> (i32, i32) {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  return %0, %1 : i32, i32
}
module @m {
  func.func @inner(%a: i32) -> (i32, i32) {
    %0 = arith.addi %a, %a : i32
    %1 = arith.addi %a, %a : i32
    return %0, %1 : i32, i32
  }
}
