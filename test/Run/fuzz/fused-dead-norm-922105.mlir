// A region whose layer_norm is dead: canonicalize erases it inside the body, and with it the
// only use of the weight and bias arguments; host.fused drops unused inputs (before, the
// weight of shape [1, 1] fitted no kind of the region without the norm: a prepare error).
// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 922105 --count 1`), shrunk:
// prepare with builtin.module(tp-default{streams=1}) on 1 rank(s), input seed 922105.
// message: host.fused: input #1: a value of shape [1, 1] fits neither the domain [1, 1, 1] nor its rows or columns

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=1})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 922105 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<1xf32, #fusion.shard<@m, [[]]>>, %a1: tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, %a2: tensor<1x1xf32, #fusion.shard<@m, [[], []]>>, %a3: tensor<1x1xf32, #fusion.shard<@m, [[], []]>>) -> (tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>, tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>) {
  %v0 = fusion.add %a0, %a0 : (tensor<1xf32, #fusion.shard<@m, [[]]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>) -> tensor<1xf32, #fusion.shard<@m, [[]]>>
  %v1 = fusion.sum %a1 dims = [0, 1, 2] keep_dims : (tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>
  %v2 = fusion.cast %v1 : (tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<1x1x1xf32>
  %v3 = fusion.layer_norm %v2 weight %a2 bias %a3 dims = [1, 2] : (tensor<1x1x1xf32>, tensor<1x1xf32, #fusion.shard<@m, [[], []]>>, tensor<1x1xf32, #fusion.shard<@m, [[], []]>>) -> tensor<1x1x1xf32>
  %v4 = fusion.set %v1 : (tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>
  return %v4, %v0, %v1 : tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>, tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>
}
