// The reference of the 2-D case of test/Run/partial-outputs.mlir: a value partial over DIDy
// of a 2x2 mesh with reduce = prod, returned as it is.
fusion.mesh @tp = [[0, 1], [2, 3]]

func.func @pass_partial_max(%x: tensor<6x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDy], reduce = prod>>) -> tensor<6x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDy], reduce = prod>> {
  return %x : tensor<6x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDy], reduce = prod>>
}
