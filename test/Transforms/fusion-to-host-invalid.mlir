// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(fusion-to-host))'

fusion.mesh @one = [0]
func.func @two_stream_splits(%x: tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], [Stream(2)]]>> {
  // expected-error @+1 {{a tensor may have at most one Stream split, got Stream(2) on axis 0 and Stream(2) on axis 1}}
  %y = fusion.set %x : (tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], [Stream(2)]]>>
  return %y : tensor<4x8xf32, #fusion.shard<@one, [[Stream(2)], [Stream(2)]]>>
}

// -----

fusion.mesh @grid = [[0, 1], [2, 3]]
func.func @two_d_mesh(%x: tensor<4x8xf32>) -> tensor<4x8xf32, #fusion.shard<@grid, [[DIDy], [DIDx]]>> {
  // expected-error @+1 {{fusion-to-host supports 1-D meshes of consecutive devices}}
  %y = fusion.set %x : (tensor<4x8xf32>) -> tensor<4x8xf32, #fusion.shard<@grid, [[DIDy], [DIDx]]>>
  return %y : tensor<4x8xf32, #fusion.shard<@grid, [[DIDy], [DIDx]]>>
}

// -----

fusion.mesh @gaps = [0, 2]
// expected-error @+1 {{fusion-to-host supports 1-D meshes of consecutive devices}}
func.func @mesh_with_gaps(%x: tensor<4x8xf32, #fusion.shard<@gaps, [[DIDx], []]>>) -> tensor<4x8xf32, #fusion.shard<@gaps, [[DIDx], []]>> {
  return %x : tensor<4x8xf32, #fusion.shard<@gaps, [[DIDx], []]>>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @to_partial(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>> {
  // expected-error @+1 {{resharding into a partial value over DIDx is not lowerable}}
  %y = fusion.set %x : (tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
  return %y : tensor<4x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx]>>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @not_local(%a: tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], []]>>, %b: tensor<8x6xf32, #fusion.shard<@tp, [[], []]>>)
    -> tensor<4x6xf32, #fusion.shard<@tp, [[], []]>> {
  // expected-error @+1 {{'fusion.matmul' is not local: axis 0 of operand #0 is split [DIDx] but result axis 0 is split []}}
  %c = fusion.matmul %a, %b : (tensor<4x8xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x6xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x6xf32, #fusion.shard<@tp, [[], []]>>
  return %c : tensor<4x6xf32, #fusion.shard<@tp, [[], []]>>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @missing_partial(%a: tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %b: tensor<8x6xf32, #fusion.shard<@tp, [[DIDx], []]>>)
    -> tensor<4x6xf32, #fusion.shard<@tp, [[], []]>> {
  // expected-error @+1 {{'fusion.matmul' is not local: its operands make the result partial over [DIDx] but it is annotated partial = []}}
  %c = fusion.matmul %a, %b : (tensor<4x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x6xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x6xf32, #fusion.shard<@tp, [[], []]>>
  return %c : tensor<4x6xf32, #fusion.shard<@tp, [[], []]>>
}

// -----

fusion.mesh @tp = [0, 1, 2, 3]
func.func @did_to_stream_chunk_count(%x: tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  // expected-error @+1 {{resharding in a stream loop of 2 chunks needs the Stream split of axis 0 outermost, got [DIDx]}}
  %y = fusion.set %x : (tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<64x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}
