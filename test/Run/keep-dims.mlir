// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 2 --check | FileCheck %s
// CHECK: check: PASS
//
// Sums with keep_dims on 2 ranks: one over local axes (the result stays split by rows), one
// over the split axis (a partial, then an allreduce of the 1x6x1 result).
fusion.mesh @tp = [0, 1]
func.func @sums(%x: tensor<4x6x8xf32, #fusion.shard<@tp, [[DIDx], [], []]>>) -> (tensor<4x1x1xf32, #fusion.shard<@tp, [[DIDx], [], []]>>, tensor<1x6x1xf32, #fusion.shard<@tp, [[], [], []]>>) {
  %a = fusion.sum %x dims = [1, 2] keep_dims : (tensor<4x6x8xf32, #fusion.shard<@tp, [[DIDx], [], []]>>) -> tensor<4x1x1xf32, #fusion.shard<@tp, [[DIDx], [], []]>>
  %b = fusion.sum %x dims = [0, 2] keep_dims : (tensor<4x6x8xf32, #fusion.shard<@tp, [[DIDx], [], []]>>) -> tensor<1x6x1xf32, #fusion.shard<@tp, [[], [], []], partial = [DIDx]>>
  %c = fusion.sum %b dims = [] : (tensor<1x6x1xf32, #fusion.shard<@tp, [[], [], []], partial = [DIDx]>>) -> tensor<1x6x1xf32, #fusion.shard<@tp, [[], [], []]>>
  return %a, %c : tensor<4x1x1xf32, #fusion.shard<@tp, [[DIDx], [], []]>>, tensor<1x6x1xf32, #fusion.shard<@tp, [[], [], []]>>
}
