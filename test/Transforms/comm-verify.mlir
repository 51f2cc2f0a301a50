// comm-verify proves correct hand-written host programs for team sizes 1 to 8 and leaves them
// unchanged. Every program is rank-generic: peers come from host.rank / host.world_size
// arithmetic; the allreduce picks its (static) team by the world size.

// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(comm-verify{team-size=1}))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(comm-verify{team-size=2}))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(comm-verify{team-size=3}))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(comm-verify{team-size=4}))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(comm-verify{team-size=5}))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(comm-verify{team-size=6}))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(comm-verify{team-size=7}))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(comm-verify{team-size=8}))' | FileCheck %s
// The only fusion.mesh of the module gives the team size when none is given (4 here).
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s

fusion.mesh @tp = [0, 1, 2, 3]

// Row-parallel shape: chunks on two worker streams that first wait for main; an allreduce and
// its wait per chunk; main joins every worker after the loop.
// CHECK-LABEL: func.func @row_parallel_allreduce
// CHECK:       host.for
// CHECK:       host.set_stream
// CHECK-NEXT:  host.stream_wait
// CHECK:       comm.allreduce sum {{.*}} team = [0, 1, 2, 3]
// CHECK:       comm.wait
func.func @row_parallel_allreduce(%x: !host.buf<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %ws = host.world_size : index
  %is2 = arith.cmpi eq, %ws, %c2 : index
  %is4 = arith.cmpi eq, %ws, %c4 : index
  %is8 = arith.cmpi eq, %ws, %c8 : index
  %main = host.current_stream : !host.stream
  host.for %i = %c0 to %c4 step %c1 {
    %k = arith.remui %i, %c2 : index
    %s = host.get_stream %k : !host.stream
    host.set_stream %s
    host.stream_wait %main
    %chunk = host.shard_by_stream %x[%i] axis = 0 chunks = 4 : !host.buf<8x16xf32> -> !host.view<2x16xf32, strides = [16, 1]>
    host.if %is2 {
      %r = comm.allreduce sum %chunk into %chunk team = [0, 1] : !host.view<2x16xf32, strides = [16, 1]>, !host.view<2x16xf32, strides = [16, 1]>
      comm.wait %r
    }
    host.if %is4 {
      %r = comm.allreduce sum %chunk into %chunk team = [0, 1, 2, 3] : !host.view<2x16xf32, strides = [16, 1]>, !host.view<2x16xf32, strides = [16, 1]>
      comm.wait %r
    }
    host.if %is8 {
      %r = comm.allreduce sum %chunk into %chunk team = [0, 1, 2, 3, 4, 5, 6, 7] : !host.view<2x16xf32, strides = [16, 1]>, !host.view<2x16xf32, strides = [16, 1]>
      comm.wait %r
    }
  }
  host.set_stream %main
  host.for %j = %c0 to %c4 step %c1 {
    %k = arith.remui %j, %c2 : index
    %s = host.get_stream %k : !host.stream
    host.stream_wait %s
  }
  host.synchronize %main
  return
}

// Ring allgather by point-to-point: at step i rank r sends its shard to (d + r - i) mod d and
// receives chunk (r + i) mod d from that rank; step 0 is a local copy. NCCL: each step's send
// and recv form one group, so their order cannot deadlock.
// CHECK-LABEL: func.func @ring_allgather_nccl_group
// CHECK:       host.if
// CHECK:       host.copy
// CHECK:       } else {
// CHECK:       comm.group {
// CHECK-NEXT:  comm.send
// CHECK-NEXT:  comm.recv
func.func @ring_allgather_nccl_group(%x: !host.buf<2x8xf32>, %full: !host.buf<?x2x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rank = host.rank : index
  %ws = host.world_size : index
  host.for %i = %c0 to %ws step %c1 {
    %a = arith.addi %ws, %rank : index
    %b = arith.subi %a, %i : index
    %send_peer = arith.remui %b, %ws : index
    %c = arith.addi %rank, %i : index
    %recv_peer = arith.remui %c, %ws : index
    %dst = host.select %full[%recv_peer] axis = 0 : !host.buf<?x2x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
    %first = arith.cmpi eq, %i, %c0 : index
    host.if %first {
      host.copy %x, %dst : !host.buf<2x8xf32>, !host.view<2x8xf32, strides = [8, 1]>
    } else {
      %r = comm.group {
        %s = comm.send %x to %send_peer : !host.buf<2x8xf32>
        %q = comm.recv %dst from %recv_peer : !host.view<2x8xf32, strides = [8, 1]>
      }
      comm.wait %r
    }
  }
  return
}

