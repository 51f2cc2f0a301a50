// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(fusion-to-host))'

// The math ops are not linear: a partial operand must be reduced first.
fusion.mesh @tp = [0, 1]
func.func @exp_of_partial(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>> {
  // expected-error @+1 {{'fusion.exp' of a partial value is not local; reduce it first (fusion.sum dims = [])}}
  %y = fusion.exp %x : (tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
  return %y : tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @maximum_of_partial(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>, %y: tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>> {
  // expected-error @+1 {{'fusion.maximum' of a partial value is not local; reduce it first (fusion.sum dims = [])}}
  %r = fusion.maximum %x, %y : (tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>, tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>
  return %r : tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @where_split_apart(%c: tensor<4x8xi1, #fusion.shard<@tp, [[DIDx], []]>>, %a: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  // expected-error @+1 {{'fusion.where' is not local: axis 0 of operand #1 is split [] but result axis 0 is split [DIDx]}}
  %r = fusion.where %c, %a, %a : (tensor<4x8xi1, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %r : tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
