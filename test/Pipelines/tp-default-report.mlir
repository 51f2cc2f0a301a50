// tp-default{report=true}: fusion-to-host{report=true} inside tp-default, one remark per GEMM
// naming the overlap it got (as the overlap pipelines' report=true; python's
// ImportedModule.report() reads these). Without stream chunks tp-default gives none, and says
// why; a program written with Stream splits keeps them (tp-default chunks nothing itself).

// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{report=true})' -o /dev/null 2>&1 | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty

// QUIET-NOT: remark

fusion.mesh @tp = [0, 1]

func.func @column_then_row(%x: tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>, %w1: tensor<32x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, %w2: tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>> {
// CHECK: tp-default-report.mlir:[[# @LINE + 1]]:8: remark: overlap: fusion.linear: none (not stream-chunked: its result is {{\[\[\], \[DIDx\]\]}}; no collective next to it)
  %h = fusion.linear %x, %w1 : (tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>, tensor<32x16xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>
// CHECK: tp-default-report.mlir:[[# @LINE + 1]]:8: remark: overlap: fusion.linear: none (not stream-chunked: {{.*}}; its result goes to an allreduce run whole)
  %y = fusion.linear %h, %w2 : (tensor<8x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<8x16xf32, #fusion.shard<@tp, [[], []]>>
}

func.func @chunked_reduce_scatter(%x: tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, %w: tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>> {
// CHECK: tp-default-report.mlir:[[# @LINE + 1]]:8: remark: overlap: fusion.linear: GEMM+RS (reduce_scatter per chunk), in a loop of 2 stream chunks
  %y = fusion.linear %x, %w : (tensor<64x48xf32, #fusion.shard<@tp, [[Stream(2)], [DIDx]]>>, tensor<24x48xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>
  return %y : tensor<64x24xf32, #fusion.shard<@tp, [[Stream(2), DIDx], []]>>
}
