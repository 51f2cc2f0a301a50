// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(tp-host{streams=2})' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --tp-host | FileCheck %s --check-prefix=FOUR
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(tp-host{streams=1})' | FileCheck %s --check-prefix=ONE
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(tp-host{streams=2})' | fuser-opt --split-input-file --verify-each -o %t
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-host{streams=2})' --dump-pass-pipeline -o %t 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(tp-host{streams=0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(tp-host{streams=x})' 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(tp-host{stream=2})' 2>&1 | FileCheck %s --check-prefix=NOSUCH
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(tp-host))' 2>&1 | FileCheck %s --check-prefix=NESTED

// tp-host = func.func(host-forward-copies, host-fuse-epilogue, host-fuse, host-assign-streams{streams=N}, host-insert-dealloc), canonicalize, cse
// on a host program: a row-parallel linear layer whose rows are split into 4 stream chunks;
// each chunk multiplies into a per-iteration partial buffer, allreduces it into its slice of
// the output and waits. The partial buffer is freed on the worker stream after the wait; the
// output is returned (never freed); a temporary used after the loop is freed after its use.

// DUMP:      Pass Manager with 3 passes:
// DUMP-NEXT: builtin.module(func.func(host-forward-copies{elementwise-strided=false gemm-strided=true},host-fuse-epilogue,host-fuse{enabled=true},host-assign-streams{streams=2},host-insert-dealloc),canonicalize{{[{] *}}max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},cse)

// ZERO:      error: tp-host: 'streams' must be at least 1, got 0
// ZERO-NEXT: failed to add `tp-host` with options `streams=0`
// NOTINT:    for the --streams option: 'x' value invalid for long argument!
// NOSUCH:    <Pass-Options-Parser>: no such option stream
// NESTED:    error: tp-host runs on a module: use it as 'builtin.module(tp-host)', not inside a 'func.func' pipeline

// CHECK-LABEL: func.func @row_parallel_linear
// CHECK-SAME:    (%[[X:.*]]: !host.buf<8x16xbf16>, %[[W:.*]]: !host.buf<16x32xbf16>) -> !host.buf<8x32xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[OUT:.*]] = host.alloc() : !host.buf<8x32xf32>
// CHECK-NEXT:    %[[MAIN:.*]] = host.current_stream : !host.stream
// CHECK-NEXT:    host.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      %[[K:.*]] = arith.remui %[[I]], %[[C2]] : index
// CHECK-NEXT:      %[[WS:.*]] = host.get_stream %[[K]] : !host.stream
// CHECK-NEXT:      host.set_stream %[[WS]]
// CHECK-NEXT:      host.stream_wait %[[MAIN]]
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream %[[X]][%[[I]]] axis = 0 chunks = 4 : !host.buf<8x16xbf16> -> !host.view<2x16xbf16, strides = [16, 1]>
// CHECK-NEXT:      %[[PART:.*]] = host.alloc() : !host.buf<2x32xf32>
// CHECK-NEXT:      host.matmul %[[XI]], %[[W]] into %[[PART]]
// CHECK-NEXT:      %[[OI:.*]] = host.shard_by_stream %[[OUT]][%[[I]]] axis = 0 chunks = 4
// CHECK-NEXT:      %[[R:.*]] = comm.allreduce sum %[[PART]] into %[[OI]] team = [0, 1]
// CHECK-NEXT:      comm.wait %[[R]]
// CHECK-NEXT:      host.dealloc %[[PART]] : !host.buf<2x32xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    host.set_stream %[[MAIN]]
// CHECK-NEXT:    host.for %[[J:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      %[[KJ:.*]] = arith.remui %[[J]], %[[C2]] : index
// CHECK-NEXT:      %[[WJ:.*]] = host.get_stream %[[KJ]] : !host.stream
// CHECK-NEXT:      host.stream_wait %[[WJ]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[TMP:.*]] = host.alloc() : !host.buf<8x32xf32>
// CHECK-NEXT:    host.elementwise cast %[[OUT]] into %[[TMP]]
// CHECK-NEXT:    host.dealloc %[[TMP]]
// CHECK-NEXT:    return %[[OUT]] : !host.buf<8x32xf32>
// CHECK-NOT:   host.dealloc

// FOUR-LABEL: func.func @row_parallel_linear
// FOUR:         arith.constant 4 : index
// FOUR:         host.for %[[I:.*]] =
// FOUR-NEXT:      arith.remui %[[I]], %[[C4:[^ ]*]] : index

