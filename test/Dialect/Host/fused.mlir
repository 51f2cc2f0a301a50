// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --canonicalize | FileCheck %s --check-prefix=CANON

// host.fused: a fused region with inputs, outputs, an origin and a body of fusion ops.

// CHECK-LABEL: func.func @regions
// CHECK: host.fused (%arg0, %arg1, %arg2, %arg3) into (%arg4) origin(%arg5, %arg5) {global_shape = array<i64: 8, 8>} : (!host.buf<4x8xbf16>, !host.view<4x8xbf16, strides = [0, 1]>, !host.buf<i64>, !host.buf<i64>) into (!host.buf<4x8xbf16>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4x8xbf16>, %[[B:.*]]: tensor<4x8xbf16>, %[[S:.*]]: tensor<i64>, %[[O:.*]]: tensor<i64>):
// CHECK-NEXT: %[[X:.*]] = fusion.add %[[A]], %[[B]]
// CHECK-NEXT: %[[D:.*]] = fusion.dropout %[[X]], %[[S]], %[[O]] p = 1.000000e-01
// CHECK-NEXT: host.yield %[[D]] : tensor<4x8xbf16>
// GENERIC: "host.fused"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{global_shape = array<i64: 8, 8>, operandSegmentSizes = array<i32: 4, 1, 2>}> ({
// GENERIC: "host.yield"(%{{.*}}) : (tensor<4x8xbf16>) -> ()
// An input nothing in the body reads any more is dropped by canonicalize.
// CANON-LABEL: func.func @unused
// CANON: host.fused (%arg0) into (%arg2) : (!host.buf<4xf32>) into (!host.buf<4xf32>) {
// CANON-NEXT: ^bb0(%[[A:.*]]: tensor<4xf32>):
// CANON-NEXT: %[[N:.*]] = fusion.neg %[[A]]
// CANON-NEXT: host.yield %[[N]]
func.func @regions(%x: !host.buf<4x8xbf16>, %b: !host.view<4x8xbf16, strides = [0, 1]>, %seed: !host.buf<i64>, %off: !host.buf<i64>, %y: !host.buf<4x8xbf16>, %o: index) {
  host.fused (%x, %b, %seed, %off) into (%y) origin(%o, %o) {global_shape = array<i64: 8, 8>} : (!host.buf<4x8xbf16>, !host.view<4x8xbf16, strides = [0, 1]>, !host.buf<i64>, !host.buf<i64>) into (!host.buf<4x8xbf16>) {
  ^bb0(%a: tensor<4x8xbf16>, %c: tensor<4x8xbf16>, %s: tensor<i64>, %f: tensor<i64>):
    %0 = fusion.add %a, %c : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
    %1 = fusion.dropout %0, %s, %f p = 0.1 : (tensor<4x8xbf16>, tensor<i64>, tensor<i64>) -> tensor<4x8xbf16>
    host.yield %1 : tensor<4x8xbf16>
  }
  return
}

func.func @unused(%x: !host.buf<4xf32>, %w: !host.buf<4xf32>, %y: !host.buf<4xf32>) {
  host.fused (%x, %w) into (%y) : (!host.buf<4xf32>, !host.buf<4xf32>) into (!host.buf<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %c: tensor<4xf32>):
    %0 = fusion.neg %a : (tensor<4xf32>) -> tensor<4xf32>
    %1 = fusion.exp %c : (tensor<4xf32>) -> tensor<4xf32>
    host.yield %0 : tensor<4xf32>
  }
  return
}

