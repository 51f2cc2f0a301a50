// The host program of test/Run/inputs/partial_max_2d.mlir (for test/Run/partial-outputs.mlir):
// every rank returns its shard.
module {
  fusion.mesh @tp = [[0, 1], [2, 3]]
  func.func @pass_partial_max(%arg0: !host.buf<6x8xf32> {fusion.global_type = tensor<6x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDy], reduce = max>>}) -> (!host.buf<6x8xf32> {fusion.global_type = tensor<6x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDy], reduce = max>>}) {
    return %arg0 : !host.buf<6x8xf32>
  }
}
