// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 1752 --count 1`), shrunk:
// prepare with builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=cuda_ipc protocol=put}) on 1 rank(s), input seed 1752.
// message: kernel 'sdpa': output 1 (lse) must be f32 [2, 2, 1], got f32 [1, 2, 2]
// sdpa's lse is streamed along axis 0 (Stream(1), two chunks under the pipeline) while the
// output is streamed along axis 2: the lse chunk was allocated with its own chunk shape
// [1, 2, 2] instead of result #0's [2, 2, 1] (same fix as prepare-layer-norm-stats-599).

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=cuda_ipc protocol=put})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 1752 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=cuda_ipc protocol=put})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<2x2x2x2xf32, #fusion.shard<@m, [[], [], [Stream(1)], []]>>, %a1: tensor<2x2x2x2xf32, #fusion.shard<@m, [[], [], [], []]>>, %a2: tensor<2x2x2x2xf32, #fusion.shard<@m, [[], [DIDx], [], []]>>) -> (tensor<2x2x2x2xf32, #fusion.shard<@m, [[], [], [DIDx], []]>>) {
  %v0, %v0r1 = fusion.sdpa %a0, %a1, %a2 : (tensor<2x2x2x2xf32, #fusion.shard<@m, [[], [], [Stream(1)], []]>>, tensor<2x2x2x2xf32, #fusion.shard<@m, [[], [], [], []]>>, tensor<2x2x2x2xf32, #fusion.shard<@m, [[], [DIDx], [], []]>>) -> (tensor<2x2x2x2xf32, #fusion.shard<@m, [[], [], [DIDx], []]>>, tensor<2x2x2xf32, #fusion.shard<@m, [[Stream(1)], [DIDx], []]>>)
  return %v0 : tensor<2x2x2x2xf32, #fusion.shard<@m, [[], [], [DIDx], []]>>
}