// With one stream, canonicalize folds `i mod 1` away: every iteration runs on worker 0.
// ONE-LABEL: func.func @row_parallel_linear
// ONE:         %[[C0:.*]] = arith.constant 0 : index
// ONE:         host.for %[[I:.*]] =
// ONE-NEXT:      %[[WS:.*]] = host.get_stream %[[C0]] : !host.stream
// ONE-NEXT:      host.set_stream %[[WS]]
// ONE-NOT:     arith.remui
func.func @row_parallel_linear(%x: !host.buf<8x16xbf16>, %w: !host.buf<16x32xbf16>) -> !host.buf<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %out = host.alloc() : !host.buf<8x32xf32>
  host.for %i = %c0 to %c4 step %c1 {
    %xi = host.shard_by_stream %x[%i] axis = 0 chunks = 4 : !host.buf<8x16xbf16> -> !host.view<2x16xbf16, strides = [16, 1]>
    %part = host.alloc() : !host.buf<2x32xf32>
    host.matmul %xi, %w into %part : !host.view<2x16xbf16, strides = [16, 1]>, !host.buf<16x32xbf16>, !host.buf<2x32xf32>
    %oi = host.shard_by_stream %out[%i] axis = 0 chunks = 4 : !host.buf<8x32xf32> -> !host.view<2x32xf32, strides = [32, 1]>
    %r = comm.allreduce sum %part into %oi team = [0, 1] : !host.buf<2x32xf32>, !host.view<2x32xf32, strides = [32, 1]>
    comm.wait %r
  }
  %tmp = host.alloc() : !host.buf<8x32xf32>
  host.elementwise cast %out into %tmp : !host.buf<8x32xf32>, !host.buf<8x32xf32>
  return %out : !host.buf<8x32xf32>
}

// -----

// A column-parallel layer with an allgathered input: the gathered input is allocated before
// the stream loop, read by every iteration (through views) and freed only once the main
// stream has joined all workers; the duplicate `i` views CSE merges.

// CHECK-LABEL: func.func @allgather_matmul
// CHECK-SAME:    (%[[SHARD:.*]]: !host.buf<2x16xf32>, %[[W:.*]]: !host.buf<16x8xf32>, %[[Y:.*]]: !host.buf<8x8xf32>)
// CHECK:         %[[FULL:.*]] = host.alloc() : !host.buf<8x16xf32>
// CHECK-NEXT:    %[[R:.*]] = comm.allgather %[[SHARD]] into %[[FULL]] team = [0, 1, 2, 3]
// CHECK-NEXT:    comm.wait %[[R]]
// CHECK-NEXT:    %[[MAIN:.*]] = host.current_stream
// CHECK-NEXT:    host.for %[[I:.*]] =
// CHECK-NEXT:      arith.remui %[[I]]
// CHECK-NEXT:      host.get_stream
// CHECK-NEXT:      host.set_stream
// CHECK-NEXT:      host.stream_wait %[[MAIN]]
// CHECK-NEXT:      %[[FI:.*]] = host.shard_by_stream %[[FULL]][%[[I]]]
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]]
// CHECK-NEXT:      host.matmul %[[FI]], %[[W]] into %[[YI]]
// CHECK-NEXT:      host.elementwise neg %[[YI]] into %[[YI]]
// CHECK-NEXT:    }
// CHECK-NEXT:    host.set_stream %[[MAIN]]
// CHECK-NEXT:    host.for
// CHECK-NEXT:      arith.remui
// CHECK-NEXT:      host.get_stream
// CHECK-NEXT:      host.stream_wait
// CHECK-NEXT:    }
// CHECK-NEXT:    host.dealloc %[[FULL]] : !host.buf<8x16xf32>
// CHECK-NEXT:    return
func.func @allgather_matmul(%shard: !host.buf<2x16xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %full = host.alloc() : !host.buf<8x16xf32>
  %r = comm.allgather %shard into %full team = [0, 1, 2, 3] : !host.buf<2x16xf32>, !host.buf<8x16xf32>
  comm.wait %r
  host.for %i = %c0 to %c4 step %c1 {
    %fi = host.shard_by_stream %full[%i] axis = 0 chunks = 4 : !host.buf<8x16xf32> -> !host.view<2x16xf32, strides = [16, 1]>
    %yi = host.shard_by_stream %y[%i] axis = 0 chunks = 4 : !host.buf<8x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
    host.matmul %fi, %w into %yi : !host.view<2x16xf32, strides = [16, 1]>, !host.buf<16x8xf32>, !host.view<2x8xf32, strides = [8, 1]>
    %yi2 = host.shard_by_stream %y[%i] axis = 0 chunks = 4 : !host.buf<8x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
    host.elementwise neg %yi2 into %yi2 : !host.view<2x8xf32, strides = [8, 1]>, !host.view<2x8xf32, strides = [8, 1]>
  }
  return
}
