// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Round trip of the reductions (max, min, mean, var), softmax, log_softmax, cross_entropy and
// the vocab-parallel phases of cross_entropy.

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: %0 = fusion.max %arg0 dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = fusion.min %arg0 dims = [0, 1] keep_dims : (tensor<4x8xf32>) -> tensor<1x1xf32>
// CHECK-NEXT: %2 = fusion.max %arg1 dims = [0] : (tensor<4x8xi32>) -> tensor<8xi32>
// CHECK-NEXT: %3 = fusion.mean %arg0 dims = [1] keep_dims : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %4 = fusion.var %arg0 dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: %5 = fusion.var %arg0 dims = [0, 1] {correction = 0 : i64} : (tensor<4x8xf32>) -> tensor<f32>
// CHECK-NEXT: %6 = fusion.max %arg2 dims = [1] : (tensor<4x8xbf16, #fusion.shard<@tp, {{\[\[}}], [DIDx]]>>) -> tensor<4xbf16, #fusion.shard<@tp, {{\[\[}}]], partial = [DIDx], reduce = max>>
// GENERIC-LABEL: sym_name = "reductions"
// GENERIC: "fusion.max"(%{{arg[0-9]+}}) <{dims = array<i64: 1>}> : (tensor<4x8xf32>) -> tensor<4xf32>
// GENERIC: "fusion.min"(%{{arg[0-9]+}}) <{dims = array<i64: 0, 1>, keep_dims}> : (tensor<4x8xf32>) -> tensor<1x1xf32>
// GENERIC: "fusion.max"(%{{arg[0-9]+}}) <{dims = array<i64: 0>}> : (tensor<4x8xi32>) -> tensor<8xi32>
// GENERIC: "fusion.mean"(%{{arg[0-9]+}}) <{dims = array<i64: 1>, keep_dims}> : (tensor<4x8xf32>) -> tensor<4x1xf32>
// GENERIC: "fusion.var"(%{{arg[0-9]+}}) <{dims = array<i64: 1>}> : (tensor<4x8xf32>) -> tensor<4xf32>
// GENERIC: "fusion.var"(%{{arg[0-9]+}}) <{correction = 0 : i64, dims = array<i64: 0, 1>}> : (tensor<4x8xf32>) -> tensor<f32>
fusion.mesh @tp = [0, 1]
func.func @reductions(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %s: tensor<4x8xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) {
  %0 = fusion.max %x dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  %1 = fusion.min %x dims = [1, 0] keep_dims : (tensor<4x8xf32>) -> tensor<1x1xf32>
  %2 = fusion.max %i dims = [0] : (tensor<4x8xi32>) -> tensor<8xi32>
  %3 = fusion.mean %x dims = [1] keep_dims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %4 = "fusion.var"(%x) <{dims = array<i64: 1>}> : (tensor<4x8xf32>) -> tensor<4xf32>
  %5 = fusion.var %x dims = [0, 1] {correction = 0 : i64} : (tensor<4x8xf32>) -> tensor<f32>
  %6 = fusion.max %s dims = [1] : (tensor<4x8xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4xbf16, #fusion.shard<@tp, [[]], partial = [DIDx], reduce = max>>
  return
}

// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %0 = fusion.softmax %arg0 dims = [1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = fusion.log_softmax %arg1 dims = [0, 2] : (tensor<2x3x8xbf16>) -> tensor<2x3x8xbf16>
// CHECK-NEXT: %2 = fusion.cross_entropy %arg0, %arg2 : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT: %3 = fusion.cross_entropy %arg0, %arg2 {ignore_index = 0 : i64} : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT: %4 = fusion.cross_entropy_parts %arg0, %arg2, %arg3 : (tensor<4x8xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %5 = fusion.cross_entropy_finish %4, %arg2, %arg3 {vocab = 8 : i64} : (tensor<4x2xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4xf32>
// GENERIC-LABEL: sym_name = "softmax"
// GENERIC: "fusion.softmax"(%{{arg[0-9]+}}) <{dims = array<i64: 1>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
// GENERIC: "fusion.log_softmax"(%{{arg[0-9]+}}) <{dims = array<i64: 0, 2>}> : (tensor<2x3x8xbf16>) -> tensor<2x3x8xbf16>
// GENERIC: "fusion.cross_entropy"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
// GENERIC: "fusion.cross_entropy"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) <{ignore_index = 0 : i64}> : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
// GENERIC: "fusion.cross_entropy_parts"(%{{arg[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}) : (tensor<4x8xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4x2xf32>
// GENERIC: "fusion.cross_entropy_finish"(%{{[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}) <{vocab = 8 : i64}> : (tensor<4x2xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4xf32>
func.func @softmax(%x: tensor<4x8xf32>, %y: tensor<2x3x8xbf16>, %l: tensor<4xi64>, %m: tensor<4xf32>) {
  %0 = fusion.softmax %x dims = [1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = fusion.log_softmax %y dims = [0, 2] : (tensor<2x3x8xbf16>) -> tensor<2x3x8xbf16>
  %2 = fusion.cross_entropy %x, %l : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
  %3 = "fusion.cross_entropy"(%x, %l) <{ignore_index = 0 : i64}> : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
  %4 = fusion.cross_entropy_parts %x, %l, %m : (tensor<4x8xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4x2xf32>
  %5 = fusion.cross_entropy_finish %4, %l, %m {vocab = 8 : i64} : (tensor<4x2xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4xf32>
  return
}
