// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 1165 --count 1`), shrunk:
// late-rejection with builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get}) on 1 rank(s), input seed 1165.
// message: comm-p2p-ring with cuda_ipc needs persistent buffers (identical across runs and ranks), but the receive buffer is not; allocate it `persistent` (host-hoist-alloc{persistent=true}) or let the pass stage it (stage-buffers=true)

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 1165 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<2x2xf32, #fusion.shard<@m, [[DIDx], []]>>) -> (tensor<2x2xf32, #fusion.shard<@m, [[Stream(2)], []]>>) {
  %v0 = fusion.set %a0 : (tensor<2x2xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<2x2xf32, #fusion.shard<@m, [[Stream(2)], []]>>
  return %v0 : tensor<2x2xf32, #fusion.shard<@m, [[Stream(2)], []]>>
}
