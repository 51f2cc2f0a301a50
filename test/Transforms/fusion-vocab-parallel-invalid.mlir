// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(fusion-decompose-resharding))'

// The vocab-parallel rewrite takes one device split of the vocabulary, nothing else on it.
fusion.mesh @tp = [0, 1]
func.func @stream_on_vocab(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], [Stream(2), DIDx]]>>, %l: tensor<4xi64, #fusion.shard<@tp, [[]]>>) -> tensor<4xf32, #fusion.shard<@tp, [[]]>> {
  // expected-error @+1 {{a vocab-parallel cross_entropy needs exactly one device split of the vocabulary (axis 1) and no stream split or partial logits; got [Stream(2), DIDx]}}
  %y = fusion.cross_entropy %x, %l : (tensor<4x8xf32, #fusion.shard<@tp, [[], [Stream(2), DIDx]]>>, tensor<4xi64, #fusion.shard<@tp, [[]]>>) -> tensor<4xf32, #fusion.shard<@tp, [[]]>>
  return %y : tensor<4xf32, #fusion.shard<@tp, [[]]>>
}
