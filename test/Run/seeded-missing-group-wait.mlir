// A seeded bug caught by the race checker (issue 11, item 5): the p2p ring of
// test/Run/inputs/column_parallel_linear_2.mlir as tp-overlap-p2p{chunks=2} lowers it, except
// that the comm.wait of the ring step's comm.group is gone. A group holds no stream: its
// receive writes %9 at some time after the post, so the linear that reads %9 next on the same
// stream may read it before the data arrived (the output is then wrong). The checker models
// the group's accesses as lasting from its post until its wait and reports the read.

// REQUIRES: fuser-run
// RUN: not fuser-run %s --ranks 2 --check-races 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: seeded-missing-group-wait.mlir:50:9: error: rank 0: race on buffer #{{[0-9]+}} elements {{\[0, 64\)}}:
// RACE-SAME: comm.group at {{.*}}seeded-missing-group-wait.mlir:45:15 on rank 0 stream 2 writes until its comm.wait,
// RACE-SAME: host.linear at {{.*}}seeded-missing-group-wait.mlir:50:9 on rank 0 stream 2 reads without ordering

// With the wait restored the program passes the race checker and the reference check.
// RUN: sed 's/^\( *\)%12 = host.shard_by_stream/\1comm.wait %11\n&/' %s | fuser-run - --ranks 2 --check-races --check --reference %S/inputs/column_parallel_linear_2.mlir | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

module {
  fusion.mesh @tp = [0, 1]
  func.func @column_parallel_linear(%arg0: !host.buf<4x16xf32> {fusion.global_type = tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>}, %arg1: !host.buf<4x16xf32> {fusion.global_type = tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>}) -> (!host.buf<8x4xf32> {fusion.global_type = tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2)], []]>>}) {
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %0 = host.alloc() : !host.buf<8x4xf32>
    %1 = host.current_stream : !host.stream
    %rank = host.rank : index
    %2 = arith.addi %rank, %c2 : index
    host.for %arg2 = %c0 to %c2 step %c1 {
      %3 = arith.remui %arg2, %c4 : index
      %4 = host.get_stream %3 : !host.stream
      host.set_stream %4
      host.stream_wait %1
      %5 = arith.addi %rank, %arg2 : index
      %6 = arith.remui %5, %c2 : index
      %7 = arith.subi %2, %arg2 : index
      %8 = arith.remui %7, %c2 : index
      %9 = host.alloc() : !host.buf<4x16xf32>
      %10 = arith.cmpi eq, %arg2, %c0 : index
      host.if %10 {
        host.copy %arg0, %9 : !host.buf<4x16xf32>, !host.buf<4x16xf32>
        %11 = host.shard_by_stream %0[%6] axis = 0 chunks = 2 : !host.buf<8x4xf32> -> !host.view<4x4xf32, strides = [4, 1]>
        host.linear %9, %arg1 into %11 : !host.buf<4x16xf32>, !host.buf<4x16xf32>, !host.view<4x4xf32, strides = [4, 1]>
      } else {
        %11 = comm.group {
          %13 = comm.send %arg0 to %8 : !host.buf<4x16xf32>
          %14 = comm.recv %9 from %6 : !host.buf<4x16xf32>
        }
        %12 = host.shard_by_stream %0[%6] axis = 0 chunks = 2 : !host.buf<8x4xf32> -> !host.view<4x4xf32, strides = [4, 1]>
        host.linear %9, %arg1 into %12 : !host.buf<4x16xf32>, !host.buf<4x16xf32>, !host.view<4x4xf32, strides = [4, 1]>
      }
      host.dealloc %9 : !host.buf<4x16xf32>
    }
    host.set_stream %1
    host.for %arg2 = %c0 to %c2 step %c1 {
      %3 = arith.remui %arg2, %c4 : index
      %4 = host.get_stream %3 : !host.stream
      host.stream_wait %4
    }
    return %0 : !host.buf<8x4xf32>
  }
}

