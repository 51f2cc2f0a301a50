// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// Norms read their statistics: layer_norm without them is rebuilt with its mean and rstd
// results (f32 for bf16 inputs); the backward computes in f32 and casts each gradient to bf16
// once, as torch's opmath. rms_norm reads its rstd. Statistics are differentiable (a program may
// compute with them): the cotangent of a returned rstd (%arg2 of @stats_returned_vjp) adds
// -gr * rstd^2 * xhat / n to dx.

// CHECK-LABEL: func.func @layer_norm_vjp(%arg0: tensor<3x4xbf16>, %arg1: tensor<4xbf16>, %arg2: tensor<4xbf16>, %arg3: tensor<3x4xbf16>) -> (tensor<3x4xbf16>, tensor<3x4xbf16>, tensor<4xbf16>, tensor<4xbf16>)
// CHECK-NEXT:    %[[V0:[0-9]+]]:3 = fusion.layer_norm %arg0 weight %arg1 bias %arg2 dims = [1]
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.cast %arg0
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.cast %arg3
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.cast %arg1
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.broadcast %[[V0]]#2 dims = [1]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.broadcast %[[V0]]#1 dims = [1]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.sub %[[V1]], %[[V5]]
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.mul %[[V6]], %[[V4]]
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.broadcast %[[V3]] dims = [0]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.mul %[[V2]], %[[V8]]
// CHECK-NEXT:    %[[V10:[0-9]+]] = fusion.mul %[[V9]], %[[V7]]
// CHECK-NEXT:    %[[V11:[0-9]+]] = fusion.sum %[[V10]] dims = [1]
// CHECK-NEXT:    %[[V12:[0-9]+]] = fusion.full {value = 2.500000e-01 : f32}
// CHECK-NEXT:    %[[V13:[0-9]+]] = fusion.mul %[[V11]], %[[V12]]
// CHECK-NEXT:    %[[V14:[0-9]+]] = fusion.broadcast %[[V13]] dims = [1]
// CHECK-NEXT:    %[[V15:[0-9]+]] = fusion.mul %[[V7]], %[[V14]]
// CHECK-NEXT:    %[[V16:[0-9]+]] = fusion.sub %[[V9]], %[[V15]]
// CHECK-NEXT:    %[[V17:[0-9]+]] = fusion.sum %[[V9]] dims = [1]
// CHECK-NEXT:    %[[V18:[0-9]+]] = fusion.full {value = 2.500000e-01 : f32}
// CHECK-NEXT:    %[[V19:[0-9]+]] = fusion.mul %[[V17]], %[[V18]]
// CHECK-NEXT:    %[[V20:[0-9]+]] = fusion.broadcast %[[V19]] dims = [1]
// CHECK-NEXT:    %[[V21:[0-9]+]] = fusion.sub %[[V16]], %[[V20]]
// CHECK-NEXT:    %[[V22:[0-9]+]] = fusion.mul %[[V4]], %[[V21]]
// CHECK-NEXT:    %[[V23:[0-9]+]] = fusion.cast %[[V22]]
// CHECK-NEXT:    %[[V24:[0-9]+]] = fusion.mul %[[V2]], %[[V7]]
// CHECK-NEXT:    %[[V25:[0-9]+]] = fusion.sum %[[V24]] dims = [0]
// CHECK-NEXT:    %[[V26:[0-9]+]] = fusion.cast %[[V25]]
// CHECK-NEXT:    %[[V27:[0-9]+]] = fusion.sum %[[V2]] dims = [0]
// CHECK-NEXT:    %[[V28:[0-9]+]] = fusion.cast %[[V27]]
// CHECK-NEXT:    return %[[V0]]#0, %[[V23]], %[[V26]], %[[V28]]

// CHECK-LABEL: func.func @rms_norm_vjp(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]]:2 = fusion.rms_norm %arg0 dims = [1] {epsilon = 9.9999999999999995E-7 : f64}
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.broadcast %[[V0]]#1 dims = [1]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.mul %arg0, %[[V1]]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.mul %arg1, %[[V2]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.sum %[[V3]] dims = [1]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.full {value = 2.500000e-01 : f32}
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.mul %[[V4]], %[[V5]]
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.broadcast %[[V6]] dims = [1]
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.mul %[[V2]], %[[V7]]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.sub %arg1, %[[V8]]
// CHECK-NEXT:    %[[V10:[0-9]+]] = fusion.mul %[[V1]], %[[V9]]
// CHECK-NEXT:    return %[[V0]]#0, %[[V10]]

// CHECK-LABEL: func.func @stats_returned_vjp(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<3xf32>) -> (tensor<3x4xf32>, tensor<3xf32>, tensor<3x4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]]:2 = fusion.rms_norm %arg0 dims = [1]
// CHECK-NEXT:    %[[R:[0-9]+]] = fusion.broadcast %[[V0]]#1 dims = [1]
// CHECK-NEXT:    %[[XH:[0-9]+]] = fusion.mul %arg0, %[[R]]
// CHECK-NEXT:    %[[GR:[0-9]+]] = fusion.broadcast %arg2 dims = [1]
// CHECK-NEXT:    %[[R2:[0-9]+]] = fusion.mul %[[R]], %[[R]]
// CHECK-NEXT:    %[[T:[0-9]+]] = fusion.mul %[[R2]], %[[XH]]
// CHECK-NEXT:    %[[T2:[0-9]+]] = fusion.mul %[[T]], %[[GR]]
// CHECK-NEXT:    %[[C:[0-9]+]] = fusion.full {value = -2.500000e-01 : f32}
// CHECK-NEXT:    %[[ST:[0-9]+]] = fusion.mul %[[T2]], %[[C]]
// CHECK:         %[[MAIN:[0-9]+]] = fusion.mul %[[R]], %{{[0-9]+}}
// CHECK-NEXT:    %[[DX:[0-9]+]] = fusion.add %[[MAIN]], %[[ST]]
// CHECK-NEXT:    return %[[V0]]#0, %[[V0]]#1, %[[DX]]

func.func @layer_norm(%x: tensor<3x4xbf16>, %w: tensor<4xbf16>, %b: tensor<4xbf16>) -> tensor<3x4xbf16> {
  %y = fusion.layer_norm %x weight %w bias %b dims = [1] : (tensor<3x4xbf16>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<3x4xbf16>
  return %y : tensor<3x4xbf16>
}
func.func @rms_norm(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %y = fusion.rms_norm %x dims = [1] {epsilon = 1.000000e-06 : f64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
func.func @stats_returned(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3xf32>) {
  %y, %r = fusion.rms_norm %x dims = [1] : (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3xf32>)
  return %y, %r : tensor<3x4xf32>, tensor<3xf32>
}
