// RUN: fuser-opt --no-implicit-module --canonicalize --cse %s | FileCheck %s
// RUN: not fuser-opt --no-implicit-module --symbol-dce %s 2>&1 | FileCheck %s --check-prefix=DCE
// RUN: not fuser-opt --no-implicit-module --pass-pipeline='builtin.module(canonicalize)' %s 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not fuser-opt --no-implicit-module --pass-pipeline='builtin.module()' %s 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: fuser-opt --no-implicit-module --pass-pipeline='func.func(canonicalize)' %s | FileCheck %s --check-prefix=FUNC

// Under --no-implicit-module, pass flags are anchored on the root op, whatever it is (here a
// function), as in mlir-opt-19; a --pass-pipeline keeps its explicit anchor, and one anchored
// elsewhere is an error, even when empty. Expectations from mlir-opt-19.

// CHECK-NOT: module
// CHECK-LABEL: func.func @fold(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:    return %1 : i32
// CHECK-NEXT:  }
// DCE: no-implicit-module-passes.mlir:[[@LINE+4]]:1: error: 'func.func' op  was scheduled to run under SymbolDCE, but does not define a symbol table
// DCE: note: see current operation:
// ANCHOR: no-implicit-module-passes.mlir:[[@LINE+2]]:1: error: can't run 'builtin.module' pass manager on 'func.func' op
// FUNC: %0 = arith.addi %arg0, %arg0 : i32
func.func @fold(%a: i32) -> i32 {
  %c = arith.constant 0 : i32
  %0 = arith.addi %a, %c : i32
  %1 = arith.addi %0, %0 : i32
  %2 = arith.addi %0, %0 : i32
  %3 = arith.muli %1, %2 : i32
  return %3 : i32
}
