// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 1 --input-values 0=100 --input-values 1=2 --input-values 2=100000,100000,1,2 --input-values 3=30000,30000,1,1 --input-values 4=2147483647,1 --check --print-outputs | FileCheck %s
// CHECK: output #0 (i8 [1, 1]): -112
// CHECK: output #1 (i32 [2, 2]): -442450945 200001 -2147393649 4
// CHECK: check: PASS
//
// Integer matmul and linear (+ bias) wrap: 100*2 + 100*2 = 400 is -112 in i8; products and the
// bias past 2^31 wrap in i32 (the cuda backend runs them with its wrapping integer GEMM).
fusion.mesh @m = [0]
func.func @gemm(%a: tensor<1x2xi8, #fusion.shard<@m, [[], []]>>, %b: tensor<2x1xi8, #fusion.shard<@m, [[], []]>>, %x: tensor<2x2xi32, #fusion.shard<@m, [[], []]>>, %w: tensor<2x2xi32, #fusion.shard<@m, [[], []]>>, %bias: tensor<2xi32, #fusion.shard<@m, [[]]>>) -> (tensor<1x1xi8, #fusion.shard<@m, [[], []]>>, tensor<2x2xi32, #fusion.shard<@m, [[], []]>>) {
  %c = fusion.matmul %a, %b : (tensor<1x2xi8, #fusion.shard<@m, [[], []]>>, tensor<2x1xi8, #fusion.shard<@m, [[], []]>>) -> tensor<1x1xi8, #fusion.shard<@m, [[], []]>>
  %y = fusion.linear %x, %w, %bias : (tensor<2x2xi32, #fusion.shard<@m, [[], []]>>, tensor<2x2xi32, #fusion.shard<@m, [[], []]>>, tensor<2xi32, #fusion.shard<@m, [[]]>>) -> tensor<2x2xi32, #fusion.shard<@m, [[], []]>>
  return %c, %y : tensor<1x1xi8, #fusion.shard<@m, [[], []]>>, tensor<2x2xi32, #fusion.shard<@m, [[], []]>>
}
