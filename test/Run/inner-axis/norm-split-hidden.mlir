// REQUIRES: fuser-run
// A norm over a hidden axis split over the devices with more than one row per rank (a
// column-parallel embedding or linear followed by a norm): the norm reads the axis whole, so
// it is gathered on an inner axis first, then each rank keeps its block of the result.
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @tp = [DEVICES]
func.func @inner_normalized_split(%x: tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>> {
  %y = fusion.rms_norm %x dims = [1] : (tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  return %y : tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>
}
