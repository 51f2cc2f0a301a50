// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// Shape ops: broadcast sums over its new axes, reshape and permute go back, a slice is padded
// with zeros by concat (a strided axis first spread out: a unit axis, zeros concatenated on
// it, merged back, the tail sliced off), a concat is sliced per operand, a set sets the
// cotangent back to its operand's sharding (a forward gather becomes a scatter).

// CHECK-LABEL: func.func @broadcast_vjp(%arg0: tensor<3xf32>, %arg1: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.broadcast %arg0 dims = [0, 2]
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.sum %arg1 dims = [0, 2]
// CHECK-NEXT:    return %[[V0]], %[[V1]]

// CHECK-LABEL: func.func @reshape_permute_vjp(%arg0: tensor<2x6xf32>, %arg1: tensor<3x2x2xf32>) -> (tensor<3x2x2xf32>, tensor<2x6xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.reshape %arg0
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.permute %[[V0]] dims = [2, 0, 1]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.permute %arg1 dims = [1, 2, 0]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.reshape %[[V2]]
// CHECK-NEXT:    return %[[V1]], %[[V3]]

// CHECK-LABEL: func.func @slice_vjp(%arg0: tensor<4x6xf32>, %arg1: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x6xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.slice %arg0 offsets = [1, 3] sizes = [2, 3]
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.concat %[[V1]], %arg1, %[[V2]] dim = 0
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.concat %[[V4]], %[[V3]] dim = 1
// CHECK-NEXT:    return %[[V0]], %[[V5]]

// CHECK-LABEL: func.func @concat_vjp(%arg0: tensor<4x2xf32>, %arg1: tensor<4x3xf32>, %arg2: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x2xf32>, tensor<4x3xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.concat %arg0, %arg1 dim = 1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.slice %arg2 offsets = [0, 0] sizes = [4, 2]
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.slice %arg2 offsets = [0, 2] sizes = [4, 3]
// CHECK-NEXT:    return %[[V0]], %[[V1]], %[[V2]]

// CHECK-LABEL: func.func @set_vjp(
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.set %arg0
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.set %arg1 : (tensor<4x6xf32, #fusion.shard<@tp, {{\[\[\], \[\]\]}}>>) -> tensor<4x6xf32, #fusion.shard<@tp, {{\[\[DIDx\], \[\]\]}}>>
// CHECK-NEXT:    return %[[V0]], %[[V1]]

// CHECK-LABEL: func.func @strided_slice_vjp(%arg0: tensor<4x6xf32>, %arg1: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<4x6xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.slice %arg0 offsets = [1, 0] sizes = [2, 2] strides = [2, 3]
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.reshape %arg1
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.concat %[[V1]], %[[V2]] dim = 1
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.reshape %[[V3]]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.slice %[[V4]] offsets = [0, 0] sizes = [3, 2]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.concat %[[V6]], %[[V5]] dim = 0
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.reshape %[[V7]]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V10:[0-9]+]] = fusion.concat %[[V8]], %[[V9]] dim = 2
// CHECK-NEXT:    %[[V11:[0-9]+]] = fusion.reshape %[[V10]]
// CHECK-NEXT:    %[[V12:[0-9]+]] = fusion.slice %[[V11]] offsets = [0, 0] sizes = [4, 4]
// CHECK-NEXT:    %[[V13:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V14:[0-9]+]] = fusion.concat %[[V12]], %[[V13]] dim = 1
// CHECK-NEXT:    return %[[V0]], %[[V14]]

func.func @broadcast(%x: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %b = fusion.broadcast %x dims = [0, 2] : (tensor<3xf32>) -> tensor<2x3x4xf32>
  return %b : tensor<2x3x4xf32>
}
func.func @reshape_permute(%x: tensor<2x6xf32>) -> tensor<3x2x2xf32> {
  %r = fusion.reshape %x : (tensor<2x6xf32>) -> tensor<2x2x3xf32>
  %p = fusion.permute %r dims = [2, 0, 1] : (tensor<2x2x3xf32>) -> tensor<3x2x2xf32>
  return %p : tensor<3x2x2xf32>
}
func.func @slice(%x: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %s = fusion.slice %x offsets = [1, 3] sizes = [2, 3] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
func.func @concat(%a: tensor<4x2xf32>, %b: tensor<4x3xf32>) -> tensor<4x5xf32> {
  %c = fusion.concat %a, %b dim = 1 : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<4x5xf32>
  return %c : tensor<4x5xf32>
}
fusion.mesh @tp = [0, 1]
func.func @set(%x: tensor<4x6xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x6xf32, #fusion.shard<@tp, [[], []]>> {
  %s = fusion.set %x : (tensor<4x6xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x6xf32, #fusion.shard<@tp, [[], []]>>
  return %s : tensor<4x6xf32, #fusion.shard<@tp, [[], []]>>
}
func.func @strided_slice(%x: tensor<4x6xf32>) -> tensor<2x2xf32> {
  %s = fusion.slice %x offsets = [1, 0] sizes = [2, 2] strides = [2, 3] : (tensor<4x6xf32>) -> tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}
