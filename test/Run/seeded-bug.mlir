// A seeded bug caught by the reference check: the row-parallel linear of
// examples/row_parallel_linear.mlir as tp-default lowers it, except that every iteration
// reads the FIRST stream chunk of x (`%arg0[%c0]` instead of `%arg0[%arg2]`). It runs without
// error, but its output differs from the unsharded reference.

// REQUIRES: fuser-run
// RUN: not fuser-run %s --ranks 4 --check --reference %S/../../examples/row_parallel_linear.mlir | FileCheck %s --check-prefix=BUG
// BUG: check: FAIL output #0 (result #0 of @row_parallel_linear, %y, the result of 'fusion.linear'): rel err {{.*}} > tolerance 2e-2 (bf16)

// On stderr, the failed output is an error at the value behind it in the checked (reference)
// function, with a note at the value this program returns for it.
// RUN: not fuser-run %s --ranks 4 --check --reference %S/../../examples/row_parallel_linear.mlir 2>&1 | FileCheck %s --check-prefix=WHERE
// WHERE: examples/row_parallel_linear.mlir:26:8: error: check: output #0 (result #0 of @row_parallel_linear, %y, the result of 'fusion.linear') differs from the reference: rel err {{.*}} > tolerance 2e-2 (bf16)
// WHERE-NEXT: {{^}}  %y = fusion.linear %x, %w
// WHERE-NEXT: {{^}}       ^
// WHERE-NEXT: seeded-bug.mlir:30:10: note: the run returns it as result #0 of @row_parallel_linear, %0, the result of 'host.alloc'
// WHERE-NEXT: %0 = host.alloc() : !host.buf<48x64xbf16>

// The same program with the right chunk passes.
// RUN: sed 's/%arg0\[%c0\]/%arg0[%arg2]/' %s | fuser-run - --ranks 4 --check --reference %S/../../examples/row_parallel_linear.mlir | FileCheck %s --check-prefix=FIXED
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
      %4 = host.shard_by_stream %arg0[%c0] axis = 0 chunks = 3 : !host.buf<48x64xbf16> -> !host.view<16x64xbf16, strides = [64, 1]>
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
      %3 = host.get_stream %2 : !host.stream
      host.stream_wait %3
    }
    return %0 : !host.buf<48x64xbf16>
  }
}

