// The race checker and rooted collectives: only the root of a comm.reduce writes its output.
// tp-default lowers this linear (K split over the devices, the rows of x in 2 stream chunks,
// y split over the devices by rows) to one comm.reduce per chunk, each on its own worker
// stream, rooted at the device that owns the chunk's rows, all into the same local buffer of
// y. On each rank only one of the two reduces writes that buffer (the one it is the root of):
// no race, and the program passes --check (issue 11, item 4: the checker took every member's
// output as written and reported a write-write race between the two worker streams).

// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 2 --check-races --check | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

// The root's write is still seen: without the join of the worker streams at the end, the
// return on the main stream reads what rank 0's reduce of chunk 0 (rank 0 its root) writes
// on stream 1.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | sed 's/^ *host.stream_wait %3$//' | not fuser-run - --ranks 2 --check-races 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: rank 0: race on buffer #{{[0-9]+}} elements {{\[0, 16\)}}: comm.reduce at {{.*}} on rank 0 stream 1 writes, func.return at {{.*}} on rank 0 stream 0 reads without ordering

fusion.mesh @tp = [0, 1]

func.func @reduce_to_row_owner(%x: tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %w: tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %y = fusion.linear %x, %w : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %y : tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
