// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-decompose-resharding))' | FileCheck %s

// Row-parallel linear (nvFuser PR 5547): a local linear producing partial = [DIDx], then the
// sum over DIDx (an allreduce) to the replicated, still stream-split result.
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @row_parallel
// CHECK:       %[[L:.*]] = fusion.linear %arg0, %arg1 {{.*}} -> tensor<48x64xbf16, #fusion.shard<@tp, {{\[\[}}Stream(3)], []], partial = [DIDx]>>
// CHECK-NEXT:  %[[S:.*]] = fusion.sum %[[L]] dims = [] {{.*}} -> tensor<48x64xbf16, #fusion.shard<@tp, {{\[\[}}Stream(3)], [{{\]\]}}>>
// CHECK-NEXT:  return %[[S]]
func.func @row_parallel(%x: tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, %w: tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %y = fusion.linear %x, %w : (tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %y : tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
}

// -----

// With a bias: the bias is split off and added once, after the reduction.
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @row_parallel_bias
// CHECK:       %[[L:.*]] = fusion.linear %arg0, %arg1 :
// CHECK-SAME:  partial = [DIDx]
// CHECK-NEXT:  %[[S:.*]] = fusion.sum %[[L]] dims = []
// CHECK-NEXT:  %[[B:.*]] = fusion.broadcast %arg2 dims = [0]
// CHECK-NEXT:  %[[Y:.*]] = fusion.add %[[S]], %[[B]]
// CHECK-NEXT:  return %[[Y]]
func.func @row_parallel_bias(%x: tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, %w: tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>, %b: tensor<64xbf16, #fusion.shard<@tp, [[]]>>) -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %y = fusion.linear %x, %w, %b : (tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<64xbf16, #fusion.shard<@tp, [[]]>>) -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %y : tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
}

// -----

// An operand laid out differently from what the op needs gets a set before the op: here a's
// rows must be gathered because the result is split on N by the same device axis.
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @gather_operand
// CHECK:       %[[G:.*]] = fusion.set %arg0 {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}], [{{\]\]}}>>
// CHECK-NEXT:  fusion.matmul %[[G]], %arg1
func.func @gather_operand(%a: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[], [DIDx]]>> {
  %0 = fusion.matmul %a, %b : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  return %0 : tensor<8x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
}

// -----

// A replicated operand of a split elementwise op is sliced locally by a set.
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @slice_operand
// CHECK:       %[[S:.*]] = fusion.set %arg1 {{.*}} -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], [{{\]\]}}>>
// CHECK-NEXT:  fusion.add %arg0, %[[S]]
func.func @slice_operand(%a: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %0 = fusion.add %a, %b : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %0 : tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

// -----

// A partial operand is reduced before an elementwise op (sum does not distribute over neg's
// consumers in general, so nothing but a resharding point consumes a partial value).
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @partial_operand
// CHECK:       %[[R:.*]] = fusion.sum %arg0 dims = []
// CHECK-NEXT:  fusion.neg %[[R]]
func.func @partial_operand(%a: tensor<8xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>>) -> tensor<8xf32, #fusion.shard<@tp, [[]]>> {
  %0 = fusion.neg %a : (tensor<8xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>>) -> tensor<8xf32, #fusion.shard<@tp, [[]]>>
  return %0 : tensor<8xf32, #fusion.shard<@tp, [[]]>>
}

// -----

// Local ops and single-axis resharding points are left alone (the column-parallel example).
fusion.mesh @tp = [0, 1, 2, 3]
// CHECK-LABEL: func.func @column_parallel
// CHECK-NEXT:  fusion.set %arg0
// CHECK-NEXT:  fusion.linear
// CHECK-NEXT:  return
func.func @column_parallel(%x: tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<96x128xbf16, #fusion.shard<@tp, [[], []]>>) -> tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>> {
  %xg = fusion.set %x : (tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x128xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>
  %y = fusion.linear %xg, %w : (tensor<64x128xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>, tensor<96x128xbf16, #fusion.shard<@tp, [[], []]>>) -> tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>
  return %y : tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>
}

// -----

// The annotated stream chunks inside the operand's device split would not divide the result
// (`[Stream(4), DIDx]` of 4 rows on 2 devices; fuser-lowerfuzz seed 400782): the op computes
// in its annotated layout, its operand gathered before it.
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @stream_chunks_do_not_fit
// CHECK-NEXT:  %[[A:.*]] = fusion.set %arg0 : ({{.*}}) -> tensor<4x4xf32, #fusion.shard<@tp, {{\[\[}}], [{{\]\]}}>>
// CHECK-NEXT:  %[[Y:.*]] = fusion.matmul %[[A]], %arg1 : ({{.*}}) -> tensor<4x4xf32, #fusion.shard<@tp, {{\[\[}}Stream(4)], [{{\]\]}}>>
// CHECK-NEXT:  return %[[Y]]
func.func @stream_chunks_do_not_fit(%a: tensor<4x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<4x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>> {
  %0 = fusion.matmul %a, %b : (tensor<4x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>>
  return %0 : tensor<4x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>>
}
