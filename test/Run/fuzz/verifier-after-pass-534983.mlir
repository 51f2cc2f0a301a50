// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 534983 --count 1`), shrunk:
// verifier-after-pass with builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get}) on 1 rank(s), input seed 534983.
// message: 'host.expand' op result type must be !host.view<1x18x18xf32, strides = [0, 18, 1], ipc>

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 534983 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<18x18xf32, #fusion.shard<@m, [[DIDx], []]>>) -> (tensor<1x18x18xf32, #fusion.shard<@m, [[], [], [DIDx]]>>) {
  %v0 = fusion.set %a0 : (tensor<18x18xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<18x18xf32, #fusion.shard<@m, [[Stream(2)], []]>>
  %v1 = fusion.broadcast %v0 dims = [0] : (tensor<18x18xf32, #fusion.shard<@m, [[Stream(2)], []]>>) -> tensor<1x18x18xf32, #fusion.shard<@m, [[], [], [DIDx]]>>
  return %v1 : tensor<1x18x18xf32, #fusion.shard<@m, [[], [], [DIDx]]>>
}
