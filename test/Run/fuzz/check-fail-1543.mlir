// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 1543 --count 1`), shrunk:
// check-fail with builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=cuda_ipc protocol=get}) on 2 rank(s), input seed 1543.
// message: [p2p ring only] output #0 (f32): rel err 1.166e0 > tolerance 1e-5

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=cuda_ipc protocol=get})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 2 --seed 1543 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=cuda_ipc protocol=get})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1]
func.func @fuzz(%a0: tensor<8x8xf32, #fusion.shard<@m, [[DIDx], []]>>, %a1: tensor<8x8xf32, #fusion.shard<@m, [[DIDx], []]>>, %a2: tensor<8x8xf32, #fusion.shard<@m, [[], [DIDx]]>>) -> (tensor<8x8xf32, #fusion.shard<@m, [[Stream(4), DIDx], []]>>) {
  %v0 = fusion.set %a0 : (tensor<8x8xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@m, [[Stream(4)], []]>>
  %v1 = fusion.linear %v0, %a1 : (tensor<8x8xf32, #fusion.shard<@m, [[Stream(4)], []]>>, tensor<8x8xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<8x8xf32>
  %v2 = fusion.linear %v1, %a2 : (tensor<8x8xf32>, tensor<8x8xf32, #fusion.shard<@m, [[], [DIDx]]>>) -> tensor<8x8xf32, #fusion.shard<@m, [[Stream(4), DIDx], []]>>
  return %v2 : tensor<8x8xf32, #fusion.shard<@m, [[Stream(4), DIDx], []]>>
}
