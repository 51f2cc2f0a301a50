// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))'

// Shardings of a norm that cannot be honoured are diagnosed at the norm.

// A stream split of the normalized axis: the norm needs whole rows in one iteration.
fusion.mesh @tp = [0, 1]
func.func @stream_on_normalized(%x: tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], [Stream(2)]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], [Stream(2)]]>> {
  // expected-error @+1 {{'fusion.rms_norm' reads axis 1 of operand #0 whole, but axis 1 of operand #0 is split [Stream(2)]; gather it first}}
  %y = fusion.rms_norm %x dims = [1] : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], [Stream(2)]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], [Stream(2)]]>>
  return %y : tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], [Stream(2)]]>>
}

// -----

// Streamed along the hidden axis of y only, which the statistics do not have.
fusion.mesh @tp = [0, 1]
func.func @stats_without_the_stream_axis(%x: tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>) -> (tensor<4x16xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>, tensor<4xf32, #fusion.shard<@tp, [[]]>>) {
  // expected-error @+1 {{reads axis 1 of operand #0 whole, but result axis 1 is split [Stream(2)]}}
  %y, %r = fusion.rms_norm %x dims = [1] : (tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>) -> (tensor<4x16xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>, tensor<4xf32, #fusion.shard<@tp, [[]]>>)
  return %y, %r : tensor<4x16xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>, tensor<4xf32, #fusion.shard<@tp, [[]]>>
}
