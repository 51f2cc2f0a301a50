// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// The cotangent of a GEMM's result is set to the row (leading-axes) device splits of the
// annotated input before both products read it, keeping a stream chunk outermost on its rows
// (docs/dev/autodiff.md, "GEMMs"), but only in a layout that divides its extents: a stream
// chunk that does not fit with the device splits is dropped (fuser-lowerfuzz seed 400782: the
// `[Stream(4)]` cotangent of 4 rows on a mesh of 2 was set to `[Stream(4), DIDx]`, 8 pieces of
// 4 rows, which the verifier refused).

fusion.mesh @tp = [0, 1]

// 4 rows, Stream(4) x DIDx = 8 pieces: the chunks are dropped, the rows split like the input.
// CHECK-LABEL: func.func @chunks_do_not_fit_vjp(
// CHECK-SAME:      %arg2: tensor<4x4xf32, #fusion.shard<@tp, {{\[\[}}Stream(4)], [{{\]\]}}>>)
// CHECK:         %[[G:[0-9]+]] = fusion.set %arg2 : ({{.*}}) -> tensor<4x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], [{{\]\]}}>>
// CHECK:         fusion.matmul %{{[0-9]+}}, %[[G]] {fusion.grad_of = "wgrad of fusion.matmul (forward op 0)"}
// CHECK:         fusion.matmul %[[G]], %{{[0-9]+}} {fusion.grad_of = "dgrad of fusion.matmul (forward op 0)"}
func.func @chunks_do_not_fit(%a: tensor<4x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<4x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>> {
  %0 = fusion.matmul %a, %b : (tensor<4x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>>
  return %0 : tensor<4x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>>
}

// 8 rows: the chunks fit and stay outermost.
// CHECK-LABEL: func.func @chunks_fit_vjp(
// CHECK:         %[[G:[0-9]+]] = fusion.set %arg2 : ({{.*}}) -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}Stream(4), DIDx], [{{\]\]}}>>
// CHECK:         fusion.matmul %{{[0-9]+}}, %[[G]] {fusion.grad_of = "wgrad of fusion.matmul (forward op 0)"}
func.func @chunks_fit(%a: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<4x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>> {
  %0 = fusion.matmul %a, %b : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>>
  return %0 : tensor<8x4xf32, #fusion.shard<@tp, [[Stream(4)], []]>>
}
