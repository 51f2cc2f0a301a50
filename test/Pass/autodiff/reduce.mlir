// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// Reductions: sum/mean broadcast the cotangent back (keep_dims results reshaped first), max/min
// split it evenly over the elements equal to the extreme, var scales the deviations.

// CHECK-LABEL: func.func @sum_mean_vjp(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x1x1xf32>) -> (tensor<2x4xf32>, tensor<2x1x1xf32>, tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.sum %arg0 dims = [1]
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.mean %arg0 dims = [1, 2] keep_dims
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.reshape %arg2
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.broadcast %[[V2]] dims = [1, 2]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.full {value = 0.0833333358 : f32}
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.mul %[[V3]], %[[V4]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.broadcast %arg1 dims = [1]
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.add %[[V5]], %[[V6]]
// CHECK-NEXT:    return %[[V0]], %[[V1]], %[[V7]]

// CHECK-LABEL: func.func @max_vjp(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.max %arg0 dims = [1]
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.broadcast %[[V0]] dims = [1]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.compare eq %arg0, %[[V1]]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.cast %[[V2]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.sum %[[V3]] dims = [1]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.div %arg1, %[[V4]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.broadcast %[[V5]] dims = [1]
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.mul %[[V6]], %[[V3]]
// CHECK-NEXT:    return %[[V0]], %[[V7]]

// CHECK-LABEL: func.func @min_keep_vjp(%arg0: tensor<2x3xf32>, %arg1: tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.min %arg0 dims = [0] keep_dims
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.reshape %[[V0]]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.broadcast %[[V1]] dims = [0]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.compare eq %arg0, %[[V2]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.cast %[[V3]]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.sum %[[V4]] dims = [0] keep_dims
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.div %arg1, %[[V5]]
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.reshape %[[V6]]
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.broadcast %[[V7]] dims = [0]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.mul %[[V8]], %[[V4]]
// CHECK-NEXT:    return %[[V0]], %[[V9]]

// CHECK-LABEL: func.func @var_vjp(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.var %arg0 dims = [1] {correction = 0 : i64}
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.mean %arg0 dims = [1]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.broadcast %[[V1]] dims = [1]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.sub %arg0, %[[V2]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.broadcast %arg1 dims = [1]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.mul %[[V4]], %[[V3]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.full {value = 0.666666686 : f32}
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.mul %[[V5]], %[[V6]]
// CHECK-NEXT:    return %[[V0]], %[[V7]]

func.func @sum_mean(%x: tensor<2x3x4xf32>) -> (tensor<2x4xf32>, tensor<2x1x1xf32>) {
  %s = fusion.sum %x dims = [1] : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %m = fusion.mean %x dims = [1, 2] keep_dims : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  return %s, %m : tensor<2x4xf32>, tensor<2x1x1xf32>
}
func.func @max(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %m = fusion.max %x dims = [1] : (tensor<2x3xf32>) -> tensor<2xf32>
  return %m : tensor<2xf32>
}
func.func @min_keep(%x: tensor<2x3xf32>) -> tensor<1x3xf32> {
  %m = fusion.min %x dims = [0] keep_dims : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %m : tensor<1x3xf32>
}
func.func @var(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %v = fusion.var %x dims = [1] {correction = 0 : i64} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %v : tensor<2xf32>
}
