// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding))' | FileCheck %s

// nvFuser StreamTest.ForwardPropagation: w stream-split on N makes the matmul output
// stream-split on N; the returned value changes the signature too.
fusion.mesh @tp = [0]
// CHECK-LABEL: func.func @forward
// CHECK-SAME:  -> tensor<5x6xf32, #fusion.shard<@tp, {{\[\[}}], [Stream(2){{\]\]}}>>
// CHECK:       fusion.matmul {{.*}} -> tensor<5x6xf32, #fusion.shard<@tp, {{\[\[}}], [Stream(2){{\]\]}}>>
func.func @forward(%in: tensor<5x7xf32>, %w: tensor<7x6xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>) -> tensor<5x6xf32> {
  %0 = fusion.matmul %in, %w : (tensor<5x7xf32>, tensor<7x6xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}

// -----

// nvFuser StreamTest.BackwardPropagation: a stream-split output makes its producers and the
// function argument stream-split on the same axis.
fusion.mesh @tp = [0]
// CHECK-LABEL: func.func @backward
// CHECK-SAME:  (%arg0: tensor<4x8xf32, #fusion.shard<@tp, {{\[\[}}Stream(2)], [{{\]\]}}>>)
// CHECK:       fusion.neg %arg0 {{.*}} -> tensor<4x8xf32, #fusion.shard<@tp, {{\[\[}}Stream(2)], [{{\]\]}}>>
func.func @backward(%a: tensor<4x8xf32>) -> tensor<4x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %0 = fusion.neg %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = fusion.add %0, %0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %1 : tensor<4x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}

// -----

