// REQUIRES: fuser-run
// Allgather on an inner axis: a [4, 8] value split on axis 1 (axis 0 has local extent 4, so a
// rank's block is not contiguous) is gathered through a [d, 4, 8/d] staging buffer and copied
// into the output through its view with axis 1 as (d, 8/d), d first (docs/dev/lowering.md §5).
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --pass-pipeline 'builtin.module(tp-overlap-p2p)' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @tp = [DEVICES]
func.func @inner_allgather(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []]>> {
  %y = fusion.set %x : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>
}
