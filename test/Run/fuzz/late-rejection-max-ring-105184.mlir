// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 105184 --count 1`), shrunk:
// late-rejection with builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get}) on 1 rank(s), input seed 105184.
// message: the ring reduce-scatter supports sum reductions only
// fusion.max over a DIDx-split axis into a DIDx-split result is a partial max reduce-scattered
// per stream chunk (a loop of comm.reduce max); comm-p2p-ring turned every such loop into its
// ring reduce-scatter, which accumulates sums only, and refused. Non-sum reduce loops now stay
// loops of reduces.

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 105184 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=1 chunks=1 backend=cuda_ipc protocol=get})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<3x3xf32, #fusion.shard<@m, [[Stream(3)], [DIDx]]>>) -> (tensor<3xf32, #fusion.shard<@m, [[DIDx]]>>) {
  %v0 = fusion.max %a0 dims = [1] : (tensor<3x3xf32, #fusion.shard<@m, [[Stream(3)], [DIDx]]>>) -> tensor<3xf32, #fusion.shard<@m, [[DIDx]]>>
  return %v0 : tensor<3xf32, #fusion.shard<@m, [[DIDx]]>>
}
