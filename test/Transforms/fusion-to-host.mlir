// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-to-host))' | FileCheck %s

// Stream-parallel matmul (nvFuser test_matmul): N in 3 chunks; C allocated in full before the
// loop; B and C sharded per iteration along axis 1.
// CHECK-LABEL: func.func @stream_parallel_matmul
// CHECK-SAME:    (%[[A:[^:]*]]: !host.buf<5x7xf32> {fusion.global_type = tensor<5x7xf32, #fusion.shard<@tp, {{\[\[\], \[\]\]}}>>}, %[[B:[^:]*]]: !host.buf<7x6xf32>
// CHECK-SAME:    -> (!host.buf<5x6xf32> {fusion.global_type = tensor<5x6xf32, #fusion.shard<@tp, {{\[\[\], \[Stream\(3\)\]\]}}>>})
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[OUT:.*]] = host.alloc() : !host.buf<5x6xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %[[C0]] to %[[C3]] step %[[C1]] {
// CHECK-NEXT:      %[[BI:.*]] = host.shard_by_stream %[[B]][%[[I]]] axis = 1 chunks = 3 : !host.buf<7x6xf32> -> !host.view<7x2xf32, strides = [6, 1]>
// CHECK-NEXT:      %[[CI:.*]] = host.shard_by_stream %[[OUT]][%[[I]]] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1]>
// CHECK-NEXT:      host.matmul %[[A]], %[[BI]] into %[[CI]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[OUT]] : !host.buf<5x6xf32>
// CHECK-NOT:     fusion.matmul
fusion.mesh @tp = [0]
func.func @stream_parallel_matmul(%a: tensor<5x7xf32, #fusion.shard<@tp, [[], []]>>,
                                  %b: tensor<7x6xf32, #fusion.shard<@tp, [[], []]>>)
    -> tensor<5x6xf32, #fusion.shard<@tp, [[], [Stream(3)]]>> {
  %c = fusion.matmul %a, %b
      : (tensor<5x7xf32, #fusion.shard<@tp, [[], []]>>, tensor<7x6xf32, #fusion.shard<@tp, [[], []]>>)
      -> tensor<5x6xf32, #fusion.shard<@tp, [[], [Stream(3)]]>>
  return %c : tensor<5x6xf32, #fusion.shard<@tp, [[], [Stream(3)]]>>
}

// -----

// Two matmuls inlined into one loop (test_two_matmuls_inlinable): the intermediate is only used
// in the loop, so it is allocated per iteration with its chunk shape 2x5.
// CHECK-LABEL: func.func @two_matmuls_inlinable
// CHECK-SAME:    (%[[INP:[^:]*]]: !host.buf<6x3xf32> {{.*}}, %[[W1:[^:]*]]: !host.buf<3x5xf32> {{.*}}, %[[W2:[^:]*]]: !host.buf<5x3xf32>
// CHECK:         %[[OUT:.*]] = host.alloc() : !host.buf<6x3xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[X:.*]] = host.shard_by_stream %[[INP]][%[[I]]] axis = 0 chunks = 3 : !host.buf<6x3xf32> -> !host.view<2x3xf32, strides = [3, 1]>
// CHECK-NEXT:      %[[T:.*]] = host.alloc() : !host.buf<2x5xf32>
// CHECK-NEXT:      host.matmul %[[X]], %[[W1]] into %[[T]]
// CHECK-NEXT:      %[[O:.*]] = host.shard_by_stream %[[OUT]][%[[I]]] axis = 0 chunks = 3
// CHECK-NEXT:      host.matmul %[[T]], %[[W2]] into %[[O]] : !host.buf<2x5xf32>, !host.buf<5x3xf32>, !host.view<2x3xf32, strides = [3, 1]>
// CHECK-NEXT:    }
// CHECK-NOT:     host.for
// CHECK:         return %[[OUT]]
fusion.mesh @one = [0]
func.func @two_matmuls_inlinable(
    %inp: tensor<6x3xf32, #fusion.shard<@one, [[Stream(3)], []]>>,
    %w1: tensor<3x5xf32, #fusion.shard<@one, [[], []]>>,
    %w2: tensor<5x3xf32, #fusion.shard<@one, [[], []]>>)
    -> tensor<6x3xf32, #fusion.shard<@one, [[Stream(3)], []]>> {
  %t = fusion.matmul %inp, %w1
      : (tensor<6x3xf32, #fusion.shard<@one, [[Stream(3)], []]>>, tensor<3x5xf32, #fusion.shard<@one, [[], []]>>)
      -> tensor<6x5xf32, #fusion.shard<@one, [[Stream(3)], []]>>
  %o = fusion.matmul %t, %w2
      : (tensor<6x5xf32, #fusion.shard<@one, [[Stream(3)], []]>>, tensor<5x3xf32, #fusion.shard<@one, [[], []]>>)
      -> tensor<6x3xf32, #fusion.shard<@one, [[Stream(3)], []]>>
  return %o : tensor<6x3xf32, #fusion.shard<@one, [[Stream(3)], []]>>
}

// -----

// Not inlinable (test_two_matmuls_not_inlinable): the first matmul streams N, which the second
// contracts; the second streams M. Two loops; the 6x15 intermediate is allocated in full before
// the first and read through an axis-0 view in the second.
// CHECK-LABEL: func.func @two_matmuls_not_inlinable
// CHECK-SAME:    (%[[INP:[^:]*]]: !host.buf<6x3xf32> {{.*}}, %[[W1:[^:]*]]: !host.buf<3x15xf32> {{.*}}, %[[W2:[^:]*]]: !host.buf<15x3xf32>
// CHECK:         %[[T:.*]] = host.alloc() : !host.buf<6x15xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[W1I:.*]] = host.shard_by_stream %[[W1]][%[[I]]] axis = 1 chunks = 3 : !host.buf<3x15xf32> -> !host.view<3x5xf32, strides = [15, 1]>
// CHECK-NEXT:      %[[TI:.*]] = host.shard_by_stream %[[T]][%[[I]]] axis = 1 chunks = 3 : !host.buf<6x15xf32> -> !host.view<6x5xf32, strides = [15, 1]>
// CHECK-NEXT:      host.matmul %[[INP]], %[[W1I]] into %[[TI]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[OUT:.*]] = host.alloc() : !host.buf<6x3xf32>
// CHECK-NEXT:    host.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[TJ:.*]] = host.shard_by_stream %[[T]][%[[J]]] axis = 0 chunks = 3 : !host.buf<6x15xf32> -> !host.view<2x15xf32, strides = [15, 1]>
// CHECK-NEXT:      %[[OJ:.*]] = host.shard_by_stream %[[OUT]][%[[J]]] axis = 0 chunks = 3
// CHECK-NEXT:      host.matmul %[[TJ]], %[[W2]] into %[[OJ]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[OUT]]
fusion.mesh @one = [0]
func.func @two_matmuls_not_inlinable(
    %inp: tensor<6x3xf32, #fusion.shard<@one, [[], []]>>,
    %w1: tensor<3x15xf32, #fusion.shard<@one, [[], [Stream(3)]]>>,
    %w2: tensor<15x3xf32, #fusion.shard<@one, [[], []]>>)
    -> tensor<6x3xf32, #fusion.shard<@one, [[Stream(3)], []]>> {
  %t = fusion.matmul %inp, %w1
      : (tensor<6x3xf32, #fusion.shard<@one, [[], []]>>, tensor<3x15xf32, #fusion.shard<@one, [[], [Stream(3)]]>>)
      -> tensor<6x15xf32, #fusion.shard<@one, [[], [Stream(3)]]>>
  %o = fusion.matmul %t, %w2
      : (tensor<6x15xf32, #fusion.shard<@one, [[], [Stream(3)]]>>, tensor<15x3xf32, #fusion.shard<@one, [[], []]>>)
      -> tensor<6x3xf32, #fusion.shard<@one, [[Stream(3)], []]>>
  return %o : tensor<6x3xf32, #fusion.shard<@one, [[Stream(3)], []]>>
}

// -----

// Row-parallel linear on 1 device(s) (test_row_parallel_linear_forward, decomposed): ONE loop;
// the local linear writes a per-iteration 2x4 partial, the allreduce writes a view of the
// output allocated before the loop, then waits.
// CHECK-LABEL: func.func @row_parallel_linear_d1
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<6x16xf32> {{.*}}, %[[W:[^:]*]]: !host.buf<4x16xf32>
// CHECK-SAME:    -> (!host.buf<6x4xf32> {{.*}})
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<6x4xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream %[[X]][%[[I]]] axis = 0 chunks = 3 : !host.buf<6x16xf32> -> !host.view<2x16xf32, strides = [16, 1]>
// CHECK-NEXT:      %[[L:.*]] = host.alloc() : !host.buf<2x4xf32>
// CHECK-NEXT:      host.linear %[[XI]], %[[W]] into %[[L]]
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]] axis = 0 chunks = 3 : !host.buf<6x4xf32> -> !host.view<2x4xf32, strides = [4, 1]>
// CHECK-NEXT:      %[[R:.*]] = comm.allreduce sum %[[L]] into %[[YI]] team = [0]
// CHECK-NEXT:      comm.wait %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Y]]
fusion.mesh @tp = [0]
func.func @row_parallel_linear_d1(
    %x: tensor<6x16xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,
    %w: tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %l = fusion.linear %x, %w
      : (tensor<6x16xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
      -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>
  %y = fusion.sum %l dims = []
      : (tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>)
      -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %y : tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
}

// -----

// Row-parallel linear on 2 device(s) (test_row_parallel_linear_forward, decomposed): ONE loop;
// the local linear writes a per-iteration 2x4 partial, the allreduce writes a view of the
// output allocated before the loop, then waits.
// CHECK-LABEL: func.func @row_parallel_linear_d2
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<6x8xf32> {{.*}}, %[[W:[^:]*]]: !host.buf<4x8xf32>
// CHECK-SAME:    -> (!host.buf<6x4xf32> {{.*}})
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<6x4xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream %[[X]][%[[I]]] axis = 0 chunks = 3 : !host.buf<6x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
// CHECK-NEXT:      %[[L:.*]] = host.alloc() : !host.buf<2x4xf32>
// CHECK-NEXT:      host.linear %[[XI]], %[[W]] into %[[L]]
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]] axis = 0 chunks = 3 : !host.buf<6x4xf32> -> !host.view<2x4xf32, strides = [4, 1]>
// CHECK-NEXT:      %[[R:.*]] = comm.allreduce sum %[[L]] into %[[YI]] team = [0, 1]
// CHECK-NEXT:      comm.wait %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Y]]
fusion.mesh @tp = [0, 1]
func.func @row_parallel_linear_d2(
    %x: tensor<6x16xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,
    %w: tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %l = fusion.linear %x, %w
      : (tensor<6x16xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
      -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>
  %y = fusion.sum %l dims = []
      : (tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>)
      -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %y : tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
}

// -----

// Row-parallel linear on 4 device(s) (test_row_parallel_linear_forward, decomposed): ONE loop;
// the local linear writes a per-iteration 2x4 partial, the allreduce writes a view of the
// output allocated before the loop, then waits.
// CHECK-LABEL: func.func @row_parallel_linear_d4
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<6x4xf32> {{.*}}, %[[W:[^:]*]]: !host.buf<4x4xf32>
// CHECK-SAME:    -> (!host.buf<6x4xf32> {{.*}})
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<6x4xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream %[[X]][%[[I]]] axis = 0 chunks = 3 : !host.buf<6x4xf32> -> !host.view<2x4xf32, strides = [4, 1]>
// CHECK-NEXT:      %[[L:.*]] = host.alloc() : !host.buf<2x4xf32>
// CHECK-NEXT:      host.linear %[[XI]], %[[W]] into %[[L]]
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]] axis = 0 chunks = 3 : !host.buf<6x4xf32> -> !host.view<2x4xf32, strides = [4, 1]>
// CHECK-NEXT:      %[[R:.*]] = comm.allreduce sum %[[L]] into %[[YI]] team = [0, 1, 2, 3]
// CHECK-NEXT:      comm.wait %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Y]]
fusion.mesh @tp = [0, 1, 2, 3]
func.func @row_parallel_linear_d4(
    %x: tensor<6x16xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,
    %w: tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %l = fusion.linear %x, %w
      : (tensor<6x16xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
      -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>
  %y = fusion.sum %l dims = []
      : (tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>)
      -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %y : tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
}

// -----

// Row-parallel linear on 8 device(s) (test_row_parallel_linear_forward, decomposed): ONE loop;
// the local linear writes a per-iteration 2x4 partial, the allreduce writes a view of the
// output allocated before the loop, then waits.
// CHECK-LABEL: func.func @row_parallel_linear_d8
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<6x2xf32> {{.*}}, %[[W:[^:]*]]: !host.buf<4x2xf32>
// CHECK-SAME:    -> (!host.buf<6x4xf32> {{.*}})
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<6x4xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream %[[X]][%[[I]]] axis = 0 chunks = 3 : !host.buf<6x2xf32> -> !host.view<2x2xf32, strides = [2, 1]>
// CHECK-NEXT:      %[[L:.*]] = host.alloc() : !host.buf<2x4xf32>
// CHECK-NEXT:      host.linear %[[XI]], %[[W]] into %[[L]]
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]] axis = 0 chunks = 3 : !host.buf<6x4xf32> -> !host.view<2x4xf32, strides = [4, 1]>
// CHECK-NEXT:      %[[R:.*]] = comm.allreduce sum %[[L]] into %[[YI]] team = [0, 1, 2, 3, 4, 5, 6, 7]
// CHECK-NEXT:      comm.wait %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Y]]
fusion.mesh @tp = [0, 1, 2, 3, 4, 5, 6, 7]
func.func @row_parallel_linear_d8(
    %x: tensor<6x16xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,
    %w: tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %l = fusion.linear %x, %w
      : (tensor<6x16xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
      -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>
  %y = fusion.sum %l dims = []
      : (tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>)
      -> tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %y : tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
}

// -----

// The examples/row_parallel_linear.mlir program, decomposed, with a bias added after the
// reduction: the allreduce result is only used in the loop (per-iteration buffer) and the add
// joins the loop too.
// CHECK-LABEL: func.func @row_parallel_linear_bias
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<48x64xbf16> {{.*}}, %[[W:[^:]*]]: !host.buf<64x64xbf16> {{.*}}, %[[BIAS:[^:]*]]: !host.buf<48x64xbf16>
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<48x64xbf16>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream %[[X]][%[[I]]] axis = 0 chunks = 3 : !host.buf<48x64xbf16> -> !host.view<16x64xbf16, strides = [64, 1]>
// CHECK-NEXT:      %[[L:.*]] = host.alloc() : !host.buf<16x64xbf16>
// CHECK-NEXT:      host.linear %[[XI]], %[[W]] into %[[L]]
// CHECK-NEXT:      %[[S:.*]] = host.alloc() : !host.buf<16x64xbf16>
// CHECK-NEXT:      %[[R:.*]] = comm.allreduce sum %[[L]] into %[[S]] team = [0, 1, 2, 3]
// CHECK-NEXT:      comm.wait %[[R]]
// CHECK-NEXT:      %[[BI:.*]] = host.shard_by_stream %[[BIAS]][%[[I]]] axis = 0 chunks = 3
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]] axis = 0 chunks = 3
// CHECK-NEXT:      host.elementwise add %[[S]], %[[BI]] into %[[YI]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Y]]
fusion.mesh @tp = [0, 1, 2, 3]
func.func @row_parallel_linear_bias(
    %x: tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,
    %w: tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>,
    %bias: tensor<48x64xbf16, #fusion.shard<@tp, [[], []]>>)
    -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %l = fusion.linear %x, %w
      : (tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>)
      -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>
  %s = fusion.sum %l dims = []
      : (tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []], partial = [DIDx]>>)
      -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
  %y = fusion.add %s, %bias
      : (tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>, tensor<48x64xbf16, #fusion.shard<@tp, [[], []]>>)
      -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %y : tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
}

