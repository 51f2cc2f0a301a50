// REQUIRES: fuser-run
// The gradients of a sequence-parallel Llama MLP block (rms_norm with a weight on
// sequence-split rows, allgather, gate and up column-parallel projections, silu(gate) * up,
// down row-parallel projection, reduce-scatter, residual) from fusion-autodiff, against the
// unsharded reference at d = 1, 2, 4, 8, through tp-default and the overlap pipelines, and in
// bf16 (the norm's backward computes in f32).
// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=swiglu})' | fuser-run - --entry swiglu_vjp --ranks 1 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=swiglu})' | fuser-run - --entry swiglu_vjp --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=swiglu})' | fuser-run - --entry swiglu_vjp --ranks 4 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=swiglu})' | fuser-run - --entry swiglu_vjp --ranks 8 --check --pass-pipeline 'builtin.module(tp-overlap-p2p)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/; s/f32/bf16/g' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=swiglu})' | fuser-run - --entry swiglu_vjp --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=swiglu})' | fuser-run - --entry swiglu_bwd --ranks 4 --check | FileCheck %s
// CHECK: check: PASS

fusion.mesh @tp = [DEVICES]
func.func @swiglu(%x: tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                  %g: tensor<32xf32, #fusion.shard<@tp, [[]]>>,
                  %wg: tensor<64x32xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                  %wu: tensor<64x32xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                  %wd: tensor<32x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %n = fusion.rms_norm %x weight %g dims = [1] {epsilon = 1.000000e-05 : f64} : (tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<32xf32, #fusion.shard<@tp, [[]]>>) -> tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %a = fusion.set %n : (tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<16x32xf32, #fusion.shard<@tp, [[], []]>>
  %gate = fusion.linear %a, %wg : (tensor<16x32xf32, #fusion.shard<@tp, [[], []]>>, tensor<64x32xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %up = fusion.linear %a, %wu : (tensor<16x32xf32, #fusion.shard<@tp, [[], []]>>, tensor<64x32xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %s = fusion.silu %gate : (tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %h = fusion.mul %s, %up : (tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %d = fusion.linear %h, %wd : (tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<32x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %r = fusion.add %x, %d : (tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %r : tensor<16x32xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
