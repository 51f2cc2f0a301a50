// RUN: not fuser-opt %s --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc}))' 2>&1 | FileCheck %s

// comm-collective-backend{backend=cuda_ipc} ungroups every comm.group; where it cannot, it
// names the group instead of leaving an NCCL op behind.

// CHECK: :{{[0-9]+}}:8: error: comm-collective-backend{backend=cuda_ipc} cannot ungroup this comm.group: its request is used by an op other than comm.wait
// CHECK-NEXT: %r = comm.group {
func.func @used(%a: !host.buf<8xf32>, %b: !host.buf<8xf32>) {
  %c1 = arith.constant 1 : index
  %r = comm.group {
    %s = comm.send %a to %c1 : !host.buf<8xf32>
  }
  "test.use"(%r) : (!comm.request) -> ()
  return
}

// -----

// CHECK: :{{[0-9]+}}:8: error: comm-collective-backend{backend=cuda_ipc}: this comm.group uses one buffer with two peers in one direction
// CHECK-NEXT: %r = comm.group {
func.func @two_peers(%a: !host.buf<8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = comm.group {
    %s = comm.send %a to %c1 : !host.buf<8xf32>
    %t = comm.send %a to %c2 : !host.buf<8xf32>
  }
  comm.wait %r
  return
}
