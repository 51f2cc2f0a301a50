// REQUIRES: fuser-run
// Allgather on the last axis of a rank-3 value (both outer axes have local extent > 1), then
// an op on the gathered value: staged through a [d, 2, 3, 8/d] buffer.
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @tp = [DEVICES]
func.func @last_axis(%x: tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], [DIDx]]>>, %b: tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], []]>>) -> tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], []]>> {
  %g = fusion.set %x : (tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], [DIDx]]>>) -> tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], []]>>
  %y = fusion.mul %g, %b : (tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], []]>>, tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], []]>>) -> tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], []]>>
  return %y : tensor<2x3x8xf32, #fusion.shard<@tp, [[], [], []]>>
}
