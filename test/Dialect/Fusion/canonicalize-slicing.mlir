// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))' | FileCheck %s

fusion.mesh @tp = [0, 1]

// A slice of every axis whole and a concat of one operand, to the very same type, fold to
// their operand.
// CHECK-LABEL: func.func @identities
// CHECK-SAME:    (%[[A:.*]]: tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>)
// CHECK-NEXT:    return %[[A]]
func.func @identities(%a: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %0 = fusion.slice %a offsets = [0, 0] sizes = [8, 4] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %1 = fusion.slice %0 offsets = [0, 0] sizes = [8, 4] strides = [1, 1] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %2 = fusion.concat %1 dim = 1 : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %2 : tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

// A proper window, a stride, a change of encoding (a resharding) and a concat of two stay.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    fusion.slice %arg0 offsets = [0, 0] sizes = [4, 4]
// CHECK-NEXT:    fusion.slice %arg0 offsets = [0, 0] sizes = [4, 4] strides = [2, 1]
// CHECK-NEXT:    fusion.slice %arg0 offsets = [0, 0] sizes = [8, 4] : (tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<8x4xf32>
// CHECK-NEXT:    fusion.concat %arg0, %arg0 dim = 1
// CHECK-NEXT:    fusion.concat %arg0 dim = 0 : (tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<8x4xf32>
func.func @kept(%a: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<8x4xf32>, tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32>) {
  %0 = fusion.slice %a offsets = [0, 0] sizes = [4, 4] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x4xf32>
  %1 = fusion.slice %a offsets = [0, 0] sizes = [4, 4] strides = [2, 1] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x4xf32>
  %2 = fusion.slice %a offsets = [0, 0] sizes = [8, 4] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32>
  %3 = fusion.concat %a, %a dim = 1 : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %4 = fusion.concat %a dim = 0 : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32>
  return %0, %1, %2, %3, %4 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<8x4xf32>, tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32>
}
