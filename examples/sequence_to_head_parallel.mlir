// Sequence parallel to head parallel and back (the all_to_all of Ulysses-style attention).
//
// Activations q [s, h·d] = [64, 128] arrive split by sequence rows over 4 devices (each rank
// holds 16 rows of every head). Attention wants whole sequences per head, so the split moves
// from the rows (axis 0) to the columns (axis 1): each rank then holds all 64 rows of 32
// columns (its heads). After the per-head work (here a stand-in: a negation) the split moves
// back to the rows.
//
// Moving a device split from one axis to another is one `comm.all_to_all`: rank r cuts its
// columns into 4 blocks and sends block j to rank j; what it receives from rank i is its own
// columns of rank i's rows. `fusion-to-host` stages the blocks through layout views
// (`host.reshape` + `host.permute`) so that the collective sees dense buffers.
//
//   fuser-opt examples/sequence_to_head_parallel.mlir --pass-pipeline='builtin.module(tp-default)'
//   fuser-run examples/sequence_to_head_parallel.mlir --ranks 4 --check
fusion.mesh @tp = [0, 1, 2, 3]

func.func @sequence_to_head_parallel(%q: tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>> {
  %heads = fusion.set %q : (tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x128xbf16, #fusion.shard<@tp, [[], [DIDx]]>>
  %work = fusion.neg %heads : (tensor<64x128xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x128xbf16, #fusion.shard<@tp, [[], [DIDx]]>>
  %rows = fusion.set %work : (tensor<64x128xbf16, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  return %rows : tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>
}