// Row-parallel linear: K split over DIDx on both operands makes the result partial over
// DIDx; the stream split of the rows carries over.
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @row_parallel
// CHECK:       fusion.linear {{.*}} -> tensor<48x64xbf16, #fusion.shard<@tp, {{\[\[}}Stream(3)], [{{\]\]}}, partial = [DIDx]>>
func.func @row_parallel(%x: tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, %w: tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x64xbf16> {
  %y = fusion.linear %x, %w : (tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x64xbf16>
  return %y : tensor<48x64xbf16>
}

// -----

// Matmul takes b's splits first, then a's kinds that are still missing.
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @matmul_order
// CHECK:       fusion.matmul {{.*}} -> tensor<8x6xf32, #fusion.shard<@tp, {{\[\[}}DIDx], [Stream(2){{\]\]}}>>
func.func @matmul_order(%a: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<4x6xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>) -> tensor<8x6xf32> {
  %0 = fusion.matmul %a, %b : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x6xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

// b's device split on N wins over a's on M (one device axis per tensor).
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @matmul_b_first
// CHECK:       fusion.matmul {{.*}} -> tensor<8x6xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx{{\]\]}}>>
func.func @matmul_b_first(%a: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<4x6xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x6xf32> {
  %0 = fusion.matmul %a, %b : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x6xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

// Summing over a device-split axis leaves a partial result.
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @sum_partial
// CHECK:       fusion.sum {{.*}} -> tensor<8xf32, #fusion.shard<@tp, {{\[\[\]\]}}, partial = [DIDx]>>
func.func @sum_partial(%a: tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8xf32> {
  %0 = fusion.sum %a dims = [1] : (tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Through reshape, a split follows the outermost axis of a group while it stays divisible;
// through permute it follows the axis.
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @layout
// CHECK:       fusion.reshape %arg0 {{.*}} -> tensor<24xf32, #fusion.shard<@tp, {{\[\[DIDx\]\]}}>>
// CHECK:       fusion.reshape %arg1 {{.*}} -> tensor<3x8xf32, #fusion.shard<@tp, {{\[\[}}Stream(3)], [{{\]\]}}>>
// CHECK:       fusion.reshape %arg2 {{.*}} -> tensor<2x12xf32, #fusion.shard<@tp, {{\[\[}}], [{{\]\]}}>>
// CHECK:       fusion.permute {{.*}} -> tensor<4x8xf32, #fusion.shard<@tp, {{\[\[}}Stream(2)], [DIDx{{\]\]}}>>
func.func @layout(%a: tensor<4x6xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>, %c: tensor<4x6xf32, #fusion.shard<@tp, [[DIDx], []]>>, %d: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], [Stream(2)]]>>) -> (tensor<24xf32>, tensor<3x8xf32>, tensor<2x12xf32>, tensor<4x8xf32>) {
  %0 = fusion.reshape %a : (tensor<4x6xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<24xf32>
  %1 = fusion.reshape %b : (tensor<6x4xf32, #fusion.shard<@tp, [[Stream(3)], []]>>) -> tensor<3x8xf32>
  // 4x6 -> 2x12 has no axis group that keeps DIDx (size 4) divisible: replicated.
  %2 = fusion.reshape %c : (tensor<4x6xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<2x12xf32>
  %3 = fusion.permute %d dims = [1, 0] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], [Stream(2)]]>>) -> tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<24xf32>, tensor<3x8xf32>, tensor<2x12xf32>, tensor<4x8xf32>
}

// -----

// User annotations are kept (the replicated neg result stays replicated even though its
// consumer is split); an unannotated argument stays replicated (its device sharding is the
// caller's contract) and becomes explicit.
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @kept
// CHECK-SAME:  (%arg0: tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}], [{{\]\]}}>>)
// CHECK:       fusion.neg {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}], [{{\]\]}}>>
// CHECK:       fusion.set {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], [{{\]\]}}>>
func.func @kept(%a: tensor<8x4xf32>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %0 = fusion.neg %a : (tensor<8x4xf32>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>
  %1 = fusion.set %0 : (tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %1 : tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

// -----

// An intermediate between two stream-split ops gets the split from both directions; the
// weight argument gets no device split from the output (arguments only receive Stream).
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @two_matmuls
// CHECK-SAME:  (%arg0: tensor<6x3xf32, #fusion.shard<@tp, {{\[\[}}Stream(3)], [{{\]\]}}>>, %arg1: tensor<3x5xf32, #fusion.shard<@tp, {{\[\[}}], [{{\]\]}}>>
// CHECK:       %[[T:.*]] = fusion.matmul %arg0, %arg1 {{.*}} -> tensor<6x5xf32, #fusion.shard<@tp, {{\[\[}}Stream(3)], [{{\]\]}}>>
// CHECK:       fusion.matmul %[[T]], %arg2 {{.*}} -> tensor<6x3xf32, #fusion.shard<@tp, {{\[\[}}Stream(3)], [{{\]\]}}>>
func.func @two_matmuls(%in: tensor<6x3xf32>, %w1: tensor<3x5xf32>, %w2: tensor<5x3xf32>) -> tensor<6x3xf32, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %0 = fusion.matmul %in, %w1 : (tensor<6x3xf32>, tensor<3x5xf32>) -> tensor<6x5xf32>
  %1 = fusion.matmul %0, %w2 : (tensor<6x5xf32>, tensor<5x3xf32>) -> tensor<6x3xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %1 : tensor<6x3xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
}

// -----

// Splits that refine one another are no conflict: with the same stream chunks, a
// sequence-split operand next to a partial one (the residual cotangent and a column-parallel
// dgrad in a stream-chunked backward) gives the result the finer [Stream(2), DIDx], in either
// operand order.
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @refines
// CHECK:       fusion.add %arg0, %arg1 {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}Stream(2), DIDx], [{{\]\]}}>>
// CHECK:       fusion.add %arg1, %arg0 {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}Stream(2), DIDx], [{{\]\]}}>>
func.func @refines(%a: tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, %b: tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2)], []], partial = [DIDx]>>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %0 = fusion.add %a, %b : (tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2)], []], partial = [DIDx]>>) -> tensor<8x4xf32>
  %1 = fusion.add %b, %a : (tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2)], []], partial = [DIDx]>>, tensor<8x4xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>) -> tensor<8x4xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// Without any mesh nothing changes.
// CHECK-LABEL: func.func @no_mesh
// CHECK:       fusion.neg {{.*}} -> tensor<4xf32>
func.func @no_mesh(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fusion.neg %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
