// RUN: not fuser-opt %s 2>&1 | FileCheck %s

// A diagnostic at a fused location shows the call stack of the first call site among its
// parts as `called from` notes (mlir-opt-19's source manager handler).

func.func @constant_out_of_range() {
  // CHECK: mysource1:0:0: error: 'arith.constant' op failed to verify that all of {value, result} have same type
  // CHECK-NEXT: mysource2:1:0: note: called from
  // CHECK-NEXT: mysource3:2:0: note: called from
  // CHECK-NEXT: mysource1:0:0: note: see current operation
  %x = "arith.constant"() {value = 100} : () -> i1 loc(fused["bar", callsite("foo"("mysource1":0:0) at callsite("mysource2":1:0 at "mysource3":2:0))])
  return
}
