// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=qkv}, func.func(fusion-propagate-sharding, fusion-decompose-resharding))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=qkv})' | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{report=true})' -o /dev/null 2>&1 | grep remark | FileCheck %s --check-prefix=REPORT

// Stream chunks in the backward (docs/dev/autodiff.md, "Stream chunks"), minimized from the
// stream-chunked tp+sp Llama layer: three column-parallel projections of one sequence-split,
// stream-chunked input (Llama's separate Q, K and V). The input's cotangent is the sum of three
// partial dgrads [Stream(2)]. Summed first and set to the input's [Stream(2), DIDx] last, the
// outer sums took that layout by backward propagation while the last dgrad was still partial:
// "conflicting shardings for result axis 0: [Stream(2), DIDx] from operand #0, [Stream(2)]
// from operand #1" (propagation now lets the finer layout refine the coarser one,
// test/Transforms/fusion-propagate-sharding.mlir). Each contribution to a stream-chunked
// activation now takes the activation's layout where it is made: every dgrad is
// reduce-scattered right after its GEMM, in its stream loop (GEMM + RS), and the sum is computed
// on the sequence-split pieces.

// CHECK-LABEL: func.func @qkv_vjp(
// CHECK:         %[[DV:.*]] = fusion.matmul %arg6, %arg3 {fusion.grad_of = "dgrad of fusion.linear (forward op 2)"} : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(2)], []], partial = [DIDx]>>
// CHECK-NEXT:    %[[RV:.*]] = fusion.set %[[DV]] : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(2), DIDx], [{{\]\]}}>>
// CHECK:         %[[DK:.*]] = fusion.matmul %arg5, %arg2 {fusion.grad_of = "dgrad of fusion.linear (forward op 1)"}
// CHECK-NEXT:    %[[RK:.*]] = fusion.set %[[DK]] : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(2), DIDx], [{{\]\]}}>>
// CHECK-NEXT:    %[[S:.*]] = fusion.add %[[RV]], %[[RK]] : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(2), DIDx], [{{\]\]}}>>
// CHECK:         %[[DQ:.*]] = fusion.matmul %arg4, %arg1 {fusion.grad_of = "dgrad of fusion.linear (forward op 0)"}
// CHECK-NEXT:    %[[RQ:.*]] = fusion.set %[[DQ]] : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(2), DIDx], [{{\]\]}}>>
// CHECK-NEXT:    %[[DX:.*]] = fusion.add %[[S]], %[[RQ]] : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}Stream(2), DIDx], [{{\]\]}}>>
// CHECK:         return %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[DX]],

// REPORT:      (dgrad of fusion.linear (forward op 2)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// REPORT:      (dgrad of fusion.linear (forward op 1)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
// REPORT:      (dgrad of fusion.linear (forward op 0)): GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks

fusion.mesh @tp = [0, 1]
func.func @qkv(%x: tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, %wq: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %wk: tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %wv: tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> (tensor<8x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>) {
  %q = fusion.linear %x, %wq : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %k = fusion.linear %x, %wk : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %v = fusion.linear %x, %wv : (tensor<8x16xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, tensor<4x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  return %q, %k, %v : tensor<8x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x4xf32, #fusion.shard<@tp, [[], [DIDx]]>>
}
