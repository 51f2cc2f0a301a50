// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 1 --input-values 0=100,-128,127,-100 --input-values 1=100,-1,1,-100 --input-values 2=4294967297,3 --input-values 3=4294967295,-3 --check --print-outputs | FileCheck %s
// CHECK: output #0 (i8 [4]): -56 127 -128 56
// CHECK: output #1 (i8 [4]): 16 -128 127 16
// CHECK: output #2 (i8 [4]): -100 -128 -127 100
// CHECK: output #3 (i64 [2]): -1 -9
// CHECK: check: PASS
//
// Integers wrap (two's complement) as in MLIR and torch (issue 22, 3b: i8 100 + 100 saturated
// to 127): add, mul, neg (-(-128) = -128) and an i64 product past 2^64.
fusion.mesh @m = [0]
func.func @wrap(%a: tensor<4xi8, #fusion.shard<@m, [[]]>>, %b: tensor<4xi8, #fusion.shard<@m, [[]]>>, %c: tensor<2xi64, #fusion.shard<@m, [[]]>>, %d: tensor<2xi64, #fusion.shard<@m, [[]]>>) -> (tensor<4xi8, #fusion.shard<@m, [[]]>>, tensor<4xi8, #fusion.shard<@m, [[]]>>, tensor<4xi8, #fusion.shard<@m, [[]]>>, tensor<2xi64, #fusion.shard<@m, [[]]>>) {
  %s = fusion.add %a, %b : (tensor<4xi8, #fusion.shard<@m, [[]]>>, tensor<4xi8, #fusion.shard<@m, [[]]>>) -> tensor<4xi8, #fusion.shard<@m, [[]]>>
  %p = fusion.mul %a, %b : (tensor<4xi8, #fusion.shard<@m, [[]]>>, tensor<4xi8, #fusion.shard<@m, [[]]>>) -> tensor<4xi8, #fusion.shard<@m, [[]]>>
  %n = fusion.neg %a : (tensor<4xi8, #fusion.shard<@m, [[]]>>) -> tensor<4xi8, #fusion.shard<@m, [[]]>>
  %q = fusion.mul %c, %d : (tensor<2xi64, #fusion.shard<@m, [[]]>>, tensor<2xi64, #fusion.shard<@m, [[]]>>) -> tensor<2xi64, #fusion.shard<@m, [[]]>>
  return %s, %p, %n, %q : tensor<4xi8, #fusion.shard<@m, [[]]>>, tensor<4xi8, #fusion.shard<@m, [[]]>>, tensor<4xi8, #fusion.shard<@m, [[]]>>, tensor<2xi64, #fusion.shard<@m, [[]]>>
}
