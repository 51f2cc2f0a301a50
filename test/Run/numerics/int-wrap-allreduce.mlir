// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 2 --input-values 0=100,100,-100,1,100,100,-100,1 --check --print-outputs | FileCheck %s
// CHECK: output #0 (i8 [4]): -56 -56 56 2
// CHECK: check: PASS
//
// An i8 sum over a split axis: each rank sums its rows, the allreduce of the partial sums
// wraps as the sum does (100 + 100 = -56 on either side of the communication).
fusion.mesh @tp = [0, 1]
func.func @sum(%x: tensor<2x4xi8, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4xi8, #fusion.shard<@tp, [[]]>> {
  %p = fusion.sum %x dims = [0] : (tensor<2x4xi8, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4xi8, #fusion.shard<@tp, [[]], partial = [DIDx]>>
  %s = fusion.set %p : (tensor<4xi8, #fusion.shard<@tp, [[]], partial = [DIDx]>>) -> tensor<4xi8, #fusion.shard<@tp, [[]]>>
  return %s : tensor<4xi8, #fusion.shard<@tp, [[]]>>
}
