// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 803988 --count 1 --autodiff on`), shrunk:
// check-fail of the joint @fuzz_vjp of fusion-autodiff{func=fuzz} with builtin.module(tp-default{streams=1 fuse=false}) on 5 rank(s), input seed 803988.
// message: output #0 (f32): rel err 7.858e-4 > tolerance 1e-5, abs err 3.906e-3

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=fuzz})' | fuser-opt --pass-pipeline='builtin.module(tp-default{streams=1 fuse=false})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz_vjp
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=fuzz})' | fuser-run - --entry fuzz_vjp --ranks 5 --seed 803988 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1 fuse=false})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1, 2, 3, 4]
func.func @fuzz(%a0: tensor<15x1xbf16, #fusion.shard<@m, [[DIDx], []]>>, %a1: tensor<15x1xbf16, #fusion.shard<@m, [[], []]>>) -> (tensor<1x15xf32, #fusion.shard<@m, [[], [Stream(3)]]>>) {
  %v0 = fusion.linear %a0, %a1 : (tensor<15x1xbf16, #fusion.shard<@m, [[DIDx], []]>>, tensor<15x1xbf16, #fusion.shard<@m, [[], []]>>) -> tensor<15x15xbf16>
  %v1 = fusion.sum %v0 dims = [0] keep_dims : (tensor<15x15xbf16>) -> tensor<1x15xbf16>
  %v2 = fusion.cast %v1 : (tensor<1x15xbf16>) -> tensor<1x15xf32, #fusion.shard<@m, [[], [Stream(3)]]>>
  return %v2 : tensor<1x15xf32, #fusion.shard<@m, [[], [Stream(3)]]>>
}
