// comm-verify proves the communication of every tensor-parallel pipeline for every team size
// d = 1..8 (840 rows divide by all of them): the column-parallel linear as a p2p ring (NCCL and
// CUDA IPC get/put) and as broadcasts, the row-parallel linear with an allreduce per chunk, and
// Matmul + ReduceScatter reduce-based and as a ring; the collective pipeline
// also with the copy-engine collectives (backend=cuda_ipc). DEVICES and D are replaced per run.

// RUN: sed -e 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=1},func.func(comm-verify{team-size=1}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=1 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=1}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=1},func.func(comm-verify{team-size=1}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{backend=cuda_ipc chunks=1},func.func(comm-verify{team-size=1}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2},func.func(comm-verify{team-size=2}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=2}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=2},func.func(comm-verify{team-size=2}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{backend=cuda_ipc chunks=2},func.func(comm-verify{team-size=2}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=3},func.func(comm-verify{team-size=3}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=3 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=3}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=3},func.func(comm-verify{team-size=3}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{backend=cuda_ipc chunks=3},func.func(comm-verify{team-size=3}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4},func.func(comm-verify{team-size=4}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=4}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=4},func.func(comm-verify{team-size=4}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{backend=cuda_ipc chunks=4},func.func(comm-verify{team-size=4}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=5},func.func(comm-verify{team-size=5}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=5 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=5}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=5},func.func(comm-verify{team-size=5}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{backend=cuda_ipc chunks=5},func.func(comm-verify{team-size=5}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=6},func.func(comm-verify{team-size=6}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=6 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=6}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=6},func.func(comm-verify{team-size=6}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{backend=cuda_ipc chunks=6},func.func(comm-verify{team-size=6}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=7},func.func(comm-verify{team-size=7}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=7 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=7}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=7},func.func(comm-verify{team-size=7}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{backend=cuda_ipc chunks=7},func.func(comm-verify{team-size=7}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=8},func.func(comm-verify{team-size=8}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=8 backend=cuda_ipc protocol=put},func.func(comm-verify{team-size=8}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{chunks=8},func.func(comm-verify{team-size=8}))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-collective{backend=cuda_ipc chunks=8},func.func(comm-verify{team-size=8}))' | FileCheck %s

// CHECK: func.func @column_parallel
// CHECK: func.func @row_parallel
// CHECK: func.func @row_sequence_parallel

fusion.mesh @tp = [DEVICES]

func.func @column_parallel(%x: tensor<840x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<840x8xf32, #fusion.shard<@tp, [[Stream(1)], []]>> {
  %xg = fusion.set %x : (tensor<840x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<840x16xf32, #fusion.shard<@tp, [[Stream(1)], []]>>
  %y = fusion.linear %xg, %w : (tensor<840x16xf32, #fusion.shard<@tp, [[Stream(1)], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<840x8xf32, #fusion.shard<@tp, [[Stream(1)], []]>>
  return %y : tensor<840x8xf32, #fusion.shard<@tp, [[Stream(1)], []]>>
}

func.func @row_parallel(%x: tensor<840x840xf32, #fusion.shard<@tp, [[Stream(1)], [DIDx]]>>, %w: tensor<8x840xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<840x8xf32, #fusion.shard<@tp, [[Stream(1)], []]>> {
  %y = fusion.linear %x, %w : (tensor<840x840xf32, #fusion.shard<@tp, [[Stream(1)], [DIDx]]>>, tensor<8x840xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<840x8xf32, #fusion.shard<@tp, [[Stream(1)], []]>>
  return %y : tensor<840x8xf32, #fusion.shard<@tp, [[Stream(1)], []]>>
}

func.func @row_sequence_parallel(%x: tensor<840x840xf32, #fusion.shard<@tp, [[Stream(1)], [DIDx]]>>, %w: tensor<8x840xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<840x8xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %y = fusion.linear %x, %w : (tensor<840x840xf32, #fusion.shard<@tp, [[Stream(1)], [DIDx]]>>, tensor<8x840xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<840x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %y : tensor<840x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
