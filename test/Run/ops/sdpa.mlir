// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 4 --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1, 2, 3\]/@tp = [0, 1]/' %s | fuser-run - --ranks 2 --check --seed 2 | FileCheck %s
// RUN: sed 's/@tp = \[0, 1, 2, 3\]/@tp = [0]/' %s | fuser-run - --ranks 1 --check --seed 3 | FileCheck %s
// RUN: sed -e 's/x16xf32/x16xbf16/g' -e 's/x8x8xf32/x8x8xbf16/g' -e 's/x12x8xf32/x12x8xbf16/g' %s | fuser-run - --ranks 4 --check --seed 4 | FileCheck %s
// CHECK: check: PASS
//
// Attention-parallel sdpa: 4 query heads over 4 key/value heads (one each per rank at d = 4),
// causal, with the lse; then grouped-query (4 query heads over 2 key/value heads, split over
// DIDx at d = 1, 2; at d = 4 the kv heads cannot be split 4 ways, see invalid tests).
fusion.mesh @tp = [0, 1, 2, 3]
func.func @attention(%q: tensor<2x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>,
                     %k: tensor<2x4x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>,
                     %v: tensor<2x4x12x8xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>)
    -> (tensor<2x4x8x8xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<2x4x8xf32, #fusion.shard<@tp, [[], [DIDx], []]>>) {
  %o, %l = fusion.sdpa %q, %k, %v causal
      : (tensor<2x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<2x4x12x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<2x4x12x8xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>)
      -> (tensor<2x4x8x8xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<2x4x8xf32, #fusion.shard<@tp, [[], [DIDx], []]>>)
  return %o, %l : tensor<2x4x8x8xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<2x4x8xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
}
