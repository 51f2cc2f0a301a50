// Issue 11, defect 3: a column-parallel linear that also returns the gathered input. The
// ring receives each chunk into a view of the gathered buffer, which is neither persistent nor
// allocated per iteration (the function returns it), so comm-p2p-ring with cuda_ipc used to
// stop with "needs persistent buffers ... (stage-buffers=true)" although staging is the
// default, at every team size. Now such a receive goes into a slot of a persistent `ipc`
// staging buffer and is copied to the gathered buffer; the i = 0 step copies the local shard
// there directly.

// REQUIRES: fuser-run
// RUN: sed -e 's/DEVICES/0, 1/' -e 's/CHUNKS/2/g' %s | fuser-opt --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 backend=cuda_ipc},func.func(comm-verify))' | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1/' -e 's/CHUNKS/2/g' %s | fuser-opt --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding,fusion-decompose-resharding,fusion-to-host,comm-p2p-ring{backend=cuda_ipc stage-buffers=true},comm-verify))' | FileCheck %s

// CHECK:       %[[SHARD:.*]] = host.alloc() persistent : !host.buf<4x4xf32, ipc>
// CHECK:       %[[STAGE:.*]] = host.alloc() persistent : !host.buf<2x4x4xf32, ipc>
// CHECK:       comm.share_handles send(%[[SHARD]] to %{{.*}}) recv(%[[STAGE]] from %{{.*}})
// CHECK:       %[[GATHERED:.*]] = host.shard_by_stream %[[XG:.*]][%[[T:.*]]] axis = 0 chunks = 2
// CHECK:       %[[SLOT:.*]] = host.select %[[STAGE]][%[[T]]] axis = 0
// CHECK:       host.if
// CHECK-NEXT:    host.copy %[[SHARD]], %[[GATHERED]]
// CHECK:       } else {
// CHECK:         comm.recv %[[SLOT]] from %[[T]]
// CHECK:         host.copy %[[SLOT]], %[[GATHERED]]
// CHECK:       return %{{.*}}, %[[XG]]

// RUN: sed -e 's/DEVICES/0/' -e 's/CHUNKS/1/g' %s | fuser-run - --ranks 1 --check --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=1 backend=cuda_ipc protocol=get})' | FileCheck %s --check-prefix=PASS
// RUN: sed -e 's/DEVICES/0, 1/' -e 's/CHUNKS/2/g' %s | fuser-run - --ranks 2 --check --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 backend=cuda_ipc protocol=get})' | FileCheck %s --check-prefix=PASS
// RUN: sed -e 's/DEVICES/0, 1/' -e 's/CHUNKS/2/g' %s | fuser-run - --ranks 2 --check --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=2 backend=cuda_ipc protocol=put})' | FileCheck %s --check-prefix=PASS
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' -e 's/CHUNKS/4/g' %s | fuser-run - --ranks 4 --check --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4 backend=cuda_ipc protocol=get})' | FileCheck %s --check-prefix=PASS
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' -e 's/CHUNKS/4/g' %s | fuser-run - --ranks 4 --check --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4 backend=cuda_ipc protocol=put})' | FileCheck %s --check-prefix=PASS
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/' -e 's/CHUNKS/4/g' %s | fuser-run - --ranks 4 --check --pass-pipeline='builtin.module(tp-overlap-p2p{chunks=4})' | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

fusion.mesh @tp = [DEVICES]

func.func @gather_and_linear(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w: tensor<6x4xf32, #fusion.shard<@tp, [[], []]>>) -> (tensor<8x6xf32, #fusion.shard<@tp, [[Stream(CHUNKS)], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[Stream(CHUNKS)], []]>>) {
  %xg = fusion.set %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[Stream(CHUNKS)], []]>>
  %y = fusion.linear %xg, %w : (tensor<8x4xf32, #fusion.shard<@tp, [[Stream(CHUNKS)], []]>>, tensor<6x4xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<8x6xf32, #fusion.shard<@tp, [[Stream(CHUNKS)], []]>>
  return %y, %xg : tensor<8x6xf32, #fusion.shard<@tp, [[Stream(CHUNKS)], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[Stream(CHUNKS)], []]>>
}
