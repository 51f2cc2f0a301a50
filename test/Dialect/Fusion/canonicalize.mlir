// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))' | FileCheck %s

fusion.mesh @tp = [0, 1, 2, 3]

// A set, an identity permute and a reshape to the very same type fold to their operand.
// CHECK-LABEL: func.func @identities
// CHECK-SAME:    (%[[A:.*]]: tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>)
// CHECK-NEXT:    return %[[A]]
func.func @identities(%a: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %0 = fusion.set %a : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %1 = fusion.permute %0 dims = [0, 1] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %2 = fusion.reshape %1 : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %2 : tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

// A set that reshards (here an allgather) stays, and so do a real permute and reshape.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %[[G:.*]] = fusion.set %arg0 : (tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
// CHECK-NEXT:    %[[P:.*]] = fusion.permute %[[G]] dims = [1, 0]
// CHECK-NEXT:    %[[R:.*]] = fusion.reshape %[[P]]
// CHECK-NEXT:    return %[[R]]
func.func @kept(%a: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<32xf32> {
  %0 = fusion.set %a : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>
  %1 = fusion.permute %0 dims = [1, 0] : (tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x8xf32>
  %2 = fusion.reshape %1 : (tensor<4x8xf32>) -> tensor<32xf32>
  return %2 : tensor<32xf32>
}

// An identity permute that changes the encoding is a resharding: it stays.
// CHECK-LABEL: func.func @identity_permute_resharding
// CHECK-NEXT:    fusion.permute %arg0 dims = [0, 1]
func.func @identity_permute_resharding(%a: tensor<8x4xf32>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %0 = fusion.permute %a dims = [0, 1] : (tensor<8x4xf32>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %0 : tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

// Dead fusion ops are pure: canonicalize erases them.
// CHECK-LABEL: func.func @dead
// CHECK-NEXT:    return
func.func @dead(%a: tensor<8x4xf32>) {
  %0 = fusion.neg %a : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}
