// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=mlp})' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=mlp}, func.func(fusion-propagate-sharding, fusion-decompose-resharding))' | FileCheck %s --check-prefix=SHARD
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=mlp}, tp-default)' | FileCheck %s --check-prefix=LOWER

// A tensor-parallel MLP (column-parallel linear, gelu, row-parallel linear) on 2 devices.
// The joint takes the cotangent typed (and sharded) like the result and returns gradients
// sharded like their arguments; @mlp_fwd returns the result and the saved values (named by
// fusion.saved), @mlp_bwd takes them and the cotangent.

// CHECK-LABEL: func.func @mlp(
// CHECK-LABEL: func.func @mlp_vjp(
// CHECK-SAME:    %arg4: tensor<8x16xf32, #fusion.shard<@tp, {{\[\[\], \[\]\]}}>>)
// CHECK-SAME:    -> (tensor<8x16xf32, {{.*}}>, tensor<8x16xf32, {{.*}}>, tensor<32x16xf32, #fusion.shard<@tp, {{\[\[DIDx\], \[\]\]}}>>, tensor<32xf32, #fusion.shard<@tp, {{\[\[DIDx\]\]}}>>, tensor<16x32xf32, #fusion.shard<@tp, {{\[\[\], \[DIDx\]\]}}>>)
// The backward's intermediates are unannotated; the gradients reach their arguments' sharding
// through fusion.set.
// The linear's cotangent is first pinned to its input's row sharding (here its natural one).
// Each backward GEMM names what it computes (fusion.grad_of, quoted by the overlap report);
// the wgrad comes first, the dgrad last, next to its consumers.
// CHECK:         %[[G:.*]] = fusion.set %{{.*}} : (tensor<8x32xf32>) -> tensor<8x32xf32, #fusion.shard<@tp, {{\[\[\], \[DIDx\]\]}}>>
// CHECK:         fusion.matmul %{{.*}}, %arg0 {fusion.grad_of = "wgrad of fusion.linear (forward op 0)"}
// CHECK:         %[[DX:.*]] = fusion.matmul %[[G]], %arg1 {fusion.grad_of = "dgrad of fusion.linear (forward op 0)"} : (tensor<8x32xf32, {{.*}}>, tensor<32x16xf32, {{.*}}>) -> tensor<8x16xf32>
// CHECK:         fusion.set %[[DX]] : (tensor<8x16xf32>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[\], \[\]\]}}>>
// CHECK:         return

// CHECK-LABEL: func.func @mlp_fwd(
// The gelu's result is not saved: its operand is, and @mlp_bwd recomputes it first.
// CHECK-SAME:    fusion.saved = ["argument 3", "result 0 of fusion.linear (forward op 0)", "argument 0", "argument 1"]
// CHECK:         %[[H:.*]] = fusion.linear %arg0, %arg1, %arg2
// CHECK-NEXT:    %[[G:.*]] = fusion.gelu %[[H]]
// CHECK-NEXT:    %[[Y:.*]] = fusion.linear %[[G]], %arg3
// CHECK-NEXT:    return %[[Y]], %arg3, %[[H]], %arg0, %arg1 :

// CHECK-LABEL: func.func @mlp_bwd(
// CHECK-SAME:    %arg0: tensor<16x32xf32, {{.*}}>, %arg1: tensor<8x32xf32, {{.*}}>, %arg2: tensor<8x16xf32, {{.*}}>, %arg3: tensor<32x16xf32, {{.*}}>, %arg4: tensor<8x16xf32, {{.*}}>)
// CHECK-NEXT:    %[[G:.*]] = fusion.gelu %arg1
// CHECK-NOT:     = fusion.linear
// CHECK-NOT:     fusion.gelu
// CHECK:         fusion.matmul %{{.*}}, %[[G]]
// CHECK-NOT:     = fusion.linear
// CHECK-NOT:     fusion.gelu
// CHECK:         return

// After propagation, Megatron's backward: dx of the column-parallel linear is partial and
// becomes an allreduce where it meets the replicated x's type; dw1, db1 and dw2 are split like
// their weights, with no communication.
// SHARD-LABEL: func.func @mlp_vjp(
// SHARD:         %[[DW1:.*]] = fusion.matmul %{{.*}}, %arg0 {fusion.grad_of = "wgrad of fusion.linear (forward op 0)"} : {{.*}} -> tensor<32x16xf32, #fusion.shard<@tp, {{\[\[DIDx\], \[\]\]}}>>
// SHARD:         %[[DX:.*]] = fusion.matmul %{{.*}}, %arg1 {fusion.grad_of = "dgrad of fusion.linear (forward op 0)"} : {{.*}} -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[\], \[\]\]}}, partial = [DIDx]>>
// SHARD:         fusion.set %[[DX]] : (tensor<8x16xf32, #fusion.shard<@tp, {{\[\[\], \[\]\]}}, partial = [DIDx]>>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[\], \[\]\]}}>>

// The joint lowers through tp-default: two allreduces (the forward's and dx's) and no other collective.
// LOWER-LABEL: func.func @mlp_vjp(
// LOWER-NOT:     comm.{{[a-vx-z]}}
// LOWER:         comm.allreduce
// LOWER-NOT:     comm.{{[a-vx-z]}}
// LOWER:         comm.allreduce
// LOWER-NOT:     comm.{{[a-vx-z]}}
// LOWER:         return

fusion.mesh @tp = [0, 1]
func.func @mlp(%x: tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>,
               %w1: tensor<32x16xf32, #fusion.shard<@tp, [[DIDx], []]>>,
               %b1: tensor<32xf32, #fusion.shard<@tp, [[DIDx]]>>,
               %w2: tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>> {
  %h = fusion.linear %x, %w1, %b1 : (tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>, tensor<32x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<32xf32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %g = fusion.gelu %h : (tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %y = fusion.linear %g, %w2 : (tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
}
