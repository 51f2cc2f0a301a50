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

// The axes var, softmax and cross_entropy read across are gathered before the op; the other
// axes keep their splits.
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @whole_axes
// CHECK:      %[[G:.*]] = fusion.set %arg0 {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
// CHECK-NEXT: fusion.var %[[G]] dims = [0]
// CHECK:      %[[P:.*]] = fusion.softmax %arg1 dims = [1] {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK:      %[[H:.*]] = fusion.set %arg2 {{.*}} -> tensor<4x8xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
// CHECK-NEXT: fusion.cross_entropy %[[H]], %arg3
func.func @whole_axes(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %y: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                      %logits: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %labels: tensor<4xi64, #fusion.shard<@tp, [[]]>>)
    -> (tensor<4xf32>, tensor<8x4xf32>, tensor<4xf32>) {
  %v = fusion.var %x dims = [0] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4xf32>
  %p = fusion.softmax %y dims = [1] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32>
  %l = fusion.cross_entropy %logits, %labels : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<4xi64, #fusion.shard<@tp, [[]]>>) -> tensor<4xf32>
  return %v, %p, %l : tensor<4xf32>, tensor<8x4xf32>, tensor<4xf32>
}
