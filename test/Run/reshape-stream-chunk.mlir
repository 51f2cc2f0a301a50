// A reshape of a stream-chunked value whose chunk has an extent-1 axis with a large stride:
// the chunk `[1, 5]` of a `[1, 15]` tensor split `[[], [Stream(3)]]` is a view with strides
// `[15, 1]`, dense (its extent-1 axis is never stepped). `host.reshape` refused it ("the source
// must be contiguous"), although fusion-to-host counts it contiguous and copies only strided
// chunks first; the f32 backward of fuser-lowerfuzz seed 803988 reshapes its cotangent so
// (test/Run/fuzz/check-fail-803988.mlir). `@chunk_gap` reshapes a chunk that has gaps
// (`[2, 1, 2]` of a rank's `[2, 1, 6]`, strides `[6, 6, 1]`): copied into a buffer first.

// REQUIRES: fuser-run
// RUN: fuser-run %s --entry unit_axis --ranks 2 --check --check-races | FileCheck %s --check-prefix=PASS
// RUN: fuser-run %s --entry chunk_gap --ranks 2 --check --check-races | FileCheck %s --check-prefix=PASS
// RUN: fuser-run %s --entry unit_axis --ranks 2 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1 fuse=false})' | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

// The dense chunk is reshaped in place; the chunk with gaps is copied into a buffer first.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=1 fuse=false})' | FileCheck %s
// CHECK-LABEL: func.func @unit_axis
// CHECK:         %[[CHUNK:[0-9]+]] = host.shard_by_stream %arg0[%{{.*}}] axis = 1 chunks = 3 : !host.buf<1x15xf32> -> !host.view<1x5xf32, strides = [15, 1]>
// CHECK-NOT:     host.copy
// CHECK:         host.reshape %[[CHUNK]] : !host.view<1x5xf32, strides = [15, 1]> -> !host.view<5xf32, strides = [1]>
// CHECK-LABEL: func.func @chunk_gap
// CHECK:         host.copy %{{[0-9]+}}, %[[BUF:[0-9]+]] : !host.view<2x1x2xf32, strides = [6, 6, 1]>, !host.buf<2x1x2xf32>
// CHECK-NEXT:    host.reshape %[[BUF]] : !host.buf<2x1x2xf32> -> !host.view<2x2xf32, strides = [2, 1]>

fusion.mesh @m = [0, 1]

func.func @unit_axis(%c: tensor<1x15xf32, #fusion.shard<@m, [[], [Stream(3)]]>>) -> tensor<15xf32, #fusion.shard<@m, [[Stream(3)]]>> {
  %r = fusion.reshape %c : (tensor<1x15xf32, #fusion.shard<@m, [[], [Stream(3)]]>>) -> tensor<15xf32, #fusion.shard<@m, [[Stream(3)]]>>
  return %r : tensor<15xf32, #fusion.shard<@m, [[Stream(3)]]>>
}

func.func @chunk_gap(%c: tensor<4x1x6xf32, #fusion.shard<@m, [[DIDx], [], [Stream(3)]]>>) -> tensor<4x6xf32, #fusion.shard<@m, [[DIDx], [Stream(3)]]>> {
  %r = fusion.reshape %c : (tensor<4x1x6xf32, #fusion.shard<@m, [[DIDx], [], [Stream(3)]]>>) -> tensor<4x6xf32, #fusion.shard<@m, [[DIDx], [Stream(3)]]>>
  return %r : tensor<4x6xf32, #fusion.shard<@m, [[DIDx], [Stream(3)]]>>
}
