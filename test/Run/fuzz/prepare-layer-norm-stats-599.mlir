// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed 599 --count 1`), shrunk:
// prepare with builtin.module(tp-default{streams=1}) on 1 rank(s), input seed 599.
// message: kernel 'layer_norm': output #2 must be f32 [1], got f32 [2]
// layer_norm's result #0 is computed in a stream loop (Stream(2) on axis 0); its statistics
// result #2 is annotated without the stream split and unused, and fusion-to-host allocated it
// with its own (unstreamed) chunk shape while the kernel writes result 0's chunk: prepare
// refused the kernel's output shape. A secondary result not streamed as result #0 is now written
// through a view of its whole buffer along result #0's stream axis.

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default{streams=1})' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func @fuzz
// RUN: fuser-run %s --ranks 1 --seed 599 --timeout 10 --check --check-races --pass-pipeline 'builtin.module(tp-default{streams=1})' | FileCheck %s
// CHECK: check: PASS

fusion.mesh @m = [0]
func.func @fuzz(%a0: tensor<2x1xf32, #fusion.shard<@m, [[], []]>>) -> (tensor<2x1xf32, #fusion.shard<@m, [[Stream(2)], []]>>) {
  %v0, %v0r1, %v0r2 = fusion.layer_norm %a0 dims = [1] : (tensor<2x1xf32, #fusion.shard<@m, [[], []]>>) -> (tensor<2x1xf32, #fusion.shard<@m, [[Stream(2)], []]>>, tensor<2xf32, #fusion.shard<@m, [[Stream(2)]]>>, tensor<2xf32, #fusion.shard<@m, [[]]>>)
  return %v0 : tensor<2x1xf32, #fusion.shard<@m, [[Stream(2)], []]>>
}
