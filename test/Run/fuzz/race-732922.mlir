// A race-checker false positive of the same class as race-770669.mlir.
// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 732922 --count 1`), shrunk:
// race with builtin.module(tp-default{streams=4}) on 5 rank(s), input seed 732922.
// message: 'host.copy' at <fuzz>:4:9: rank 0: race on buffer #602613 elements [50, 100): host.elementwise at <fuzz>:3:9 on rank 0 stream 1 writes, host.copy at <fuzz>:4:9 on rank 0 stream 2 reads without ordering

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=4})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 5 --seed 732922 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=4})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0, 1, 2, 3, 4]
func.func @fuzz(%a0: tensor<5x10x10xf32, #fusion.shard<@m, [[], [], []]>>, %a1: tensor<5x10x1xf32, #fusion.shard<@m, [[DIDx], [], []]>>, %a2: tensor<10x10xf32, #fusion.shard<@m, [[], []]>>, %a3: tensor<1x10x1xf32, #fusion.shard<@m, [[], [], []]>>, %a4: tensor<10x1xf32, #fusion.shard<@m, [[], []]>>, %a5: tensor<10x10xf32, #fusion.shard<@m, [[], []]>>) -> (tensor<1x10x10xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1x10x10xf32, #fusion.shard<@m, [[], [], []]>>, tensor<5x10x10xf32, #fusion.shard<@m, [[], [Stream(2)], []]>>) {
  %v0 = fusion.neg %a0 : (tensor<5x10x10xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<5x10x10xf32, #fusion.shard<@m, [[], [Stream(2)], []]>>
  %v1 = fusion.matmul %v0, %a1 : (tensor<5x10x10xf32, #fusion.shard<@m, [[], [Stream(2)], []]>>, tensor<5x10x1xf32, #fusion.shard<@m, [[DIDx], [], []]>>) -> tensor<5x10x1xf32>
  %v2 = fusion.sum %v1 dims = [1] : (tensor<5x10x1xf32>) -> tensor<5x1xf32>
  %v3 = fusion.linear %a0, %a2 : (tensor<5x10x10xf32, #fusion.shard<@m, [[], [], []]>>, tensor<10x10xf32, #fusion.shard<@m, [[], []]>>) -> tensor<5x10x10xf32>
  %v4 = fusion.linear %a3, %a4 : (tensor<1x10x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<10x1xf32, #fusion.shard<@m, [[], []]>>) -> tensor<1x10x10xf32, #fusion.shard<@m, [[], [], []]>>
  %v5 = fusion.matmul %v4, %a5 : (tensor<1x10x10xf32, #fusion.shard<@m, [[], [], []]>>, tensor<10x10xf32, #fusion.shard<@m, [[], []]>>) -> tensor<1x10x10xf32, #fusion.shard<@m, [[], [], []]>>
  return %v5, %v4, %v0 : tensor<1x10x10xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1x10x10xf32, #fusion.shard<@m, [[], [], []]>>, tensor<5x10x10xf32, #fusion.shard<@m, [[], [Stream(2)], []]>>
}
