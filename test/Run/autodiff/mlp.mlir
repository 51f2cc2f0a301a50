// REQUIRES: fuser-run
// The gradients of a tensor-parallel MLP (column-parallel linear, gelu, row-parallel linear)
// from fusion-autodiff, lowered by tp-default and run on 1 and 2 ranks against the unsharded
// reference: the joint @mlp_vjp, and the split @mlp_fwd/@mlp_bwd.
// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=mlp})' | fuser-run - --entry mlp_vjp --ranks 1 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=mlp})' | fuser-run - --entry mlp_vjp --ranks 2 --check | FileCheck %s --check-prefixes=CHECK,D2
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=mlp})' | fuser-run - --entry mlp_fwd --ranks 2 --check | FileCheck %s --check-prefix=FWD
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=mlp})' | fuser-run - --entry mlp_bwd --ranks 2 --check | FileCheck %s --check-prefix=BWD
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=mlp})' | not fuser-run - --entry nope --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=NOPE
// CHECK: fuser-run: @mlp_vjp on
// D2: 2 rank(s)
// CHECK: check: PASS
// FWD: fuser-run: @mlp_fwd on 2 rank(s)
// FWD: check: PASS
// BWD: fuser-run: @mlp_bwd on 2 rank(s)
// BWD: check: PASS
// NOPE: --entry nope: no func.func @nope with a body (functions: mlp, mlp_vjp, mlp_fwd, mlp_bwd)

fusion.mesh @tp = [DEVICES]
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
