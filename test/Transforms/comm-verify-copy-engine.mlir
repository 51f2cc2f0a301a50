// RUN: not fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-verify{team-size=2}))' 2>&1 | FileCheck %s

// comm-verify checks the copy-engine collectives (backend = cuda_ipc): the ranks must agree on
// the implementation, and a copy-engine collective cannot join a comm.group (NCCL group).

// CHECK: error: comm-verify: {{.*}}the ranks use different backends
func.func @mixed(%x: !host.buf<8xf32>) {
  %c0 = arith.constant 0 : index
  %rank = host.rank : index
  %first = arith.cmpi eq, %rank, %c0 : index
  host.if %first {
    %r = comm.allreduce sum %x into %x team = [0, 1] backend = cuda_ipc : !host.buf<8xf32>, !host.buf<8xf32>
    comm.wait %r
  } else {
    %r = comm.allreduce sum %x into %x team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
    comm.wait %r
  }
  return
}

// -----

// CHECK: error: comm-verify: a copy-engine comm.allgather (backend = cuda_ipc) cannot be part of a comm.group
func.func @grouped(%x: !host.buf<8xf32>, %y: !host.buf<16xf32>) {
  %r = comm.group {
    %g = comm.allgather %x into %y team = [0, 1] backend = cuda_ipc : !host.buf<8xf32>, !host.buf<16xf32>
  }
  comm.wait %r
  return
}
