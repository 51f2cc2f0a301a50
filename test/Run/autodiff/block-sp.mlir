// REQUIRES: fuser-run
// The gradients of a sequence-parallel transformer MLP block (layer_norm on sequence-split
// rows, allgather, column-parallel linear, gelu_tanh, row-parallel linear with a replicated
// bias, reduce-scatter, residual add) from fusion-autodiff, against the unsharded reference,
// on 1, 2 and 4 ranks and through the overlap pipelines.
// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=block})' | fuser-run - --entry block_vjp --ranks 1 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=block})' | fuser-run - --entry block_vjp --ranks 2 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=block})' | fuser-run - --entry block_vjp --ranks 4 --check | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=block})' | fuser-run - --entry block_vjp --ranks 2 --check --pass-pipeline 'builtin.module(tp-overlap-collective)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=block})' | fuser-run - --entry block_vjp --ranks 4 --check --pass-pipeline 'builtin.module(tp-overlap-p2p)' | FileCheck %s
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=block})' | fuser-run - --entry block_bwd --ranks 2 --check | FileCheck %s
// CHECK: check: PASS
//
// The communication of the joint is Megatron's: the forward's allgather and reduce-scatter,
// then the backward's allgather of the cotangent (for both products of the row-parallel
// linear), reduce-scatter of the column-parallel dgrad, and an allreduce for each norm
// parameter's sum over the sequence.
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(fusion-autodiff{func=block}, tp-default)' | FileCheck %s --check-prefix=COMM
// COMM-LABEL: func.func @block_vjp(
// COMM:         comm.allgather
// COMM:         comm.reduce_scatter
// COMM:         comm.allgather
// COMM:         comm.reduce_scatter
// COMM-DAG:     comm.allreduce
// COMM-DAG:     comm.allreduce
// COMM-NOT:     comm.{{[a-vx-z]}}
// COMM:         return

fusion.mesh @tp = [DEVICES]
func.func @block(%x: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>,
               %lw: tensor<16xf32, #fusion.shard<@tp, [[]]>>,
               %lb: tensor<16xf32, #fusion.shard<@tp, [[]]>>,
               %w1: tensor<32x16xf32, #fusion.shard<@tp, [[DIDx], []]>>,
               %b1: tensor<32xf32, #fusion.shard<@tp, [[DIDx]]>>,
               %w2: tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>,
               %b2: tensor<16xf32, #fusion.shard<@tp, [[]]>>)
    -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %n = fusion.layer_norm %x weight %lw bias %lb dims = [1] : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<16xf32, #fusion.shard<@tp, [[]]>>, tensor<16xf32, #fusion.shard<@tp, [[]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %a = fusion.set %n : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
  %h = fusion.linear %a, %w1, %b1 : (tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>, tensor<32x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<32xf32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %g = fusion.gelu %h {approximate = "tanh"} : (tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %y = fusion.linear %g, %w2, %b2 : (tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<16xf32, #fusion.shard<@tp, [[]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %r = fusion.add %x, %y : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %r : tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
