// Input of test/Run/ops/slicing.mlir: the QKV split and the rotary concat with the rows split over
// DIDx and in Stream(2) chunks inside: the slices and the concat (of the last axis) run per
// chunk in one host loop.
fusion.mesh @tp = [0, 1, 2, 3]
func.func @qkv_stream(%qkv: tensor<16x48xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>)
    -> (tensor<16x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>, tensor<16x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>) {
  %q = fusion.slice %qkv offsets = [0, 0] sizes = [16, 16] : (tensor<16x48xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>) -> tensor<16x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>
  %v = fusion.slice %qkv offsets = [0, 32] sizes = [16, 16] : (tensor<16x48xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>) -> tensor<16x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>
  %q1 = fusion.slice %q offsets = [0, 0] sizes = [16, 8] : (tensor<16x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>) -> tensor<16x8xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>
  %q2 = fusion.slice %q offsets = [0, 8] sizes = [16, 8] : (tensor<16x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>) -> tensor<16x8xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>
  %rot = fusion.concat %q2, %q1 dim = 1 : (tensor<16x8xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>, tensor<16x8xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>) -> tensor<16x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>
  return %rot, %v : tensor<16x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>, tensor<16x16xf32, #fusion.shard<@tp, [[DIDx, Stream(2)], []]>>
}
