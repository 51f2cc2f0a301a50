// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 1063 --count 1`), shrunk:
// race with builtin.module(tp-overlap-collective{streams=2 chunks=2}) on 1 rank(s), input seed 1063.
// message: 'host.elementwise' at <fuzz>:3:9: rank 0: race on buffer #322 elements [3, 15): host.elementwise at <fuzz>:3:9 on rank 0 stream 1 writes, host.elementwise at <fuzz>:3:9 on rank 0 stream 2 writes without ordering

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-overlap-collective{streams=2 chunks=2})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 1063 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-overlap-collective{streams=2 chunks=2})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<3x6x1xf32, #fusion.shard<@m, [[], [], []]>>) -> (tensor<3x6x1xf32, #fusion.shard<@m, [[], [Stream(3)], []]>>) {
  %v0 = fusion.sub %a0, %a0 : (tensor<3x6x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<3x6x1xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<3x6x1xf32, #fusion.shard<@m, [[], [Stream(3)], []]>>
  return %v0 : tensor<3x6x1xf32, #fusion.shard<@m, [[], [Stream(3)], []]>>
}
