// REQUIRES: fuser-run
// A sequence-parallel layer_norm: x [batch, sequence, hidden] split on the sequence axis over
// DIDx is normalized locally (no communication); y and the statistics mean and rstd keep the
// split. d = 1, 2, 4 ranks; f32, bf16 and f16 (statistics stay f32), f64 (f64 statistics); the same with the batch
// axis streamed (Stream(2) outside the device split), and without weight or bias.
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0]/' %s | fuser-run - --check | FileCheck %s
// RUN: fuser-run %s --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/' %s | fuser-run - --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/; s/16xf32/16xbf16/g' %s | fuser-run - --check --seed 3 | FileCheck %s
// RUN: sed 's/16xf32/16xf16/g' %s | fuser-run - --check --seed 4 | FileCheck %s
// RUN: sed 's/xf32/xf64/g' %s | fuser-run - --check --seed 5 | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/; s/\[\[\], \[DIDx\]/[[Stream(2)], [DIDx]/g' %s | fuser-run - --check | FileCheck %s
// RUN: sed 's/\[\[\], \[DIDx\]/[[], [Stream(2), DIDx]/g' %s | fuser-run - --check | FileCheck %s
// RUN: sed 's/ weight %w//; s/, tensor<16xf32, #fusion.shard<@tp, \[\[\]\]>>)/)/' %s | fuser-run - --check | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=HOST

// CHECK: check: PASS
// HOST-NOT: comm.
// HOST: host.kernel "layer_norm" (%arg0, %arg1, %arg2) into (%0, %1, %2) params {dims = array<i64: 2>, operandSegmentSizes = array<i32: 1, 1, 1>} : (!host.buf<2x4x16xf32>, !host.buf<16xf32>, !host.buf<16xf32>) into (!host.buf<2x4x16xf32>, !host.buf<2x4xf32>, !host.buf<2x4xf32>)
// HOST-NOT: comm.

fusion.mesh @tp = [0, 1]
func.func @sp(%x: tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, %w: tensor<16xf32, #fusion.shard<@tp, [[]]>>, %b: tensor<16xf32, #fusion.shard<@tp, [[]]>>)
    -> (tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) {
  %y, %m, %r = fusion.layer_norm %x weight %w bias %b dims = [2] : (tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<16xf32, #fusion.shard<@tp, [[]]>>, tensor<16xf32, #fusion.shard<@tp, [[]]>>) -> (tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
  return %y, %m, %r : tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
}
