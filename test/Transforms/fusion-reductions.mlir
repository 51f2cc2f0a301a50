// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding))' | FileCheck %s

// A max over a device-split axis leaves a pending max: propagation marks the result
// `reduce = max`, decomposition resolves it with a `fusion.sum dims = []` (an allreduce max).
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @max_over_split_axis
// CHECK:      %[[M:.*]] = fusion.max %arg0 dims = [1] {{.*}} -> tensor<4xf32, #fusion.shard<@tp, {{\[\[}}]], partial = [DIDx], reduce = max>>
// CHECK-NEXT: %[[S:.*]] = fusion.sum %[[M]] dims = [] {{.*}} -> tensor<4xf32, #fusion.shard<@tp, {{\[\[}}]]>>
// CHECK:      %[[N:.*]] = fusion.min %arg0 dims = [1] {{.*}} -> tensor<4xf32, #fusion.shard<@tp, {{\[\[}}]], partial = [DIDx], reduce = min>>
// CHECK:      %[[A:.*]] = fusion.mean %arg0 dims = [1] {{.*}} -> tensor<4xf32, #fusion.shard<@tp, {{\[\[}}]], partial = [DIDx]>>
func.func @max_over_split_axis(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> (tensor<4xf32, #fusion.shard<@tp, [[]]>>, tensor<4xf32>, tensor<4xf32>) {
  %m = fusion.max %x dims = [1] : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4xf32, #fusion.shard<@tp, [[]]>>
  %n = fusion.min %x dims = [1] : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4xf32>
  %a = fusion.mean %x dims = [1] : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4xf32>
  return %m, %n, %a : tensor<4xf32, #fusion.shard<@tp, [[]]>>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The axes var and softmax read whole are gathered before the op; the other axes keep their
// splits. A cross_entropy whose vocabulary is split is rewritten into the vocab-parallel
// phases (a partial max and its allreduce, the parts, a partial sum and its allreduce, the
// finish); its split labels are gathered to the rows' layout.
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @whole_axes
// CHECK:      %[[G:.*]] = fusion.set %arg0 {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
// CHECK-NEXT: fusion.var %[[G]] dims = [0]
// CHECK:      %[[P:.*]] = fusion.softmax %arg1 dims = [1] {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK:      %[[L:.*]] = fusion.set %arg3 {{.*}} -> tensor<4xi64, #fusion.shard<@tp, {{\[\[}}]]>>
// CHECK-NEXT: %[[M:.*]] = fusion.max %arg2 dims = [1] {{.*}} -> tensor<4xf32, #fusion.shard<@tp, {{\[\[}}]], partial = [DIDx], reduce = max>>
// CHECK-NEXT: %[[GM:.*]] = fusion.sum %[[M]] dims = [] {{.*}} -> tensor<4xf32, #fusion.shard<@tp, {{\[\[}}]]>>
// CHECK-NEXT: %[[P:.*]] = fusion.cross_entropy_parts %arg2, %[[L]], %[[GM]] {{.*}} -> tensor<4x2xf32, #fusion.shard<@tp, {{\[\[}}], []], partial = [DIDx]>>
// CHECK-NEXT: %[[S:.*]] = fusion.sum %[[P]] dims = [] {{.*}} -> tensor<4x2xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
// CHECK-NEXT: %[[F:.*]] = fusion.cross_entropy_finish %[[S]], %[[L]], %[[GM]] {ignore_index = 7 : i64, vocab = 8 : i64}
// CHECK-NEXT: fusion.set %[[F]] {{.*}} -> tensor<4xf32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>
// CHECK-NOT:  fusion.cross_entropy 
func.func @whole_axes(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %y: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                      %logits: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %labels: tensor<4xi64, #fusion.shard<@tp, [[DIDx]]>>)
    -> (tensor<4xf32>, tensor<8x4xf32>, tensor<4xf32>) {
  %v = fusion.var %x dims = [0] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4xf32>
  %p = fusion.softmax %y dims = [1] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32>
  %l = fusion.cross_entropy %logits, %labels {ignore_index = 7 : i64} : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<4xi64, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<4xf32>
  return %v, %p, %l : tensor<4xf32>, tensor<8x4xf32>, tensor<4xf32>
}
