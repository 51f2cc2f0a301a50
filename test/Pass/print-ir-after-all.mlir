// --mlir-print-ir-after-all prints (to stderr) the op each pass ran on, after it ran: one
// dump per function for a nested pass, in local scope; the dump of the root op ends with
// two empty lines.

// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --mlir-print-ir-after-all --mlir-disable-threading -o %t 2>&1 | FileCheck %s

// CHECK:      // -----// IR Dump After CSE (cse) //----- //
// CHECK-NEXT: func.func @f(%arg0: i32) -> i32 attributes {m = affine_map<(d0) -> (d0)>} {
// CHECK-NEXT:   %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:   %0 = arith.addi %arg0, %c0_i32 : i32
// CHECK-NEXT:   %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:   return %1 : i32
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----// IR Dump After CSE (cse) //----- //
// CHECK-NEXT: func.func @g(%arg0: i32) -> i32 {
// CHECK-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:   %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:   return %1 : i32
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// CHECK-NEXT: #map = affine_map<(d0) -> (d0)>
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%arg0: i32) -> i32 attributes {m = #map} {
// CHECK-NEXT:     %0 = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @g(%arg0: i32) -> i32 {
// CHECK-NEXT:     %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:     %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:     return %1 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-EMPTY:
// CHECK-NOT:  {{.}}

func.func @f(%a: i32) -> i32 attributes {m = affine_map<(d0) -> (d0)>} {
  %c = arith.constant 0 : i32
  %0 = arith.addi %a, %c : i32
  %1 = arith.addi %a, %c : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
func.func @g(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
