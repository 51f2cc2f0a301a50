// REQUIRES: fuser-run
// RUN: sed 's/DEVICES/0/' %s | fuser-run - --ranks 1 --check --input-values 4=3,0,15,-100,7,16,1,9 | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --input-values 4=3,0,15,-100,7,16,1,9 | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --input-values 4=3,0,15,-100,7,16,1,9 | FileCheck %s
// Softmax over an unsplit axis with the other axis split runs locally; softmax over a split
// axis gathers it first (the allgather, then one kernel per rank); cross-entropy of row-split
// logits (labels: one ignored row, -100, and one out of range, 16, whose loss is NaN on every
// backend and in the reference).
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=HOST
// CHECK: check: PASS
// HOST-LABEL: func.func @softmax
// HOST: host.kernel "softmax" (%arg0) into (%{{.*}}) params {dims = array<i64: 1>} : (!host.buf<4x12xf32>) into (!host.buf<4x12xf32>)
// HOST: comm.allgather %arg1
// HOST: host.kernel "log_softmax" (%{{.*}}) into (%{{.*}}) params {dims = array<i64: 0>} : (!host.buf<12x8xbf16>) into (!host.buf<12x8xbf16>)
// HOST: host.kernel "cross_entropy" (%arg3, %arg4) into (%{{.*}}) params {} : (!host.buf<4x16xf32>, !host.buf<4xi64>) into (!host.buf<4xf32>)

fusion.mesh @tp = [DEVICES]

func.func @softmax(%x: tensor<8x12xf32, #fusion.shard<@tp, [[DIDx], []]>>, %y: tensor<12x8xbf16, #fusion.shard<@tp, [[DIDx], []]>>,
                   %z: tensor<4x6x8xf16, #fusion.shard<@tp, [[DIDx], [], []]>>,
                   %logits: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %labels: tensor<8xi64, #fusion.shard<@tp, [[DIDx]]>>)
    -> (tensor<8x12xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<12x8xbf16, #fusion.shard<@tp, [[], []]>>,
        tensor<4x6x8xf16, #fusion.shard<@tp, [[DIDx], [], []]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>) {
  %p = fusion.softmax %x dims = [1] : (tensor<8x12xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x12xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %q = fusion.log_softmax %y dims = [0] : (tensor<12x8xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<12x8xbf16, #fusion.shard<@tp, [[], []]>>
  %r = fusion.softmax %z dims = [1, 2] : (tensor<4x6x8xf16, #fusion.shard<@tp, [[DIDx], [], []]>>) -> tensor<4x6x8xf16, #fusion.shard<@tp, [[DIDx], [], []]>>
  %l = fusion.cross_entropy %logits, %labels : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xi64, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>
  return %p, %q, %r, %l : tensor<8x12xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<12x8xbf16, #fusion.shard<@tp, [[], []]>>, tensor<4x6x8xf16, #fusion.shard<@tp, [[DIDx], [], []]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>
}
