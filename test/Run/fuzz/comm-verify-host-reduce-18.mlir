// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 18 --count 1`), shrunk:
// comm-verify with builtin.module(tp-default{streams=1}) on 1 rank(s), input seed 18.
// message: comm-verify: cannot interpret 'host.reduce'
// comm-verify's interpreter did not know host.reduce (max/min/mean/var lower to it); it is a
// compute op, a no-op for the communication trace.

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=1})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 18 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<1xf32, #fusion.shard<@m, [[]]>>) -> (tensor<f32, #fusion.shard<@m, []>>) {
  %v0 = fusion.mean %a0 dims = [0] : (tensor<1xf32, #fusion.shard<@m, [[]]>>) -> tensor<f32, #fusion.shard<@m, []>>
  return %v0 : tensor<f32, #fusion.shard<@m, []>>
}
