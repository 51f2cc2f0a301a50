// x / (a - a): infinities (and NaN for 0 / 0) on both sides; the check compared them as
// numbers (inf - inf = NaN: "rel err NaN", fuser-lowerfuzz seed 5001830). Non-finite values
// now must match exactly and are left out of the norms.
// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 5001830 --count 1`), shrunk:
// check-fail with builtin.module(tp-default{streams=1}) on 1 rank(s), input seed 5001830.
// message: output #0 (f32): rel err NaN > tolerance 1e-5

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=1})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 5001830 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<25x25xf32, #fusion.shard<@m, [[], []]>>, %a1: tensor<25x25xf32, #fusion.shard<@m, [[], []]>>) -> (tensor<25x25xf32, #fusion.shard<@m, [[], []]>>) {
  %v0 = fusion.sub %a0, %a0 : (tensor<25x25xf32, #fusion.shard<@m, [[], []]>>, tensor<25x25xf32, #fusion.shard<@m, [[], []]>>) -> tensor<25x25xf32>
  %v1 = fusion.div %a1, %v0 : (tensor<25x25xf32, #fusion.shard<@m, [[], []]>>, tensor<25x25xf32>) -> tensor<25x25xf32, #fusion.shard<@m, [[], []]>>
  return %v1 : tensor<25x25xf32, #fusion.shard<@m, [[], []]>>
}
