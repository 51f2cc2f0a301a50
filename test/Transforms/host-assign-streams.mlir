// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-assign-streams{streams=2}))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-assign-streams{streams=1}))' | FileCheck %s --check-prefix=ONE
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-assign-streams))' | FileCheck %s --check-prefix=FOUR
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(host-assign-streams{streams=2}))' -o %t.once
// RUN: fuser-opt %t.once --split-input-file --pass-pipeline='builtin.module(func.func(host-assign-streams{streams=2}))' -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(host-assign-streams{streams=0}))' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(host-assign-streams{streams=two}))' 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(host-assign-streams)' 2>&1 | FileCheck %s --check-prefix=ANCHOR

// Iteration i of a stream loop runs on worker stream (i mod streams), which first waits for
// the main stream; afterwards main is current again and a join loop waits for every worker.
// The second RUN pair checks idempotence: a rewritten loop and its join loop use streams, so
// a second run leaves them alone.

// CHECK-LABEL: func.func @stream_loop
// CHECK-SAME:    (%[[A:.*]]: !host.buf<8x16xf32>, %[[B:.*]]: !host.buf<16x32xf32>, %[[C:.*]]: !host.buf<8x32xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[MAIN:.*]] = host.current_stream : !host.stream
// CHECK-NEXT:    %[[N:.*]] = arith.constant 2 : index
// CHECK-NEXT:    host.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      %[[K:.*]] = arith.remui %[[I]], %[[N]] : index
// CHECK-NEXT:      %[[W:.*]] = host.get_stream %[[K]] : !host.stream
// CHECK-NEXT:      host.set_stream %[[W]]
// CHECK-NEXT:      host.stream_wait %[[MAIN]]
// CHECK-NEXT:      %[[AV:.*]] = host.shard_by_stream %[[A]][%[[I]]]
// CHECK-NEXT:      %[[CV:.*]] = host.shard_by_stream %[[C]][%[[I]]]
// CHECK-NEXT:      host.matmul %[[AV]], %[[B]] into %[[CV]]
// CHECK-NEXT:    }
// CHECK-NEXT:    host.set_stream %[[MAIN]]
// CHECK-NEXT:    host.for %[[J:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      %[[KJ:.*]] = arith.remui %[[J]], %[[N]] : index
// CHECK-NEXT:      %[[WJ:.*]] = host.get_stream %[[KJ]] : !host.stream
// CHECK-NEXT:      host.stream_wait %[[WJ]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// ONE-LABEL: func.func @stream_loop
// ONE:         %[[MAIN:.*]] = host.current_stream : !host.stream
// ONE-NEXT:    %[[N:.*]] = arith.constant 1 : index
// ONE-NEXT:    host.for %[[I:.*]] =
// ONE-NEXT:      %[[K:.*]] = arith.remui %[[I]], %[[N]] : index
// ONE-NEXT:      %[[W:.*]] = host.get_stream %[[K]] : !host.stream
// ONE-NEXT:      host.set_stream %[[W]]
// ONE-NEXT:      host.stream_wait %[[MAIN]]

// FOUR-LABEL: func.func @stream_loop
// FOUR:         %[[MAIN:.*]] = host.current_stream : !host.stream
// FOUR-NEXT:    %[[N:.*]] = arith.constant 4 : index
// FOUR-NEXT:    host.for %[[I:.*]] =
// FOUR-NEXT:      %[[K:.*]] = arith.remui %[[I]], %[[N]] : index
// FOUR:         host.set_stream %[[MAIN]]
// FOUR-NEXT:    host.for %[[J:.*]] =
// FOUR-NEXT:      %[[KJ:.*]] = arith.remui %[[J]], %[[N]] : index

