// REQUIRES: fuser-run
// Fused regions (docs/dev/fusion.md) computed by the cpu backend's fused loops give the
// reference's results, with fusion on (the default) and off, on 1, 2 and 4 ranks, with a stream
// split, and under the race checker. The lowered program holds the regions.
// RUN: fuser-run %s --check --check-races | FileCheck %s
// RUN: fuser-run %s --check --pass-pipeline='builtin.module(tp-default{fuse=false})' | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0, 1, 2, 3]/' %s | fuser-run - --check --check-races | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0]/' %s | fuser-run - --check | FileCheck %s
// RUN: fuser-run %s --check --pass-pipeline='builtin.module(tp-overlap-collective{chunks=2})' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=IR
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{fuse=false})' | FileCheck %s --check-prefix=OFF

// CHECK: check: PASS

// The rows are split over the devices; every op works on whole rows, so each rank's regions
// hold every op between the communications.
// IR-LABEL: func.func @chains
// IR-COUNT-2: host.fused
// IR-NOT: host.elementwise
// IR-NOT: host.kernel
// OFF-LABEL: func.func @chains
// OFF-NOT: host.fused
// OFF: host.elementwise add
fusion.mesh @tp = [0, 1]
func.func @chains(%x: tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, %bias: tensor<64xbf16>, %g: tensor<64xbf16>, %b: tensor<64xbf16>, %res: tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, %seed: tensor<i64>, %off: tensor<i64>, %w: tensor<64x64xbf16>)
    -> (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>, tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xbf16, #fusion.shard<@tp, [[DIDx]]>>) {
  %bb = fusion.broadcast %bias dims = [0] : (tensor<64xbf16>) -> tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  %s = fusion.add %x, %bb : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  %d = fusion.dropout %s, %seed, %off p = 0.25 : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<i64>, tensor<i64>) -> tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  %r = fusion.add %res, %d : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  %y, %m, %rs = fusion.layer_norm %r weight %g bias %b dims = [1] : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<64xbf16>, tensor<64xbf16>) -> (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>)
  %h = fusion.linear %y, %w : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<64x64xbf16>) -> tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  %a = fusion.gelu %h {approximate = "tanh"} : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  %p = fusion.softmax %a dims = [1] : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  %z = fusion.rms_norm %p weight %g dims = [1] : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<64xbf16>) -> tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  %l = fusion.log_softmax %z dims = [1] : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>
  %v = fusion.var %l dims = [1] {correction = 1 : i64} : (tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8xbf16, #fusion.shard<@tp, [[DIDx]]>>
  return %r, %m, %rs, %p, %l, %v : tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>, tensor<8xf32, #fusion.shard<@tp, [[DIDx]]>>, tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x64xbf16, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8xbf16, #fusion.shard<@tp, [[DIDx]]>>
}
