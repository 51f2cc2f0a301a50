// Row-parallel linear with the allreduce inside the stream loop (nvFuser PR 5547).
//
// y = x · wᵀ with x [t, 4h] = [48, 256] and w [h, 4h] = [64, 256] on 4 devices. The
// contraction axis K = 256 is split over DIDx in both operands, so each rank holds a
// [48, 64] slice of x and a [64, 64] slice of w, and its local product is only a partial
// sum of y. The rows of x (axis 0) are also split in 3 stream chunks of 16 rows.
//
// The user writes the result as they want it: replicated over the devices, still
// stream-split, `[[Stream(3)], []]`. The lowering decomposes the resharding into a local
// linear producing `partial = [DIDx]` and a sum over DIDx (an allreduce), and, because both
// are split along the same stream axis, places them in ONE host loop: iteration i computes
// the local linear of chunk i while the allreduce of chunk i-1 is still in flight.
//
// Check it with: fuser-opt examples/row_parallel_linear.mlir

// Four devices along one mesh axis: DIDx has size 4.
fusion.mesh @tp = [0, 1, 2, 3]

func.func @row_parallel_linear(
    // Rows in 3 stream chunks; columns (K) split over the 4 devices: local chunk [16, 64].
    %x: tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,
    // Weight [N, K] with K split over the devices: local [64, 64].
    %w: tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>> {
  // Replicated result: the lowering adds the allreduce over DIDx (team [0, 1, 2, 3]).
  %y = fusion.linear %x, %w
      : (tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,
         tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>)
      -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %y : tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
}
