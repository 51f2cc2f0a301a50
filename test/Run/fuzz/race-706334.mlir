// A real race, found by the race checker: the reduce of each matmul chunk onto its owner
// (`comm.reduce root %i`) shared its loop with a broadcast that read the rank's rows chunk by
// chunk, so iteration 1 read rows that iteration 0's reduce (another stream) still wrote. A
// reduce onto the owners completes its result only when the loop ends; its consumers now run
// in a loop of their own.
// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 706334 --count 1`), shrunk:
// race with builtin.module(tp-overlap-collective{streams=4 chunks=2}) on 2 rank(s), input seed 706334.
// message: 'host.copy' at <fuzz>:4:9: rank 0: race on buffer #115032 elements [4, 8): comm.reduce at <fuzz>:3:9 on rank 0 stream 1 writes, host.copy at <fuzz>:4:9 on rank 0 stream 2 reads without ordering

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-collective{streams=4 chunks=2})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 2 --seed 706334 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-collective{streams=4 chunks=2})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1]
func.func @fuzz(%a0: tensor<4x4xf32, #fusion.shard<@m, [[Stream(1)], [DIDx]]>>, %a1: tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) -> (tensor<4x4x4xf32, #fusion.shard<@m, [[DIDx, Stream(1)], [], []]>>) {
  %v0 = fusion.matmul %a0, %a1 : (tensor<4x4xf32, #fusion.shard<@m, [[Stream(1)], [DIDx]]>>, tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>
  %v1 = fusion.broadcast %v0 dims = [2] : (tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<4x4x4xf32, #fusion.shard<@m, [[DIDx, Stream(1)], [], []]>>
  return %v1 : tensor<4x4x4xf32, #fusion.shard<@m, [[DIDx, Stream(1)], [], []]>>
}
