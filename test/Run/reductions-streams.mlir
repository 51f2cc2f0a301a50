// REQUIRES: fuser-run
// RUN: sed 's/DEVICES/0/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check | FileCheck %s
// Reductions over the device-split axis of a stream-chunked tensor: each chunk's max (mean) is
// a partial max (sum) reduced by an allreduce in the same loop; a softmax over the other axis
// and a bf16 variance over it run chunk by chunk (a stream split of an axis they read whole
// is refused: fusion-reductions-invalid.mlir).
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=HOST
// CHECK: check: PASS
// HOST: host.for
// HOST: host.reduce max
// HOST: comm.allreduce max
// HOST: host.for
// HOST: host.reduce mean {{.*}} count = 12
// HOST: comm.allreduce sum

fusion.mesh @tp = [DEVICES]
func.func @f(%x: tensor<8x12xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %y: tensor<8x12xbf16, #fusion.shard<@tp, [[Stream(2)], []]>>)
    -> (tensor<8xf32, #fusion.shard<@tp, [[Stream(2)]]>>, tensor<8x1xf32, #fusion.shard<@tp, [[Stream(2)], []]>>,
        tensor<8x12xbf16, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<8xbf16, #fusion.shard<@tp, [[Stream(2)]]>>) {
  %m = fusion.max %x dims = [1] : (tensor<8x12xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>) -> tensor<8xf32, #fusion.shard<@tp, [[Stream(2)]]>>
  %a = fusion.mean %x dims = [1] keep_dims : (tensor<8x12xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>) -> tensor<8x1xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  %s = fusion.softmax %y dims = [1] : (tensor<8x12xbf16, #fusion.shard<@tp, [[Stream(2)], []]>>) -> tensor<8x12xbf16, #fusion.shard<@tp, [[Stream(2)], []]>>
  %v = fusion.var %y dims = [1] {correction = 0 : i64} : (tensor<8x12xbf16, #fusion.shard<@tp, [[Stream(2)], []]>>) -> tensor<8xbf16, #fusion.shard<@tp, [[Stream(2)]]>>
  return %m, %a, %s, %v : tensor<8xf32, #fusion.shard<@tp, [[Stream(2)]]>>, tensor<8x1xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<8x12xbf16, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<8xbf16, #fusion.shard<@tp, [[Stream(2)]]>>
}
