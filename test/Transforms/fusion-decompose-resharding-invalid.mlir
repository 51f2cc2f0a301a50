// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(fusion-decompose-resharding))'

// One set may change one device axis only.
fusion.mesh @m = [[0, 1], [2, 3]]
func.func @two_axes(%a: tensor<4x4xf32, #fusion.shard<@m, [[DIDx], [DIDy]]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[], []]>> {
  // expected-error @+1 {{resharding changes 2 device axes (DIDx, DIDy); split it into one fusion.set per device axis}}
  %0 = fusion.set %a : (tensor<4x4xf32, #fusion.shard<@m, [[DIDx], [DIDy]]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[], []]>>
  return %0 : tensor<4x4xf32, #fusion.shard<@m, [[], []]>>
}

// -----

// An op whose natural layout differs from its annotation on two device axes.
fusion.mesh @m = [[0, 1], [2, 3]]
func.func @two_axes_op(%a: tensor<4x4xf32, #fusion.shard<@m, [[DIDx], [DIDy]]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[], []]>> {
  // expected-error @+1 {{resharding changes 2 device axes (DIDx, DIDy)}}
  %0 = fusion.neg %a : (tensor<4x4xf32, #fusion.shard<@m, [[DIDx], [DIDy]]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[], []]>>
  return %0 : tensor<4x4xf32, #fusion.shard<@m, [[], []]>>
}

// -----

// The stream chunks inside the operand's device split do not divide the result, and a partial
// result cannot be computed from gathered operands instead (every rank would hold the value).
fusion.mesh @m = [0, 1]
func.func @partial_chunks_do_not_fit(%a: tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], []], partial = [DIDx]>> {
  // expected-error @+1 {{the op's stream chunks and the device splits of its operands do not divide its result, and its annotated partial layout cannot be computed from resharded operands; not lowerable}}
  %0 = fusion.neg %a : (tensor<4x4xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], []], partial = [DIDx]>>
  return %0 : tensor<4x4xf32, #fusion.shard<@m, [[Stream(4)], []], partial = [DIDx]>>
}
