// RUN: fuser-run %s --ranks 2 --check --check-races --pass-pipeline 'tp-overlap-p2p{chunks=2}' | FileCheck %s
// CHECK: check: PASS
//
// test/Run/matrix/column_parallel_linear.mlir.in with d = 2, S = 2: the rows of x gathered
// chunk by chunk through a p2p ring (an NCCL comm.group per step) under tp-overlap-p2p; the
// reference of test/Run/seeded-missing-group-wait.mlir.
fusion.mesh @tp = [0, 1]

func.func @column_parallel_linear(%x: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %xg = fusion.set %x : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  %y = fusion.linear %xg, %w : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}
