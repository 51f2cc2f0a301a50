// A row-parallel linear with a bias (input of test/Run/layout.mlir).
fusion.mesh @tp = [0, 1, 2, 3]
func.func @with_bias(%x: tensor<48x256xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, %w: tensor<64x256xf32, #fusion.shard<@tp, [[], [DIDx]]>>, %b: tensor<64xf32, #fusion.shard<@tp, [[]]>>) -> tensor<48x64xf32, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %y = fusion.linear %x, %w, %b : (tensor<48x256xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<64x256xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<64xf32, #fusion.shard<@tp, [[]]>>) -> tensor<48x64xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %y : tensor<48x64xf32, #fusion.shard<@tp, [[Stream(3)], []]>>
}
