// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc}))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc},comm-verify{team-size=4}))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc},comm-collective-backend{backend=nccl}))' | FileCheck %s --check-prefix=NCCL

// With cuda_ipc every collective gets the copy-engine implementation, the broadcast too, and
// the comm.group is ungrouped (its allreduce posted on its own, the wait on the group waits on
// it); back to nccl, every collective is NCCL again.

// CHECK-LABEL: func.func @select
// CHECK: comm.allgather %{{.*}} into %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc :
// CHECK: comm.allreduce sum %{{.*}} into %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc :
// CHECK: comm.reduce_scatter max %{{.*}} into %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc :
// CHECK: comm.broadcast %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc :
// CHECK-NOT: comm.group
// CHECK: %[[G:.*]] = comm.allreduce sum %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc :
// CHECK-NEXT: comm.wait %[[G]]
// CHECK-NOT: comm.group
// NCCL-LABEL: func.func @select
// NCCL-NOT: cuda_ipc
func.func @select(%x: !host.buf<2x8xf32>, %full: !host.buf<8x8xf32>, %s: !host.buf<2x8xf32>) {
  %c0 = arith.constant 0 : index
  %r0 = comm.allgather %x into %full team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<8x8xf32>
  comm.wait %r0
  %r1 = comm.allreduce sum %x into %x team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  comm.wait %r1
  %r2 = comm.reduce_scatter max %full into %s team = [0, 1, 2, 3] : !host.buf<8x8xf32>, !host.buf<2x8xf32>
  comm.wait %r2
  %r3 = comm.broadcast %x into %s root %c0 team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  comm.wait %r3
  %r4 = comm.group {
    %g = comm.allreduce sum %s into %s team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<2x8xf32>
  }
  comm.wait %r4
  return
}

// -----

// A ring step in a group (index math inside): the index math moves out, one share_handles of
// the group's pairs, the send, the receive (cuda_ipc get), and the wait waits on both. The
// standalone NCCL send/recv after it (one run, index math between) get one share_handles
// before the run.

// CHECK-LABEL: func.func @ring
// CHECK:      %[[RANK:.*]] = host.rank
// CHECK-NOT:  comm.group
// CHECK:      %[[NEXT:.*]] = arith.remui
// CHECK-NEXT: %[[P:.*]] = arith.addi %[[RANK]]
// CHECK-NEXT: %[[PREV:.*]] = arith.remui %[[P]]
// CHECK-NEXT: comm.share_handles send(%[[A:.*]] to %[[NEXT]]) recv(%[[B:.*]] from %[[PREV]]) backend = cuda_ipc
// CHECK-NEXT: %[[S:.*]] = comm.send %[[A]] to %[[NEXT]] backend = cuda_ipc :
// CHECK-NEXT: %[[R:.*]] = comm.recv %[[B]] from %[[PREV]] backend = cuda_ipc :
// CHECK-NEXT: comm.wait %[[S]], %[[R]]
// CHECK:      %[[P2:.*]] = arith.addi %[[RANK]]
// CHECK-NEXT: %[[PREV2:.*]] = arith.remui %[[P2]]
// CHECK-NEXT: comm.share_handles send(%[[B]] to %[[NEXT]]) recv(%[[A]] from %[[PREV2]]) backend = cuda_ipc
// CHECK-NEXT: %[[S2:.*]] = comm.send %[[B]] to %[[NEXT]] backend = cuda_ipc :
// CHECK-NEXT: %[[R2:.*]] = comm.recv %[[A]] from %[[PREV2]] backend = cuda_ipc :
// CHECK-NEXT: comm.wait %[[S2]], %[[R2]]
// NCCL-LABEL: func.func @ring
func.func @ring(%a: !host.buf<8xf32>, %b: !host.buf<8xf32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %rank = host.rank : index
  %n = arith.addi %rank, %c1 : index
  %next = arith.remui %n, %c4 : index
  %r = comm.group {
    %s = comm.send %a to %next : !host.buf<8xf32>
    %p = arith.addi %rank, %c3 : index
    %prev = arith.remui %p, %c4 : index
    %q = comm.recv %b from %prev : !host.buf<8xf32>
  }
  comm.wait %r
  %s2 = comm.send %b to %next : !host.buf<8xf32>
  %p2 = arith.addi %rank, %c3 : index
  %prev2 = arith.remui %p2, %c4 : index
  %q2 = comm.recv %a from %prev2 : !host.buf<8xf32>
  comm.wait %s2, %q2
  return
}

// -----

// An empty group disappears with its wait; a wait on it and another request keeps the other.
// CHECK-LABEL: func.func @empty
// CHECK-NOT:   comm.group
// CHECK:       %[[R:.*]] = comm.allreduce sum %{{.*}} backend = cuda_ipc
// CHECK-NEXT:  comm.wait %[[R]]
// CHECK-NEXT:  return
// NCCL-LABEL: func.func @empty
func.func @empty(%x: !host.buf<8xf32>) {
  %g = comm.group {
  }
  comm.wait %g
  %h = comm.group {
  }
  %r = comm.allreduce sum %x into %x team = [0, 1, 2, 3] : !host.buf<8xf32>, !host.buf<8xf32>
  comm.wait %h, %r
  return
}
