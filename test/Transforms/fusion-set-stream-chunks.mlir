// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-set-stream-chunks{chunks=6}))' | FileCheck %s
// RUN: fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-set-stream-chunks))' | FileCheck %s --check-prefix=SAME
// RUN: not fuser-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(fusion-set-stream-chunks{chunks=5}))' 2>&1 | FileCheck %s --check-prefix=BAD

// Every Stream split takes the new count, in the signature and in op results; device splits stay.
fusion.mesh @tp = [0, 1]
// CHECK-LABEL: func.func @f
// CHECK-SAME:  tensor<48x8xf32, #fusion.shard<@tp, {{\[\[}}Stream(6)], [DIDx{{\]\]}}>>
// CHECK:       fusion.neg {{.*}} -> tensor<48x8xf32, #fusion.shard<@tp, {{\[\[}}Stream(6)], [DIDx{{\]\]}}>>
// SAME:        fusion.neg {{.*}} -> tensor<48x8xf32, #fusion.shard<@tp, {{\[\[}}Stream(3)], [DIDx{{\]\]}}>>
// BAD:         error: 5 stream chunks do not divide axis 0 of extent 48 (with its other splits)
func.func @f(%a: tensor<48x8xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>) -> tensor<48x8xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>> {
  %0 = fusion.neg %a : (tensor<48x8xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>) -> tensor<48x8xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>
  return %0 : tensor<48x8xf32, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>
}
