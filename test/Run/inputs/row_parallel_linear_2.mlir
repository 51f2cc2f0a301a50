// RUN: fuser-run %s --ranks 2 --check | FileCheck %s
// CHECK: check: PASS
//
// Row-parallel linear on two devices with 2 stream chunks (the cuda backend's 2-GPU smoke
// test in crates/opt-tool/tests/fuser_run.rs uses it too).
fusion.mesh @tp = [0, 1]

func.func @row_parallel_linear(%x: tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %w: tensor<80x96xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x80xbf16, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %y = fusion.linear %x, %w : (tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<80x96xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x80xbf16, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<64x80xbf16, #fusion.shard<@tp, [[Stream(2)], []]>>
}
