// REQUIRES: fuser-run
// fusion.slice and fusion.concat lower to copies through host.slice views. The QKV split of a
// fused projection: three slices of the last axis of [s, 3*h*d] with the rows (the sequence)
// split over DIDx, then the rotary halves of q swapped by a concat, a strided slice, and a
// concat of rows; every one is local and matches the unsharded reference.
// RUN: fuser-run %s --ranks 4 --check | FileCheck %s
// RUN: fuser-run %s --ranks 4 --check --seed 3 | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1]/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0]/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: sed 's/xf32/xi32/g' %s | fuser-run - --ranks 4 --check --seed 5 | FileCheck %s
// Stream chunks of the rows inside the device split: the slices and the concat of the last
// axis run in host loops, per chunk.
// RUN: fuser-run %S/../inputs/qkv_stream.mlir --ranks 4 --check | FileCheck %s
// RUN: fuser-opt %S/../inputs/qkv_stream.mlir --pass-pipeline='builtin.module(tp-default{fuse=false})' | FileCheck %s --check-prefix=STREAM
// STREAM: host.for
// STREAM: host.slice %{{.*}}[0, 0] [2, 16] [1, 1] : !host.view<2x48xf32, strides = [48, 1]>
// A concat along rows in stream chunks cannot be honoured (the decomposition gathers the
// device split, not the chunks): a diagnostic naming the op and the axis.
// RUN: sed 's/\[\[DIDx\], \[\]\]/[[DIDx, Stream(2)], []]/g' %s | not fuser-run - --ranks 4 --check 2>&1 | FileCheck %s --check-prefix=STREAMCAT
// STREAMCAT: error: 'fusion.concat' reads axis 0 of operand #0 whole, but axis 0 of operand #0 is split [Stream(2)]
// CHECK: check: PASS (max rel err 0.000e0)

// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{fuse=false})' | FileCheck %s --check-prefix=LOWER
// LOWER:      %[[Q:.*]] = host.slice %arg0[0, 0] [2, 16] [1, 1] : !host.buf<2x48xf32> -> !host.view<2x16xf32, strides = [48, 1]>
// LOWER-NEXT: host.copy %[[Q]], %{{.*}} : !host.view<2x16xf32, strides = [48, 1]>, !host.buf<2x16xf32>
// LOWER:      host.slice %arg0[0, 16] [2, 16] [1, 1]
// LOWER:      host.slice %arg0[0, 32] [2, 16] [1, 1]
// The concat of -q2 and q1: each copied into its half of the result.
// LOWER:      host.elementwise neg %{{.*}} into %[[NQ2:.*]] :
// LOWER:      %[[LO:.*]] = host.slice %[[ROT:.*]][0, 0] [2, 8] [1, 1] : !host.buf<2x16xf32> -> !host.view<2x8xf32, strides = [16, 1]>
// LOWER-NEXT: host.copy %[[NQ2]], %[[LO]]
// LOWER:      %[[HI:.*]] = host.slice %[[ROT]][0, 8] [2, 8] [1, 1]
// LOWER-NEXT: host.copy %{{.*}}, %[[HI]]
// LOWER:      host.slice %arg0[0, 1] [2, 24] [1, 2] : !host.buf<2x48xf32> -> !host.view<2x24xf32, strides = [48, 2]>
// The concat of k and v along the rows, which are split: both are gathered first.
// LOWER:      comm.allgather
// LOWER:      comm.allgather
// LOWER:      host.slice %{{.*}}[0, 0] [8, 16] [1, 1] : !host.buf<16x16xf32>
// LOWER:      host.slice %{{.*}}[8, 0] [8, 16] [1, 1] : !host.buf<16x16xf32>
// The check sees a window off by one column.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | sed 's/host.slice %arg0\[0, 16\] \[2, 16\]/host.slice %arg0[0, 17] [2, 16]/' | not fuser-run - --ranks 4 --check --reference %s | FileCheck %s --check-prefix=WRONG
// WRONG: check: FAIL

fusion.mesh @tp = [0, 1, 2, 3]
func.func @qkv(%qkv: tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>)
    -> (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>,
        tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x24xf32, #fusion.shard<@tp, [[DIDx], []]>>,
        tensor<16x16xf32, #fusion.shard<@tp, [[], []]>>) {
  %q = fusion.slice %qkv offsets = [0, 0] sizes = [8, 16] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %k = fusion.slice %qkv offsets = [0, 16] sizes = [8, 16] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %v = fusion.slice %qkv offsets = [0, 32] sizes = [8, 16] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %q1 = fusion.slice %q offsets = [0, 0] sizes = [8, 8] : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %q2 = fusion.slice %q offsets = [0, 8] sizes = [8, 8] : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %nq2 = fusion.neg %q2 : (tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %rot = fusion.concat %nq2, %q1 dim = 1 : (tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %odd = fusion.slice %qkv offsets = [0, 1] sizes = [8, 24] strides = [1, 2] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x24xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %kv = fusion.concat %k, %v dim = 0 : (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<16x16xf32, #fusion.shard<@tp, [[], []]>>
  return %q, %k, %rot, %odd, %kv : tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>,
      tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x24xf32, #fusion.shard<@tp, [[DIDx], []]>>,
      tensor<16x16xf32, #fusion.shard<@tp, [[], []]>>
}
