// RUN: fuser-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.allreduce' op requires a non-empty team}}
  %r = comm.allreduce sum %a into %a team = [] : !host.buf<8xf32>, !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.allreduce' op requires distinct device ids in the team, got 1 twice}}
  %r = comm.allreduce sum %a into %a team = [0, 1, 1] : !host.buf<8xf32>, !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.allreduce' op requires non-negative device ids in the team, got -2}}
  %r = comm.allreduce sum %a into %a team = [0, -2] : !host.buf<8xf32>, !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.allgather' op attribute 'team' failed to satisfy constraint: i64 dense array attribute}}
  %r = "comm.allgather"(%a, %a) <{team = array<i32: 0>}> : (!host.buf<8xf32>, !host.buf<8xf32>) -> !comm.request
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.allgather' op requires attribute 'team'}}
  %r = "comm.allgather"(%a, %a) : (!host.buf<8xf32>, !host.buf<8xf32>) -> !comm.request
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.allreduce' op requires attribute 'reduction'}}
  %r = "comm.allreduce"(%a, %a) <{team = array<i64: 0>}> : (!host.buf<8xf32>, !host.buf<8xf32>) -> !comm.request
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.allreduce' op attribute 'reduction' failed to satisfy constraint: reduction kind}}
  %r = "comm.allreduce"(%a, %a) <{reduction = 1 : i32, team = array<i64: 0>}> : (!host.buf<8xf32>, !host.buf<8xf32>) -> !comm.request
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.allgather' op attribute 'backend' failed to satisfy constraint: communication backend}}
  %r = "comm.allgather"(%a, %a) <{backend = #comm.protocol<get>, team = array<i64: 0>}> : (!host.buf<8xf32>, !host.buf<8xf32>) -> !comm.request
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %p: index) {
  // expected-error @+1 {{'comm.send' op attribute 'protocol' failed to satisfy constraint: CUDA IPC protocol}}
  %r = "comm.send"(%a, %p) <{backend = #comm.backend<cuda_ipc>, protocol = #comm.backend<nccl>}> : (!host.buf<8xf32>, index) -> !comm.request
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %b: !host.buf<8xbf16>) {
  // expected-error @+1 {{'comm.allreduce' op expected 'input' and 'output' to have the same element type, got 'f32' and 'bf16'}}
  %r = comm.allreduce sum %a into %b team = [0, 1] : !host.buf<8xf32>, !host.buf<8xbf16>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %b: !host.buf<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'comm.broadcast' op expected 'input' and 'output' to have the same shape, got 8 and 4}}
  %r = comm.broadcast %a into %b root %c0 team = [0, 1] : !host.buf<8xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<2x8xf32>, %b: !host.buf<6x8xf32>) {
  // expected-error @+1 {{'comm.allgather' op expected dimension 0 of 'output' to be 4 x 2 = 8 (team size x dimension 0 of 'input'), got 6}}
  %r = comm.allgather %a into %b team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<6x8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<2x8xf32>, %b: !host.buf<8x4xf32>) {
  // expected-error @+1 {{'comm.allgather' op expected dimension 1 of 'output' to equal that of 'input' (8), got 4}}
  %r = comm.allgather %a into %b team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<8x4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<2x8xf32>, %b: !host.buf<3x2x8xf32>) {
  // expected-error @+1 {{'comm.allgather' op expected dimension 0 of 'output' to be the team size (4), got 3}}
  %r = comm.allgather %a into %b team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<3x2x8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<2x8xf32>, %b: !host.buf<4x2x7xf32>) {
  // expected-error @+1 {{'comm.allgather' op expected dimension 2 of 'output' to equal dimension 1 of 'input' (8), got 7}}
  %r = comm.allgather %a into %b team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<4x2x7xf32>
  return
}

// -----

func.func @f(%a: !host.buf<2x8xf32>, %b: !host.buf<1x1x2x8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'comm.gather' op expected 'output' to have the rank of 'input' (2) or one more, got rank 4}}
  %r = comm.gather %a into %b root %c0 team = [0] : !host.buf<2x8xf32>, !host.buf<1x1x2x8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8x8xf32>, %b: !host.buf<4x8xf32>) {
  // expected-error @+1 {{'comm.reduce_scatter' op expected dimension 0 of 'input' to be 4 x 4 = 16 (team size x dimension 0 of 'output'), got 8}}
  %r = comm.reduce_scatter sum %a into %b team = [0, 1, 2, 3] : !host.buf<8x8xf32>, !host.buf<4x8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %b: !host.buf<16xf32>) {
  // expected-error @+1 {{'comm.all_to_all' op expected 'input' and 'output' to have the same number of elements, got 8 and 16}}
  %r = comm.all_to_all %a into %b team = [0, 1] : !host.buf<8xf32>, !host.buf<16xf32>
  return
}

// -----

