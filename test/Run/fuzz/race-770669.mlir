// A race-checker false positive: a contiguous slice of one stream chunk compared with the
// strided chunk another stream writes; contiguous views now carry their exact elements too.
// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 770669 --count 1`), shrunk:
// race with builtin.module(tp-overlap-p2p{streams=3 chunks=2 backend=nccl protocol=get}) on 2 rank(s), input seed 770669.
// message: 'host.copy' at <fuzz>:4:9: rank 0: race on buffer #1291353 elements [8, 16): host.matmul at <fuzz>:3:9 on rank 0 stream 1 writes, host.copy at <fuzz>:4:9 on rank 0 stream 2 reads without ordering

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=3 chunks=2 backend=nccl protocol=get})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 2 --seed 770669 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=3 chunks=2 backend=nccl protocol=get})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1]
func.func @fuzz(%a0: tensor<2x4x4xf32, #fusion.shard<@m, [[], [], []]>>, %a1: tensor<4x4xf32, #fusion.shard<@m, [[], []]>>, %a2: tensor<2x4x4xf32, #fusion.shard<@m, [[DIDx], [], []]>>) -> (tensor<2x4x4xf32, #fusion.shard<@m, [[], [], []]>>, tensor<2x4x4xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>) {
  %v0 = fusion.matmul %a0, %a1 : (tensor<2x4x4xf32, #fusion.shard<@m, [[], [], []]>>, tensor<4x4xf32, #fusion.shard<@m, [[], []]>>) -> tensor<2x4x4xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>
  %v1 = fusion.add %v0, %a2 : (tensor<2x4x4xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>, tensor<2x4x4xf32, #fusion.shard<@m, [[DIDx], [], []]>>) -> tensor<2x4x4xf32, #fusion.shard<@m, [[], [], []]>>
  return %v1, %v0 : tensor<2x4x4xf32, #fusion.shard<@m, [[], [], []]>>, tensor<2x4x4xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>
}
