// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --canonicalize | FileCheck %s --check-prefix=CANON

// func.constant names its results %f, %f_0, ...; call_indirect of a constant becomes a call.

func.func private @target(i32) -> i32

// CHECK-LABEL: func.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:    %f = constant @target : (i32) -> i32
// CHECK-NEXT:    %f_0 = constant @target : (i32) -> i32
// CHECK-NEXT:    %0 = call_indirect %f(%arg0) {x} : (i32) -> i32
// CHECK-NEXT:    %1 = call_indirect %f_0(%0) : (i32) -> i32
// CHECK-NEXT:    return %1 : i32
// GENERIC:       %0 = "func.constant"() <{value = @target}> : () -> ((i32) -> i32)
// GENERIC:       %2 = "func.call_indirect"(%0, %arg0) {x} : ((i32) -> i32, i32) -> i32
// CANON-LABEL: func.func @f(%arg0: i32) -> i32 {
// CANON-NEXT:    %0 = call @target(%arg0) : (i32) -> i32
// CANON-NEXT:    %1 = call @target(%0) : (i32) -> i32
// CANON-NEXT:    return %1 : i32
func.func @f(%a: i32) -> i32 {
  %f = func.constant @target : (i32) -> i32
  %g = constant @target : (i32) -> i32
  %r = func.call_indirect %f(%a) {x} : (i32) -> i32
  %s = "func.call_indirect"(%g, %r) : ((i32) -> i32, i32) -> i32
  return %s : i32
}
