// A seeded bug caught by the race checker: the row-parallel linear of
// examples/row_parallel_linear.mlir as tp-default lowers it, except that the join loop at the
// end lost its `host.stream_wait`: the main stream returns the output while the worker
// streams may still be writing it (their allreduces). fuser-run synchronizes every stream
// before it reads the outputs, so the values come out right here, but on a GPU the caller
// would read them too early: --check-races reports the unordered pair (the allreduce on a
// worker stream writes, func.return on the main stream reads).

// REQUIRES: fuser-run
// RUN: not fuser-run %s --ranks 4 --check-races 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: {{.*}}seeded-stream-wait.mlir:{{[0-9]+}}:{{[0-9]+}}: error: rank 0: race on buffer #{{[0-9]+}} elements {{\[0, 1024\)}}:
// RACE-SAME: comm.allreduce at {{.*}}seeded-stream-wait.mlir:40:{{[0-9]+}} on rank 0 stream 1 writes,
// RACE-SAME: func.return at {{.*}}seeded-stream-wait.mlir:49:{{[0-9]+}} on rank 0 stream 0 reads without ordering

// Without the race checker the run completes (the missing join is invisible to the values).
// RUN: fuser-run %s --ranks 4 --check --reference %S/../../examples/row_parallel_linear.mlir | FileCheck %s --check-prefix=PASS

// The unmodified program (the join restored) passes with the race checker.
// RUN: sed 's/^\( *\)%j = host.get_stream %2 : !host.stream$/&\n\1host.stream_wait %j/' %s | fuser-run - --ranks 4 --check-races --check --reference %S/../../examples/row_parallel_linear.mlir | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

module {
  fusion.mesh @tp = [0, 1, 2, 3]
  func.func @row_parallel_linear(%arg0: !host.buf<48x64xbf16> {fusion.global_type = tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>}, %arg1: !host.buf<64x64xbf16> {fusion.global_type = tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>}) -> (!host.buf<48x64xbf16> {fusion.global_type = tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>}) {
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %0 = host.alloc() : !host.buf<48x64xbf16>
    %1 = host.current_stream : !host.stream
    host.for %arg2 = %c0 to %c3 step %c1 {
      %2 = arith.remui %arg2, %c4 : index
      %3 = host.get_stream %2 : !host.stream
      host.set_stream %3
      host.stream_wait %1
      %4 = host.shard_by_stream %arg0[%arg2] axis = 0 chunks = 3 : !host.buf<48x64xbf16> -> !host.view<16x64xbf16, strides = [64, 1]>
      %5 = host.alloc() : !host.buf<16x64xbf16>
      host.linear %4, %arg1 into %5 : !host.view<16x64xbf16, strides = [64, 1]>, !host.buf<64x64xbf16>, !host.buf<16x64xbf16>
      %6 = host.shard_by_stream %0[%arg2] axis = 0 chunks = 3 : !host.buf<48x64xbf16> -> !host.view<16x64xbf16, strides = [64, 1]>
      %7 = comm.allreduce sum %5 into %6 team = [0, 1, 2, 3] : !host.buf<16x64xbf16>, !host.view<16x64xbf16, strides = [64, 1]>
      comm.wait %7
      host.dealloc %5 : !host.buf<16x64xbf16>
    }
    host.set_stream %1
    host.for %arg2 = %c0 to %c3 step %c1 {
      %2 = arith.remui %arg2, %c4 : index
      %j = host.get_stream %2 : !host.stream
    }
    return %0 : !host.buf<48x64xbf16>
  }
}

