// A race-checker false positive: disjoint chunks whose views have other strides than the
// access they were compared with (a slice of a chunk); lattices are now compared in the union
// of their strides.
// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 706167 --count 1`), shrunk:
// race with builtin.module(tp-overlap-p2p{streams=4 chunks=3 backend=cuda_ipc protocol=put}) on 3 rank(s), input seed 706167.
// message: 'host.copy' at <fuzz>:3:9: rank 0: race on buffer #111336 elements [2, 32): host.copy at <fuzz>:4:9 on rank 0 stream 1 reads, host.copy at <fuzz>:3:9 on rank 0 stream 2 writes without ordering

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=4 chunks=3 backend=cuda_ipc protocol=put})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 3 --seed 706167 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=4 chunks=3 backend=cuda_ipc protocol=put})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1, 2]
func.func @fuzz(%a0: tensor<3x6x6xf32, #fusion.shard<@m, [[DIDx], [], []]>>) -> (tensor<3x6x6xf32, #fusion.shard<@m, [[DIDx], [], [Stream(2)]]>>, tensor<3x6x6xf32, #fusion.shard<@m, [[], [], [Stream(2)]]>>) {
  %v0 = fusion.add %a0, %a0 : (tensor<3x6x6xf32, #fusion.shard<@m, [[DIDx], [], []]>>, tensor<3x6x6xf32, #fusion.shard<@m, [[DIDx], [], []]>>) -> tensor<3x6x6xf32, #fusion.shard<@m, [[], [], [Stream(2)]]>>
  %v1 = fusion.set %v0 : (tensor<3x6x6xf32, #fusion.shard<@m, [[], [], [Stream(2)]]>>) -> tensor<3x6x6xf32, #fusion.shard<@m, [[DIDx], [], [Stream(2)]]>>
  return %v1, %v0 : tensor<3x6x6xf32, #fusion.shard<@m, [[DIDx], [], [Stream(2)]]>>, tensor<3x6x6xf32, #fusion.shard<@m, [[], [], [Stream(2)]]>>
}
