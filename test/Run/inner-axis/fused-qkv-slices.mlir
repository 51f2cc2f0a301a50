// REQUIRES: fuser-run
// The GPT-2 c_attn pattern: a column-parallel fused-QKV linear x [S, E] . w[3E, E]^T split on
// 3E, then q/k/v sliced at [0:E], [E:2E], [2E:3E], which are not shard boundaries (3E = 24
// over 4 ranks: blocks of 6). The slices read the last axis whole, so it is gathered on an
// inner axis (S = 4 outer) first.
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @tp = [DEVICES]
func.func @c_attn(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, %w: tensor<24x8xf32, #fusion.shard<@tp, [[DIDx], []]>>)
    -> (tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>) {
  %qkv = fusion.linear %x, %w : (tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, tensor<24x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x24xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %q = fusion.slice %qkv offsets = [0, 0] sizes = [4, 8] : (tensor<4x24xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>
  %k = fusion.slice %qkv offsets = [0, 8] sizes = [4, 8] : (tensor<4x24xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>
  %v = fusion.slice %qkv offsets = [0, 16] sizes = [4, 8] : (tensor<4x24xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>
  return %q, %k, %v : tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>
}
