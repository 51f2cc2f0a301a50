// With backend=cuda_ipc, the lowering pipelines leave no NCCL communication: every collective
// kind the fusion lowering emits (allgather, allreduce, reduce_scatter, the broadcasts of a
// DID->Stream gather loop, the reduce of a loop that reduces each chunk to its owner,
// all_to_all) carries backend = cuda_ipc, no comm.group remains, and comm-verify proves the
// result for d in {1, 2, 4, 8} (tp-overlap-collective, and tp-overlap-p2p with both protocols:
// its ring's sends and receives are cuda_ipc, and so is everything the ring leaves).
// DEVICES is replaced by the mesh; chunks = d so that the rings apply.

// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=2 chunks=1 backend=cuda_ipc},func.func(comm-verify{team-size=1}))' | FileCheck %s --check-prefixes=NONCCL
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=2 chunks=2 backend=cuda_ipc},func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefixes=NONCCL,IPC,COLL
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=2 chunks=4 backend=cuda_ipc},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=NONCCL,IPC,COLL
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{streams=2 chunks=8 backend=cuda_ipc},func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefixes=NONCCL,IPC,COLL
// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{streams=2 chunks=1 backend=cuda_ipc protocol=get},func.func(comm-verify{team-size=1}))' | FileCheck %s --check-prefixes=NONCCL
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{streams=2 chunks=2 backend=cuda_ipc protocol=get},func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefixes=NONCCL,IPC,RING
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{streams=2 chunks=4 backend=cuda_ipc protocol=get},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=NONCCL,IPC,RING
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{streams=2 chunks=8 backend=cuda_ipc protocol=get},func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefixes=NONCCL,IPC,RING
// RUN: sed 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{streams=2 chunks=1 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=1}))' | FileCheck %s --check-prefixes=NONCCL
// RUN: sed 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{streams=2 chunks=2 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefixes=NONCCL,IPC,RING
// RUN: sed 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{streams=2 chunks=4 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefixes=NONCCL,IPC,RING
// RUN: sed 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{streams=2 chunks=8 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefixes=NONCCL,IPC,RING

// No NCCL op anywhere: a collective without a backend clause prints `team = [...] :`, an NCCL
// send/recv `to|from %peer :`.
// NONCCL-NOT: comm.group
// NONCCL-NOT: {{team = \[[0-9, ]*\] :}}
// NONCCL-NOT: {{ (to|from) %[a-z0-9_]+ :}}

// IPC-LABEL: func.func @ag_before
// COLL:        comm.broadcast {{.*}} backend = cuda_ipc
// RING:        comm.share_handles
// RING:        comm.send {{.*}} backend = cuda_ipc
// IPC-LABEL: func.func @linear_allreduce
// IPC:         comm.allreduce sum {{.*}} backend = cuda_ipc
// IPC-LABEL: func.func @linear_reduce_scatter
// IPC:         comm.reduce_scatter sum {{.*}} backend = cuda_ipc
// IPC-LABEL: func.func @mlp_reduce
// IPC:         comm.broadcast {{.*}} backend = cuda_ipc
// IPC:         comm.reduce sum {{.*}} backend = cuda_ipc
// IPC-LABEL: func.func @seq_to_heads
// IPC:         comm.all_to_all {{.*}} backend = cuda_ipc
// The templates of test/Run/matrix whose rings reduce-scatter (matmul_reduce_scatter) or that
// mix a gather loop with a reduction (the other two): after the ring, no NCCL op either.
// IPC-LABEL: func.func @row_sequence_parallel

fusion.mesh @tp = [DEVICES]

func.func @ag_before(%x: tensor<64x48xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<24x48xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %xg = fusion.set %x : (tensor<64x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  %y = fusion.linear %xg, %w : (tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<24x48xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}

func.func @linear_allreduce(%x: tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %w: tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %y = fusion.linear %x, %w : (tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}

func.func @linear_reduce_scatter(%x: tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %w: tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>> {
  %y = fusion.linear %x, %w : (tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>
  return %y : tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>
}

func.func @mlp_reduce(%x: tensor<64x48xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w1: tensor<48x48xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w2: tensor<48x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x48xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %xg = fusion.set %x : (tensor<64x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  %h = fusion.linear %xg, %w1 : (tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<48x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>
  %y = fusion.linear %h, %w2 : (tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<48x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x48xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %y : tensor<64x48xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

func.func @seq_to_heads(%q: tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %heads = fusion.set %q : (tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %work = fusion.neg %heads : (tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %rows = fusion.set %work : (tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %rows : tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

func.func @row_sequence_parallel(%x: tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %w: tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %y = fusion.linear %x, %w : (tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %y : tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

func.func @gather_linear_return_gathered(%x: tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<64x64xf32, #fusion.shard<@tp, [[], []]>>) -> (tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>) {
  %xg = fusion.set %x : (tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  %y = fusion.linear %xg, %w : (tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<64x64xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y, %xg : tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}

func.func @mlp_allreduce(%x: tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w1: tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w2: tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>> {
  %xg = fusion.set %x : (tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  %h = fusion.linear %xg, %w1 : (tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>, tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>
  %y = fusion.linear %h, %w2 : (tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
  return %y : tensor<64x64xf32, #fusion.shard<@tp, [[Stream(2)], []]>>
}
