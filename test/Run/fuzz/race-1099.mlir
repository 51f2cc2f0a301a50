// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 1099 --count 1`), shrunk:
// race with builtin.module(tp-default{streams=3}) on 4 rank(s), input seed 1099.
// message: 'comm.reduce' at <fuzz>:3:9: rank 0: race on buffer #455 elements [0, 4): comm.reduce at <fuzz>:3:9 on rank 0 stream 1 writes, comm.reduce at <fuzz>:3:9 on rank 0 stream 2 writes without ordering

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=3})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 4 --seed 1099 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=3})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1, 2, 3]
func.func @fuzz(%a0: tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], [DIDx]]>>, %a1: tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) -> (tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) {
  %v0 = fusion.matmul %a0, %a1 : (tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], [DIDx]]>>, tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>
  return %v0 : tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>
}
