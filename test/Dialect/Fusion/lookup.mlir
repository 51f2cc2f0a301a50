// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Round trip of fusion.embedding (plain and vocab-parallel) and fusion.dropout.

fusion.mesh @tp = [0, 1, 2, 3]

// CHECK-LABEL: func.func @embedding
// CHECK:      fusion.embedding %arg0, %arg1 : (tensor<64x16xf32>, tensor<4x8xi64>) -> tensor<4x8x16xf32>
// CHECK-NEXT: fusion.embedding %arg2, %arg3 : (tensor<64x16xbf16, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>, tensor<8xi32>) -> tensor<8x16xbf16, #fusion.shard<@tp, {{\[\[}}], []], partial = [DIDx]>>
// CHECK-NEXT: fusion.embedding %arg0, %{{.*}} : (tensor<64x16xf32>, tensor<i64>) -> tensor<16xf32>
// GENERIC-LABEL: sym_name = "embedding"
// GENERIC:      "fusion.embedding"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) : (tensor<64x16xf32>, tensor<4x8xi64>) -> tensor<4x8x16xf32>
func.func @embedding(%t: tensor<64x16xf32>, %ids: tensor<4x8xi64>,
    %tp: tensor<64x16xbf16, #fusion.shard<@tp, [[DIDx], []]>>, %ids32: tensor<8xi32>, %one: tensor<i64>)
    -> (tensor<4x8x16xf32>, tensor<8x16xbf16, #fusion.shard<@tp, [[], []], partial = [DIDx]>>, tensor<16xf32>) {
  %e = fusion.embedding %t, %ids : (tensor<64x16xf32>, tensor<4x8xi64>) -> tensor<4x8x16xf32>
  %p = fusion.embedding %tp, %ids32 : (tensor<64x16xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xi32>) -> tensor<8x16xbf16, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
  %s = fusion.embedding %t, %one : (tensor<64x16xf32>, tensor<i64>) -> tensor<16xf32>
  return %e, %p, %s : tensor<4x8x16xf32>, tensor<8x16xbf16, #fusion.shard<@tp, [[], []], partial = [DIDx]>>, tensor<16xf32>
}

// CHECK-LABEL: func.func @dropout
// CHECK:      fusion.dropout %arg0, %arg1, %arg2 p = 1.000000e-01 : (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>, tensor<i64>, tensor<i64>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK-NEXT: fusion.dropout %arg0, %arg1, %arg2 p = 0.000000e+00 {tag} : (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>, tensor<i64>, tensor<i64>) -> tensor<8x16xf32>
// GENERIC-LABEL: sym_name = "dropout"
// GENERIC:      "fusion.dropout"(%{{arg[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}) <{p = 1.000000e-01 : f64}> : (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>, tensor<i64>, tensor<i64>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// GENERIC:      "fusion.dropout"(%{{arg[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}) <{p = 0.000000e+00 : f64}> {tag}
func.func @dropout(%x: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %seed: tensor<i64>, %off: tensor<i64>)
    -> (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32>) {
  %y = fusion.dropout %x, %seed, %off p = 0.1 : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<i64>, tensor<i64>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %z = fusion.dropout %x, %seed, %off p = 0.0 {tag} : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<i64>, tensor<i64>) -> tensor<8x16xf32>
  return %y, %z : tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32>
}
