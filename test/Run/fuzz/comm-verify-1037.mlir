// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 1037 --count 1`), shrunk:
// comm-verify with builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=cuda_ipc protocol=put}) on 2 rank(s), input seed 1037.
// message: comm-verify: collective #0 of team [0, 1] at iteration 0: the ranks name different roots

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=cuda_ipc protocol=put})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 2 --seed 1037 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=cuda_ipc protocol=put})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1]
func.func @fuzz(%a0: tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>, %a1: tensor<4x4xf32, #fusion.shard<@m, [[], []]>>, %a2: tensor<4x4xf32, #fusion.shard<@m, [[], [DIDx]]>>) -> (tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) {
  %v0 = fusion.set %a0 : (tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], []]>>
  %v1 = fusion.linear %v0, %a1 : (tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], []]>>, tensor<4x4xf32, #fusion.shard<@m, [[], []]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], [DIDx]]>>
  %v2 = fusion.linear %v1, %a2 : (tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], [DIDx]]>>, tensor<4x4xf32, #fusion.shard<@m, [[], [DIDx]]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>
  return %v2 : tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>
}
