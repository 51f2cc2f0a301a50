// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 2243 --count 1`), shrunk:
// verifier-after-pass with builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get}) on 1 rank(s), input seed 2243.
// message: 'host.slice' op result memory kind must be the source's

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 2243 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<2x2xf32, #fusion.shard<@m, [[DIDx], []]>>, %a1: tensor<2x2xf32, #fusion.shard<@m, [[], [DIDx]]>>) -> (tensor<2x2xf32>) {
  %v0 = fusion.set %a0 : (tensor<2x2xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<2x2xf32, #fusion.shard<@m, [[Stream(2)], []]>>
  %v1 = fusion.mul %a1, %v0 : (tensor<2x2xf32, #fusion.shard<@m, [[], [DIDx]]>>, tensor<2x2xf32, #fusion.shard<@m, [[Stream(2)], []]>>) -> tensor<2x2xf32>
  return %v1 : tensor<2x2xf32>
}
