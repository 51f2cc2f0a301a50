// RUN: fuser-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: fuser-opt %s --allow-unregistered-dialect -mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL

// distinct[N]<attr>: one attribute per id, renumbered in first-print order; aliased as
// #distinct unless the inner attribute is unit (printed `distinct[N]<>`).

// CHECK: #distinct = distinct[0]<42 : i32>
// CHECK-NEXT: #distinct1 = distinct[1]<1 : i64>
// CHECK-NEXT: #distinct2 = distinct[2]<42 : i32>
// CHECK: "foo.op"() {a = #distinct, b = #distinct1, c = #distinct} : () -> ()
// CHECK-NEXT: "foo.op"() {a = [#distinct2, distinct[3]<>]} : () -> ()
// LOCAL: "foo.op"() {a = distinct[0]<42 : i32>, b = distinct[1]<1 : i64>, c = distinct[0]<42 : i32>} : () -> ()
// LOCAL-NEXT: "foo.op"() {a = [distinct[2]<42 : i32>, distinct[3]<>]} : () -> ()
"foo.op"() {a = distinct[7]<42 : i32>, b = distinct[3]<1>, c = distinct[7]<42 : i32>} : () -> ()
"foo.op"() {a = [distinct[9]<42 : i32>, distinct[0]<unit>]} : () -> ()
