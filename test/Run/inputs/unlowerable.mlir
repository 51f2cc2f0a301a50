// A program tp-default cannot lower: the device split of %a cannot become the stream chunks
// of %y (test/Run/errors.mlir checks how fuser-run reports it).
fusion.mesh @tp = [0, 1, 2, 3]
func.func @did_to_stream_chunk_count(%x: tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %a = fusion.neg %x : (tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %y = fusion.set %a : (tensor<64x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<64x8xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}
