// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 1001 --count 1`), shrunk:
// run-error with builtin.module(tp-overlap-p2p{streams=1 chunks=3 backend=nccl protocol=get}) on 3 rank(s), input seed 1001.
// message: output #0: replicated output differs between device 0 (0.05399845540523529) and device 1 (0.7767421007156372) at element 0

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=1 chunks=3 backend=nccl protocol=get})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 3 --seed 1001 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=1 chunks=3 backend=nccl protocol=get})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1, 2]
func.func @fuzz(%a0: tensor<6x6xf32, #fusion.shard<@m, [[DIDx], []]>>, %a1: tensor<6x6xf32, #fusion.shard<@m, [[], []]>>, %a2: tensor<6x6xf32, #fusion.shard<@m, [[], [DIDx]]>>) -> (tensor<6x6xf32, #fusion.shard<@m, [[Stream(2)], []]>>) {
  %v0 = fusion.set %a0 : (tensor<6x6xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<6x6xf32, #fusion.shard<@m, [[Stream(2)], []]>>
  %v1 = fusion.linear %v0, %a1 : (tensor<6x6xf32, #fusion.shard<@m, [[Stream(2)], []]>>, tensor<6x6xf32, #fusion.shard<@m, [[], []]>>) -> tensor<6x6xf32, #fusion.shard<@m, [[Stream(2)], [DIDx]]>>
  %v2 = fusion.linear %v1, %a2 : (tensor<6x6xf32, #fusion.shard<@m, [[Stream(2)], [DIDx]]>>, tensor<6x6xf32, #fusion.shard<@m, [[], [DIDx]]>>) -> tensor<6x6xf32, #fusion.shard<@m, [[Stream(2)], []]>>
  return %v2 : tensor<6x6xf32, #fusion.shard<@m, [[Stream(2)], []]>>
}
