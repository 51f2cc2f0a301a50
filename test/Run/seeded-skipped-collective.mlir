// A seeded bug caught by the watchdog: the row-parallel linear of
// examples/row_parallel_linear.mlir as tp-default lowers it, except that only rank 0 posts the
// allreduce of each chunk (it sits in a `host.if` on rank == 0). Rank 0's streams wait in
// the allreduces for ranks 1, 2 and 3, which never post; after --timeout the run fails with
// a report naming the waiting rank, the op and the absent ranks.

// REQUIRES: fuser-run
// RUN: not fuser-run %s --ranks 4 --timeout 1 2>&1 | FileCheck %s
// CHECK: error: rank 0: {{(aborted: rank 0: )?}}deadlock or timeout after 1s:
// CHECK-SAME: rank 0 waits in allreduce #{{[0-2]}} of team [0, 1, 2, 3] at {{.*}}seeded-skipped-collective.mlir:38:{{[0-9]+}}
// CHECK-SAME: rank 1 (waited for by rank 0) is not blocked in any wait; rank 2 (waited for by rank 0) is not blocked in any wait; rank 3 (waited for by rank 0) is not blocked in any wait

// The same program with the allreduce on every rank passes.
// RUN: sed 's/%first = arith.cmpi eq, %rank, %c0 : index/%first = arith.cmpi sge, %rank, %c0 : index/' %s | fuser-run - --ranks 4 --timeout 1 --check --check-races --reference %S/../../examples/row_parallel_linear.mlir | FileCheck %s --check-prefix=FIXED
// FIXED: check: PASS

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
      %rank = host.rank : index
      %first = arith.cmpi eq, %rank, %c0 : index
      host.if %first {
        %7 = comm.allreduce sum %5 into %6 team = [0, 1, 2, 3] : !host.buf<16x64xbf16>, !host.view<16x64xbf16, strides = [64, 1]>
        comm.wait %7
      }
      host.dealloc %5 : !host.buf<16x64xbf16>
    }
    host.set_stream %1
    host.for %arg2 = %c0 to %c3 step %c1 {
      %2 = arith.remui %arg2, %c4 : index
      %3 = host.get_stream %2 : !host.stream
      host.stream_wait %3
    }
    return %0 : !host.buf<48x64xbf16>
  }
}

