// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 1 --input-values 0=1.0004882812509095,-1.0004882812509095 --input-values 1=16842753,-16842753 --input-values 2=100,100,100,100,100,100,100,-1 --check --print-outputs | FileCheck %s
// CHECK: output #0 (f16 [2]): 1.0009765625 -1.0009765625
// CHECK: output #1 (bf16 [2]): 16908288 -16908288
// CHECK: output #2 (i8 [2]): -112 43
// CHECK: check: PASS
//
// Conversions round once: f64 1 + 2^-11 + 2^-40 lies just above a tie of f16 and rounds up
// (through f32 it would land on the tie and round to even, 1.0); i32 2^24 + 2^16 + 1 to bf16
// likewise. An i8 sum over 4 rows wraps (400 -> -112).
fusion.mesh @m = [0]
func.func @once(%a: tensor<2xf64, #fusion.shard<@m, [[]]>>, %b: tensor<2xi32, #fusion.shard<@m, [[]]>>, %c: tensor<4x2xi8, #fusion.shard<@m, [[], []]>>) -> (tensor<2xf16, #fusion.shard<@m, [[]]>>, tensor<2xbf16, #fusion.shard<@m, [[]]>>, tensor<2xi8, #fusion.shard<@m, [[]]>>) {
  %h = fusion.cast %a : (tensor<2xf64, #fusion.shard<@m, [[]]>>) -> tensor<2xf16, #fusion.shard<@m, [[]]>>
  %g = fusion.cast %b : (tensor<2xi32, #fusion.shard<@m, [[]]>>) -> tensor<2xbf16, #fusion.shard<@m, [[]]>>
  %s = fusion.sum %c dims = [0] : (tensor<4x2xi8, #fusion.shard<@m, [[], []]>>) -> tensor<2xi8, #fusion.shard<@m, [[]]>>
  return %h, %g, %s : tensor<2xf16, #fusion.shard<@m, [[]]>>, tensor<2xbf16, #fusion.shard<@m, [[]]>>, tensor<2xi8, #fusion.shard<@m, [[]]>>
}