// -----

// A set whose result streams a non-outermost axis (SingleSetOpNonOutermost): a copy between two
// strided views per iteration.
// CHECK-LABEL: func.func @set_stream_not_outermost
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<4x8xf32>
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream %[[X]][%[[I]]] axis = 1 chunks = 2 : !host.buf<4x8xf32> -> !host.view<4x4xf32, strides = [8, 1]>
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]] axis = 1 chunks = 2 : !host.buf<4x8xf32> -> !host.view<4x4xf32, strides = [8, 1]>
// CHECK-NEXT:      host.copy %[[XI]], %[[YI]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Y]]
fusion.mesh @one = [0]
func.func @set_stream_not_outermost(%x: tensor<4x8xf32, #fusion.shard<@one, [[], []]>>)
    -> tensor<4x8xf32, #fusion.shard<@one, [[], [Stream(2)]]>> {
  %y = fusion.set %x : (tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[], [Stream(2)]]>>
  return %y : tensor<4x8xf32, #fusion.shard<@one, [[], [Stream(2)]]>>
}

// -----

// Reduction of the innermost axis with the stream on axis 0 (HirLowerStreamTest.Reduction).
// CHECK-LABEL: func.func @reduction
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<4x8x2xf32>
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream %[[X]][%[[I]]] axis = 0 chunks = 2 : !host.buf<4x8x2xf32> -> !host.view<2x8x2xf32, strides = [16, 2, 1]>
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]] axis = 0 chunks = 2
// CHECK-NEXT:      host.sum %[[XI]] into %[[YI]] dims = [2]
// CHECK-NEXT:    }
fusion.mesh @one = [0]
func.func @reduction(%x: tensor<4x8x2xf32, #fusion.shard<@one, [[Stream(2)], [], []]>>)
    -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], []]>> {
  %y = fusion.sum %x dims = [2] : (tensor<4x8x2xf32, #fusion.shard<@one, [[Stream(2)], [], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], []]>>
  return %y : tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], []]>>
}

