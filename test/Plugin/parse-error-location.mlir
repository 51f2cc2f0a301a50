// REQUIRES: mlir-plugin, mlir-opt
// What fuser refuses when it reads the op MLIR handed over (here `Stream(0)` inside a
// sharding, an opaque attribute for MLIR) is reported at the user's op, file, line and column
// (the location MLIR printed with the op), not at a position in the plugin's internal text.

// RUN: mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --verify-diagnostics --pass-pipeline='builtin.module(func.func(fuser-fusion-to-host))' %s
// RUN: not mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(fuser-fusion-to-host))' %s 2>&1 | FileCheck %s
// CHECK-NOT: <mlir>
// CHECK: parse-error-location.mlir:[[# @LINE + 8]]:10: error: Stream split of axis 0 must have a positive chunk count, got 0
// CHECK-NOT: <mlir>

"builtin.module"() ({
  "fusion.mesh"() <{devices = array<i64: 0>, shape = array<i64: 1>, sym_name = "one"}> : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> (), sym_name = "zero_chunks"}> ({
  ^bb0(%arg0: tensor<4x8xf32, #fusion.shard<@one, [[], []]>>):
    // expected-error @+1 {{Stream split of axis 0 must have a positive chunk count, got 0}}
    %0 = "fusion.set"(%arg0) : (tensor<4x8xf32, #fusion.shard<@one, [[], []]>>) -> tensor<4x8xf32, #fusion.shard<@one, [[Stream(0)], []]>>
    "test.use"(%0) : (tensor<4x8xf32, #fusion.shard<@one, [[Stream(0)], []]>>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
