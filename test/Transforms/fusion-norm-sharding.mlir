// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding))' | FileCheck %s

// The sharding rules of fusion.layer_norm and fusion.rms_norm: the leading axes map to y's
// (a sequence-parallel norm is local), the statistics get y's splits on their leading axes,
// the normalized axes are read whole (no split propagates onto them; a split there is
// gathered first, and a split wanted on y's normalized axis is a slice after the norm).

// CHECK-LABEL: func.func @forward
// CHECK-SAME: %arg1: tensor<16xf32, #fusion.shard<@tp, {{\[\[}}]]>>
// CHECK-NEXT: fusion.rms_norm %arg0 weight %arg1 dims = [2] : (tensor<2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx], []]>>, tensor<16xf32, #fusion.shard<@tp, {{\[\[}}]]>>) -> (tensor<2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx], []]>>, tensor<2x8xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx]]>>)
// CHECK-NOT: fusion.set
fusion.mesh @tp = [0, 1]
func.func @forward(%x: tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, %w: tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8xf32>) {
  %y, %r = fusion.rms_norm %x weight %w dims = [2] : (tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8xf32>)
  return %y, %r : tensor<2x8x16xf32>, tensor<2x8xf32>
}

// -----

// Backward: a stream split of y's sequence axis reaches x; y's hidden split does not (the
// norm computes whole rows, then a set slices them).
// CHECK-LABEL: func.func @backward
// CHECK-SAME: %arg0: tensor<2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [Stream(2)], []]>>
// CHECK-NEXT: %[[Y:.*]] = fusion.layer_norm %arg0 dims = [2] : (tensor<2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [Stream(2)], []]>>) -> tensor<2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [Stream(2)], []]>>
// CHECK-NEXT: fusion.set %[[Y]] : (tensor<2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [Stream(2)], []]>>) -> tensor<2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [Stream(2)], [DIDx]]>>
fusion.mesh @tp = [0, 1]
func.func @backward(%x: tensor<2x8x16xf32>) -> tensor<2x8x16xf32, #fusion.shard<@tp, [[], [Stream(2)], [DIDx]]>> {
  %y = fusion.layer_norm %x dims = [2] : (tensor<2x8x16xf32>) -> tensor<2x8x16xf32, #fusion.shard<@tp, [[], [Stream(2)], [DIDx]]>>
  return %y : tensor<2x8x16xf32, #fusion.shard<@tp, [[], [Stream(2)], [DIDx]]>>
}

// -----

// A weight split over DIDx is gathered before the norm (its axes are the normalized ones);
// x's rows stay split (a leading axis), y is gathered after.
// CHECK-LABEL: func.func @gathered
// CHECK-NEXT: %[[W:.*]] = fusion.set %arg1 : (tensor<16xf32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>) -> tensor<16xf32, #fusion.shard<@tp, {{\[\[}}]]>>
// CHECK-NEXT: %[[Y:.*]] = fusion.layer_norm %arg0 weight %[[W]] dims = [1] : (tensor<4x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>, tensor<16xf32, #fusion.shard<@tp, {{\[\[}}]]>>) -> tensor<4x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK-NEXT: fusion.set %[[Y]] : (tensor<4x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<4x16xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
fusion.mesh @tp = [0, 1]
func.func @gathered(%x: tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<16xf32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<4x16xf32, #fusion.shard<@tp, [[], []]>> {
  %y = fusion.layer_norm %x weight %w dims = [1] : (tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<16xf32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>
}

// -----

// A partial input (a row-parallel linear's output) is reduced before the norm: not linear.
// CHECK-LABEL: func.func @partial_input
// CHECK-NEXT: %[[S:.*]] = fusion.sum %arg0 dims = [] : (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}], []], partial = [DIDx]>>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
// CHECK-NEXT: fusion.layer_norm %[[S]] dims = [1]
fusion.mesh @tp = [0, 1]
func.func @partial_input(%x: tensor<8x16xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>> {
  %y = fusion.layer_norm %x dims = [1] : (tensor<8x16xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
}

// -----

// Statistics annotated replicated while y stays split: gathered after the norm.
// CHECK-LABEL: func.func @stats_gathered
// CHECK-NEXT: %[[N:.*]]:3 = fusion.layer_norm %arg0 dims = [1] : (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>, tensor<8xf32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>)
// CHECK-DAG: fusion.set %[[N]]#1 : (tensor<8xf32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>) -> tensor<8xf32, #fusion.shard<@tp, {{\[\[}}]]>>
// CHECK-DAG: fusion.set %[[N]]#2 : (tensor<8xf32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>) -> tensor<8xf32, #fusion.shard<@tp, {{\[\[}}]]>>
fusion.mesh @tp = [0, 1]
func.func @stats_gathered(%x: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>) {
  %y, %m, %r = fusion.layer_norm %x dims = [1] : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>)
  return %y, %m, %r : tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>
}
