// REQUIRES: fuser-run
// RUN: fuser-run %s --check | FileCheck %s
// RUN: fuser-run %s --check --pass-pipeline 'builtin.module(tp-default{fuse=false})' | FileCheck %s
// CHECK: check: PASS
//
// Found by fusion-autodiff's sweep (this is the @fuzz_vjp of
// test/Run/fuzz/fused-dead-norm-922105.mlir): host-fuse made a host.fused region that the
// runtime refused, 'host.fused: input #3: a value of shape [1] fits neither the domain
// [1, 1, 1] nor its rows or columns': a layer_norm gave the group its inner axes, a chain on
// the rows ([1]) joined as a row member, then the norm was dropped as dead. Now such a group is
// left unfused. With fuse=false it passed before.
module {
  fusion.mesh @m = [0]
  func.func @fuzz_vjp(%arg0: tensor<1xf32, #fusion.shard<@m, [[]]>>, %arg1: tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, %arg2: tensor<1x1xf32, #fusion.shard<@m, [[], []]>>, %arg3: tensor<1x1xf32, #fusion.shard<@m, [[], []]>>, %arg4: tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, %arg5: tensor<1xf32, #fusion.shard<@m, [[]]>>, %arg6: tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>) -> (tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>, tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>, tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1x1xf32, #fusion.shard<@m, [[], []]>>, tensor<1x1xf32, #fusion.shard<@m, [[], []]>>) {
    %0 = fusion.add %arg0, %arg0 : (tensor<1xf32, #fusion.shard<@m, [[]]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>) -> tensor<1xf32, #fusion.shard<@m, [[]]>>
    %1 = fusion.sum %arg1 dims = [0, 1, 2] keep_dims : (tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>
    %2 = fusion.cast %1 : (tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<1x1x1xf32>
    %3 = fusion.layer_norm %2 weight %arg2 bias %arg3 dims = [1, 2] : (tensor<1x1x1xf32>, tensor<1x1xf32, #fusion.shard<@m, [[], []]>>, tensor<1x1xf32, #fusion.shard<@m, [[], []]>>) -> tensor<1x1x1xf32>
    %4 = fusion.set %1 : (tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>
    %5 = fusion.add %arg6, %arg4 : (tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>) -> tensor<1x1x1xf32>
    %6 = fusion.reshape %5 : (tensor<1x1x1xf32>) -> tensor<f32>
    %7 = fusion.broadcast %6 dims = [0, 1, 2] : (tensor<f32>) -> tensor<1x1x1xf32>
    %8 = fusion.add %arg5, %arg5 : (tensor<1xf32, #fusion.shard<@m, [[]]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>) -> tensor<1xf32>
    %9 = fusion.set %8 : (tensor<1xf32>) -> tensor<1xf32, #fusion.shard<@m, [[]]>>
    %10 = fusion.set %7 : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>
    %11 = fusion.full {value = 0.000000e+00 : f32} : () -> tensor<1x1xf32>
    %12 = fusion.set %11 : (tensor<1x1xf32>) -> tensor<1x1xf32, #fusion.shard<@m, [[], []]>>
    %13 = fusion.full {value = 0.000000e+00 : f32} : () -> tensor<1x1xf32>
    %14 = fusion.set %13 : (tensor<1x1xf32>) -> tensor<1x1xf32, #fusion.shard<@m, [[], []]>>
    return %4, %0, %1, %9, %10, %12, %14 : tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>, tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1xf32, #fusion.shard<@m, [[]]>>, tensor<1x1x1xf32, #fusion.shard<@m, [[], [], []]>>, tensor<1x1xf32, #fusion.shard<@m, [[], []]>>, tensor<1x1xf32, #fusion.shard<@m, [[], []]>>
  }
}
