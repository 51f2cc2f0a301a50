// `any(...)` nests a pipeline that runs on every isolated child op, whatever its type:
// here both functions (op-agnostic passes only).

// RUN: fuser-opt %s --pass-pipeline='builtin.module(any(cse))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(any(cse))' --dump-pass-pipeline -o %t 2>&1 | FileCheck %s --check-prefix=DUMP

// CHECK-LABEL: func.func @f
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @g
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    return

// DUMP:      Pass Manager with 1 passes:
// DUMP-NEXT: builtin.module(any(cse))

func.func @f(%a: i32) -> (i32, i32) {
  %0 = arith.muli %a, %a : i32
  %1 = arith.muli %a, %a : i32
  return %0, %1 : i32, i32
}
func.func @g(%a: i32) -> (i32, i32) {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  return %0, %1 : i32, i32
}
