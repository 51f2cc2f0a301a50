// REQUIRES: fuser-run
// Broadcast, permute and reshape lower to copies through layout views and match the unsharded
// reference; with a row-parallel linear with bias, the bias is added once after the allreduce.
// RUN: fuser-run %s --ranks 2 --check | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1\]/fusion.mesh @tp = [0]/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: fuser-run %S/inputs/row_parallel_bias.mlir --ranks 4 --check | FileCheck %s

// CHECK: check: PASS

fusion.mesh @tp = [0, 1]
func.func @layout(%a: tensor<8x6xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<8xf32>) -> (tensor<6x8xf32>, tensor<4x12xf32>) {
  %p = fusion.permute %a dims = [1, 0] : (tensor<8x6xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<6x8xf32>
  %bb = fusion.broadcast %b dims = [0] : (tensor<8xf32>) -> tensor<6x8xf32>
  %s = fusion.add %p, %bb : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
  %r = fusion.reshape %a : (tensor<8x6xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x12xf32>
  return %s, %r : tensor<6x8xf32>, tensor<4x12xf32>
}
