// Scheduling a nested pipeline on ops that are not isolated from above fails on each such op,
// and a pipeline anchored on another op type than the input's top-level op is refused.

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(func.return(cse)))' --mlir-disable-threading 2>&1 | FileCheck %s
// RUN: not fuser-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=ANCHOR

// CHECK:      nesting-errors.mlir:[[# @LINE + 8]]:3: error: 'func.return' op trying to schedule a pass on an operation not marked as 'IsolatedFromAbove'
// CHECK-NEXT:   return
// CHECK-NEXT:   ^
// CHECK-NEXT: note: see current operation: "func.return"() : () -> ()

// ANCHOR:     nesting-errors.mlir:0:0: error: can't run 'func.func' pass manager on 'builtin.module' op
// ANCHOR-NOT: {{.}}
func.func @f() {
  return
}
