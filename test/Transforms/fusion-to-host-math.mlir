// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-to-host))' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{fuse=false},func.func(comm-verify))' | FileCheck %s --check-prefix=VERIFIED
// VERIFIED: host.fill

// The elementwise math ops lower to host.elementwise kinds on local pieces, compare writes an
// i1 buffer, where takes three inputs, full is a host.fill of each rank's piece.
// CHECK-LABEL: func.func @math
// CHECK:      host.elementwise exp %arg0 into %{{.*}} : !host.buf<2x4xf32>, !host.buf<2x4xf32>
// CHECK:      host.elementwise gelu_tanh %{{.*}} into %{{.*}} : !host.buf<2x4xf32>, !host.buf<2x4xf32>
// CHECK:      host.elementwise gelu %{{.*}} into %{{.*}} : !host.buf<2x4xf32>, !host.buf<2x4xf32>
// CHECK:      host.elementwise max %{{.*}}, %arg1 into %{{.*}} : !host.buf<2x4xf32>, !host.buf<2x4xf32>, !host.buf<2x4xf32>
// CHECK:      host.elementwise ge %{{.*}}, %arg1 into %[[C:.*]] : !host.buf<2x4xf32>, !host.buf<2x4xf32>, !host.buf<2x4xi1>
// CHECK:      host.fill %[[F:.*]] {value = 5.000000e-01 : f32} : !host.buf<2x4xf32>
// CHECK:      host.elementwise where %[[C]], %{{.*}}, %[[F]] into %{{.*}} : !host.buf<2x4xi1>, !host.buf<2x4xf32>, !host.buf<2x4xf32>, !host.buf<2x4xf32>
// CHECK-NOT:  fusion.
fusion.mesh @tp = [0, 1, 2, 3]
func.func @math(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %y: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  %e = fusion.exp %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %t = fusion.gelu %e {approximate = "tanh"} : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %g = fusion.gelu %t {approximate = "none"} : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %m = fusion.maximum %g, %y : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %c = fusion.compare ge %m, %y : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xi1, #fusion.shard<@tp, [[DIDx], []]>>
  %f = fusion.full {value = 0.5 : f32} : () -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %w = fusion.where %c, %m, %f : (tensor<8x4xi1, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  return %w : tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