// ZERO:   error: host-assign-streams: 'streams' must be at least 1, got 0
// ZERO:   failed to add `host-assign-streams` with options `streams=0`
// NOTINT: for the --streams option: 'two' value invalid for long argument!
// ANCHOR: Can't add pass 'HostAssignStreams' restricted to 'func.func' on a PassManager intended to run on 'builtin.module', did you intend to nest?
func.func @stream_loop(%a: !host.buf<8x16xf32>, %b: !host.buf<16x32xf32>, %c: !host.buf<8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    %av = host.shard_by_stream %a[%i] axis = 0 chunks = 4 : !host.buf<8x16xf32> -> !host.view<2x16xf32, strides = [16, 1]>
    %cv = host.shard_by_stream %c[%i] axis = 0 chunks = 4 : !host.buf<8x32xf32> -> !host.view<2x32xf32, strides = [32, 1]>
    host.matmul %av, %b into %cv : !host.view<2x16xf32, strides = [16, 1]>, !host.buf<16x32xf32>, !host.view<2x32xf32, strides = [32, 1]>
  }
  return
}

// -----

// Two top-level loops: each gets its own main stream, worker switch and join loop; the second
// loop starts only after the first one's join (program order on the main stream).

// CHECK-LABEL: func.func @two_loops
// CHECK:         %[[M1:.*]] = host.current_stream
// CHECK-NEXT:    %[[N1:.*]] = arith.constant 2 : index
// CHECK-NEXT:    host.for %[[I:.*]] =
// CHECK-NEXT:      arith.remui %[[I]], %[[N1]]
// CHECK-NEXT:      host.get_stream
// CHECK-NEXT:      host.set_stream
// CHECK-NEXT:      host.stream_wait %[[M1]]
// CHECK-NEXT:      host.select
// CHECK-NEXT:      host.select
// CHECK-NEXT:      host.copy
// CHECK-NEXT:    }
// CHECK-NEXT:    host.set_stream %[[M1]]
// CHECK-NEXT:    host.for
// CHECK-NEXT:      arith.remui
// CHECK-NEXT:      host.get_stream
// CHECK-NEXT:      host.stream_wait
// CHECK-NEXT:    }
// CHECK-NEXT:    host.copy
// CHECK-NEXT:    %[[M2:.*]] = host.current_stream
// CHECK-NEXT:    %[[N2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    host.for %[[I2:.*]] =
// CHECK-NEXT:      arith.remui %[[I2]], %[[N2]]
// CHECK-NEXT:      host.get_stream
// CHECK-NEXT:      host.set_stream
// CHECK-NEXT:      host.stream_wait %[[M2]]
// CHECK-NEXT:      host.select
// CHECK-NEXT:      host.elementwise
// CHECK-NEXT:    }
// CHECK-NEXT:    host.set_stream %[[M2]]
// CHECK-NEXT:    host.for
// CHECK:         return
func.func @two_loops(%a: !host.buf<4x8xf32>, %b: !host.buf<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    %v = host.select %a[%i] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
    %w = host.select %b[%i] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
    host.copy %v, %w : !host.view<8xf32, strides = [1]>, !host.view<8xf32, strides = [1]>
  }
  host.copy %b, %a : !host.buf<4x8xf32>, !host.buf<4x8xf32>
  host.for %i = %c0 to %c4 step %c1 {
    %v = host.select %a[%i] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
    host.elementwise neg %v into %v : !host.view<8xf32, strides = [1]>, !host.view<8xf32, strides = [1]>
  }
  return
}

// -----

// Only top-level loops are distributed: the inner loop runs on its outer iteration's worker.

