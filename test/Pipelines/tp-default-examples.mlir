// The three seed programs of examples/ lower with tp-default to host programs shaped like
// nvFuser's (loop structure, views, allocations, waits), in SSA and rank-generic; the output
// verifies (the pass manager verifies after every pass) and re-parses.

// RUN: fuser-opt %S/../../examples/stream_parallel_matmul.mlir --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=MM
// RUN: fuser-opt %S/../../examples/row_parallel_linear.mlir --pass-pipeline='builtin.module(tp-default{streams=2})' | FileCheck %s --check-prefix=ROW
// RUN: fuser-opt %S/../../examples/column_parallel_linear.mlir --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=COL
// RUN: fuser-opt %S/../../examples/row_parallel_linear.mlir --pass-pipeline='builtin.module(tp-default)' | fuser-opt | FileCheck %s --check-prefix=ROW4

// Row-parallel linear for d in {1, 2, 4, 8}: the same loop of 3 with a local linear and an
// allreduce over the d devices in every iteration.
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0]/' %S/../../examples/row_parallel_linear.mlir | fuser-opt --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefixes=ROWD,D1
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1]/' %S/../../examples/row_parallel_linear.mlir | fuser-opt --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefixes=ROWD,D2
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1, 2, 3]/' %S/../../examples/row_parallel_linear.mlir | fuser-opt --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefixes=ROWD,D4
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1, 2, 3, 4, 5, 6, 7]/' %S/../../examples/row_parallel_linear.mlir | fuser-opt --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefixes=ROWD,D8

// PR 5302: three stream chunks of the output's N axis, computed by three matmuls in one loop;
// the output is allocated full size before the loop, w and the output are viewed per chunk.
// MM-LABEL: func.func @stream_parallel_matmul
// MM:         %[[OUT:.*]] = host.alloc() : !host.buf<5x6xf32>
// MM:         %[[MAIN:.*]] = host.current_stream
// MM:         host.for %[[I:.*]] = %{{.*}} to %c3 step %c1 {
// MM:           host.set_stream
// MM-NEXT:      host.stream_wait %[[MAIN]]
// MM-NEXT:      %[[W:.*]] = host.shard_by_stream %arg1[%[[I]]] axis = 1 chunks = 3 : !host.buf<7x6xf32> -> !host.view<7x2xf32, strides = [6, 1]>
// MM-NEXT:      %[[O:.*]] = host.shard_by_stream %[[OUT]][%[[I]]] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1]>
// MM-NEXT:      host.matmul %arg0, %[[W]] into %[[O]]
// MM-NEXT:    }
// MM-NEXT:    host.set_stream %[[MAIN]]
// MM-NEXT:    host.for
// MM:         return %[[OUT]]

// PR 5547: Linear and Allreduce in ONE loop; the output allocated before the loop, the
// partial per iteration, freed after its allreduce's wait.
// ROW-LABEL: func.func @row_parallel_linear
// ROW-SAME:    %arg0: !host.buf<48x64xbf16> {fusion.global_type = tensor<48x256xbf16
// ROW:         %[[OUT:.*]] = host.alloc() : !host.buf<48x64xbf16>
// ROW:         host.for %[[I:.*]] = %{{.*}} to %c3 step %c1 {
// ROW:           %[[X:.*]] = host.shard_by_stream %arg0[%[[I]]] axis = 0 chunks = 3
// ROW-NEXT:      %[[P:.*]] = host.alloc() : !host.buf<16x64xbf16>
// ROW-NEXT:      host.linear %[[X]], %arg1 into %[[P]]
// ROW-NEXT:      %[[Y:.*]] = host.shard_by_stream %[[OUT]][%[[I]]] axis = 0 chunks = 3
// ROW-NEXT:      %[[R:.*]] = comm.allreduce sum %[[P]] into %[[Y]] team = [0, 1, 2, 3]
// ROW-NEXT:      comm.wait %[[R]]
// ROW-NEXT:      host.dealloc %[[P]]
// ROW-NEXT:    }
// ROW-NOT:     host.linear
// ROW:         return %[[OUT]]
// ROW4:        comm.allreduce sum

// ROWD-LABEL: func.func @row_parallel_linear
// D1-SAME:     %arg0: !host.buf<48x256xbf16>
// D2-SAME:     %arg0: !host.buf<48x128xbf16>
// D4-SAME:     %arg0: !host.buf<48x64xbf16>
// D8-SAME:     %arg0: !host.buf<48x32xbf16>
// ROWD:        host.for
// ROWD:          host.linear
// With one device the allreduce is a local copy (canonicalize: a collective over a team of one).
// D1-NOT:        comm.allreduce
// D1:            host.copy
// D2:            comm.allreduce sum {{.*}} team = [0, 1] :
// D4:            comm.allreduce sum {{.*}} team = [0, 1, 2, 3] :
// D8:            comm.allreduce sum {{.*}} team = [0, 1, 2, 3, 4, 5, 6, 7] :
// D2:            comm.wait
// D4:            comm.wait
// D8:            comm.wait

// PR 5259's input shape: the DID→Stream set becomes a broadcast of rank i's shard per
// iteration (comm-p2p-ring turns it into a ring), inlined with the linear.
// COL-LABEL: func.func @column_parallel_linear
// COL:         %[[OUT:.*]] = host.alloc() : !host.buf<64x96xbf16>
// COL:         host.for %[[I:.*]] = %{{.*}} to %c4 step %c1 {
// COL:           %[[G:.*]] = host.alloc() : !host.buf<16x128xbf16>
// COL-NEXT:      %[[B:.*]] = comm.broadcast %arg0 into %[[G]] root %[[I]] team = [0, 1, 2, 3]
// COL-NEXT:      comm.wait %[[B]]
// COL-NEXT:      %[[Y:.*]] = host.shard_by_stream %[[OUT]][%[[I]]] axis = 0 chunks = 4
// COL-NEXT:      host.linear %[[G]], %arg1 into %[[Y]]
// COL-NEXT:      host.dealloc %[[G]]
// COL-NEXT:    }
