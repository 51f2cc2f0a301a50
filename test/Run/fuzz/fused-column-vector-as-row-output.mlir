// The weight also negated and returned (was: "host.fused: output #1 is a col value, not a full or row one").
// In a square domain (4x4) one 4-element vector read along the columns (a layer_norm weight)
// and along the rows gave host-fuse a region the decoder refused; host-fuse now ends the group
// instead (the bug class of prepare-fused-norm-weight-33528.mlir, written by hand).

// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 1 --seed 3 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%x: tensor<4x4xf32, #fusion.shard<@m, [[], []]>>, %w: tensor<4xf32, #fusion.shard<@m, [[]]>>) -> (tensor<4x4xf32, #fusion.shard<@m, [[], []]>>, tensor<4xf32, #fusion.shard<@m, [[]]>>) {
  %y = fusion.layer_norm %x weight %w dims = [1] : (tensor<4x4xf32, #fusion.shard<@m, [[], []]>>, tensor<4xf32, #fusion.shard<@m, [[]]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[], []]>>
  %z = fusion.neg %w : (tensor<4xf32, #fusion.shard<@m, [[]]>>) -> tensor<4xf32, #fusion.shard<@m, [[]]>>
  return %y, %z : tensor<4x4xf32, #fusion.shard<@m, [[], []]>>, tensor<4xf32, #fusion.shard<@m, [[]]>>
}