// -----

// Batched matmul with the stream on the batch axis (HirLowerStreamTest.BatchedMatmul).
// CHECK-LABEL: func.func @batched_matmul
// CHECK-SAME:    (%[[A:[^:]*]]: !host.buf<16x8x4xf32> {{.*}}, %[[B:[^:]*]]: !host.buf<4x2xf32>
// CHECK:         %[[C:.*]] = host.alloc() : !host.buf<16x8x2xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[AI:.*]] = host.shard_by_stream %[[A]][%[[I]]] axis = 0 chunks = 4 : !host.buf<16x8x4xf32> -> !host.view<4x8x4xf32, strides = [32, 4, 1]>
// CHECK-NEXT:      %[[CI:.*]] = host.shard_by_stream %[[C]][%[[I]]] axis = 0 chunks = 4 : !host.buf<16x8x2xf32> -> !host.view<4x8x2xf32, strides = [16, 2, 1]>
// CHECK-NEXT:      host.matmul %[[AI]], %[[B]] into %[[CI]]
// CHECK-NEXT:    }
fusion.mesh @one = [0]
func.func @batched_matmul(%a: tensor<16x8x4xf32, #fusion.shard<@one, [[Stream(4)], [], []]>>,
                          %b: tensor<4x2xf32, #fusion.shard<@one, [[], []]>>)
    -> tensor<16x8x2xf32, #fusion.shard<@one, [[Stream(4)], [], []]>> {
  %c = fusion.matmul %a, %b
      : (tensor<16x8x4xf32, #fusion.shard<@one, [[Stream(4)], [], []]>>, tensor<4x2xf32, #fusion.shard<@one, [[], []]>>)
      -> tensor<16x8x2xf32, #fusion.shard<@one, [[Stream(4)], [], []]>>
  return %c : tensor<16x8x2xf32, #fusion.shard<@one, [[Stream(4)], [], []]>>
}

// -----

// Matmul_M and Matmul_N: the stream on M shards `a` (axis 0), the stream on N shards `b`
// (axis 1); the other operand is used whole. Unannotated tensors are replicated.
// CHECK-LABEL: func.func @matmul_m
// CHECK-SAME:    (%[[A:[^:]*]]: !host.buf<4x8xf32> {fusion.global_type = tensor<4x8xf32>}, %[[B:[^:]*]]: !host.buf<8x6xf32> {fusion.global_type = tensor<8x6xf32>})
// CHECK:         host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[AI:.*]] = host.shard_by_stream %[[A]][%[[I]]] axis = 0 chunks = 2 : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
// CHECK-NEXT:      %[[CI:.*]] = host.shard_by_stream %{{.*}}[%[[I]]] axis = 0 chunks = 2
// CHECK-NEXT:      host.matmul %[[AI]], %[[B]] into %[[CI]]
// CHECK-LABEL: func.func @matmul_n
// CHECK-SAME:    (%[[A:[^:]*]]: !host.buf<4x8xf32> {{.*}}, %[[B:[^:]*]]: !host.buf<8x6xf32>
// CHECK:         host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[BI:.*]] = host.shard_by_stream %[[B]][%[[I]]] axis = 1 chunks = 2 : !host.buf<8x6xf32> -> !host.view<8x3xf32, strides = [6, 1]>
// CHECK-NEXT:      %[[CI:.*]] = host.shard_by_stream %{{.*}}[%[[I]]] axis = 1 chunks = 2
// CHECK-NEXT:      host.matmul %[[A]], %[[BI]] into %[[CI]]
fusion.mesh @one = [0]
func.func @matmul_m(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<4x6xf32, #fusion.shard<@one, [[Stream(2)], []]>> {
  %c = fusion.matmul %a, %b : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32, #fusion.shard<@one, [[Stream(2)], []]>>
  return %c : tensor<4x6xf32, #fusion.shard<@one, [[Stream(2)], []]>>
}
func.func @matmul_n(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<4x6xf32, #fusion.shard<@one, [[], [Stream(2)]]>> {
  %c = fusion.matmul %a, %b : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32, #fusion.shard<@one, [[], [Stream(2)]]>>
  return %c : tensor<4x6xf32, #fusion.shard<@one, [[], [Stream(2)]]>>
}

// -----

// Communications outside any loop: an allgather of rows and an allreduce (max) of a partial.
// CHECK-LABEL: func.func @comm_outside_loops
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<4x4xf32> {{.*}}, %[[P:[^:]*]]: !host.buf<8x4xf32>
// CHECK-NOT:     host.for
// CHECK:         %[[G:.*]] = host.alloc() : !host.buf<8x4xf32>
// CHECK-NEXT:    %[[R:.*]] = comm.allgather %[[X]] into %[[G]] team = [0, 1] : !host.buf<4x4xf32>, !host.buf<8x4xf32>
// CHECK-NEXT:    comm.wait %[[R]]
// CHECK-NEXT:    %[[S:.*]] = host.alloc() : !host.buf<8x4xf32>
// CHECK-NEXT:    %[[R2:.*]] = comm.allreduce max %[[P]] into %[[S]] team = [0, 1]
// CHECK-NEXT:    comm.wait %[[R2]]
// CHECK-NEXT:    return %[[G]], %[[S]]
fusion.mesh @tp = [0, 1]
func.func @comm_outside_loops(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                              %p: tensor<8x4xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>)
    -> (tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>) {
  %y = fusion.set %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>
  %s = fusion.sum %p dims = [] : (tensor<8x4xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>
  return %y, %s : tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>
}

// -----

// Replicated → split: no communication, each rank copies its block at (rank - 4) · 2 (the
// mesh starts at device 4). Partial → split on an inner axis whose outer extent is 1: a
// reduce_scatter on views without the unit axis.
// CHECK-LABEL: func.func @slice_and_reduce_scatter
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<8x4xf32> {{.*}}, %[[P:[^:]*]]: !host.buf<1x8x4xf32>
// CHECK-SAME:    -> (!host.buf<8x2xf32> {{.*}}, !host.buf<1x4x4xf32>
// CHECK-DAG:     %[[RANK:.*]] = host.rank : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<8x2xf32>
// CHECK-NEXT:    %[[T:.*]] = arith.subi %[[RANK]], %[[C4]] : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[T]], %[[C2]] : index
// CHECK-NEXT:    %[[V:.*]] = host.slice %[[X]][0, %[[OFF]]] [8, 2] [1, 1] : !host.buf<8x4xf32> -> !host.view<8x2xf32, strides = [4, 1]>
// CHECK-NEXT:    host.copy %[[V]], %[[Y]]
// CHECK-NEXT:    %[[Q:.*]] = host.alloc() : !host.buf<1x4x4xf32>
// CHECK-NEXT:    %[[PI:.*]] = host.select %[[P]][%[[C0]]] axis = 0 : !host.buf<1x8x4xf32> -> !host.view<8x4xf32, strides = [4, 1]>
// CHECK-NEXT:    %[[QI:.*]] = host.select %[[Q]][%[[C0]]] axis = 0 : !host.buf<1x4x4xf32> -> !host.view<4x4xf32, strides = [4, 1]>
// CHECK-NEXT:    %[[R:.*]] = comm.reduce_scatter max %[[PI]] into %[[QI]] team = [4, 5]
// CHECK-NEXT:    comm.wait %[[R]]
// CHECK-NEXT:    return %[[Y]], %[[Q]]
fusion.mesh @tp = [4, 5]
func.func @slice_and_reduce_scatter(%x: tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>,
                                    %p: tensor<1x8x4xf32, #fusion.shard<@tp, [[], [], []], partial = [DIDx], reduce = max>>)
    -> (tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<1x8x4xf32, #fusion.shard<@tp, [[], [DIDx], []]>>) {
  %y = fusion.set %x : (tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %q = fusion.sum %p dims = [] : (tensor<1x8x4xf32, #fusion.shard<@tp, [[], [], []], partial = [DIDx], reduce = max>>) -> tensor<1x8x4xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
  return %y, %q : tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<1x8x4xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
}

// -----

// An allgather per stream chunk where the chunks are columns: the input view is copied into a
// contiguous buffer, the gathered chunk lands in a contiguous buffer copied back into the
// output view after the wait.
// CHECK-LABEL: func.func @allgather_noncontiguous_chunks
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<2x8xf32>
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XI:.*]] = host.shard_by_stream %[[X]][%[[I]]] axis = 1 chunks = 2 : !host.buf<2x8xf32> -> !host.view<2x4xf32, strides = [8, 1]>
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]] axis = 1 chunks = 2 : !host.buf<4x8xf32> -> !host.view<4x4xf32, strides = [8, 1]>
// CHECK-NEXT:      %[[IN:.*]] = host.alloc() : !host.buf<2x4xf32>
// CHECK-NEXT:      host.copy %[[XI]], %[[IN]]
// CHECK-NEXT:      %[[OUT:.*]] = host.alloc() : !host.buf<4x4xf32>
// CHECK-NEXT:      %[[R:.*]] = comm.allgather %[[IN]] into %[[OUT]] team = [0, 1] : !host.buf<2x4xf32>, !host.buf<4x4xf32>
// CHECK-NEXT:      comm.wait %[[R]]
// CHECK-NEXT:      host.copy %[[OUT]], %[[YI]]
// CHECK-NEXT:    }
fusion.mesh @tp = [0, 1]
func.func @allgather_noncontiguous_chunks(%x: tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], [Stream(2)]]>>)
    -> tensor<4x8xf32, #fusion.shard<@tp, [[], [Stream(2)]]>> {
  %y = fusion.set %x : (tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], [Stream(2)]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>
  return %y : tensor<4x8xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>
}

