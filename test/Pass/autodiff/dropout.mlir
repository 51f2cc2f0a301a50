// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// Dropout's gradient is the same dropout (seed, offset, p) of the cotangent; seed and offset
// are integers and get no gradient.

// CHECK-LABEL: func.func @dropout_vjp(%arg0: tensor<4x8xf32>, %arg1: tensor<i64>, %arg2: tensor<i64>, %arg3: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.dropout %arg0, %arg1, %arg2 p = 1.000000e-01
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.dropout %arg3, %arg1, %arg2 p = 1.000000e-01
// CHECK-NEXT:    return %[[V0]], %[[V1]]

func.func @dropout(%x: tensor<4x8xf32>, %seed: tensor<i64>, %offset: tensor<i64>) -> tensor<4x8xf32> {
  %y = fusion.dropout %x, %seed, %offset p = 1.000000e-01 : (tensor<4x8xf32>, tensor<i64>, tensor<i64>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
