// Column-parallel linear: AllGather + Matmul overlapped as a ring (nvFuser PR 5259).
//
// x [m, k] = [64, 128] arrives sharded by rows over 4 devices (each rank holds 16 rows);
// the weight w [n, k] = [96, 128] is replicated. To compute y = x · wᵀ every rank needs all
// of x. Writing the gathered x as split in s = d = 4 stream chunks, `[[Stream(4)], []]`,
// asks for the gather to be overlapped with the compute: at iteration i, rank r computes
// the rows of chunk (r + i) mod 4, which it received from rank (r + i) mod 4 while it sends
// its own chunk to rank (4 + r - i) mod 4 (at i = 0 the local chunk is just copied). The
// `comm-p2p-ring` pass builds that ring from the set + linear below.
//
// Check it with: fuser-opt examples/column_parallel_linear.mlir

fusion.mesh @tp = [0, 1, 2, 3]

func.func @column_parallel_linear(
    // Rows split over DIDx: local [16, 128].
    %x: tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>,
    // Replicated weight.
    %w: tensor<96x128xbf16, #fusion.shard<@tp, [[], []]>>)
    -> tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>> {
  // The resharding point: from device-split rows to stream chunks of the full x (an
  // allgather, performed chunk by chunk inside the stream loop).
  %xg = fusion.set %x
      : (tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>)
      -> tensor<64x128xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>
  // Each iteration multiplies one gathered [16, 128] chunk by the whole weight.
  %y = fusion.linear %xg, %w
      : (tensor<64x128xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>,
         tensor<96x128xbf16, #fusion.shard<@tp, [[], []]>>)
      -> tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>
  return %y : tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>
}
