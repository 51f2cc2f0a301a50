// REQUIRES: fuser-run
// RUN: sed 's/DEVICES/0/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-run - --ranks 4 --check | FileCheck %s
// The lowered program: a max over the split axis is a partial max and an allreduce max; a mean
// over it a partial sum (each rank divides by the global count 12) and an allreduce sum; a
// variance over a split axis gathers it first (%y); reductions over the other axis stay local.
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))' | FileCheck %s --check-prefix=HOST
// CHECK: check: PASS
// HOST-LABEL: func.func @reductions
// HOST: host.reduce max %{{.*}} dims = [1] : !host.buf<8x6xf32>, !host.buf<8xf32>
// HOST: comm.allreduce max
// HOST: host.reduce min %{{.*}} dims = [0] : !host.buf<8x6xf32>, !host.view<6xf32
// HOST: host.reduce mean %{{.*}} dims = [1] count = 12 : !host.buf<8x6xf32>, !host.buf<8xf32>
// HOST: comm.allreduce sum
// HOST: comm.allgather
// HOST: host.reduce var %{{.*}} dims = [0] correction = 1 : !host.buf<12x8xf32>, !host.buf<8xf32>
// HOST: host.reduce var %{{.*}} dims = [0] correction = 0 : !host.buf<8x6xf32>, !host.buf<6xf32>
// HOST: host.reduce max %{{.*}} dims = [1] : !host.buf<8x6xi32>, !host.buf<8xi32>
// HOST: comm.allreduce max

fusion.mesh @tp = [DEVICES]

func.func @reductions(%x: tensor<8x12xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %i: tensor<8x12xi32, #fusion.shard<@tp, [[], [DIDx]]>>,
    %y: tensor<12x8xf32, #fusion.shard<@tp, [[DIDx], []]>>)
    -> (tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<1x12xf32, #fusion.shard<@tp, [[], [DIDx]]>>,
        tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>,
        tensor<12xf32, #fusion.shard<@tp, [[DIDx]]>>, tensor<8xi32, #fusion.shard<@tp, [[]]>>) {
  %m = fusion.max %x dims = [1] : (tensor<8x12xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8xf32, #fusion.shard<@tp, [[]]>>
  %n = fusion.min %x dims = [0] keep_dims : (tensor<8x12xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<1x12xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %a = fusion.mean %x dims = [1] : (tensor<8x12xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8xf32, #fusion.shard<@tp, [[]]>>
  %v = fusion.var %y dims = [0] : (tensor<12x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8xf32, #fusion.shard<@tp, [[]]>>
  %w = fusion.var %x dims = [0] {correction = 0 : i64} : (tensor<8x12xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<12xf32, #fusion.shard<@tp, [[DIDx]]>>
  %k = fusion.max %i dims = [1] : (tensor<8x12xi32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8xi32, #fusion.shard<@tp, [[]]>>
  return %m, %n, %a, %v, %w, %k : tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<1x12xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<12xf32, #fusion.shard<@tp, [[DIDx]]>>, tensor<8xi32, #fusion.shard<@tp, [[]]>>
}
