// RUN: not fuser-opt %s --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(comm-verify{team-size=4}))' 2>&1 | FileCheck %s

// Seeded bugs in rank-generic host programs, each caught by comm-verify with 4 ranks.

// A wrong peer formula: recv_peer = (r + i + 1) mod d instead of (r + i) mod d. The sends find
// no matching recv (the note shows where the peer receives from instead), and at the last step
// the recv names the rank itself.
// CHECK:       error: comm-verify: rank 0 posts comm.recv from rank 0 at iteration 3, but its peer is the rank itself
// CHECK:       error: comm-verify: send #0 from rank 0 to rank 3 at iteration 1 has no matching recv: rank 3 posts 0 recv(s) from rank 0
// CHECK:       note: rank 3 posts comm.recv from rank 1 at iteration 1
func.func @wrong_recv_peer(%x: !host.buf<2x8xf32>, %full: !host.buf<?x2x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rank = host.rank : index
  %ws = host.world_size : index
  host.for %i = %c0 to %ws step %c1 {
    %a = arith.addi %ws, %rank : index
    %b = arith.subi %a, %i : index
    %send_peer = arith.remui %b, %ws : index
    %c = arith.addi %rank, %i : index
    %c_plus_1 = arith.addi %c, %c1 : index
    %recv_peer = arith.remui %c_plus_1, %ws : index
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

// -----

// CUDA IPC put without a group, send posted before recv on every rank: each send waits for its
// receiver to post the recv, which sits behind that receiver's own blocked send.
// CHECK:       error: comm-verify: deadlock with 4 ranks: no stream can make progress
// CHECK-NEXT:  comm.send %x to %next backend = cuda_ipc protocol = put
// CHECK:       note: rank 0, stream main: blocked at comm.send to rank 1; waits for rank 1 to reach comm.recv from rank 0
// CHECK:       note: rank 1, stream main: blocked at comm.send to rank 2; waits for rank 2 to reach comm.recv from rank 1
// CHECK:       note: rank 2, stream main: blocked at comm.send to rank 3; waits for rank 3 to reach comm.recv from rank 2
// CHECK:       note: rank 3, stream main: blocked at comm.send to rank 0; waits for rank 0 to reach comm.recv from rank 3
func.func @put_send_before_recv(%x: !host.buf<2x8xf32, ipc>, %y: !host.buf<2x8xf32, ipc>) {
  %c1 = arith.constant 1 : index
  %rank = host.rank : index
  %ws = host.world_size : index
  %n = arith.addi %rank, %c1 : index
  %next = arith.remui %n, %ws : index
  %p = arith.addi %rank, %ws : index
  %p1 = arith.subi %p, %c1 : index
  %prev = arith.remui %p1, %ws : index
  %s = comm.send %x to %next backend = cuda_ipc protocol = put : !host.buf<2x8xf32, ipc>
  %q = comm.recv %y from %prev backend = cuda_ipc protocol = put : !host.buf<2x8xf32, ipc>
  comm.wait %s, %q
  return
}

// -----

// The get protocol has the mirror-image hazard: recv before send on every rank.
// CHECK:       error: comm-verify: deadlock with 4 ranks: no stream can make progress
// CHECK:       note: rank 0, stream main: blocked at comm.recv from rank 3; waits for rank 3 to reach comm.send to rank 0
func.func @get_recv_before_send(%x: !host.buf<2x8xf32, ipc>, %y: !host.buf<2x8xf32, ipc>) {
  %c1 = arith.constant 1 : index
  %rank = host.rank : index
  %ws = host.world_size : index
  %n = arith.addi %rank, %c1 : index
  %next = arith.remui %n, %ws : index
  %p = arith.addi %rank, %ws : index
  %p1 = arith.subi %p, %c1 : index
  %prev = arith.remui %p1, %ws : index
  %q = comm.recv %y from %prev backend = cuda_ipc : !host.buf<2x8xf32, ipc>
  %s = comm.send %x to %next backend = cuda_ipc : !host.buf<2x8xf32, ipc>
  comm.wait %s, %q
  return
}

// -----

// A collective skipped on all ranks but one: only rank 0 enters the allreduce.
// CHECK:       error: comm-verify: ranks 1, 2, 3 never post the comm.allreduce that rank 0 posts at iteration 1 (team [0, 1, 2, 3])
// CHECK:       note: rank 1 posts only 1 collective(s) of this team
func.func @allreduce_only_on_rank0(%x: !host.buf<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rank = host.rank : index
  %is0 = arith.cmpi eq, %rank, %c0 : index
  host.for %i = %c0 to %c2 step %c1 {
    %later = arith.cmpi eq, %i, %c1 : index
    %skip = arith.select %later, %is0, %later : i1
    %all = arith.cmpi eq, %i, %c0 : index
    %enter = arith.select %all, %all, %skip : i1
    host.if %enter {
      %r = comm.allreduce sum %x into %x team = [0, 1, 2, 3] : !host.buf<8xf32>, !host.buf<8xf32>
      comm.wait %r
    }
  }
  return
}

// -----

// A collective skipped on one rank, found where that rank's sequence departs from the others.
// CHECK:       error: comm-verify: rank 2 never posts the comm.allgather that ranks 0, 1, 3 post at iteration 1 (team [0, 1, 2, 3])
// CHECK:       note: rank 2 posts comm.allgather of this team at iteration 2 instead
func.func @allgather_skipped_on_rank2(%x: !host.buf<2xf32>, %y: !host.buf<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %rank = host.rank : index
  %is2 = arith.cmpi eq, %rank, %c2 : index
  host.for %i = %c0 to %c3 step %c1 {
    %at1 = arith.cmpi eq, %i, %c1 : index
    %both = arith.select %at1, %is2, %at1 : i1
    host.if %both {
    } else {
      %r = comm.allgather %x into %y team = [0, 1, 2, 3] : !host.buf<2xf32>, !host.buf<8xf32>
      comm.wait %r
    }
  }
  return
}

// -----

// A send and its recv disagree on the element count.
// CHECK:       error: comm-verify: send #0 from rank 0 to rank 1 sends 8 x f32 but the matching recv expects 4 x f32
// CHECK:       note: the matching recv on rank 1
func.func @count_mismatch(%x: !host.buf<8xf32>, %y: !host.buf<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rank = host.rank : index
  %is0 = arith.cmpi eq, %rank, %c0 : index
  %is1 = arith.cmpi eq, %rank, %c1 : index
  host.if %is0 {
    %s = comm.send %x to %c1 : !host.buf<8xf32>
    comm.wait %s
  }
  host.if %is1 {
    %q = comm.recv %y from %c0 : !host.buf<4xf32>
    comm.wait %q
  }
  return
}

// -----

// A send nobody receives.
// CHECK:       error: comm-verify: send #0 from rank 0 to rank 1 has no matching recv: rank 1 posts 0 recv(s) from rank 0
func.func @missing_recv(%x: !host.buf<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rank = host.rank : index
  %is0 = arith.cmpi eq, %rank, %c0 : index
  host.if %is0 {
    %s = comm.send %x to %c1 : !host.buf<8xf32>
    comm.wait %s
  }
  return
}

// -----

// A recv nobody sends to.
// CHECK:       error: comm-verify: recv #0 on rank 3 from rank 2 has no matching send: rank 2 posts 0 send(s) to rank 3
func.func @missing_send(%x: !host.buf<8xf32>) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %rank = host.rank : index
  %is3 = arith.cmpi eq, %rank, %c3 : index
  host.if %is3 {
    %q = comm.recv %x from %c2 : !host.buf<8xf32>
    comm.wait %q
  }
  return
}

// -----

// Peers outside the team (rank + 1 without the modulo) and equal to the rank itself.
// CHECK:       error: comm-verify: rank 0 posts comm.recv from rank 0, but its peer is the rank itself
// CHECK:       error: comm-verify: rank 3 posts comm.send to rank 4, but peer 4 is outside the ranks 0..3
func.func @invalid_peers(%x: !host.buf<8xf32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %rank = host.rank : index
  %is3 = arith.cmpi eq, %rank, %c3 : index
  %next = arith.addi %rank, %c1 : index
  host.if %is3 {
    %s = comm.send %x to %next : !host.buf<8xf32>
    comm.wait %s
  }
  %c0 = arith.constant 0 : index
  %r0 = arith.cmpi eq, %rank, %c0 : index
  host.if %r0 {
    %q = comm.recv %x from %rank : !host.buf<8xf32>
    comm.wait %q
  }
  return
}

// -----

// A deadlock through a stream wait: rank 1 makes main wait for a recv posted on worker 1,
// but rank 0 posts the matching send only after the allreduce that main of rank 1 holds back.
// CHECK:       error: comm-verify: deadlock with 4 ranks: no stream can make progress
// CHECK:       note: rank 0, stream main: blocked at comm.allreduce; waits for rank 1 to reach comm.allreduce
// CHECK:       note: rank 1, stream main: blocked at host.stream_wait on stream worker 1; waits for stream worker 1 to pass 1 entries (it passed 0)
// CHECK:       note: rank 1, stream worker 1: blocked at comm.recv from rank 0; waits for rank 0 to reach comm.send to rank 1
func.func @allreduce_behind_stream_wait(%x: !host.buf<8xf32>, %y: !host.buf<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rank = host.rank : index
  %is0 = arith.cmpi eq, %rank, %c0 : index
  %is1 = arith.cmpi eq, %rank, %c1 : index
  %main = host.current_stream : !host.stream
  %w1 = host.get_stream %c1 : !host.stream
  host.if %is0 {
    %a = comm.allreduce sum %x into %x team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
    %s = comm.send %y to %c1 : !host.buf<8xf32>
    comm.wait %a, %s
  }
  host.if %is1 {
    host.set_stream %w1
    %q = comm.recv %y from %c0 : !host.buf<8xf32>
    host.set_stream %main
    host.stream_wait %w1
    %a = comm.allreduce sum %x into %x team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
    comm.wait %a, %q
  }
  return
}

// -----

// What the interpreter cannot evaluate is an error, not a guess.
// CHECK:       error: comm-verify: cannot interpret 'test.opaque'
func.func @unknown_op(%x: !host.buf<8xf32>) {
  "test.opaque"() : () -> ()
  return
}

// -----

// CHECK:       error: comm-verify: loop runs 2000000 iterations, more than the 1000000 comm-verify interprets
func.func @huge_loop(%x: !host.buf<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2000000 : index
  host.for %i = %c0 to %n step %c1 {
  }
  return
}

// -----

// A peer read from a function argument is not computable.
// CHECK:       error: comm-verify: operand of 'comm.send' is not computable from the rank, the team size and loop indices
func.func @peer_from_argument(%x: !host.buf<8xf32>, %p: index) {
  %s = comm.send %x to %p : !host.buf<8xf32>
  comm.wait %s
  return
}
