// REQUIRES: fuser-run
// The gradient of the cross-entropy as the backward pass writes it (docs/dev/autodiff.md):
// dlogits = (exp(x - lse) - one_hot(labels)) * g per row, from the row's log-sum-exp, with
// vocab-parallel logits (the classes split over DIDx): every op is local on the column split,
// one_hot writing each rank's columns from its origin; no communication. Labels out of [0, 8)
// (the random ones in [-8, 0)) give rows without the one-hot term.
// RUN: fuser-run %s --ranks 2 --check | FileCheck %s
// RUN: fuser-run %s --ranks 2 --check --seed 3 | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0]/' %s | fuser-run - --ranks 1 --check --seed 2 | FileCheck %s
// RUN: sed 's/x8xf32/x8xbf16/g; s/4xf32/4xbf16/g' %s | fuser-run - --ranks 2 --check --seed 4 | FileCheck %s
// CHECK: check: PASS
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=LOWER
// LOWER: host.kernel "one_hot" (%arg1) into (%{{.*}}) origin(%c0, %{{.*}}) params {global_shape = array<i64: 4, 8>, num_classes = 8 : i64} : (!host.buf<4xi64>) into (!host.buf<4x4xf32>)
// LOWER-NOT: comm.
fusion.mesh @tp = [0, 1]
func.func @ce_grad(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %labels: tensor<4xi64>, %lse: tensor<4xf32>, %g: tensor<4xf32>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>> {
  %lb = fusion.broadcast %lse dims = [1] : (tensor<4xf32>) -> tensor<4x8xf32>
  %s = fusion.sub %x, %lb : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<4x8xf32>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %p = fusion.exp %s : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %oh = fusion.one_hot %labels num_classes = 8 : (tensor<4xi64>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %d = fusion.sub %p, %oh : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %gb = fusion.broadcast %g dims = [1] : (tensor<4xf32>) -> tensor<4x8xf32>
  %r = fusion.mul %d, %gb : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<4x8xf32>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  return %r : tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
}
