// REQUIRES: fuser-run
// Reduce-scatter onto an inner axis (sequence parallelism with batch > 1): a row-parallel
// linear's partial [B, S, E] result is scattered on axis 1 (S), inner to B = 2. The partial is
// copied through a view with S as (d, S/d), d first, into a [d, B, S/d, E] buffer whose
// leading-axis reduce-scatter is the local result.
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @tp = [DEVICES]
func.func @row_parallel_sp(%x: tensor<2x8x16xf32, #fusion.shard<@tp, [[], [], [DIDx]]>>, %w: tensor<12x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<2x8x12xf32, #fusion.shard<@tp, [[], [DIDx], []]>> {
  %p = fusion.linear %x, %w : (tensor<2x8x16xf32, #fusion.shard<@tp, [[], [], [DIDx]]>>, tensor<12x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<2x8x12xf32, #fusion.shard<@tp, [[], [], []], partial = [DIDx]>>
  %y = fusion.sum %p dims = [] : (tensor<2x8x12xf32, #fusion.shard<@tp, [[], [], []], partial = [DIDx]>>) -> tensor<2x8x12xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
  return %y : tensor<2x8x12xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
}
