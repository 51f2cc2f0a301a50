// A seeded bug caught by the race checker (issue 11, item 5): the CUDA IPC `put` ring of
// test/Run/inputs/column_parallel_linear_4.mlir as
// tp-overlap-p2p{chunks=4 backend=cuda_ipc protocol=put} lowers it, except that the
// comm.wait of the ring step's comm.recv is gone. With `put` the sender copies and the
// receive holds no stream: %12 is written at some time after the receive's post, and the
// linear that reads it on the same stream may run first (the output is then wrong). The
// checker models the receive's write as lasting from its post until its wait.

// REQUIRES: fuser-run
// RUN: not fuser-run %s --ranks 4 --check-races 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: seeded-missing-recv-wait.mlir:71:9: error: rank 0: race on buffer #{{[0-9]+}} elements {{\[32, 64\)}}:
// RACE-SAME: comm.recv at {{.*}}seeded-missing-recv-wait.mlir:68:15 on rank 0 stream 2 writes until its comm.wait,
// RACE-SAME: host.linear at {{.*}}seeded-missing-recv-wait.mlir:71:9 on rank 0 stream 2 reads without ordering

// With the wait restored the program passes the race checker and the reference check.
// RUN: sed 's/^\( *\)%16 = host.shard_by_stream/\1comm.wait %14\n&/' %s | fuser-run - --ranks 4 --check-races --check --reference %S/inputs/column_parallel_linear_4.mlir | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

module {
  fusion.mesh @tp = [0, 1, 2, 3]
  func.func @column_parallel_linear(%arg0: !host.buf<2x16xf32> {fusion.global_type = tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>}, %arg1: !host.buf<4x16xf32> {fusion.global_type = tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>}) -> (!host.buf<8x4xf32> {fusion.global_type = tensor<8x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>>}) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %0 = host.alloc() : !host.buf<8x4xf32>
    %1 = host.alloc() persistent : !host.buf<2x16xf32, ipc>
    host.copy %arg0, %1 : !host.buf<2x16xf32>, !host.buf<2x16xf32, ipc>
    %2 = host.alloc() persistent : !host.buf<4x2x16xf32, ipc>
    %3 = host.current_stream : !host.stream
    %rank = host.rank : index
    %4 = arith.addi %rank, %c4 : index
    host.for %arg2 = %c1 to %c4 step %c1 {
      %6 = arith.subi %arg2, %c1 : index
      %7 = arith.remui %6, %c4 : index
      %8 = host.get_stream %7 : !host.stream
      host.set_stream %8
      host.stream_wait %3
      %9 = arith.addi %rank, %arg2 : index
      %10 = arith.remui %9, %c4 : index
      %11 = arith.subi %4, %arg2 : index
      %12 = arith.remui %11, %c4 : index
      comm.share_handles send(%1 to %12) recv(%2 from %10) backend = cuda_ipc : !host.buf<2x16xf32, ipc>, !host.buf<4x2x16xf32, ipc>
    }
    host.set_stream %3
    host.for %arg2 = %c1 to %c4 step %c1 {
      %6 = arith.subi %arg2, %c1 : index
      %7 = arith.remui %6, %c4 : index
      %8 = host.get_stream %7 : !host.stream
      host.stream_wait %8
    }
    %5 = host.current_stream : !host.stream
    host.for %arg2 = %c0 to %c4 step %c1 {
      %6 = arith.remui %arg2, %c4 : index
      %7 = host.get_stream %6 : !host.stream
      host.set_stream %7
      host.stream_wait %5
      %8 = arith.addi %rank, %arg2 : index
      %9 = arith.remui %8, %c4 : index
      %10 = arith.subi %4, %arg2 : index
      %11 = arith.remui %10, %c4 : index
      %12 = host.select %2[%9] axis = 0 : !host.buf<4x2x16xf32, ipc> -> !host.view<2x16xf32, strides = [16, 1], ipc>
      %13 = arith.cmpi eq, %arg2, %c0 : index
      host.if %13 {
        host.copy %1, %12 : !host.buf<2x16xf32, ipc>, !host.view<2x16xf32, strides = [16, 1], ipc>
        %14 = host.shard_by_stream %0[%9] axis = 0 chunks = 4 : !host.buf<8x4xf32> -> !host.view<2x4xf32, strides = [4, 1]>
        host.linear %12, %arg1 into %14 : !host.view<2x16xf32, strides = [16, 1], ipc>, !host.buf<4x16xf32>, !host.view<2x4xf32, strides = [4, 1]>
      } else {
        %14 = comm.recv %12 from %9 backend = cuda_ipc protocol = put : !host.view<2x16xf32, strides = [16, 1], ipc>
        %15 = comm.send %1 to %11 backend = cuda_ipc protocol = put : !host.buf<2x16xf32, ipc>
        %16 = host.shard_by_stream %0[%9] axis = 0 chunks = 4 : !host.buf<8x4xf32> -> !host.view<2x4xf32, strides = [4, 1]>
        host.linear %12, %arg1 into %16 : !host.view<2x16xf32, strides = [16, 1], ipc>, !host.buf<4x16xf32>, !host.view<2x4xf32, strides = [4, 1]>
        comm.wait %15
      }
    }
    host.set_stream %5
    host.for %arg2 = %c0 to %c4 step %c1 {
      %6 = arith.remui %arg2, %c4 : index
      %7 = host.get_stream %6 : !host.stream
      host.stream_wait %7
    }
    return %0 : !host.buf<8x4xf32>
  }
}

