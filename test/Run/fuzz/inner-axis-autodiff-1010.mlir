// Found by fuser-lowerfuzz's fixed autodiff batch (`fuser-lowerfuzz --seed 1010 --count 1
// --autodiff on`): the @fuzz_vjp that fusion-autodiff makes of this program was rejected,
// 'resharding on an inner axis is not lowerable: axis 1 is split but an outer axis has local
// extent > 1 (shape [2, 1, 8])': the cotangent of the sum's [2, 5] result, split on axis 1,
// is broadcast to the sdpa lse's [2, 5, 8] and gathered on axis 1. Now the allgather is
// staged through a buffer with the rank first (docs/dev/lowering.md §5), under the case's
// pipeline too.

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=fuzz})' | fuser-run - --entry fuzz_vjp --ranks 5 --seed 1010 --timeout 20 --check --check-races | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=fuzz})' | fuser-run - --entry fuzz_vjp --ranks 5 --seed 1010 --timeout 20 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=4 chunks=5 backend=cuda_ipc protocol=put})' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=fuzz}, tp-default)' | FileCheck %s --check-prefix=LOWERED
// LOWERED: comm.allgather {{.*}} : !host.buf<2x1x8xf32>, !host.buf<5x2x1x8xf32>
// CHECK: check: PASS

fusion.mesh @m = [0, 1, 2, 3, 4]
func.func @fuzz(%a0: tensor<50xbf16, #fusion.shard<@m, [[]]>>, %a1: tensor<2x5x8x4xbf16, #fusion.shard<@m, [[], [DIDx], [], []]>>, %a2: tensor<2x5x8x4xbf16, #fusion.shard<@m, [[], [DIDx], [], []]>>, %a3: tensor<2x5x8x4xbf16, #fusion.shard<@m, [[], [DIDx], [], []]>>, %a4: tensor<50x4xbf16, #fusion.shard<@m, [[DIDx], []]>>) -> (tensor<2x5xf32, #fusion.shard<@m, [[], [DIDx]]>>) {
  %v0 = fusion.cast %a0 : (tensor<50xbf16, #fusion.shard<@m, [[]]>>) -> tensor<50xf32>
  %v1, %v1r1 = fusion.sdpa %a1, %a2, %a3 : (tensor<2x5x8x4xbf16, #fusion.shard<@m, [[], [DIDx], [], []]>>, tensor<2x5x8x4xbf16, #fusion.shard<@m, [[], [DIDx], [], []]>>, tensor<2x5x8x4xbf16, #fusion.shard<@m, [[], [DIDx], [], []]>>) -> (tensor<2x5x8x4xbf16, #fusion.shard<@m, [[], [DIDx], [], []]>>, tensor<2x5x8xf32, #fusion.shard<@m, [[], [], []]>>)
  %v2 = fusion.exp %v1r1 : (tensor<2x5x8xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<2x5x8xf32>
  %v3 = fusion.min %a1 dims = [0, 1] : (tensor<2x5x8x4xbf16, #fusion.shard<@m, [[], [DIDx], [], []]>>) -> tensor<8x4xbf16>
  %v4 = fusion.linear %v3, %a4 : (tensor<8x4xbf16>, tensor<50x4xbf16, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<8x50xbf16>
  %v5 = fusion.sum %v1r1 dims = [2] : (tensor<2x5x8xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<2x5xf32, #fusion.shard<@m, [[], [DIDx]]>>
  return %v5 : tensor<2x5xf32, #fusion.shard<@m, [[], [DIDx]]>>
}

