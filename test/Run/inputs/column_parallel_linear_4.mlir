// RUN: fuser-run %s --ranks 4 --check --check-races --pass-pipeline 'tp-overlap-p2p{chunks=4 backend=cuda_ipc protocol=put}' | FileCheck %s
// CHECK: check: PASS
//
// test/Run/matrix/column_parallel_linear.mlir.in with d = 4, S = 4: the rows of x gathered
// chunk by chunk through a CUDA IPC `put` ring under tp-overlap-p2p; the reference of
// test/Run/seeded-missing-recv-wait.mlir.
fusion.mesh @tp = [0, 1, 2, 3]

func.func @column_parallel_linear(%x: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>> {
  %xg = fusion.set %x : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[Stream(4)], []]>>
  %y = fusion.linear %xg, %w : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(4)], []]>>, tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>>
  return %y : tensor<8x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>>
}
