// tp-overlap-p2p on the column-parallel linear (AllGather + Linear, nvFuser PR 5259) for
// d in {1, 2, 3, 4, 8} ranks, worker streams {1, 2, 4} and each backend/protocol; every
// result is proven by comm-verify for its team size (it prints the module only when every
// send has its recv and no deadlock exists). The program below is a template: DEVICES is
// replaced by the mesh and the pipeline sets the stream chunk count to d (a ring).

// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=1},func.func(comm-verify{team-size=1}))' | FileCheck %s --check-prefixes=CHECK,NCCL,D1
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2},func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefixes=CHECK,NCCL,D2
// RUN: sed 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=3},func.func(comm-verify{team-size=3}))' | FileCheck %s --check-prefixes=CHECK,NCCL,D3
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=CHECK,NCCL,D4
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=8},func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefixes=CHECK,NCCL,D8
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4 streams=1},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=CHECK,NCCL,D4,S1
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4 streams=2},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=CHECK,NCCL,D4,S2
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4 streams=4},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=CHECK,NCCL,D4,S4
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 backend=cuda_ipc protocol=get},func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefixes=CHECK,D2,GET
// RUN: sed 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=3 backend=cuda_ipc protocol=get},func.func(comm-verify{team-size=3}))' | FileCheck %s --check-prefixes=CHECK,D3,GET
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=8 backend=cuda_ipc protocol=get},func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefixes=CHECK,D8,GET
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefixes=CHECK,D2,PUT
// RUN: sed 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=3 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=3}))' | FileCheck %s --check-prefixes=CHECK,D3,PUT
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=8 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefixes=CHECK,D8,PUT
// Chunk counts must divide the rows (48) and equal the team size for a ring.
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | not fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=5})' 2>&1 | FileCheck %s --check-prefix=BADCHUNKS
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | not fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2})' 2>&1 | FileCheck %s --check-prefix=NOTRING

// CHECK-LABEL: func.func @column_parallel
// D1:          host.for %[[I:.*]] = %{{.*}} to %c1 step
// D2:          host.for %[[I:.*]] = %{{.*}} to %c2 step
// D3:          host.for %[[I:.*]] = %{{.*}} to %c3 step
// D4:          host.for %[[I:.*]] = %{{.*}} to %c4 step
// D8:          host.for %[[I:.*]] = %{{.*}} to %c8 step
// CHECK:         arith.cmpi eq, %[[I]]
// CHECK-NEXT:    host.if
// CHECK-NEXT:      host.copy %
// CHECK:         } else {
// NCCL-NEXT:       comm.group {
// GET-NEXT:        comm.send {{.*}} backend = cuda_ipc protocol = get
// PUT-NEXT:        comm.recv {{.*}} backend = cuda_ipc protocol = put
// CHECK:           host.linear
// CHECK-NOT:     comm.broadcast
// S1:          host.get_stream %c0 :
// S2:          arith.remui %{{.*}}, %c2 : index
// S4:          arith.remui %{{.*}}, %c4 : index
// BADCHUNKS: error: 5 stream chunks do not divide axis 0 of extent 48
// NOTRING: error: resharding in a stream loop of 2 chunks needs the Stream split of axis 0 outermost, got [DIDx] (a device split gathered chunk by chunk needs one chunk per device)

fusion.mesh @tp = [DEVICES]

func.func @column_parallel(%x: tensor<48x32xbf16, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<24x32xbf16, #fusion.shard<@tp, [[], []]>>) -> tensor<48x24xbf16, #fusion.shard<@tp, [[Stream(1)], []]>> {
  %xg = fusion.set %x : (tensor<48x32xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<48x32xbf16, #fusion.shard<@tp, [[Stream(1)], []]>>
  %y = fusion.linear %xg, %w : (tensor<48x32xbf16, #fusion.shard<@tp, [[Stream(1)], []]>>, tensor<24x32xbf16, #fusion.shard<@tp, [[], []]>>) -> tensor<48x24xbf16, #fusion.shard<@tp, [[Stream(1)], []]>>
  return %y : tensor<48x24xbf16, #fusion.shard<@tp, [[Stream(1)], []]>>
}
