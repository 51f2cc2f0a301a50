// An invalid inherent attribute written in a generic op's dictionary is reported while parsing,
// at the op's name and without a `see current operation` note, as mlir-opt-19 reports it.

// RUN: not fuser-opt %s 2>&1 | FileCheck %s

// CHECK: invalid-generic-props.mlir:[[@LINE+4]]:8: error: 'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
// CHECK-NEXT: "arith.cmpi"(%a, %a) {predicate = 42} : (i32, i32) -> i1
// CHECK-NOT: see current operation
func.func @f(%a: i32) -> i1 {
  %r = "arith.cmpi"(%a, %a) {predicate = 42} : (i32, i32) -> i1
  return %r : i1
}
