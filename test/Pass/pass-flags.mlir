// Registered passes as flags build a `builtin.module(...)` pipeline in flag order; options
// go after `=`.

// RUN: fuser-opt %s --cse --canonicalize | FileCheck %s
// RUN: fuser-opt %s --cse --canonicalize='max-iterations=3 top-down=false' --dump-pass-pipeline -o %t 2>&1 | FileCheck %s --check-prefix=DUMP

// CHECK-LABEL: func.func @f
// CHECK-NEXT:    %[[M:.*]] = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:    return %[[M]] : i32

// DUMP:      Pass Manager with 2 passes:
// DUMP-NEXT: builtin.module(cse,canonicalize{{[{] *}}max-iterations=3 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=false})

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  %1 = arith.addi %a, %c0 : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
