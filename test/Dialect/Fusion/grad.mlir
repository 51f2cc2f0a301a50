// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Round trip of the backward pass's ops: fusion.sdpa_grad, fusion.embedding_grad and
// fusion.one_hot (custom and generic forms).

fusion.mesh @tp = [0, 1]

// CHECK-LABEL: func.func @sdpa_grad
// CHECK:      %{{.*}}:3 = fusion.sdpa_grad %arg0, %arg1, %arg2, %arg3, %arg4, %arg5 causal scale = 2.500000e-01 : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>)
// CHECK-NEXT: %{{.*}}:3 = fusion.sdpa_grad %arg0, %arg1, %arg2, %arg3, %arg4, %arg5 : (
// GENERIC-LABEL: sym_name = "sdpa_grad"
// GENERIC:      "fusion.sdpa_grad"(%{{arg[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}) <{causal, scale = 2.500000e-01 : f64}>
func.func @sdpa_grad(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>,
                     %o: tensor<1x4x8x16xf32>, %lse: tensor<1x4x8xf32>, %do: tensor<1x4x8x16xf32>)
    -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) {
  %dq, %dk, %dv = fusion.sdpa_grad %q, %k, %v, %o, %lse, %do causal scale = 0.25
      : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8x16xf32>)
      -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>)
  %a:3 = fusion.sdpa_grad %q, %k, %v, %o, %lse, %do
      : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8x16xf32>)
      -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>)
  return %dq, %dk, %a#2 : tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>
}

// CHECK-LABEL: func.func @embedding_grad
// CHECK:      fusion.embedding_grad %arg0, %arg1 num_rows = 64 : (tensor<4x8xi64>, tensor<4x8x16xf32>) -> tensor<64x16xf32>
// CHECK-NEXT: fusion.embedding_grad %arg2, %arg3 num_rows = 10 {tag} : (tensor<6xi32>, tensor<6x4xbf16>) -> tensor<10x4xbf16, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// GENERIC-LABEL: sym_name = "embedding_grad"
// GENERIC:      "fusion.embedding_grad"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) <{num_rows = 64 : i64}> : (tensor<4x8xi64>, tensor<4x8x16xf32>) -> tensor<64x16xf32>
func.func @embedding_grad(%ids: tensor<4x8xi64>, %g: tensor<4x8x16xf32>, %ids32: tensor<6xi32>, %gb: tensor<6x4xbf16>)
    -> (tensor<64x16xf32>, tensor<10x4xbf16, #fusion.shard<@tp, [[DIDx], []]>>) {
  %t = fusion.embedding_grad %ids, %g num_rows = 64 : (tensor<4x8xi64>, tensor<4x8x16xf32>) -> tensor<64x16xf32>
  %s = "fusion.embedding_grad"(%ids32, %gb) <{num_rows = 10 : i64}> {tag} : (tensor<6xi32>, tensor<6x4xbf16>) -> tensor<10x4xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  return %t, %s : tensor<64x16xf32>, tensor<10x4xbf16, #fusion.shard<@tp, [[DIDx], []]>>
}

// CHECK-LABEL: func.func @one_hot
// CHECK:      fusion.one_hot %arg0 num_classes = 32 : (tensor<4x8xi64>) -> tensor<4x8x32xbf16>
// CHECK-NEXT: fusion.one_hot %arg1 num_classes = 6 : (tensor<i32>) -> tensor<6xf32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>
// GENERIC-LABEL: sym_name = "one_hot"
// GENERIC:      "fusion.one_hot"(%{{arg[0-9]+}}) <{num_classes = 32 : i64}> : (tensor<4x8xi64>) -> tensor<4x8x32xbf16>
func.func @one_hot(%l: tensor<4x8xi64>, %s: tensor<i32>) -> (tensor<4x8x32xbf16>, tensor<6xf32, #fusion.shard<@tp, [[DIDx]]>>) {
  %a = fusion.one_hot %l num_classes = 32 : (tensor<4x8xi64>) -> tensor<4x8x32xbf16>
  %b = fusion.one_hot %s num_classes = 6 : (tensor<i32>) -> tensor<6xf32, #fusion.shard<@tp, [[DIDx]]>>
  return %a, %b : tensor<4x8x32xbf16>, tensor<6xf32, #fusion.shard<@tp, [[DIDx]]>>
}
