// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 109453 --count 1`), shrunk:
// verifier-after-pass with builtin.module(tp-overlap-p2p{streams=1 chunks=0 backend=cuda_ipc protocol=get}) on 1 rank(s), input seed 109453.
// message: 'host.permute' op result type must be !host.view<1x1xf32, strides = [1, 1], ipc>

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=1 chunks=0 backend=cuda_ipc protocol=get})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 109453 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=1 chunks=0 backend=cuda_ipc protocol=get})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<1x1xf32, #fusion.shard<@m, [[DIDx], []]>>) -> (tensor<1x1xf32, #fusion.shard<@m, [[], [Stream(1)]]>>) {
  %v0 = fusion.set %a0 : (tensor<1x1xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<1x1xf32, #fusion.shard<@m, [[Stream(1)], []]>>
  %v1 = fusion.permute %v0 dims = [1, 0] : (tensor<1x1xf32, #fusion.shard<@m, [[Stream(1)], []]>>) -> tensor<1x1xf32, #fusion.shard<@m, [[], [Stream(1)]]>>
  return %v1 : tensor<1x1xf32, #fusion.shard<@m, [[], [Stream(1)]]>>
}
