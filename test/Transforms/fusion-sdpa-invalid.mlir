// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(fusion-decompose-resharding,fusion-to-host))'

// Query heads split 4 ways need the 2 key/value heads split 4 ways too: refused.
fusion.mesh @tp = [0, 1, 2, 3]
func.func @gqa_split(%q: tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, %k: tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [], [], []]>>, %v: tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [], [], []]>>) -> tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>> {
  // expected-error @+1 {{'fusion.sdpa' computes on local pieces: operand #1 must take the result's device splits, but its axis 1 of extent 2 is not divisible by 4, the product of its splits}}
  %o = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [], [], []]>>) -> tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>
  return %o : tensor<1x4x8x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>
}

// -----

// The key sequence is read whole: a stream split on it cannot be honoured.
fusion.mesh @tp = [0, 1]
func.func @stream_keys(%q: tensor<1x2x8x16xf32, #fusion.shard<@tp, [[], [], [], []]>>, %k: tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [], [Stream(2)], []]>>, %v: tensor<1x2x12x8xf32, #fusion.shard<@tp, [[], [], [], []]>>) -> tensor<1x2x8x8xf32, #fusion.shard<@tp, [[], [], [], []]>> {
  // expected-error @+1 {{'fusion.sdpa' reads axis 2 of operand #1 whole, but axis 2 of operand #1 is split [Stream(2)]}}
  %o = fusion.sdpa %q, %k, %v : (tensor<1x2x8x16xf32, #fusion.shard<@tp, [[], [], [], []]>>, tensor<1x2x12x16xf32, #fusion.shard<@tp, [[], [], [Stream(2)], []]>>, tensor<1x2x12x8xf32, #fusion.shard<@tp, [[], [], [], []]>>) -> tensor<1x2x8x8xf32, #fusion.shard<@tp, [[], [], [], []]>>
  return %o : tensor<1x2x8x8xf32, #fusion.shard<@tp, [[], [], [], []]>>
}

