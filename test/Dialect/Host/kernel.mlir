// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// host.kernel: a named kernel with inputs, outputs, origin values and parameters.

// CHECK-LABEL: func.func @kernels(%arg0: !host.buf<4x8xf32>, %arg1: !host.buf<4x8xf32>, %arg2: !host.buf<4xf32>, %arg3: index) {
// CHECK-NEXT: host.kernel "softmax" (%arg0) into (%arg1) params {dims = array<i64: 1>} : (!host.buf<4x8xf32>) into (!host.buf<4x8xf32>)
// CHECK-NEXT: host.kernel "layer_norm" (%arg0) into (%arg1, %arg2, %arg2) params {dims = array<i64: 1>, epsilon = 1.000000e-05 : f64} : (!host.buf<4x8xf32>) into (!host.buf<4x8xf32>, !host.buf<4xf32>, !host.buf<4xf32>)
// CHECK-NEXT: host.kernel "dropout" (%arg0) into (%arg1) origin(%arg3, %arg3) params {global_shape = array<i64: 8, 8>} {test.tag} : (!host.buf<4x8xf32>) into (!host.buf<4x8xf32>)
// CHECK-NEXT: host.kernel "fill" () into (%arg2) : () into (!host.buf<4xf32>)
// GENERIC-LABEL: "func.func"
// GENERIC: "host.kernel"(%{{.*}}, %{{.*}}) <{kernel = "softmax", operandSegmentSizes = array<i32: 1, 1, 0>, params = {dims = array<i64: 1>}}> : (!host.buf<4x8xf32>, !host.buf<4x8xf32>) -> ()
// GENERIC: "host.kernel"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kernel = "dropout", operandSegmentSizes = array<i32: 1, 1, 2>, params = {global_shape = array<i64: 8, 8>}}> {test.tag} : (!host.buf<4x8xf32>, !host.buf<4x8xf32>, index, index) -> ()
// GENERIC: "host.kernel"(%{{.*}}) <{kernel = "fill", operandSegmentSizes = array<i32: 0, 1, 0>}> : (!host.buf<4xf32>) -> ()
func.func @kernels(%x: !host.buf<4x8xf32>, %y: !host.buf<4x8xf32>, %s: !host.buf<4xf32>, %i: index) {
  host.kernel "softmax" (%x) into (%y) params {dims = array<i64: 1>} : (!host.buf<4x8xf32>) into (!host.buf<4x8xf32>)
  host.kernel "layer_norm" (%x) into (%y, %s, %s) params {dims = array<i64: 1>, epsilon = 1.0e-5 : f64} : (!host.buf<4x8xf32>) into (!host.buf<4x8xf32>, !host.buf<4xf32>, !host.buf<4xf32>)
  host.kernel "dropout" (%x) into (%y) origin(%i, %i) params {global_shape = array<i64: 8, 8>} {test.tag} : (!host.buf<4x8xf32>) into (!host.buf<4x8xf32>)
  host.kernel "fill" () into (%s) : () into (!host.buf<4xf32>)
  return
}
