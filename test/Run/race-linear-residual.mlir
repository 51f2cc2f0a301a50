// The race checker sees a fused residual as a read of the linear: the residual is filled on a
// worker stream and the main stream's linear reads it without waiting for that stream.

// REQUIRES: fuser-run
// RUN: not fuser-run %s --ranks 1 --check-races 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: rank 0: race on buffer #{{[0-9]+}} elements {{\[0, 64\)}}:
// RACE-SAME: host.fill at {{.*}}race-linear-residual.mlir:27:{{[0-9]+}} on rank 0 stream 1 writes,
// RACE-SAME: host.linear at {{.*}}race-linear-residual.mlir:30:{{[0-9]+}} on rank 0 stream 0 reads without ordering

// With the wait restored the run is clean.
// RUN: sed 's|^\( *\)// WAIT: |\1|' %s | fuser-run - --ranks 1 --check-races | FileCheck %s --check-prefix=CLEAN
// CLEAN: rank
// CLEAN-NOT: race

module {
  fusion.mesh @tp = [0]
  func.func @residual(%x: !host.buf<4x8xf32> {fusion.global_type = tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>},
                      %w: !host.buf<16x8xf32> {fusion.global_type = tensor<16x8xf32, #fusion.shard<@tp, [[], []]>>})
      -> (!host.buf<4x16xf32> {fusion.global_type = tensor<4x16xf32, #fusion.shard<@tp, [[], []]>>}) {
    %c0 = arith.constant 0 : index
    %main = host.current_stream : !host.stream
    %r = host.alloc() : !host.buf<4x16xf32>
    %y = host.alloc() : !host.buf<4x16xf32>
    %s = host.get_stream %c0 : !host.stream
    host.set_stream %s
    host.stream_wait %main
    host.fill %r {value = 1.0 : f32} : !host.buf<4x16xf32>
    host.set_stream %main
    // WAIT: host.stream_wait %s
    host.linear %x, %w into %y residual %r : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
    host.dealloc %r : !host.buf<4x16xf32>
    return %y : !host.buf<4x16xf32>
  }
}
