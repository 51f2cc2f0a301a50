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
