// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: module @outer attributes {test.flag} {
// GENERIC-LABEL: "builtin.module"() <{sym_name = "outer"}> ({
module @outer attributes {test.flag} {
  // CHECK-NEXT: module {
  // CHECK-NEXT: }
  // GENERIC: "builtin.module"() ({
  // GENERIC-NEXT: ^bb0:
  // GENERIC-NEXT: }) : () -> ()
  module {
  }
  // CHECK-NEXT: module @inner attributes {sym_visibility = "private", test.x = 1 : i64} {
  // GENERIC: "builtin.module"() <{sym_name = "inner", sym_visibility = "private"}> ({
  // GENERIC: }) {test.x = 1 : i64} : () -> ()
  module @inner attributes {sym_visibility = "private", test.x = 1} {
    // CHECK-NEXT: func.func private @decl(i32) -> index
    func.func private @decl(i32) -> index
  }
  // CHECK: func.func @casts(%[[A:.*]]: i32, %[[B:.*]]: i1) -> i64 {
  func.func @casts(%a: i32, %b: i1) -> i64 {
    // CHECK-NEXT: %[[C:.*]] = builtin.unrealized_conversion_cast %[[A]], %[[B]] : i32, i1 to i64
    // GENERIC: "builtin.unrealized_conversion_cast"(%{{.*}}, %{{.*}}) : (i32, i1) -> i64
    %0 = builtin.unrealized_conversion_cast %a, %b : i32, i1 to i64
    // CHECK-NEXT: %{{.*}}:2 = builtin.unrealized_conversion_cast %[[C]] : i64 to i32, i1
    %1:2 = builtin.unrealized_conversion_cast %0 : i64 to i32, i1
    // CHECK-NEXT: %{{.*}} = builtin.unrealized_conversion_cast to i32
    %2 = builtin.unrealized_conversion_cast to i32
    // CHECK-NEXT: return %[[C]] : i64
    return %0 : i64
  }
}
