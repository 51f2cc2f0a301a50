// Matmul + ReduceScatter (row-parallel linear with a sequence-parallel output) for d in
// {1, 2, 3, 4, 8}: tp-overlap-collective gives the reduce-based pipeline (a reduce per chunk
// onto the chunk's owner, root = the loop index; nvFuser PR 5923), tp-overlap-p2p the ring
// (partial chunks travel the ring; each GEMM accumulates into the received partial, beta = 1),
// over NCCL or CUDA IPC (get/put: the inbox is a persistent ipc buffer shared with the ring
// neighbours once, before the loop). Every result is proven by comm-verify. DEVICES is replaced
// by the mesh; chunks = d.

// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=1},func.func(comm-verify{team-size=1}))' | FileCheck %s --check-prefixes=REDUCE
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=2},func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefixes=REDUCE,COMMR
// RUN: sed 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=3},func.func(comm-verify{team-size=3}))' | FileCheck %s --check-prefixes=REDUCE,COMMR
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=4},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=REDUCE,COMMR
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=8},func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefixes=REDUCE,COMMR
// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=1 streams=2},func.func(comm-verify{team-size=1}))' | FileCheck %s --check-prefix=RING
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 streams=2},func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefix=RING
// RUN: sed 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=3 streams=2},func.func(comm-verify{team-size=3}))' | FileCheck %s --check-prefix=RING
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4 streams=2},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefix=RING
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=8 streams=2},func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefix=RING
// RUN: sed 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=3 streams=2 backend=cuda_ipc},func.func(comm-verify{team-size=3}))' | FileCheck %s --check-prefixes=IPC,GET
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4 streams=2 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=IPC,PUT

// REDUCE-LABEL: func.func @row_sequence_parallel
// REDUCE:         %[[OUT:.*]] = host.alloc()
// REDUCE:         host.for %[[I:.*]] = 
// REDUCE:           host.linear %{{.*}}, %arg1 into %[[P:.*]] :
// COMMR-NEXT:       %[[R:.*]] = comm.reduce sum %[[P]] into %[[OUT]] root %[[I]]
// COMMR-NEXT:       comm.wait %[[R]]

// RING-LABEL: func.func @row_sequence_parallel
// RING:         %[[OUT:.*]] = host.alloc()
// RING-NEXT:    %[[INBOX:.*]] = host.alloc()
// RING:         host.for %[[I:.*]] = 
// RING:           %[[SLOT:.*]] = host.select %[[INBOX]][%[[I]]]
// RING-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %[[I]]
// RING-NEXT:      host.if %[[FIRST]] {
// RING-NEXT:        host.linear %{{.*}}, %arg1 into %[[SLOT]] :
// RING-NEXT:      } else {
// RING-NEXT:        host.linear %{{.*}}, %arg1 into %[[SLOT]] accumulate :
// RING-NEXT:      }
// RING:           host.if
// RING-NEXT:        host.copy %[[SLOT]], %[[OUT]]
// RING-NEXT:      } else {
// RING:             comm.group {
// RING-NEXT:          comm.send %[[SLOT]] to
// RING-NEXT:          comm.recv
// RING:         } {host.sequential}
// RING-NOT:     comm.reduce

// IPC-LABEL: func.func @row_sequence_parallel
// IPC:         %[[INBOX:.*]] = host.alloc() persistent : !host.buf<{{.*}}, ipc>
// IPC:         comm.share_handles send(%[[INBOX]] to %[[NEXT:.*]]) recv(%[[INBOX]] from %[[PREV:[^)]*]]) backend = cuda_ipc
// IPC:         host.for %[[I:.*]] = 
// IPC:           %[[SLOT:.*]] = host.select %[[INBOX]][%[[I]]]
// IPC:           host.linear %{{.*}}, %arg1 into %[[SLOT]] accumulate :
// IPC:           } else {
// IPC:             %[[NEXTSLOT:.*]] = host.select %[[INBOX]]
// GET-NEXT:        %[[S:.*]] = comm.send %[[SLOT]] to %[[NEXT]] backend = cuda_ipc protocol = get
// GET-NEXT:        %[[R:.*]] = comm.recv %[[NEXTSLOT]] from %[[PREV]] backend = cuda_ipc protocol = get
// PUT-NEXT:        %[[R:.*]] = comm.recv %[[NEXTSLOT]] from %[[PREV]] backend = cuda_ipc protocol = put
// PUT-NEXT:        %[[S:.*]] = comm.send %[[SLOT]] to %[[NEXT]] backend = cuda_ipc protocol = put
// IPC-NEXT:        comm.wait %[[R]]
// IPC-NEXT:        comm.wait %[[S]]
// IPC:         } {host.sequential}

fusion.mesh @tp = [DEVICES]

func.func @row_sequence_parallel(%x: tensor<48x48xf32, #fusion.shard<@tp, [[Stream(1)], [DIDx]]>>, %w: tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %y = fusion.linear %x, %w : (tensor<48x48xf32, #fusion.shard<@tp, [[Stream(1)], [DIDx]]>>, tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %y : tensor<48x24xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
