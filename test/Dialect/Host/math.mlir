// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// The elementwise kinds of the math ops (fusion/math.rs) and host.fill.
// CHECK-LABEL: func.func @kinds
// CHECK-NEXT: host.elementwise exp %arg0 into %arg0 : !host.buf<4xf32>, !host.buf<4xf32>
// CHECK-NEXT: host.elementwise gelu_tanh %arg0 into %arg0 : !host.buf<4xf32>, !host.buf<4xf32>
// CHECK-NEXT: host.elementwise pow %arg0, %arg0 into %arg0 : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
// CHECK-NEXT: host.elementwise abs %arg2 into %arg2 : !host.buf<4xi8>, !host.buf<4xi8>
// CHECK-NEXT: host.elementwise lt %arg0, %arg0 into %arg1 : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xi1>
// CHECK-NEXT: host.elementwise where %arg1, %arg0, %arg0 into %arg0 : !host.buf<4xi1>, !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
// CHECK-NEXT: host.fill %arg0 {value = 2.500000e-01 : f32} : !host.buf<4xf32>
// CHECK-NEXT: host.fill %arg1 {value = true} : !host.buf<4xi1>
// GENERIC: "host.elementwise"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kind = "where"}> : (!host.buf<4xi1>, !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>) -> ()
// GENERIC: "host.fill"(%{{.*}}) <{value = 2.500000e-01 : f32}> : (!host.buf<4xf32>) -> ()
func.func @kinds(%a: !host.buf<4xf32>, %m: !host.buf<4xi1>, %i: !host.buf<4xi8>) {
  host.elementwise exp %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  host.elementwise gelu_tanh %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  host.elementwise pow %a, %a into %a : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  host.elementwise abs %i into %i : !host.buf<4xi8>, !host.buf<4xi8>
  host.elementwise lt %a, %a into %m : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xi1>
  host.elementwise where %m, %a, %a into %a : !host.buf<4xi1>, !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  host.fill %a {value = 0.25 : f32} : !host.buf<4xf32>
  host.fill %m {value = true} : !host.buf<4xi1>
  return
}