// -----

// An op without a stream split between two stream ops closes the loop
// (ThreeSetOpsWithDisjointsForLoops): loop, top-level op, loop.
// CHECK-LABEL: func.func @disjoint_loops
// CHECK:         %[[A:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    host.for
// CHECK:           host.elementwise neg
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[B:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    host.elementwise add %[[A]], %[[A]] into %[[B]] : !host.buf<4x8xf32>, !host.buf<4x8xf32>, !host.buf<4x8xf32>
// CHECK-NEXT:    %[[C:.*]] = host.alloc() : !host.buf<4x8xbf16>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[BI:.*]] = host.shard_by_stream %[[B]][%[[I]]] axis = 0 chunks = 2
// CHECK-NEXT:      %[[CI:.*]] = host.shard_by_stream %[[C]][%[[I]]] axis = 0 chunks = 2
// CHECK-NEXT:      host.elementwise cast %[[BI]] into %[[CI]] : !host.view<2x8xf32, strides = [8, 1]>, !host.view<2x8xbf16, strides = [8, 1]>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[C]]
fusion.mesh @one = [0]
func.func @disjoint_loops(%x: tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], []]>>)
    -> tensor<4x8xbf16, #fusion.shard<@one, [[Stream(2)], []]>> {
  %a = fusion.neg %x : (tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], []]>>
  %b = fusion.add %a, %a : (tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], []]>>, tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[], []]>>
  %c = fusion.cast %b : (tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> tensor<4x8xbf16, #fusion.shard<@one, [[Stream(2)], []]>>
  return %c : tensor<4x8xbf16, #fusion.shard<@one, [[Stream(2)], []]>>
}

