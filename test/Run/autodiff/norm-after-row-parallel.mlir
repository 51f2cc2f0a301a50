// REQUIRES: fuser-run
// The gradients through a layer_norm on sequence-split rows after a row-parallel linear (the
// norm's statistics are returned too: they get a cotangent, which is ignored, as torch does).
// The linear's cotangent comes out of the norm split on the rows; it is gathered on the rows
// before both backward products (an inner-axis gather after the transpose would not lower).
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=after_row_parallel})' | fuser-run - --entry after_row_parallel_vjp --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=after_row_parallel})' | fuser-run - --entry after_row_parallel_vjp --ranks 4 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=after_row_parallel})' | fuser-run - --entry after_row_parallel_bwd --ranks 2 --check | FileCheck %s
// CHECK: check: PASS

fusion.mesh @tp = [DEVICES]
func.func @after_row_parallel(%x: tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %w: tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %g: tensor<16xf32>, %b: tensor<16xf32>)
    -> (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>) {
  %h = fusion.linear %x, %w : (tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
  %y, %m, %r = fusion.layer_norm %h weight %g bias %b dims = [1] {epsilon = 1.0e-06 : f64} : (tensor<8x16xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>)
  return %y, %m, %r : tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>, tensor<8xf32, #fusion.shard<@tp, [[]]>>
}
