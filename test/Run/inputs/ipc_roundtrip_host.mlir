// A host program with every collective that no fusion lowering emits, all with
// backend = cuda_ipc (for test/Run/cuda-ipc-everywhere.mlir and benches/gpu/ipc_all.sh): the
// shards are gathered on the last rank and scattered back from it, then passed one rank
// forward and one rank back with collective_permute; the result is the input (the reference
// test/Run/inputs/ipc_roundtrip.mlir). Placeholders, replaced with sed: DEVICES (the mesh),
// GROWS (2 x d), NDEV (d), LAST (d - 1).
module {
  fusion.mesh @tp = [DEVICES]
  func.func @roundtrip(%x: !host.buf<2x8xf32> {fusion.global_type = tensor<GROWSx8xf32, #fusion.shard<@tp, [[DIDx], []]>>}) -> (!host.buf<2x8xf32> {fusion.global_type = tensor<GROWSx8xf32, #fusion.shard<@tp, [[DIDx], []]>>}) {
    %c1 = arith.constant 1 : index
    %d = arith.constant NDEV : index
    %root = arith.constant LAST : index
    %rank = host.rank : index
    %full = host.alloc() : !host.buf<GROWSx8xf32>
    %r0 = comm.gather %x into %full root %root team = [DEVICES] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<GROWSx8xf32>
    comm.wait %r0
    %s = host.alloc() : !host.buf<2x8xf32>
    %r1 = comm.scatter %full into %s root %root team = [DEVICES] backend = cuda_ipc : !host.buf<GROWSx8xf32>, !host.buf<2x8xf32>
    comm.wait %r1
    %n0 = arith.addi %rank, %c1 : index
    %next = arith.remui %n0, %d : index
    %p0 = arith.addi %rank, %root : index
    %prev = arith.remui %p0, %d : index
    %p = host.alloc() : !host.buf<2x8xf32>
    %r2 = comm.collective_permute %s into %p send_to %next recv_from %prev team = [DEVICES] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<2x8xf32>
    comm.wait %r2
    %q = host.alloc() : !host.buf<2x8xf32>
    %r3 = comm.collective_permute %p into %q send_to %prev recv_from %next team = [DEVICES] backend = cuda_ipc : !host.buf<2x8xf32>, !host.buf<2x8xf32>
    comm.wait %r3
    host.dealloc %full : !host.buf<GROWSx8xf32>
    host.dealloc %s : !host.buf<2x8xf32>
    host.dealloc %p : !host.buf<2x8xf32>
    return %q : !host.buf<2x8xf32>
  }
}
