// REQUIRES: fuser-run
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check --input-values 1=3,0,15,-100,7,16,1,9 | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check --input-values 1=3,0,15,-100,7,16,1,9 | FileCheck %s
// The vocab-parallel phases inside a stream loop over the rows: each chunk's parts kernel gets
// the chunk's global row and the rank's vocabulary origin.
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=HOST
// CHECK: check: PASS
// HOST: host.for
// HOST: comm.allreduce max
// HOST: host.kernel "cross_entropy_parts" {{.*}} origin(
// HOST: comm.allreduce sum
// HOST: host.kernel "cross_entropy_finish"
fusion.mesh @tp = [DEVICES]
func.func @f(%x: tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %l: tensor<8xi64, #fusion.shard<@tp, [[Stream(2)]]>>) -> tensor<8xf32, #fusion.shard<@tp, [[Stream(2)]]>> {
  %y = fusion.cross_entropy %x, %l : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<8xi64, #fusion.shard<@tp, [[Stream(2)]]>>) -> tensor<8xf32, #fusion.shard<@tp, [[Stream(2)]]>>
  return %y : tensor<8xf32, #fusion.shard<@tp, [[Stream(2)]]>>
}
