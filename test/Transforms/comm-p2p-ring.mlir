// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-p2p-ring))' | FileCheck %s --check-prefix=NCCL
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-p2p-ring{backend=cuda_ipc}))' | FileCheck %s --check-prefix=GET
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-p2p-ring{backend=cuda_ipc protocol=put}))' | FileCheck %s --check-prefix=PUT
// RUN: not fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-p2p-ring{backend=cuda_ipc stage-buffers=false}))' 2>&1 | FileCheck %s --check-prefix=NOSTAGE

// The broadcast-based AllGather + Linear pipeline (column-parallel linear on 4 ranks) becomes a
// ring: chunk t = (r + i) mod 4 is received from rank t while the local shard goes to
// s = (4 + r - i) mod 4; at i = 0 the local shard is copied.

// NCCL-LABEL: func.func @column_parallel
// NCCL:       host.for %[[I:.*]] = %c0 to %c4 step %c1 {
// NCCL-NEXT:    %[[R:.*]] = host.rank : index
// NCCL-NEXT:    %[[D:.*]] = arith.constant 4 : index
// NCCL-NEXT:    %[[RI:.*]] = arith.addi %[[R]], %[[I]] : index
// NCCL-NEXT:    %[[T:.*]] = arith.remui %[[RI]], %[[D]] : index
// NCCL-NEXT:    %[[DR:.*]] = arith.addi %[[D]], %[[R]] : index
// NCCL-NEXT:    %[[DRI:.*]] = arith.subi %[[DR]], %[[I]] : index
// NCCL-NEXT:    %[[S:.*]] = arith.remui %[[DRI]], %[[D]] : index
// NCCL-NEXT:    %[[G:.*]] = host.alloc() : !host.buf<16x128xbf16>
// NCCL:         %[[FIRST:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : index
// NCCL-NEXT:    host.if %[[FIRST]] {
// NCCL-NEXT:      host.copy %arg0, %[[G]]
// NCCL-NEXT:      %[[Y0:.*]] = host.shard_by_stream %{{.*}}[%[[T]]] axis = 0 chunks = 4
// NCCL-NEXT:      host.linear %[[G]], %arg1 into %[[Y0]]
// NCCL-NEXT:    } else {
// NCCL-NEXT:      %[[GR:.*]] = comm.group {
// NCCL-NEXT:        comm.send %arg0 to %[[S]]
// NCCL-NEXT:        comm.recv %[[G]] from %[[T]]
// NCCL-NEXT:      }
// NCCL-NEXT:      comm.wait %[[GR]]
// NCCL-NEXT:      %[[Y1:.*]] = host.shard_by_stream %{{.*}}[%[[T]]] axis = 0 chunks = 4
// NCCL-NEXT:      host.linear %[[G]], %arg1 into %[[Y1]]
// NCCL-NEXT:    }
// NCCL-NEXT:  }
// NCCL-NOT:   comm.broadcast

// With CUDA IPC (get): the shard is staged into a persistent ipc buffer, the chunks live in one
// persistent ipc buffer, handles are exchanged once before the loop, send precedes recv, and
// the send is waited on after the linear.
// GET-LABEL: func.func @column_parallel
// GET:       %[[SRC:.*]] = host.alloc() persistent : !host.buf<16x128xbf16, ipc>
// GET-NEXT:  host.copy %arg0, %[[SRC]]
// GET-NEXT:  %[[ALL:.*]] = host.alloc() persistent : !host.buf<4x16x128xbf16, ipc>
// GET:       host.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// GET:         comm.share_handles send(%[[SRC]] to %{{.*}}) recv(%[[ALL]] from %{{.*}}) backend = cuda_ipc
// GET-NEXT:  }
// GET-NEXT:  host.for
// GET:         %[[V:.*]] = host.select %[[ALL]][%[[T:.*]]] axis = 0
// GET:         host.if
// GET-NEXT:      host.copy %[[SRC]], %[[V]]
// GET:         } else {
// GET-NEXT:      %[[SEND:.*]] = comm.send %[[SRC]] to %{{.*}} backend = cuda_ipc protocol = get :
// GET-NEXT:      %[[RECV:.*]] = comm.recv %[[V]] from %[[T]] backend = cuda_ipc protocol = get :
// GET-NEXT:      comm.wait %[[RECV]]
// GET-NEXT:      host.shard_by_stream
// GET-NEXT:      host.linear %[[V]]
// GET-NEXT:      comm.wait %[[SEND]]
// GET-NEXT:    }

// With put, the receive (a signal) goes first.
// PUT-LABEL: func.func @column_parallel
// PUT:         } else {
// PUT-NEXT:      %[[RECV:.*]] = comm.recv %{{.*}} backend = cuda_ipc protocol = put
// PUT-NEXT:      %[[SEND:.*]] = comm.send %{{.*}} backend = cuda_ipc protocol = put
// PUT-NEXT:      comm.wait %[[RECV]]
// PUT:           comm.wait %[[SEND]]

// NOSTAGE: error: comm-p2p-ring with cuda_ipc needs persistent buffers (identical across runs and ranks), but the sent shard is not
func.func @column_parallel(%x: !host.buf<16x128xbf16>, %w: !host.buf<96x128xbf16>) -> !host.buf<64x96xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %y = host.alloc() : !host.buf<64x96xbf16>
  host.for %i = %c0 to %c4 step %c1 {
    %g = host.alloc() : !host.buf<16x128xbf16>
    %r = comm.broadcast %x into %g root %i team = [0, 1, 2, 3] : !host.buf<16x128xbf16>, !host.buf<16x128xbf16>
    comm.wait %r
    %yi = host.shard_by_stream %y[%i] axis = 0 chunks = 4 : !host.buf<64x96xbf16> -> !host.view<16x96xbf16, strides = [96, 1]>
    host.linear %g, %w into %yi : !host.buf<16x128xbf16>, !host.buf<96x128xbf16>, !host.view<16x96xbf16, strides = [96, 1]>
  }
  return %y : !host.buf<64x96xbf16>
}

// -----

// A broadcast whose root is not the loop index, or whose team does not match the trip count,
// is not an AllGather pipeline: left alone.
// NCCL-LABEL: func.func @not_a_ring
// NCCL:         comm.broadcast
// GET-LABEL: func.func @not_a_ring
// PUT-LABEL: func.func @not_a_ring
func.func @not_a_ring(%x: !host.buf<16xf32>, %g: !host.buf<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  host.for %i = %c0 to %c3 step %c1 {
    %r = comm.broadcast %x into %g root %c0 team = [0, 1, 2] : !host.buf<16xf32>, !host.buf<16xf32>
    comm.wait %r
  }
  return
}
