// REQUIRES: fuser-run
// A sequence-parallel rms_norm (Llama's): x [batch, sequence, hidden] split on the sequence
// axis over DIDx, normalized locally; y and rstd keep the split. d = 1, 2, 4; bf16 and f16 with
// the default epsilon, bf16 with epsilon written; stream splits; no weight.
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0]/' %s | fuser-run - --check | FileCheck %s
// RUN: fuser-run %s --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/' %s | fuser-run - --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/; s/32xf32/32xbf16/g' %s | fuser-run - --check --seed 9 | FileCheck %s
// RUN: sed 's/ {epsilon = 1.0e-06 : f64}//; s/32xf32/32xbf16/g' %s | fuser-run - --check | FileCheck %s
// RUN: sed 's/ {epsilon = 1.0e-06 : f64}//; s/32xf32/32xf16/g' %s | fuser-run - --check --seed 6 | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/; s/\[\[\], \[DIDx\]/[[Stream(2)], [DIDx]/g' %s | fuser-run - --check | FileCheck %s
// RUN: sed 's/\[\[\], \[DIDx\]/[[], [DIDx, Stream(2)]/g' %s | fuser-run - --check | FileCheck %s
// RUN: sed 's/ weight %w//; s/, tensor<32xf32, #fusion.shard<@tp, \[\[\]\]>>)/)/' %s | fuser-run - --check | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=HOST

// CHECK: check: PASS
// HOST-NOT: comm.
// HOST: host.kernel "rms_norm" (%arg0, %arg1) into (%0, %1) params {dims = array<i64: 2>, epsilon = 9.9999999999999995E-7 : f64} : (!host.buf<2x4x32xf32>, !host.buf<32xf32>) into (!host.buf<2x4x32xf32>, !host.buf<2x4xf32>)
// HOST-NOT: comm.

fusion.mesh @tp = [0, 1]
func.func @sp(%x: tensor<2x8x32xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, %w: tensor<32xf32, #fusion.shard<@tp, [[]]>>)
    -> (tensor<2x8x32xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) {
  %y, %r = fusion.rms_norm %x weight %w dims = [2] {epsilon = 1.0e-06 : f64} : (tensor<2x8x32xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<32xf32, #fusion.shard<@tp, [[]]>>) -> (tensor<2x8x32xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
  return %y, %r : tensor<2x8x32xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
}
