// REQUIRES: fuser-run
// An unannotated fusion.full takes the sharding of its consumer (backward propagation): each
// rank fills only its piece; an unused one is replicated. Integer and i1 fills are exact.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding))' | FileCheck %s --check-prefix=PROP
// RUN: fuser-run %s --ranks 2 --check --print-outputs | FileCheck %s
// PROP: fusion.full {value = 1.500000e+00 : f32} : () -> tensor<8x4xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// PROP: fusion.full {value = 7 : i8} : () -> tensor<6xi8, #fusion.shard<@tp, {{\[\[}}]]>>
// CHECK: output #1 (i8 [6]): 7 7 7 7 7 7
// CHECK: output #2 (i1 [4]): 1 1 1 1
// CHECK: check: PASS
fusion.mesh @tp = [0, 1]
func.func @f(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<6xi8, #fusion.shard<@tp, [[]]>>, tensor<4xi1, #fusion.shard<@tp, [[DIDx]]>>) {
  %f = fusion.full {value = 1.5 : f32} : () -> tensor<8x4xf32>
  %y = fusion.add %x, %f : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %u = fusion.full {value = 7 : i8} : () -> tensor<6xi8>
  %g = fusion.full {value = 7 : i8} : () -> tensor<6xi8, #fusion.shard<@tp, [[]]>>
  %b = fusion.full {value = true} : () -> tensor<4xi1, #fusion.shard<@tp, [[DIDx]]>>
  return %y, %g, %b : tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<6xi8, #fusion.shard<@tp, [[]]>>, tensor<4xi1, #fusion.shard<@tp, [[DIDx]]>>
}
