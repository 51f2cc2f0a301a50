// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 400782 --count 1 --autodiff on`), shrunk:
// verifier-after-pass of the joint @fuzz_vjp of fusion-autodiff{func=fuzz} with builtin.module(tp-default{streams=1 fuse=false}) on 2 rank(s), input seed 400782.
// message: 'fusion.set' op result: axis 0 of extent 4 is not divisible by 8, the product of its splits
// Fixed: the GEMM rule (autodiff/gemm.rs) no longer keeps a stream chunk that does not fit with the
// input's device split on the cotangent (`[DIDx]`, not `[Stream(4), DIDx]`), and
// fusion-decompose-resharding computes the forward matmul in its annotated `[Stream(4)]` (its
// `[DIDx]` operand gathered) instead of `[Stream(4), DIDx]`.

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=fuzz})' | fuser-opt --pass-pipeline='builtin.module(tp-default{streams=1 fuse=false})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz_vjp
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=fuzz})' | fuser-run - --entry fuzz_vjp --ranks 2 --seed 400782 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1 fuse=false})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1]
func.func @fuzz(%a0: tensor<4x4xf32, #fusion.shard<@m, [[], []]>>, %a1: tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) -> (tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], []]>>) {
  %v0 = fusion.matmul %a1, %a0 : (tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>, tensor<4x4xf32, #fusion.shard<@m, [[], []]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], []]>>
  return %v0 : tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], []]>>
}
