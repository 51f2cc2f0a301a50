// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Round trip of fusion.sdpa: one or two results, causal, scale, grouped-query heads, shardings.

// CHECK: fusion.mesh @tp = [0, 1]
fusion.mesh @tp = [0, 1]

// CHECK-LABEL: func.func @mha
// CHECK: %{{.*}} = fusion.sdpa %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
// GENERIC-LABEL: sym_name = "mha"
// GENERIC: "fusion.sdpa"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
func.func @mha(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32> {
  %o = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  return %o : tensor<1x4x8x16xf32>
}

// CHECK-LABEL: func.func @gqa_causal
// CHECK: %{{.*}}:2 = fusion.sdpa %{{.*}}, %{{.*}}, %{{.*}} causal scale = 1.250000e-01 {note = "x"} : (tensor<2x8x16x64xbf16>, tensor<2x2x24x64xbf16>, tensor<2x2x24x32xbf16>) -> (tensor<2x8x16x32xbf16>, tensor<2x8x16xf32>)
// GENERIC-LABEL: sym_name = "gqa_causal"
// GENERIC: "fusion.sdpa"(%{{.*}}, %{{.*}}, %{{.*}}) <{causal, scale = 1.250000e-01 : f64}> {note = "x"} : (tensor<2x8x16x64xbf16>, tensor<2x2x24x64xbf16>, tensor<2x2x24x32xbf16>) -> (tensor<2x8x16x32xbf16>, tensor<2x8x16xf32>)
func.func @gqa_causal(%q: tensor<2x8x16x64xbf16>, %k: tensor<2x2x24x64xbf16>, %v: tensor<2x2x24x32xbf16>) -> (tensor<2x8x16x32xbf16>, tensor<2x8x16xf32>) {
  %o, %l = fusion.sdpa %q, %k, %v causal scale = 0.125 {note = "x"} : (tensor<2x8x16x64xbf16>, tensor<2x2x24x64xbf16>, tensor<2x2x24x32xbf16>) -> (tensor<2x8x16x32xbf16>, tensor<2x8x16xf32>)
  return %o, %l : tensor<2x8x16x32xbf16>, tensor<2x8x16xf32>
}

// CHECK-LABEL: func.func @scale_only
// CHECK: fusion.sdpa %{{.*}}, %{{.*}}, %{{.*}} scale = 2.000000e+00 : (tensor<?x2x4x8xf16>, tensor<?x1x?x8xf16>, tensor<?x1x?x8xf16>) -> tensor<?x2x4x8xf16>
func.func @scale_only(%q: tensor<?x2x4x8xf16>, %k: tensor<?x1x?x8xf16>, %v: tensor<?x1x?x8xf16>) -> tensor<?x2x4x8xf16> {
  %o = "fusion.sdpa"(%q, %k, %v) <{scale = 2.0 : f64}> : (tensor<?x2x4x8xf16>, tensor<?x1x?x8xf16>, tensor<?x1x?x8xf16>) -> tensor<?x2x4x8xf16>
  return %o : tensor<?x2x4x8xf16>
}

// Heads split over DIDx (attention-parallel): query and key/value heads split alike.
// CHECK-LABEL: func.func @heads_split
// CHECK: fusion.sdpa %{{.*}}, %{{.*}}, %{{.*}} causal : (tensor<1x4x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx], [], []]>>
func.func @heads_split(%q: tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, %k: tensor<1x2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, %v: tensor<1x2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>) -> tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>> {
  %o = fusion.sdpa %q, %k, %v causal : (tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>) -> tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>
  return %o : tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>
}
