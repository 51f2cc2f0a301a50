// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// The rules built on the gradient ops (docs/dev/autodiff.md): attention through
// fusion.sdpa_grad from the forward's out and lse (the forward is rebuilt with its lse, which
// @attn_fwd saves), embedding through fusion.embedding_grad, cross-entropy as
// (exp(x - lse) - one_hot(labels)) * g in f32 with ignore_index rows zeroed.

// CHECK-LABEL: func.func @attn_vjp(
// CHECK:         %[[O:[0-9]+]]:2 = fusion.sdpa %arg0, %arg1, %arg2 causal scale = 2.500000e-01 {{.*}} -> (tensor<1x4x8x16xbf16>, tensor<1x4x8xf32>)
// CHECK-NEXT:    %[[G:[0-9]+]]:3 = fusion.sdpa_grad %arg0, %arg1, %arg2, %[[O]]#0, %[[O]]#1, %arg3 causal scale = 2.500000e-01
// CHECK-NEXT:    return %[[O]]#0, %[[G]]#0, %[[G]]#1, %[[G]]#2
// CHECK-LABEL: func.func @attn_fwd(
// CHECK-SAME:    fusion.saved = [{{.*}}"result 1 of fusion.sdpa (forward op 0)"]
// CHECK-LABEL: func.func @attn_bwd(
// CHECK-NEXT:    fusion.sdpa_grad
func.func @attn(%q: tensor<1x4x8x16xbf16>, %k: tensor<1x2x8x16xbf16>, %v: tensor<1x2x8x16xbf16>) -> tensor<1x4x8x16xbf16> {
  %o = fusion.sdpa %q, %k, %v causal scale = 2.500000e-01 : (tensor<1x4x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>) -> tensor<1x4x8x16xbf16>
  return %o : tensor<1x4x8x16xbf16>
}

// CHECK-LABEL: func.func @embed_vjp(%arg0: tensor<64x16xf32>, %arg1: tensor<4x8xi64>, %arg2: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<64x16xf32>)
// CHECK:         fusion.embedding_grad %arg1, %arg2 num_rows = 64 : (tensor<4x8xi64>, tensor<4x8x16xf32>) -> tensor<64x16xf32>
func.func @embed(%t: tensor<64x16xf32>, %ids: tensor<4x8xi64>) -> tensor<4x8x16xf32> {
  %e = fusion.embedding %t, %ids : (tensor<64x16xf32>, tensor<4x8xi64>) -> tensor<4x8x16xf32>
  return %e : tensor<4x8x16xf32>
}

// CHECK-LABEL: func.func @loss_vjp(
// CHECK:         %[[X:[0-9]+]] = fusion.cast %arg0 : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK:         fusion.max %[[X]] dims = [1]
// CHECK:         fusion.sum {{.*}} dims = [1]
// CHECK:         fusion.log
// CHECK:         %[[OH:[0-9]+]] = fusion.one_hot %arg1 num_classes = 8 : (tensor<4xi64>) -> tensor<4x8xf32>
// CHECK:         fusion.full {value = 0 : i64}
// CHECK:         fusion.compare eq %arg1
// CHECK:         fusion.where
// CHECK:         %[[D:[0-9]+]] = fusion.mul
// CHECK-NEXT:    %[[R:[0-9]+]] = fusion.cast %[[D]] : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK-NEXT:    return %{{[0-9]+}}, %[[R]]
func.func @loss(%x: tensor<4x8xbf16>, %labels: tensor<4xi64>) -> tensor<4xf32> {
  %l = fusion.cross_entropy %x, %labels {ignore_index = 0 : i64} : (tensor<4x8xbf16>, tensor<4xi64>) -> tensor<4xf32>
  return %l : tensor<4xf32>
}