func.func @f(%a: !host.buf<9xf32>) {
  // expected-error @+1 {{'comm.all_to_all' op expected the number of elements (9) to be divisible by the team size (2)}}
  %r = comm.all_to_all %a into %a team = [0, 1] : !host.buf<9xf32>, !host.buf<9xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'comm.reduce' op root 2 is not a team-relative index of a team of 2 devices}}
  %r = comm.reduce sum %a into %a root %c2 team = [5, 7] : !host.buf<8xf32>, !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %i: i32) {
  // expected-error @+1 {{'comm.scatter' op operand #2 must be index, but got 'i32'}}
  %r = "comm.scatter"(%a, %a, %i) <{team = array<i64: 0>}> : (!host.buf<8xf32>, !host.buf<8xf32>, i32) -> !comm.request
  return
}

// -----

func.func @f(%a: tensor<8xf32>) {
  // expected-error @+1 {{'comm.allgather' op operand #0 must be buffer or view, but got 'tensor<8xf32>'}}
  %r = "comm.allgather"(%a, %a) <{team = array<i64: 0>}> : (tensor<8xf32>, tensor<8xf32>) -> !comm.request
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.allgather' op result #0 must be comm request, but got 'i32'}}
  %r = "comm.allgather"(%a, %a) <{team = array<i64: 0>}> : (!host.buf<8xf32>, !host.buf<8xf32>) -> i32
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %p: index) {
  // expected-error @+1 {{'comm.send' op requires the cuda_ipc backend when a protocol is given}}
  %r = comm.send %a to %p protocol = put : !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'comm.recv' op requires a non-negative peer rank, got -1}}
  %r = comm.recv %a from %m1 : !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %p: index) {
  // expected-error @+1 {{'comm.share_handles' op expected as many send peers as send buffers, got 1 and 2}}
  "comm.share_handles"(%a, %a, %p) <{backend = #comm.backend<cuda_ipc>, operandSegmentSizes = array<i32: 2, 1, 0, 0>}> : (!host.buf<8xf32>, !host.buf<8xf32>, index) -> ()
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %p: index) {
  // expected-error @+1 {{'comm.share_handles' op expected as many recv peers as recv buffers, got 2 and 1}}
  "comm.share_handles"(%a, %p, %p) <{backend = #comm.backend<cuda_ipc>, operandSegmentSizes = array<i32: 0, 0, 1, 2>}> : (!host.buf<8xf32>, index, index) -> ()
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %p: index) {
  // expected-error @+1 {{'comm.share_handles' op requires the cuda_ipc backend}}
  comm.share_handles send(%a to %p) : !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %p: index) {
  // expected-error @+1 {{'comm.group' op may not contain 'comm.wait'}}
  %g = comm.group {
    %s = comm.send %a to %p : !host.buf<8xf32>
    comm.wait %s
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'comm.group' op may not contain 'comm.group'}}
  %g = comm.group {
    %h = comm.group {
    }
  }
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %p: index) {
  // expected-error @+1 {{'comm.group' op may not contain 'comm.share_handles'}}
  %g = comm.group {
    comm.share_handles send(%a to %p) backend = cuda_ipc : !host.buf<8xf32>
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'comm.group' op may only contain comm posts and pure ops, got 'func.call'}}
  %g = comm.group {
    func.call @f() : () -> ()
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'comm.group' op expects region #0 to have 0 or 1 blocks}}
  %g = "comm.group"() ({
    "comm.group"() ({}) : () -> !comm.request
  ^bb1:
    "comm.group"() ({}) : () -> !comm.request
  }) : () -> !comm.request
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'comm.wait' op requires at least one request}}
  "comm.wait"() : () -> ()
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{'comm.wait' op operand #0 must be comm request, but got '!host.buf<8xf32>'}}
  "comm.wait"(%a) : (!host.buf<8xf32>) -> ()
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{unknown reduction kind 'avg' (expected sum, prod, min or max)}}
  %r = comm.allreduce avg %a into %a team = [0] : !host.buf<8xf32>, !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %p: index) {
  // expected-error @+1 {{unknown backend 'mpi'}}
  %r = comm.send %a to %p backend = mpi : !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>, %p: index) {
  // expected-error @+1 {{unknown protocol 'push'}}
  %r = comm.send %a to %p backend = cuda_ipc protocol = push : !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<8xf32>) {
  // expected-error @+1 {{expected 2 buffer types, got 1}}
  %r = comm.allgather %a into %a team = [0] : !host.buf<8xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{unknown reduction kind 'avg' (expected sum, prod, min, max)}}
  "test.hold"() {r = #comm.reduction<avg>} : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{unknown backend 'mpi' (expected nccl, cuda_ipc)}}
  "test.hold"() {r = #comm.backend<mpi>} : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{unknown protocol 'push' (expected get, put)}}
  "test.hold"() {r = #comm.protocol<push>} : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{unknown comm type: req}}
  "test.hold"() : () -> !comm.req
  return
}
