// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding))'

// Two operands of equal priority put different splits on one result axis: diagnosed, not
// guessed.
fusion.mesh @tp = [0, 1]
func.func @conflict(%a: tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<4x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>) -> tensor<4x8xf32> {
  // expected-error @+1 {{conflicting shardings for result axis 0: [DIDx] from operand #0, [Stream(2)] from operand #1}}
  %0 = fusion.add %a, %b : (tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Different stream chunks do not refine one another: still a conflict.
fusion.mesh @tp = [0, 1]
func.func @streams(%a: tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, %b: tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32> {
  // expected-error @+1 {{conflicting shardings for result axis 0: [Stream(2), DIDx] from operand #0, [DIDx] from operand #1}}
  %0 = fusion.add %a, %b : (tensor<8x8xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
