// A linear with a bias whose contraction is split over the devices, result left unannotated:
// propagation made the result `partial`, so every rank added the bias to its partial sum and
// the allreduce counted it 7 times. An unannotated result of a linear with bias is now the
// reduced value (the sum, then the bias once).
// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 1188 --count 1`), shrunk:
// check-fail with builtin.module(tp-default{streams=1}) on 7 rank(s), input seed 1188.
// message: output #0 (f32): rel err 1.729e0 > tolerance 1e-5

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=1})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 7 --seed 1188 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1, 2, 3, 4, 5, 6]
func.func @fuzz(%a0: tensor<1x49xf32, #fusion.shard<@m, [[], [DIDx]]>>, %a1: tensor<1x49xf32, #fusion.shard<@m, [[], [DIDx]]>>, %a2: tensor<1xf32, #fusion.shard<@m, [[]]>>) -> (tensor<1x1x49xf32, #fusion.shard<@m, [[], [], []]>>) {
  %v0 = fusion.linear %a0, %a1, %a2 : (tensor<1x49xf32, #fusion.shard<@m, [[], [DIDx]]>>, tensor<1x49xf32, #fusion.shard<@m, [[], [DIDx]]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>) -> tensor<1x1xf32>
  %v1 = fusion.broadcast %v0 dims = [2] : (tensor<1x1xf32>) -> tensor<1x1x49xf32, #fusion.shard<@m, [[], [], []]>>
  return %v1 : tensor<1x1x49xf32, #fusion.shard<@m, [[], [], []]>>
}
