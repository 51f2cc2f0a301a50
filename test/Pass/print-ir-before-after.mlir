// --mlir-print-ir-before=<pass> / --mlir-print-ir-after=<pass> dump only around the named
// passes; --mlir-print-ir-before-all dumps before every pass.

// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --mlir-print-ir-before=cse --mlir-print-ir-after=canonicalize -o %t 2>&1 | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --mlir-print-ir-before-all -o %t 2>&1 | FileCheck %s --check-prefix=BEFORE

// CHECK:      // -----// IR Dump Before CSE (cse) //----- //
// CHECK-NEXT: func.func @f(%arg0: i32) -> i32 {
// CHECK:      // -----// IR Dump Before CSE (cse) //----- //
// CHECK-NEXT: func.func @g(%arg0: i32) -> i32 {
// CHECK-NOT:  IR Dump After CSE
// CHECK:      // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// CHECK-NEXT: module {
// CHECK-NOT:  IR Dump

// BEFORE:      // -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NEXT: func.func @f(%arg0: i32) -> i32 {
// BEFORE-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// BEFORE-NEXT:   %1 = arith.addi %arg0, %arg0 : i32
// BEFORE:      // -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NEXT: func.func @g(%arg0: i32) -> i32 {
// BEFORE:      // -----// IR Dump Before Canonicalizer (canonicalize) //----- //
// BEFORE-NEXT: module {
// BEFORE-NEXT:   func.func @f(%arg0: i32) -> i32 {
// BEFORE-NEXT:     %0 = arith.addi %arg0, %arg0 : i32
// BEFORE-NEXT:     return %0 : i32
// BEFORE-NOT:  IR Dump

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  return %1 : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
