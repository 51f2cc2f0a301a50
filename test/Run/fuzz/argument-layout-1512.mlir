// An argument's layout belongs to the caller. %a1 is `[[DIDx], []]`; the linear's result asks
// for `[[Stream(3), DIDx], []]`, and backward propagation used to rewrite the argument to that
// layout, so the ranks read interleaved rows where the caller gave blocks, and the matmul that
// also uses %a1 contracted mismatched rows (wrong values, fuser-lowerfuzz seeds 1512, 1564).
// Propagation now adds a stream split to an argument only inside its device splits; this
// program needs a resharding that moves a Stream split across a device split, which is
// diagnosed.

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding))' | FileCheck %s --check-prefix=ARG
// ARG: func.func @fuzz({{.*}}, %arg1: tensor<6x6xf32, #fusion.shard<@m, {{\[\[}}DIDx], []]>>,
// RUN: not fuser-run %s --ranks 2 --check --pass-pipeline='builtin.module(tp-default{streams=1})' 2>&1 | FileCheck %s
// CHECK: error: 'fusion.linear' is not local: axis 0 of operand #0 is split [DIDx] but result axis 0 is split [Stream(3), DIDx]
// CHECK-NOT: check: FAIL

fusion.mesh @m = [0, 1]
func.func @fuzz(%a0: tensor<6x6xf32, #fusion.shard<@m, [[], [DIDx]]>>, %a1: tensor<6x6xf32, #fusion.shard<@m, [[DIDx], []]>>, %a2: tensor<6x6xf32, #fusion.shard<@m, [[], []]>>) -> (tensor<6x6xf32, #fusion.shard<@m, [[Stream(3), DIDx], []]>>, tensor<6x6xf32, #fusion.shard<@m, [[], []]>>) {
  %v0 = fusion.matmul %a0, %a1 : (tensor<6x6xf32, #fusion.shard<@m, [[], [DIDx]]>>, tensor<6x6xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<6x6xf32, #fusion.shard<@m, [[], []]>>
  %v1 = fusion.linear %a1, %a2 : (tensor<6x6xf32, #fusion.shard<@m, [[DIDx], []]>>, tensor<6x6xf32, #fusion.shard<@m, [[], []]>>) -> tensor<6x6xf32, #fusion.shard<@m, [[Stream(3), DIDx], []]>>
  return %v1, %v0 : tensor<6x6xf32, #fusion.shard<@m, [[Stream(3), DIDx], []]>>, tensor<6x6xf32, #fusion.shard<@m, [[], []]>>
}
