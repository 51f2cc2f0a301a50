// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc}))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc},comm-verify{team-size=4}))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc},comm-collective-backend{backend=nccl}))' | FileCheck %s --check-prefix=NCCL

// The copy-engine implementation is chosen for allgather, allreduce and reduce_scatter; the
// broadcast keeps NCCL (it has no copy-engine form) and so does a collective in a comm.group.

// CHECK-LABEL: func.func @select
// CHECK: comm.allgather %{{.*}} into %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc :
// CHECK: comm.allreduce sum %{{.*}} into %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc :
// CHECK: comm.reduce_scatter max %{{.*}} into %{{.*}} team = [0, 1, 2, 3] backend = cuda_ipc :
// CHECK: comm.broadcast %{{.*}} team = [0, 1, 2, 3] :
// CHECK: comm.group
// CHECK-NEXT: comm.allreduce sum %{{.*}} team = [0, 1, 2, 3] :
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
