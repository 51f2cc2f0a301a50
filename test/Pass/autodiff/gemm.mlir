// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// GEMMs: matmul's g·bᵀ and aᵀ·g (summed over a broadcast batch), linear's g·w, gᵀ·x (batched,
// summed) and the bias' row sum.

// The wgrad (and the bias' sum) comes first, the dgrad last (next to its consumers, so that
// a stream-chunked dgrad shares its loop with its reduce-scatter); each backward GEMM names
// what it computes (fusion.grad_of, quoted by fusion-to-host's overlap report).

// CHECK-LABEL: func.func @matmul_vjp(%arg0: tensor<3x4xf32>, %arg1: tensor<4x5xf32>, %arg2: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3x4xf32>, tensor<4x5xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.matmul %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.permute %arg0 dims = [1, 0]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.matmul %[[V1]], %arg2 {fusion.grad_of = "wgrad of fusion.matmul (forward op 0)"}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.permute %arg1 dims = [1, 0]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.matmul %arg2, %[[V3]] {fusion.grad_of = "dgrad of fusion.matmul (forward op 0)"}
// CHECK-NEXT:    return %[[V0]], %[[V4]], %[[V2]]

// CHECK-LABEL: func.func @matmul_broadcast_batch_vjp(%arg0: tensor<2x3x4xf32>, %arg1: tensor<4x5xf32>, %arg2: tensor<2x3x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x4xf32>, tensor<4x5xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.matmul %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.permute %arg0 dims = [0, 2, 1]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.matmul %[[V1]], %arg2 {fusion.grad_of = "wgrad of fusion.matmul (forward op 0)"}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.sum %[[V2]] dims = [0]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.permute %arg1 dims = [1, 0]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.matmul %arg2, %[[V4]] {fusion.grad_of = "dgrad of fusion.matmul (forward op 0)"}
// CHECK-NEXT:    return %[[V0]], %[[V5]], %[[V3]]

// CHECK-LABEL: func.func @matmul_batched_vjp(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>, %arg2: tensor<2x3x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x4xf32>, tensor<2x4x5xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.matmul %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.permute %arg0 dims = [0, 2, 1]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.matmul %[[V1]], %arg2 {fusion.grad_of = "wgrad of fusion.matmul (forward op 0)"}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.permute %arg1 dims = [0, 2, 1]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.matmul %arg2, %[[V3]] {fusion.grad_of = "dgrad of fusion.matmul (forward op 0)"}
// CHECK-NEXT:    return %[[V0]], %[[V4]], %[[V2]]

// CHECK-LABEL: func.func @linear_bias_vjp(%arg0: tensor<3x4xf32>, %arg1: tensor<5x4xf32>, %arg2: tensor<5xf32>, %arg3: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3x4xf32>, tensor<5x4xf32>, tensor<5xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.linear %arg0, %arg1, %arg2
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.permute %arg3 dims = [1, 0]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.matmul %[[V1]], %arg0 {fusion.grad_of = "wgrad of fusion.linear (forward op 0)"}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.sum %arg3 dims = [0]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.matmul %arg3, %arg1 {fusion.grad_of = "dgrad of fusion.linear (forward op 0)"}
// CHECK-NEXT:    return %[[V0]], %[[V4]], %[[V2]], %[[V3]]

// CHECK-LABEL: func.func @linear_batched_vjp(%arg0: tensor<2x3x4xf32>, %arg1: tensor<5x4xf32>, %arg2: tensor<2x3x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x4xf32>, tensor<5x4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.linear %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.permute %arg2 dims = [0, 2, 1]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.matmul %[[V1]], %arg0 {fusion.grad_of = "wgrad of fusion.linear (forward op 0)"}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.sum %[[V2]] dims = [0]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.matmul %arg2, %arg1 {fusion.grad_of = "dgrad of fusion.linear (forward op 0)"}
// CHECK-NEXT:    return %[[V0]], %[[V4]], %[[V3]]

func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %m = fusion.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %m : tensor<3x5xf32>
}
func.func @matmul_broadcast_batch(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %m = fusion.matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %m : tensor<2x3x5xf32>
}
func.func @matmul_batched(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %m = fusion.matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %m : tensor<2x3x5xf32>
}
func.func @linear_bias(%x: tensor<3x4xf32>, %w: tensor<5x4xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %y = fusion.linear %x, %w, %b : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
func.func @linear_batched(%x: tensor<2x3x4xf32>, %w: tensor<5x4xf32>) -> tensor<2x3x5xf32> {
  %y = fusion.linear %x, %w : (tensor<2x3x4xf32>, tensor<5x4xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}