// -----

// Column-parallel linear (examples/column_parallel_linear.mlir): the rows split over DIDx
// become 4 stream chunks; chunk i is rank i's block, broadcast from root i into a
// per-iteration buffer, then multiplied by the whole weight.
// CHECK-LABEL: func.func @column_parallel_linear
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<16x128xbf16> {{.*}}, %[[W:[^:]*]]: !host.buf<96x128xbf16>
// CHECK-SAME:    -> (!host.buf<64x96xbf16>
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<64x96xbf16>
// CHECK-NEXT:    host.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XG:.*]] = host.alloc() : !host.buf<16x128xbf16>
// CHECK-NEXT:      %[[R:.*]] = comm.broadcast %[[X]] into %[[XG]] root %[[I]] team = [0, 1, 2, 3] : !host.buf<16x128xbf16>, !host.buf<16x128xbf16>
// CHECK-NEXT:      comm.wait %[[R]]
// CHECK-NEXT:      %[[YI:.*]] = host.shard_by_stream %[[Y]][%[[I]]] axis = 0 chunks = 4 : !host.buf<64x96xbf16> -> !host.view<16x96xbf16, strides = [96, 1]>
// CHECK-NEXT:      host.linear %[[XG]], %[[W]] into %[[YI]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Y]]
fusion.mesh @tp = [0, 1, 2, 3]
func.func @column_parallel_linear(
    %x: tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>,
    %w: tensor<96x128xbf16, #fusion.shard<@tp, [[], []]>>)
    -> tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>> {
  %xg = fusion.set %x
      : (tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>)
      -> tensor<64x128xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>
  %y = fusion.linear %xg, %w
      : (tensor<64x128xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>,
         tensor<96x128xbf16, #fusion.shard<@tp, [[], []]>>)
      -> tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>
  return %y : tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>
}

// -----

// Layout ops are copies through layout views: broadcast through host.expand (stride 0),
// permute through host.permute, reshape through host.reshape of a contiguous source.
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @layout
// CHECK:         %[[P:.*]] = host.permute %arg0 dims = [1, 0] : !host.buf<4x6xf32> -> !host.view<6x4xf32, strides = [1, 6]>
// CHECK-NEXT:    host.copy %[[P]], %{{.*}} : !host.view<6x4xf32, strides = [1, 6]>, !host.buf<6x4xf32>
// CHECK:         %[[E:.*]] = host.expand %arg1 dims = [0] : !host.buf<4xf32> -> !host.view<6x4xf32, strides = [0, 1]>
// CHECK-NEXT:    host.copy %[[E]], %{{.*}}
// CHECK:         %[[R:.*]] = host.reshape %arg0 : !host.buf<4x6xf32> -> !host.view<2x12xf32, strides = [12, 1]>
// CHECK-NEXT:    host.copy %[[R]], %{{.*}}
func.func @layout(%a: tensor<8x6xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>) -> (tensor<6x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<6x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<4x12xf32, #fusion.shard<@tp, [[DIDx], []]>>) {
  %p = fusion.permute %a dims = [1, 0] : (tensor<8x6xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<6x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %bb = fusion.broadcast %b dims = [0] : (tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<6x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %r = fusion.reshape %a : (tensor<8x6xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x12xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %p, %bb, %r : tensor<6x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<6x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<4x12xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

// -----

// Rows → columns (a split moving from axis 0 to axis 1) is one comm.all_to_all: block j of the
// local columns is staged as send block j through a reshape + permute view; the received
// blocks are the output's row blocks (axis 0 again: no permute on that side).
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @rows_to_columns
// CHECK-SAME:    (%arg0: !host.buf<2x8xf32>
// CHECK:         %[[OUT:.*]] = host.alloc() : !host.buf<4x4xf32>
// CHECK:         %[[SEND:.*]] = host.alloc() : !host.buf<2x2x4xf32>
// CHECK:         %[[RECV:.*]] = host.alloc() : !host.buf<2x2x4xf32>
// CHECK:         %[[R:.*]] = host.reshape %arg0 : !host.buf<2x8xf32> -> !host.view<2x2x4xf32, strides = [8, 4, 1]>
// CHECK-NEXT:    %[[P:.*]] = host.permute %[[R]] dims = [1, 0, 2] : !host.view<2x2x4xf32, strides = [8, 4, 1]> -> !host.view<2x2x4xf32, strides = [4, 8, 1]>
// CHECK-NEXT:    host.copy %[[P]], %[[SEND]]
// CHECK-NEXT:    %[[REQ:.*]] = comm.all_to_all %[[SEND]] into %[[RECV]] team = [0, 1] : !host.buf<2x2x4xf32>, !host.buf<2x2x4xf32>
// CHECK-NEXT:    comm.wait %[[REQ]]
// CHECK-NEXT:    %[[BLOCKS:.*]] = host.reshape %[[OUT]] : !host.buf<4x4xf32> -> !host.view<2x2x4xf32, strides = [8, 4, 1]>
// CHECK-NEXT:    host.copy %[[RECV]], %[[BLOCKS]]
func.func @rows_to_columns(%x: tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>> {
  %y = fusion.set %x : (tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  return %y : tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
}

// -----

// A sum with keep_dims writes through a view of its result without the reduced axes (a select
// of index 0 per axis, innermost first).
fusion.mesh @one = [0]
// CHECK-LABEL: func.func @sum_keep_dims
// CHECK:         %[[OUT:.*]] = host.alloc() : !host.buf<4x1x1xf32>
// CHECK-NEXT:    %[[V2:.*]] = host.select %[[OUT]][%{{.*}}] axis = 2 : !host.buf<4x1x1xf32> -> !host.view<4x1xf32, strides = [1, 1]>
// CHECK-NEXT:    %[[V1:.*]] = host.select %[[V2]][%{{.*}}] axis = 1 : !host.view<4x1xf32, strides = [1, 1]> -> !host.view<4xf32, strides = [1]>
// CHECK-NEXT:    host.sum %arg0 into %[[V1]] dims = [1, 2]
func.func @sum_keep_dims(%x: tensor<4x6x8xf32>) -> tensor<4x1x1xf32> {
  %y = fusion.sum %x dims = [1, 2] keep_dims : (tensor<4x6x8xf32>) -> tensor<4x1x1xf32>
  return %y : tensor<4x1x1xf32>
}

// -----

// Allgather on an inner axis (axis 0 has local extent 4, so a rank's block is not contiguous):
// gathered on a new leading axis into a [d, 4, 4] staging buffer, then copied into the output
// through its view with axis 1 as (d, 4), d first.
// CHECK-LABEL: func.func @inner_axis_allgather
// CHECK-SAME:    (%[[X:[^:]*]]: !host.buf<4x4xf32>
// CHECK:         %[[Y:.*]] = host.alloc() : !host.buf<4x8xf32>
// CHECK-NEXT:    %[[T:.*]] = host.alloc() : !host.buf<2x4x4xf32>
// CHECK-NEXT:    %[[R:.*]] = comm.allgather %[[X]] into %[[T]] team = [0, 1] : !host.buf<4x4xf32>, !host.buf<2x4x4xf32>
// CHECK-NEXT:    comm.wait %[[R]]
// CHECK-NEXT:    %[[S:.*]] = host.reshape %[[Y]] : !host.buf<4x8xf32> -> !host.view<4x2x4xf32, strides = [8, 4, 1]>
// CHECK-NEXT:    %[[V:.*]] = host.permute %[[S]] dims = [1, 0, 2] : !host.view<4x2x4xf32, strides = [8, 4, 1]> -> !host.view<2x4x4xf32, strides = [4, 8, 1]>
// CHECK-NEXT:    host.copy %[[T]], %[[V]]
// CHECK-NEXT:    return %[[Y]]
fusion.mesh @tp = [0, 1]
func.func @inner_axis_allgather(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []]>> {
  %y = fusion.set %x : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>
}

// -----

// Reduce-scatter onto an inner axis ([B, S, E] with B = 2 > 1, scattered on S): the partial is
// copied through its view with S as (d, S/d), d first, into a [d, B, S/d, E] staging buffer,
// whose leading-axis reduce-scatter is the local result.
// CHECK-LABEL: func.func @inner_axis_reduce_scatter
// CHECK-SAME:    (%[[P:[^:]*]]: !host.buf<2x8x4xf32>
// CHECK:         %[[Q:.*]] = host.alloc() : !host.buf<2x4x4xf32>
// CHECK-NEXT:    %[[T:.*]] = host.alloc() : !host.buf<2x2x4x4xf32>
// CHECK-NEXT:    %[[S:.*]] = host.reshape %[[P]] : !host.buf<2x8x4xf32> -> !host.view<2x2x4x4xf32, strides = [32, 16, 4, 1]>
// CHECK-NEXT:    %[[V:.*]] = host.permute %[[S]] dims = [1, 0, 2, 3] : {{.*}} -> !host.view<2x2x4x4xf32, strides = [16, 32, 4, 1]>
// CHECK-NEXT:    host.copy %[[V]], %[[T]]
// CHECK-NEXT:    %[[R:.*]] = comm.reduce_scatter sum %[[T]] into %[[Q]] team = [0, 1] : !host.buf<2x2x4x4xf32>, !host.buf<2x4x4xf32>
// CHECK-NEXT:    comm.wait %[[R]]
// CHECK-NEXT:    return %[[Q]]
fusion.mesh @tp = [0, 1]
func.func @inner_axis_reduce_scatter(%p: tensor<2x8x4xf32, #fusion.shard<@tp, [[], [], []], partial = [DIDx]>>) -> tensor<2x8x4xf32, #fusion.shard<@tp, [[], [DIDx], []]>> {
  %q = fusion.sum %p dims = [] : (tensor<2x8x4xf32, #fusion.shard<@tp, [[], [], []], partial = [DIDx]>>) -> tensor<2x8x4xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
  return %q : tensor<2x8x4xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
}
