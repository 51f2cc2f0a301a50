// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-decompose-resharding))' | FileCheck %s --check-prefix=DEC
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding,fusion-decompose-resharding,fusion-to-host))' | FileCheck %s --check-prefix=HOST

// Keys split over DIDx along their sequence (read whole): gathered, then split by heads as
// the result is; values replicated: scattered by heads.
fusion.mesh @tp = [0, 1]
// DEC-LABEL: func.func @seq_keys
// DEC:       %[[K:.*]] = fusion.set %arg1 : {{.*}}[DIDx], []]>>) -> tensor<1x4x12x16xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx], [], []]>>
// DEC-NEXT:  %[[V:.*]] = fusion.set %arg2 : {{.*}} -> tensor<1x4x12x8xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx], [], []]>>
// DEC-NEXT:  %{{.*}}:2 = fusion.sdpa %arg0, %[[K]], %[[V]] :
func.func @seq_keys(%q: tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, %k: tensor<1x4x12x16xf32, #fusion.shard<@tp, [[], [], [DIDx], []]>>, %v: tensor<1x4x12x8xf32, #fusion.shard<@tp, [[], [], [], []]>>) -> (tensor<1x4x8x8xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x4x8xf32, #fusion.shard<@tp, [[], [DIDx], []]>>) {
  %o, %l = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x4x12x16xf32, #fusion.shard<@tp, [[], [], [DIDx], []]>>, tensor<1x4x12x8xf32, #fusion.shard<@tp, [[], [], [], []]>>) -> (tensor<1x4x8x8xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x4x8xf32, #fusion.shard<@tp, [[], [DIDx], []]>>)
  return %o, %l : tensor<1x4x8x8xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x4x8xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
}

// -----

// Grouped-query heads split over DIDx, queries streamed in 2 chunks: propagation gives both
// results the query's splits (the lse on its 3 axes); the kernel gets result 0's origin
// (rank's first head, the chunk's first query: the causal mask's global query index).
fusion.mesh @tp = [0, 1]
// HOST-LABEL: func.func @gqa_stream
// HOST:       host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// HOST:         %[[Q:.*]] = host.shard_by_stream %arg0[%[[I]]] axis = 2 chunks = 2 : !host.buf<1x2x8x16xf32> -> !host.view<1x2x4x16xf32
// HOST:         %[[O:.*]] = host.shard_by_stream %{{.*}}[%[[I]]] axis = 2 chunks = 2 : !host.buf<1x2x8x8xf32> -> !host.view<1x2x4x8xf32
// HOST:         %[[L:.*]] = host.shard_by_stream %{{.*}}[%[[I]]] axis = 2 chunks = 2 : !host.buf<1x2x8xf32> -> !host.view<1x2x4xf32
// HOST:         %[[S:.*]] = arith.muli %[[I]], %c4 : index
// HOST:         %[[S0:.*]] = arith.addi %c0, %[[S]] : index
// HOST:         host.kernel "sdpa" (%[[Q]], %{{[0-9]+}}, %{{[0-9]+}}) into (%[[O]], %[[L]]) origin(%c0, %{{[0-9]+}}, %[[S0]], %c0)
// HOST-SAME:    params {causal, global_shape = array<i64: 1, 4, 8, 8>}
// HOST-SAME:    !host.buf<1x1x12x16xf32>, !host.buf<1x1x12x8xf32>) into
func.func @gqa_stream(%q: tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [Stream(2)], []]>>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8xf32>) {
  %o, %l = fusion.sdpa %q, %k, %v causal : (tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [Stream(2)], []]>>, tensor<1x2x12x16xf32>, tensor<1x2x12x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8xf32>)
  return %o, %l : tensor<1x4x8x8xf32>, tensor<1x4x8xf32>
}

// -----

// A partial query (a pending sum) is reduced first: attention is not linear in it.
fusion.mesh @tp = [0, 1]
// DEC-LABEL: func.func @partial_query
// DEC:       %[[S:.*]] = fusion.sum %arg0 dims = [] : {{.*}}partial = [DIDx]>>) -> tensor<1x2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [], [], []]>>
// DEC-NEXT:  fusion.sdpa %[[S]], %arg1, %arg2
func.func @partial_query(%q: tensor<1x2x8x16xf32, #fusion.shard<@tp, [[], [], [], []], partial = [DIDx]>>, %k: tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [], [], []]>>, %v: tensor<1x2x12x8xf32, #fusion.shard<@tp, [[], [], [], []]>>) -> tensor<1x2x8x8xf32, #fusion.shard<@tp, [[], [], [], []]>> {
  %o = fusion.sdpa %q, %k, %v : (tensor<1x2x8x16xf32, #fusion.shard<@tp, [[], [], [], []], partial = [DIDx]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [], [], []]>>, tensor<1x2x12x8xf32, #fusion.shard<@tp, [[], [], [], []]>>) -> tensor<1x2x8x8xf32, #fusion.shard<@tp, [[], [], [], []]>>
  return %o : tensor<1x2x8x8xf32, #fusion.shard<@tp, [[], [], [], []]>>
}
