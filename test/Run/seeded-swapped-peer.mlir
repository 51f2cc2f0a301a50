// A seeded bug of the p2p ring: the column-parallel linear of
// examples/column_parallel_linear.mlir as tp-overlap-p2p lowers it, except that the send and
// receive peers of the ring are swapped (each rank sends its rows to the rank it should
// receive from). The ring still matches up, so nothing hangs, but every rank computes the
// output rows of the wrong chunk: the replicas of the output disagree when they are gathered
// for the reference check.

// REQUIRES: fuser-run
// RUN: not fuser-run %s --ranks 4 --check --check-races --reference %S/../../examples/column_parallel_linear.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// BUG: seeded-swapped-peer.mlir:{{[0-9]+}}:10: error: output #0 (result #0 of @column_parallel_linear, the result of 'host.alloc'): replicated output differs between device 0 ({{.*}}) and device 1 ({{.*}}) at element [{{[0-9]+}}, {{[0-9]+}}]
// BUG-NEXT: %0 = host.alloc() : !host.buf<64x96xbf16>

// The ring with the right peers passes.
// RUN: sed -e 's/comm.send %arg0 to %6/comm.send %arg0 to %8/' -e 's/comm.recv %9 from %8/comm.recv %9 from %6/' %s | fuser-run - --ranks 4 --check --check-races --reference %S/../../examples/column_parallel_linear.mlir | FileCheck %s --check-prefix=FIXED
// FIXED: check: PASS

// The right peers without the comm.group: every rank's sends block their streams (NCCL
// send/recv outside a group wait for their counterpart), so the receives are never posted.
// The watchdog reports the waits, whom they wait for, and a cycle.
// RUN: sed -e 's/comm.send %arg0 to %6/comm.send %arg0 to %8/' -e 's/comm.recv %9 from %8/comm.recv %9 from %6/' -e '/%11 = comm.group {/d' -e '/^        }$/d' -e 's/comm.wait %11/comm.wait %13, %14/' %s | not fuser-run - --ranks 4 --timeout 1 2>&1 | FileCheck %s --check-prefix=HANG
// HANG: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: rank {{[0-3]}}: deadlock or timeout after 1s: rank {{[0-3]}} waits in send to rank {{[0-3]}} at <stdin>:49:{{[0-9]+}};
// HANG-SAME: wait cycle: rank {{[0-3]}} -> rank {{[0-3]}}

module {
  fusion.mesh @tp = [0, 1, 2, 3]
  func.func @column_parallel_linear(%arg0: !host.buf<16x128xbf16> {fusion.global_type = tensor<64x128xbf16, #fusion.shard<@tp, [[DIDx], []]>>}, %arg1: !host.buf<96x128xbf16> {fusion.global_type = tensor<96x128xbf16, #fusion.shard<@tp, [[], []]>>}) -> (!host.buf<64x96xbf16> {fusion.global_type = tensor<64x96xbf16, #fusion.shard<@tp, [[Stream(4)], []]>>}) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %0 = host.alloc() : !host.buf<64x96xbf16>
    %1 = host.current_stream : !host.stream
    %rank = host.rank : index
    %2 = arith.addi %rank, %c4 : index
    host.for %arg2 = %c0 to %c4 step %c1 {
      %3 = arith.remui %arg2, %c4 : index
      %4 = host.get_stream %3 : !host.stream
      host.set_stream %4
      host.stream_wait %1
      %5 = arith.addi %rank, %arg2 : index
      %6 = arith.remui %5, %c4 : index
      %7 = arith.subi %2, %arg2 : index
      %8 = arith.remui %7, %c4 : index
      %9 = host.alloc() : !host.buf<16x128xbf16>
      %10 = arith.cmpi eq, %arg2, %c0 : index
      host.if %10 {
        host.copy %arg0, %9 : !host.buf<16x128xbf16>, !host.buf<16x128xbf16>
        %11 = host.shard_by_stream %0[%6] axis = 0 chunks = 4 : !host.buf<64x96xbf16> -> !host.view<16x96xbf16, strides = [96, 1]>
        host.linear %9, %arg1 into %11 : !host.buf<16x128xbf16>, !host.buf<96x128xbf16>, !host.view<16x96xbf16, strides = [96, 1]>
      } else {
        %11 = comm.group {
          %13 = comm.send %arg0 to %6 : !host.buf<16x128xbf16>
          %14 = comm.recv %9 from %8 : !host.buf<16x128xbf16>
        }
        comm.wait %11
        %12 = host.shard_by_stream %0[%6] axis = 0 chunks = 4 : !host.buf<64x96xbf16> -> !host.view<16x96xbf16, strides = [96, 1]>
        host.linear %9, %arg1 into %12 : !host.buf<16x128xbf16>, !host.buf<96x128xbf16>, !host.view<16x96xbf16, strides = [96, 1]>
      }
      host.dealloc %9 : !host.buf<16x128xbf16>
    }
    host.set_stream %1
    host.for %arg2 = %c0 to %c4 step %c1 {
      %3 = arith.remui %arg2, %c4 : index
      %4 = host.get_stream %3 : !host.stream
      host.stream_wait %4
    }
    return %0 : !host.buf<64x96xbf16>
  }
}

