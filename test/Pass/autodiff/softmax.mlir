// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// softmax: y * (g - sum(g * y)); log_softmax: g - exp(y) * sum(g).

// CHECK-LABEL: func.func @softmax_vjp(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.softmax %arg0 dims = [1]
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.mul %arg1, %[[V0]]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.sum %[[V1]] dims = [1]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.broadcast %[[V2]] dims = [1]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.sub %arg1, %[[V3]]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.mul %[[V0]], %[[V4]]
// CHECK-NEXT:    return %[[V0]], %[[V5]]

// CHECK-LABEL: func.func @log_softmax_vjp(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.log_softmax %arg0 dims = [1]
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.sum %arg1 dims = [1]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.broadcast %[[V1]] dims = [1]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.exp %[[V0]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.mul %[[V3]], %[[V2]]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.sub %arg1, %[[V4]]
// CHECK-NEXT:    return %[[V0]], %[[V5]]

func.func @softmax(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %y = fusion.softmax %x dims = [1] : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
func.func @log_softmax(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %y = fusion.log_softmax %x dims = [1] : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
