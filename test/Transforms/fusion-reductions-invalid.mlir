// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(fusion-to-host))'

fusion.mesh @tp = [0, 1]
func.func @max_of_partial(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>) -> tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>> {
  // expected-error @+1 {{'fusion.max' of a partial value is not local; reduce it first (fusion.sum dims = [])}}
  %m = fusion.max %x dims = [1] : (tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>) -> tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>>
  return %m : tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @sum_of_partial_max(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>) -> tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx], reduce = max>> {
  // expected-error @+1 {{'fusion.sum' of a partial value is not local; reduce it first (fusion.sum dims = [])}}
  %m = fusion.sum %x dims = [1] : (tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>) -> tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx], reduce = max>>
  return %m : tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx], reduce = max>>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @var_on_split_axis(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4xf32, #fusion.shard<@tp, [[]]>> {
  // expected-error @+1 {{'fusion.var' reads axis 0 of operand #0 whole, but axis 0 of operand #0 is split [DIDx]; gather it first}}
  %v = fusion.var %x dims = [0] : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4xf32, #fusion.shard<@tp, [[]]>>
  return %v : tensor<4xf32, #fusion.shard<@tp, [[]]>>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @max_annotated_sum(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>> {
  // expected-error @+1 {{'fusion.max' leaves a partial max but its result is annotated `reduce = sum`}}
  %m = fusion.max %x dims = [1] : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>>
  return %m : tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @softmax_in_chunks(%x: tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], [Stream(2)]]>> {
  // expected-error @+1 {{'fusion.softmax' reads axis 1 of operand #0 whole, but result axis 1 is split [Stream(2)]; gather it first}}
  %v = fusion.softmax %x dims = [1] : (tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>
  return %v : tensor<8x4xf32, #fusion.shard<@tp, [[], [Stream(2)]]>>
}