// The same ring over CUDA IPC with the get protocol: the send only signals, the recv copies
// once the sender posted, so send-then-recv is the safe order. Handles are exchanged per step.
// CHECK-LABEL: func.func @ring_allgather_ipc_get
// CHECK:       comm.share_handles
// CHECK-NEXT:  comm.send {{.*}} backend = cuda_ipc
// CHECK-NEXT:  comm.recv {{.*}} backend = cuda_ipc
// CHECK-NEXT:  comm.wait
func.func @ring_allgather_ipc_get(%x: !host.buf<2x8xf32, ipc>, %full: !host.buf<?x2x8xf32, ipc>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rank = host.rank : index
  %ws = host.world_size : index
  host.for %i = %c0 to %ws step %c1 {
    %a = arith.addi %ws, %rank : index
    %b = arith.subi %a, %i : index
    %send_peer = arith.remui %b, %ws : index
    %c = arith.addi %rank, %i : index
    %recv_peer = arith.remui %c, %ws : index
    %dst = host.select %full[%recv_peer] axis = 0 : !host.buf<?x2x8xf32, ipc> -> !host.view<2x8xf32, strides = [8, 1], ipc>
    %first = arith.cmpi eq, %i, %c0 : index
    host.if %first {
      host.copy %x, %dst : !host.buf<2x8xf32, ipc>, !host.view<2x8xf32, strides = [8, 1], ipc>
    } else {
      comm.share_handles send(%x to %send_peer) recv(%dst from %recv_peer) backend = cuda_ipc : !host.buf<2x8xf32, ipc>, !host.view<2x8xf32, strides = [8, 1], ipc>
      %s = comm.send %x to %send_peer backend = cuda_ipc : !host.buf<2x8xf32, ipc>
      %q = comm.recv %dst from %recv_peer backend = cuda_ipc : !host.view<2x8xf32, strides = [8, 1], ipc>
      comm.wait %s, %q
    }
  }
  return
}

// With the put protocol the recv only signals and the send copies once the receiver posted:
// recv-then-send is the safe order.
// CHECK-LABEL: func.func @ring_allgather_ipc_put
// CHECK:       comm.recv {{.*}} backend = cuda_ipc protocol = put
// CHECK-NEXT:  comm.send {{.*}} backend = cuda_ipc protocol = put
// CHECK-NEXT:  comm.wait
func.func @ring_allgather_ipc_put(%x: !host.buf<2x8xf32, ipc>, %full: !host.buf<?x2x8xf32, ipc>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rank = host.rank : index
  %ws = host.world_size : index
  host.for %i = %c0 to %ws step %c1 {
    %a = arith.addi %ws, %rank : index
    %b = arith.subi %a, %i : index
    %send_peer = arith.remui %b, %ws : index
    %c = arith.addi %rank, %i : index
    %recv_peer = arith.remui %c, %ws : index
    %dst = host.select %full[%recv_peer] axis = 0 : !host.buf<?x2x8xf32, ipc> -> !host.view<2x8xf32, strides = [8, 1], ipc>
    %first = arith.cmpi eq, %i, %c0 : index
    host.if %first {
      host.copy %x, %dst : !host.buf<2x8xf32, ipc>, !host.view<2x8xf32, strides = [8, 1], ipc>
    } else {
      %q = comm.recv %dst from %recv_peer backend = cuda_ipc protocol = put : !host.view<2x8xf32, strides = [8, 1], ipc>
      %s = comm.send %x to %send_peer backend = cuda_ipc protocol = put : !host.buf<2x8xf32, ipc>
      comm.wait %q, %s
    }
  }
  return
}
