// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 105775 --count 1`), shrunk:
// race with builtin.module(tp-overlap-p2p{streams=4 chunks=2 backend=nccl protocol=get}) on 1 rank(s), input seed 105775.
// message: 'host.elementwise' at <fuzz>:3:9: rank 0: race on buffer #91718 elements [400, 1190): host.copy at <fuzz>:4:9 on rank 0 stream 1 reads, host.elementwise at <fuzz>:3:9 on rank 0 stream 2 writes without ordering
// A stride-2 slice of one stream chunk (rows 0..10 of a [2, 20, 40] buffer) against the next
// chunk's write (rows 10..20): disjoint, but the race checker's lattice boxes could not represent
// the chunk's dense 40-element rows in the slice's stride-2 radix and reported a race. Small
// lattices are now compared element by element when the boxes cannot decide.

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-p2p{streams=4 chunks=2 backend=nccl protocol=get})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 105775 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-p2p{streams=4 chunks=2 backend=nccl protocol=get})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<2x20x40xf32, #fusion.shard<@m, [[], [], []]>>, %a1: tensor<2x20x40xf32, #fusion.shard<@m, [[], [], []]>>) -> (tensor<2x20x10xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>, tensor<2x20x40xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>) {
  %v0 = fusion.add %a0, %a1 : (tensor<2x20x40xf32, #fusion.shard<@m, [[], [], []]>>, tensor<2x20x40xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<2x20x40xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>
  %v1 = fusion.slice %v0 offsets = [0, 0, 11] sizes = [2, 20, 10] strides = [1, 1, 2] : (tensor<2x20x40xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>) -> tensor<2x20x10xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>
  return %v1, %v0 : tensor<2x20x10xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>, tensor<2x20x40xf32, #fusion.shard<@m, [[], [Stream(4)], []]>>
}
