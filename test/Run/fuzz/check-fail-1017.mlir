// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 1017 --count 1`), shrunk:
// check-fail with builtin.module(tp-default{streams=1}) on 2 rank(s), input seed 1017.
// message: [passes with sum-partial inputs] output #0 (f32): rel err 1.000e0 > tolerance 1e-5

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=1})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 2 --seed 1017 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1]
func.func @fuzz(%a0: tensor<1x1xf32, #fusion.shard<@m, [[], []], partial = [DIDx], reduce = prod>>) -> (tensor<1x1xf32, #fusion.shard<@m, [[], []]>>) {
  %v0 = fusion.set %a0 : (tensor<1x1xf32, #fusion.shard<@m, [[], []], partial = [DIDx], reduce = prod>>) -> tensor<1x1xf32, #fusion.shard<@m, [[], []]>>
  return %v0 : tensor<1x1xf32, #fusion.shard<@m, [[], []]>>
}
