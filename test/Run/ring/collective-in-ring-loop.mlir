// Issue 11, defects 1 and 2: a gather into a stream loop whose body also communicates.
// x [[DIDx], []] is gathered chunk by chunk (`fusion.set` to Stream(2)), multiplied by a
// column-parallel w1 and a row-parallel w2; the partial result is reduced per chunk: to the
// chunk's owner (`comm.reduce root %i`, output [[DIDx], []], defect 1) or to every rank
// (`comm.allreduce`, output [[Stream(2)], []], defect 2). comm-p2p-ring used to rotate every use
// of the loop index to the ring's chunk, so the ranks reduced different chunks in the same
// iteration: named different roots (a run-time mismatch) or, with the allreduce, summed
// different chunks silently. A loop that communicates besides its broadcast is not a ring:
// it keeps the broadcast-based pipeline, which every backend runs correctly.

// REQUIRES: fuser-run
// RUN: sed 's/OUT/DIDx], [/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2},func.func(comm-verify))' | FileCheck %s --check-prefixes=CHECK,REDUCE
// RUN: sed 's/OUT/Stream(2)], [/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2},func.func(comm-verify))' | FileCheck %s --check-prefixes=CHECK,ALLREDUCE
// RUN: sed 's/OUT/Stream(2)], [/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 backend=cuda_ipc protocol=put},func.func(comm-verify))' | FileCheck %s --check-prefixes=CHECK,ALLREDUCE

// CHECK:         host.for %[[I:.*]] = %c0 to %c2 step %c1 {
// CHECK-NOT:       comm.send
// CHECK:           comm.broadcast %arg0 into %{{.*}} root %[[I]] team = [0, 1]
// REDUCE:          comm.reduce sum %{{.*}} into %{{.*}} root %[[I]] team = [0, 1]
// ALLREDUCE:       %[[C:.*]] = host.shard_by_stream %{{.*}}[%[[I]]] axis = 0 chunks = 2
// ALLREDUCE:       comm.allreduce sum %{{.*}} into %[[C]] team = [0, 1]
// CHECK-NOT:       comm.send

// RUN: sed 's/OUT/DIDx], [/' %s | fuser-run - --ranks 2 --check --check-races --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2})' | FileCheck %s --check-prefix=PASS
// RUN: sed 's/OUT/Stream(2)], [/' %s | fuser-run - --ranks 2 --check --check-races --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2})' | FileCheck %s --check-prefix=PASS
// RUN: sed 's/OUT/DIDx], [/' %s | fuser-run - --ranks 2 --check --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 backend=cuda_ipc protocol=get})' | FileCheck %s --check-prefix=PASS
// RUN: sed 's/OUT/Stream(2)], [/' %s | fuser-run - --ranks 2 --check --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 backend=cuda_ipc protocol=put})' | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

fusion.mesh @tp = [0, 1]

func.func @mlp(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w1: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w2: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[OUT]]>> {
  %xg = fusion.set %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  %h = fusion.linear %xg, %w1 : (tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>
  %y = fusion.linear %h, %w2 : (tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[OUT]]>>
  return %y : tensor<8x4xf32, #fusion.shard<@tp, [[OUT]]>>
}
