// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding))' | FileCheck %s

// Slices keep the splits of the axes they take whole and drop those of the axes they cut: the
// rows (split) carry over, the cut columns do not.
fusion.mesh @tp = [[0, 1], [2, 3]]
// CHECK-LABEL: func.func @slice
// CHECK: fusion.slice {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK: fusion.slice {{.*}} -> tensor<4x48xf32, #fusion.shard<@tp, {{\[\[}}], [DIDy]]>>
func.func @slice(%x: tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>, %y: tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], [DIDy]]>>) -> (tensor<8x16xf32>, tensor<4x48xf32>) {
  %q = fusion.slice %x offsets = [0, 16] sizes = [8, 16] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32>
  %r = fusion.slice %y offsets = [2, 0] sizes = [4, 48] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], [DIDy]]>>) -> tensor<4x48xf32>
  return %q, %r : tensor<8x16xf32>, tensor<4x48xf32>
}

// -----

// A concat keeps the splits of the other axes and none on `dim`.
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @concat
// CHECK: fusion.concat {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK: fusion.concat {{.*}} -> tensor<16x8xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
func.func @concat(%a: tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> (tensor<8x16xf32>, tensor<16x8xf32>) {
  %c = fusion.concat %a, %a dim = 1 : (tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32>
  %d = fusion.concat %a, %a dim = 0 : (tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<16x8xf32>
  return %c, %d : tensor<8x16xf32>, tensor<16x8xf32>
}

// -----

// Vocab-parallel embedding: the table's vocabulary axis is contracted, so its DIDx split makes
// the rows a partial sum; a split of the embedding axis carries over to the last result axis,
// a split of the ids to the leading ones.
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @embedding
// CHECK: fusion.embedding {{.*}} -> tensor<4x6x16xf32, #fusion.shard<@tp, {{\[\[}}], [], []], partial = [DIDx]>>
// CHECK: fusion.embedding {{.*}} -> tensor<4x6x16xf32, #fusion.shard<@tp, {{\[\[}}], [], [DIDx]]>>
// CHECK: fusion.embedding {{.*}} -> tensor<4x6x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], [], []]>>
func.func @embedding(%t: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %u: tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>,
    %ids: tensor<4x6xi64>, %sids: tensor<4x6xi64, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<8x16xf32>)
    -> (tensor<4x6x16xf32>, tensor<4x6x16xf32>, tensor<4x6x16xf32>) {
  %a = fusion.embedding %t, %ids : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x6xi64>) -> tensor<4x6x16xf32>
  %b = fusion.embedding %u, %ids : (tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<4x6xi64>) -> tensor<4x6x16xf32>
  %c = fusion.embedding %w, %sids : (tensor<8x16xf32>, tensor<4x6xi64, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x6x16xf32>
  return %a, %b, %c : tensor<4x6x16xf32>, tensor<4x6x16xf32>, tensor<4x6x16xf32>
}

// -----

// Dropout keeps x's splits (devices and streams); seed and offset stay replicated. A pending
// sum is not propagated (as for fusion.neg: the decomposition reduces it first); an annotated
// partial result is kept.
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @dropout
// CHECK: fusion.dropout {{.*}} -> tensor<8x12xf32, #fusion.shard<@tp, {{\[\[}}DIDx, Stream(2)], []]>>
// CHECK: fusion.dropout {{.*}} -> tensor<8x12xf32, #fusion.shard<@tp, {{\[\[}}], []]>>
// CHECK: fusion.dropout {{.*}} -> tensor<8x12xf32, #fusion.shard<@tp, {{\[\[}}], []], partial = [DIDx]>>
func.func @dropout(%x: tensor<8x12xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>, %p: tensor<8x12xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>,
    %s: tensor<i64>, %o: tensor<i64>) -> (tensor<8x12xf32>, tensor<8x12xf32>, tensor<8x12xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>) {
  %y = fusion.dropout %x, %s, %o p = 0.5 : (tensor<8x12xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>, tensor<i64>, tensor<i64>) -> tensor<8x12xf32>
  %z = fusion.dropout %p, %s, %o p = 0.5 : (tensor<8x12xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>, tensor<i64>, tensor<i64>) -> tensor<8x12xf32>
  %w = fusion.dropout %p, %s, %o p = 0.5 : (tensor<8x12xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>, tensor<i64>, tensor<i64>) -> tensor<8x12xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
  return %y, %z, %w : tensor<8x12xf32>, tensor<8x12xf32>, tensor<8x12xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
}
