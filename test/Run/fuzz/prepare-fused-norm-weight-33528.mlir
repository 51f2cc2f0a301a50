// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 33528 --count 1`), shrunk:
// prepare with builtin.module(tp-overlap-collective{streams=1 chunks=2}) on 3 rank(s), input seed 33528.
// message: host.fused: 'fusion.layer_norm': a weight or bias that is not a row-length vector
// Each rank's piece of %a0 is 2x2: rows and columns have one extent. host-fuse took the
// negated weight and bias (elementwise ops of 2-element vectors) as row members of the region
// the log_softmax started (their shape is the rows'), and then the layer_norm reading them as
// its weight and bias; the decoder computes such vectors per row and refused them as weights
// (read along the columns). host-fuse now keeps a norm's weights and biases apart from row
// values: a weight computed in the group, or a vector that row members also read, ends the
// group (crates/passes/src/host/fuse.rs, Group::col_inputs/row_inputs).

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-collective{streams=1 chunks=2})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 3 --seed 33528 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-collective{streams=1 chunks=2})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1, 2]
func.func @fuzz(%a0: tensor<6x2xbf16, #fusion.shard<@m, [[DIDx], []]>>, %a1: tensor<2xbf16, #fusion.shard<@m, [[]]>>, %a2: tensor<2xbf16, #fusion.shard<@m, [[]]>>) -> (tensor<6xf32, #fusion.shard<@m, [[]]>>) {
  %v0 = fusion.log_softmax %a0 dims = [1] : (tensor<6x2xbf16, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<6x2xbf16>
  %v1 = fusion.neg %a1 : (tensor<2xbf16, #fusion.shard<@m, [[]]>>) -> tensor<2xbf16>
  %v2 = fusion.neg %a2 : (tensor<2xbf16, #fusion.shard<@m, [[]]>>) -> tensor<2xbf16>
  %v3, %v3r1, %v3r2 = fusion.layer_norm %v0 weight %v1 bias %v2 dims = [1] : (tensor<6x2xbf16>, tensor<2xbf16>, tensor<2xbf16>) -> (tensor<6x2xbf16>, tensor<6xf32, #fusion.shard<@m, [[]]>>, tensor<6xf32, #fusion.shard<@m, [[]]>>)
  return %v3r1 : tensor<6xf32, #fusion.shard<@m, [[]]>>
}
