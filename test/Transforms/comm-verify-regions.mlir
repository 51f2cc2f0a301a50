// RUN: not fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(comm-verify{team-size=2}))' 2>&1 | FileCheck %s

// The members of a collective must work on the same region of its buffers (issue 11, defect
// 2): kind, sizes and root agreeing is not enough. Each function is rank-generic; the view
// indices computed from the rank make the ranks name different chunks.

// What comm-p2p-ring produced for an allreduce inside an AllGather ring loop (defect 2): in
// iteration i rank r reduces chunk (r + i) mod 2 into that chunk of the output, so the two
// ranks sum different chunks. Sizes and kinds agree; only the regions tell.
// CHECK: error: comm-verify: collective #0 of team [0, 1] at iteration 0: the ranks write different regions of the output: rank 0 uses view indices [0], rank 1 uses [1]
// CHECK: note: rank 0 posts comm.allreduce sum 16 x f32 -> 16 x f32 at iteration 0
// CHECK: note: rank 1 posts comm.allreduce sum 16 x f32 -> 16 x f32 at iteration 0
func.func @rotated_allreduce(%arg0: !host.buf<4x4xf32>) -> !host.buf<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = host.alloc() : !host.buf<8x4xf32>
  %rank = host.rank : index
  host.for %i = %c0 to %c2 step %c1 {
    %s = arith.addi %rank, %i : index
    %t = arith.remui %s, %c2 : index
    %p = host.alloc() : !host.buf<4x4xf32>
    host.copy %arg0, %p : !host.buf<4x4xf32>, !host.buf<4x4xf32>
    %chunk = host.shard_by_stream %0[%t] axis = 0 chunks = 2 : !host.buf<8x4xf32> -> !host.view<4x4xf32, strides = [4, 1]>
    %r = comm.allreduce sum %p into %chunk team = [0, 1] : !host.buf<4x4xf32>, !host.view<4x4xf32, strides = [4, 1]>
    comm.wait %r
    host.dealloc %p : !host.buf<4x4xf32>
  }
  return %0 : !host.buf<8x4xf32>
}

// -----

// A reduce-scatter whose input chunk is picked by the rank: same output, different inputs,
// so the sum mixes chunks of different rows. Views nested twice (select of a slice).
// CHECK: error: comm-verify: collective #0 of team [0, 1]: the ranks reduce different regions of the input: rank 0 uses view indices [0, 0, 0], rank 1 uses [0, 1, 0]
func.func @rotated_reduce_scatter_input(%arg0: !host.buf<2x2x8xf32>) -> !host.buf<4xf32> {
  %c0 = arith.constant 0 : index
  %rank = host.rank : index
  %out = host.alloc() : !host.buf<4xf32>
  %all = host.slice %arg0[%c0, 0, 0] [2, 2, 8] [1, 1, 1] : !host.buf<2x2x8xf32> -> !host.view<2x2x8xf32, strides = [16, 8, 1]>
  %mine = host.select %all[%rank] axis = 0 : !host.view<2x2x8xf32, strides = [16, 8, 1]> -> !host.view<2x8xf32, strides = [8, 1]>
  %row = host.select %mine[%c0] axis = 0 : !host.view<2x8xf32, strides = [8, 1]> -> !host.view<8xf32, strides = [1]>
  %r = comm.reduce_scatter sum %row into %out team = [0, 1] : !host.view<8xf32, strides = [1]>, !host.buf<4xf32>
  comm.wait %r
  return %out : !host.buf<4xf32>
}

// -----

// Not an error: a gathering collective may take each rank's own part as input (rank r
// contributes row r of a replicated buffer); the output region agrees.
// CHECK-NOT: error
func.func @own_part_allgather(%arg0: !host.buf<2x8xf32>) -> !host.buf<16xf32> {
  %rank = host.rank : index
  %out = host.alloc() : !host.buf<16xf32>
  %mine = host.select %arg0[%rank] axis = 0 : !host.buf<2x8xf32> -> !host.view<8xf32, strides = [1]>
  %r = comm.allgather %mine into %out team = [0, 1] : !host.view<8xf32, strides = [1]>, !host.buf<16xf32>
  comm.wait %r
  return %out : !host.buf<16xf32>
}
