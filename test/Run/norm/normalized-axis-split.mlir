// REQUIRES: fuser-run
// A normalized axis split over DIDx: a norm reads its normalized axes whole, so
// fusion-decompose-resharding gathers x and the weight (allgathers) and the norm runs on whole
// rows on every rank; the result annotated split like x is then sliced locally (no
// communication) and the statistics are replicated. Here the norm is over both axes of x
// [4, 16] (the split axis 0 is normalized); the split of an inner normalized axis and a
// stream split of a normalized axis are diagnosed (test/Transforms/fusion-norm-invalid.mlir).
// RUN: fuser-run %s --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/' %s | fuser-run - --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0]/' %s | fuser-run - --check | FileCheck %s
// RUN: sed 's/16xf32/16xbf16/g' %s | fuser-run - --check | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=HOST

// CHECK: check: PASS
// HOST-COUNT-2: comm.allgather
// HOST: host.kernel "layer_norm"
// HOST-SAME: (!host.buf<4x16xf32>, !host.buf<4x16xf32>) into (!host.buf<4x16xf32>, !host.buf<f32>, !host.buf<f32>)

fusion.mesh @tp = [0, 1]
func.func @split_normalized(%x: tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>)
    -> (tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<f32, #fusion.shard<@tp, []>>, tensor<f32, #fusion.shard<@tp, []>>) {
  %y, %m, %r = fusion.layer_norm %x weight %w dims = [0, 1] : (tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> (tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<f32, #fusion.shard<@tp, []>>, tensor<f32, #fusion.shard<@tp, []>>)
  return %y, %m, %r : tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<f32, #fusion.shard<@tp, []>>, tensor<f32, #fusion.shard<@tp, []>>
}
