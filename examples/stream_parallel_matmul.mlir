// Stream-parallel matmul on a single device (the pattern of nvFuser PR 5302).
//
// C = A x B with A [5, 7] and B [7, 6]. The output's N axis (axis 1) is outer-split into
// 3 stream chunks: `[[], [Stream(3)]]`. The lowering (fusion-to-host) allocates C in full
// before a host loop of 3 iterations; iteration i takes the i-th [7, 2] column block of B
// (a view, since B itself is not stream-split) and writes the i-th [5, 2] block of C, each
// iteration on its own CUDA stream, so the three GEMMs may overlap.
//
// Check it with: fuser-opt examples/stream_parallel_matmul.mlir

// One device: the mesh only names the place where everything lives.
fusion.mesh @tp = [0]

func.func @stream_parallel_matmul(
    %a: tensor<5x7xf32, #fusion.shard<@tp, [[], []]>>,   // replicated (here: on device 0)
    %b: tensor<7x6xf32, #fusion.shard<@tp, [[], []]>>)
    -> tensor<5x6xf32, #fusion.shard<@tp, [[], [Stream(3)]]>> {
  // N = 6 in 3 chunks of 2 columns: one chunk per host-loop iteration.
  %c = fusion.matmul %a, %b
      : (tensor<5x7xf32, #fusion.shard<@tp, [[], []]>>, tensor<7x6xf32, #fusion.shard<@tp, [[], []]>>)
      -> tensor<5x6xf32, #fusion.shard<@tp, [[], [Stream(3)]]>>
  return %c : tensor<5x6xf32, #fusion.shard<@tp, [[], [Stream(3)]]>>
}
