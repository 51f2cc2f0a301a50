// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 42082 --count 1`), shrunk:
// prepare with builtin.module(tp-default{streams=1}) on 1 rank(s), input seed 42082.
// message: host.fused: input #1: a value of shape [14, 28] fits neither the domain [2, 14, 28] nor its rows or columns
// host-fuse grouped the rms_norm (whose result nothing reads) with the copy of the slice after
// it; canonicalize then deleted the unused rms_norm from the region body, leaving the weight
// as a body argument without uses, of a shape the decoder could not place (the body no longer
// reduced). A member whose outputs nothing live reads is now erased and not restated
// (crates/passes/src/host/fuse.rs, build_region); here only the copy is left, unfused.

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=1})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 42082 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<14x14xi32, #fusion.shard<@m, [[], []]>>, %a1: tensor<2x14x28xf32, #fusion.shard<@m, [[], [], []]>>, %a2: tensor<14x28xf32, #fusion.shard<@m, [[], []]>>) -> (tensor<2x14x28xf32, #fusion.shard<@m, [[], [], []]>>) {
  %v0 = fusion.max %a0 dims = [1] : (tensor<14x14xi32, #fusion.shard<@m, [[], []]>>) -> tensor<14xi32>
  %v1 = fusion.rms_norm %a1 weight %a2 dims = [1, 2] : (tensor<2x14x28xf32, #fusion.shard<@m, [[], [], []]>>, tensor<14x28xf32, #fusion.shard<@m, [[], []]>>) -> tensor<2x14x28xf32>
  %v2 = fusion.slice %a1 offsets = [0, 0, 0] sizes = [2, 14, 28] : (tensor<2x14x28xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<2x14x28xf32>
  %v3 = fusion.set %v2 : (tensor<2x14x28xf32>) -> tensor<2x14x28xf32, #fusion.shard<@m, [[], [], []]>>
  return %v3 : tensor<2x14x28xf32, #fusion.shard<@m, [[], [], []]>>
}
