// REQUIRES: fuser-run
// A norm after a row-parallel linear (Megatron's attention/MLP output): the linear's partial
// result is allreduced before the norm (a norm is not linear); the statistics, computed with
// y's row split, are gathered to the replicated layout they are annotated with.
// RUN: fuser-run %s --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/' %s | fuser-run - --check | FileCheck %s
// (Not in bf16: the f32 statistics would be checked at f32's tolerance while the linear's
// partial sums are rounded to bf16 on each rank, unlike the reference's one rounding.)

// CHECK: check: PASS

fusion.mesh @tp = [0, 1]
func.func @after_row_parallel(%x: tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %w: tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %g: tensor<16xf32>, %b: tensor<16xf32>)
    -> (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>) {
  %h = fusion.linear %x, %w : (tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
  %y, %m, %r = fusion.layer_norm %h weight %g bias %b dims = [1] {epsilon = 1.0e-06 : f64} : (tensor<8x16xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>)
  return %y, %m, %r : tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>
}
