// The collectives no fusion lowering emits (gather, scatter, collective_permute) with
// backend = cuda_ipc run on the cpu backend with the semantics of NCCL's (the cuda_ipc
// transport changes how bytes move on a GPU, not what arrives): gathered and scattered back,
// permuted forward and back, the input comes out (test/Run/inputs/ipc_roundtrip_host.mlir),
// for d in {1, 2, 4, 8}, in one process with the race checker and, for d = 2 and 4, one
// process per rank; comm-verify accepts the program.

// REQUIRES: fuser-run
// RUN: sed -e 's/DEVICES/0/g' -e 's/GROWS/2/g' -e 's/NDEV/1/g' -e 's/LAST/0/g' %S/inputs/ipc_roundtrip.mlir > %t.ref1.mlir
// RUN: sed -e 's/DEVICES/0/g' -e 's/GROWS/2/g' -e 's/NDEV/1/g' -e 's/LAST/0/g' %S/inputs/ipc_roundtrip_host.mlir > %t.host1.mlir
// RUN: fuser-opt %t.host1.mlir --pass-pipeline='builtin.module(func.func(comm-verify{team-size=1}))' | FileCheck %s --check-prefix=VERIFIED
// RUN: fuser-run %t.host1.mlir --ranks 1 --check --check-races --timeout 20 --reference %t.ref1.mlir | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1/g' -e 's/GROWS/4/g' -e 's/NDEV/2/g' -e 's/LAST/1/g' %S/inputs/ipc_roundtrip.mlir > %t.ref2.mlir
// RUN: sed -e 's/DEVICES/0, 1/g' -e 's/GROWS/4/g' -e 's/NDEV/2/g' -e 's/LAST/1/g' %S/inputs/ipc_roundtrip_host.mlir > %t.host2.mlir
// RUN: fuser-opt %t.host2.mlir --pass-pipeline='builtin.module(func.func(comm-verify{team-size=2}))' | FileCheck %s --check-prefix=VERIFIED
// RUN: fuser-run %t.host2.mlir --ranks 2 --check --check-races --timeout 20 --reference %t.ref2.mlir | FileCheck %s
// RUN: fuser-run %t.host2.mlir --launch --ranks 2 --check --timeout 20 --reference %t.ref2.mlir | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/g' -e 's/GROWS/8/g' -e 's/NDEV/4/g' -e 's/LAST/3/g' %S/inputs/ipc_roundtrip.mlir > %t.ref4.mlir
// RUN: sed -e 's/DEVICES/0, 1, 2, 3/g' -e 's/GROWS/8/g' -e 's/NDEV/4/g' -e 's/LAST/3/g' %S/inputs/ipc_roundtrip_host.mlir > %t.host4.mlir
// RUN: fuser-opt %t.host4.mlir --pass-pipeline='builtin.module(func.func(comm-verify{team-size=4}))' | FileCheck %s --check-prefix=VERIFIED
// RUN: fuser-run %t.host4.mlir --ranks 4 --check --check-races --timeout 20 --reference %t.ref4.mlir | FileCheck %s
// RUN: fuser-run %t.host4.mlir --launch --ranks 4 --check --timeout 20 --reference %t.ref4.mlir | FileCheck %s
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/g' -e 's/GROWS/16/g' -e 's/NDEV/8/g' -e 's/LAST/7/g' %S/inputs/ipc_roundtrip.mlir > %t.ref8.mlir
// RUN: sed -e 's/DEVICES/0, 1, 2, 3, 4, 5, 6, 7/g' -e 's/GROWS/16/g' -e 's/NDEV/8/g' -e 's/LAST/7/g' %S/inputs/ipc_roundtrip_host.mlir > %t.host8.mlir
// RUN: fuser-opt %t.host8.mlir --pass-pipeline='builtin.module(func.func(comm-verify{team-size=8}))' | FileCheck %s --check-prefix=VERIFIED
// RUN: fuser-run %t.host8.mlir --ranks 8 --check --check-races --timeout 20 --reference %t.ref8.mlir | FileCheck %s
// CHECK: check: PASS
// VERIFIED: func.func @roundtrip

// comm-collective-backend{backend=cuda_ipc} ungroups the NCCL comm.group of a p2p ring step
// (the ring of test/Run/seeded-swapped-peer.mlir with the right peers): one
// comm.share_handles of its pair, the send, then the receive, both cuda_ipc get, and the wait
// of the group waits on both; the program still passes the check.
// RUN: sed -e 's/comm.send %arg0 to %6/comm.send %arg0 to %8/' -e 's/comm.recv %9 from %8/comm.recv %9 from %6/' %S/seeded-swapped-peer.mlir | fuser-opt --pass-pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc},comm-verify{team-size=4}))' > %t.ring.mlir
// RUN: FileCheck %s --check-prefix=UNGROUP < %t.ring.mlir
// RUN: fuser-run %t.ring.mlir --ranks 4 --check --check-races --timeout 20 --reference %S/../../examples/column_parallel_linear.mlir | FileCheck %s
// RUN: fuser-run %t.ring.mlir --launch --ranks 4 --check --timeout 20 --reference %S/../../examples/column_parallel_linear.mlir | FileCheck %s
// UNGROUP-NOT: comm.group
// UNGROUP:     comm.share_handles send(%arg0 to %[[TO:[0-9]+]]) recv(%[[BUF:[0-9]+]] from %[[FROM:[0-9]+]]) backend = cuda_ipc
// UNGROUP-NEXT: %[[S:[0-9]+]] = comm.send %arg0 to %[[TO]] backend = cuda_ipc
// UNGROUP-NEXT: %[[R:[0-9]+]] = comm.recv %[[BUF]] from %[[FROM]] backend = cuda_ipc
// UNGROUP-NEXT: comm.wait %[[S]], %[[R]]
// UNGROUP-NOT: comm.group

// The same ring without its group: NCCL's blocking sends deadlock (seeded-swapped-peer.mlir's
// HANG case); as CUDA IPC get transfers the sends only signal, so the run passes.
// RUN: sed -e 's/comm.send %arg0 to %6/comm.send %arg0 to %8/' -e 's/comm.recv %9 from %8/comm.recv %9 from %6/' -e '/%11 = comm.group {/d' -e '/^        }$/d' -e 's/comm.wait %11/comm.wait %13, %14/' %S/seeded-swapped-peer.mlir | fuser-opt --pass-pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc},comm-verify{team-size=4}))' | fuser-run - --ranks 4 --check --check-races --timeout 20 --reference %S/../../examples/column_parallel_linear.mlir | FileCheck %s
