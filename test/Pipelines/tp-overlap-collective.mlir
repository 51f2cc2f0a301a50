// tp-overlap-collective: collective-based pipelines (one collective per stream chunk in the
// loop of the matmul that produces or consumes the chunk) for d in {1, 2, 3, 4, 8} and worker
// streams {1, 2, 4}, each result proven by comm-verify: allgather per chunk before the linear,
// the variant that gathers after the linear, linear + allreduce per chunk (PR 5547's shape),
// and linear + reduce_scatter per chunk. DEVICES is replaced by the mesh.

// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=2},func.func(comm-verify{team-size=1}))' | FileCheck %s --check-prefixes=CHECK,D1
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=2},func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefixes=CHECK,D2,COMM
// RUN: sed 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=2},func.func(comm-verify{team-size=3}))' | FileCheck %s --check-prefixes=CHECK,D3,COMM
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=2},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=CHECK,D4,COMM
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=2},func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefixes=CHECK,D8,COMM
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=1 chunks=4},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=CHECK,COMM,D4
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=4 chunks=4},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=CHECK,COMM,D4

// CHECK-LABEL: func.func @ag_before
// CHECK:         host.for
// COMM:            comm.allgather
// COMM-NEXT:       comm.wait
// CHECK:           host.linear
// CHECK-LABEL: func.func @ag_after
// CHECK:         host.for
// CHECK:           host.linear
// COMM:            comm.allgather
// COMM-NEXT:       comm.wait
// CHECK-LABEL: func.func @linear_allreduce
// CHECK:         host.for
// CHECK:           host.linear
// COMM:            comm.allreduce sum
// COMM-NEXT:       comm.wait
// CHECK-LABEL: func.func @linear_reduce_scatter
// D1-SAME:       -> (!host.buf<48x24xf32>
// D2-SAME:       -> (!host.buf<24x24xf32>
// D3-SAME:       -> (!host.buf<16x24xf32>
// D4-SAME:       -> (!host.buf<12x24xf32>
// D8-SAME:       -> (!host.buf<6x24xf32>
// CHECK:         host.for
// CHECK:           host.linear
// COMM:            comm.reduce_scatter sum
// COMM-NEXT:       comm.wait
// D1-NOT:      comm.

fusion.mesh @tp = [DEVICES]

func.func @ag_before(%x: tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, %w: tensor<24x48xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %xg = fusion.set %x : (tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>) -> tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  %y = fusion.linear %xg, %w : (tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<24x48xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}

func.func @ag_after(%x: tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, %w: tensor<24x48xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %y = fusion.linear %x, %w : (tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>, tensor<24x48xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}

func.func @linear_allreduce(%x: tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %w: tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %y = fusion.linear %x, %w : (tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}

func.func @linear_reduce_scatter(%x: tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %w: tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>> {
  %y = fusion.linear %x, %w : (tensor<48x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>
  return %y : tensor<48x24xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>
}
