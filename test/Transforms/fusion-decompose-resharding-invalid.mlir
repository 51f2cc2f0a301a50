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
