// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=qkv}, func.func(fusion-propagate-sharding, fusion-decompose-resharding))' | FileCheck %s

// Stream chunks in the backward (docs/dev/autodiff.md, "Stream chunks"), minimized from the
// stream-chunked tp+sp Llama layer: three column-parallel projections of one sequence-split,
// stream-chunked input (Llama's separate Q, K and V). The input's cotangent is the sum of three
// partial dgrads; the gradient's set to the input's layout gives the outer sums
// [Stream(2), DIDx], while the last dgrad added is still a partial [Stream(2)]. Propagation
// took the two for conflicting shardings ("conflicting shardings for result axis 0:
// [Stream(2), DIDx] from operand #0, [Stream(2)] from operand #1"); [Stream(2), DIDx] refines
// [Stream(2)], so the add is computed in the finer layout and the partial dgrad is
// reduce-scattered onto it, chunk by chunk (GEMM + RS).

fusion.mesh @tp = [0, 1]

// CHECK-LABEL: func.func @qkv_vjp(
// CHECK:         %[[DQ:.*]] = fusion.matmul %arg4, %arg1 {fusion.grad_of = "dgrad of fusion.linear (forward op 0)"} : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(2)], []], partial = [DIDx]>>
// CHECK:         %[[RS:.*]] = fusion.sum %[[DQ]] dims = [] : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(2), DIDx], [{{\]\]}}>>
// CHECK-NEXT:    %[[DX:.*]] = fusion.add %{{.*}}, %[[RS]] : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(2), DIDx], [{{\]\]}}>>
// CHECK:         return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :
func.func @qkv(%x: tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, %wq: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %wk: tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %wv: tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> (tensor<8x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>) {
  %q = fusion.linear %x, %wq : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %k = fusion.linear %x, %wk : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %v = fusion.linear %x, %wv : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  return %q, %k, %v : tensor<8x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>
}
