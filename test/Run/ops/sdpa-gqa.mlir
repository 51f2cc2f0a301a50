// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 2 --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0]/' %s | fuser-run - --ranks 1 --check --seed 2 | FileCheck %s
// RUN: sed 's/causal/causal scale = 0.3/' %s | fuser-run - --ranks 2 --check --seed 3 | FileCheck %s
// RUN: sed -e 's/xf32/xf16/g' %s | fuser-run - --ranks 2 --check --seed 4 | FileCheck %s
// CHECK: check: PASS
//
// Grouped-query attention (4 query heads over 2 key/value heads), heads split over DIDx (one
// kv head and its 2 query heads per rank at d = 2), causal, with more keys than queries; the
// query sequence is also streamed in 2 chunks (the causal mask uses global query indices).
fusion.mesh @tp = [0, 1]
func.func @gqa(%q: tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [Stream(2)], []]>>,
               %k: tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>,
               %v: tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>)
    -> tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [Stream(2)], []]>> {
  %o = fusion.sdpa %q, %k, %v causal
      : (tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [Stream(2)], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>)
      -> tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [Stream(2)], []]>>
  return %o : tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [Stream(2)], []]>>
}