// CHECK-LABEL: func.func @nested
// CHECK:         %[[MAIN:.*]] = host.current_stream
// CHECK-NEXT:    %[[N:.*]] = arith.constant 2 : index
// CHECK-NEXT:    host.for %[[I:.*]] =
// CHECK-NEXT:      arith.remui %[[I]], %[[N]]
// CHECK-NEXT:      %[[W:.*]] = host.get_stream
// CHECK-NEXT:      host.set_stream %[[W]]
// CHECK-NEXT:      host.stream_wait %[[MAIN]]
// CHECK-NEXT:      host.for %[[J:.*]] =
// CHECK-NEXT:        host.select
// CHECK-NEXT:        host.elementwise
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    host.set_stream %[[MAIN]]
// CHECK-NEXT:    host.for
// CHECK-NEXT:      arith.remui
// CHECK-NEXT:      host.get_stream
// CHECK-NEXT:      host.stream_wait
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:   host.current_stream
func.func @nested(%a: !host.buf<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    host.for %j = %c0 to %c4 step %c1 {
      %v = host.select %a[%j] axis = 0 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
      host.elementwise neg %v into %v : !host.view<8xf32, strides = [1]>, !host.view<8xf32, strides = [1]>
    }
  }
  return
}

// -----

// A loop that already manages its streams is left alone; a loop inside another op (here a
// host.if) is not top level.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     host.current_stream
// CHECK:         host.for %[[I:.*]] =
// CHECK-NEXT:      %[[S:.*]] = host.get_stream %[[I]]
// CHECK-NEXT:      host.set_stream %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    host.if
// CHECK-NEXT:      host.for
// CHECK-NEXT:        host.synchronize
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @left_alone(%s: !host.stream, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  host.for %i = %c0 to %c4 step %c1 {
    %w = host.get_stream %i : !host.stream
    host.set_stream %w
  }
  host.if %p {
    host.for %i = %c0 to %c4 step %c1 {
      host.synchronize %s
    }
  }
  return
}

// -----

// A loop that does not start at 0 by steps of 1 spreads its iteration numbers (i - lb) / step,
// not its induction variable, over the streams; an empty body still gets the stream switch.

// CHECK-LABEL: func.func @strided
// CHECK-SAME:    (%[[LB:.*]]: index, %[[UB:.*]]: index)
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[MAIN:.*]] = host.current_stream
// CHECK-NEXT:    %[[N:.*]] = arith.constant 2 : index
// CHECK-NEXT:    host.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[C8]] {
// CHECK-NEXT:      %[[OFF:.*]] = arith.subi %[[I]], %[[LB]] : index
// CHECK-NEXT:      %[[K:.*]] = arith.divui %[[OFF]], %[[C8]] : index
// CHECK-NEXT:      %[[R:.*]] = arith.remui %[[K]], %[[N]] : index
// CHECK-NEXT:      %[[W:.*]] = host.get_stream %[[R]]
// CHECK-NEXT:      host.set_stream %[[W]]
// CHECK-NEXT:      host.stream_wait %[[MAIN]]
// CHECK-NEXT:    }
// CHECK-NEXT:    host.set_stream %[[MAIN]]
// CHECK-NEXT:    host.for %[[J:.*]] = %[[LB]] to %[[UB]] step %[[C8]] {
// CHECK-NEXT:      %[[OFFJ:.*]] = arith.subi %[[J]], %[[LB]] : index
// CHECK-NEXT:      %[[KJ:.*]] = arith.divui %[[OFFJ]], %[[C8]] : index
// CHECK-NEXT:      %[[RJ:.*]] = arith.remui %[[KJ]], %[[N]] : index
// CHECK-NEXT:      %[[WJ:.*]] = host.get_stream %[[RJ]]
// CHECK-NEXT:      host.stream_wait %[[WJ]]
// CHECK-NEXT:    }
func.func @strided(%lb: index, %ub: index) {
  %c8 = arith.constant 8 : index
  host.for %i = %lb to %ub step %c8 {
  }
  return
}

// -----

// No loop: nothing changes.

// CHECK-LABEL: func.func @no_loop
// CHECK-NEXT:    host.copy
// CHECK-NEXT:    return
func.func @no_loop(%a: !host.buf<4xf32>) {
  host.copy %a, %a : !host.buf<4xf32>, !host.buf<4xf32>
  return
}
