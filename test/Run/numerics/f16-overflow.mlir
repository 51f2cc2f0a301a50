// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 1 --input-values 0=300,-300,251,0.5 --input-values 1=300,300,257,0.25 --input-values 2=70000,65519,65520,-1e6 --check --print-outputs | FileCheck %s
// CHECK: output #0 (f16 [4]): inf -inf 64512 0.125
// CHECK: output #1 (f16 [4]): inf 65504 inf -inf
// CHECK: check: PASS
//
// f16 arithmetic rounds every result to f16, overflowing to infinity (issue 22, 3b: the run
// gave inf for 300 * 300 and the f64 reference 90000, so --check failed); casts to f16 round
// to nearest even with overflow to infinity (65519 -> 65504, 65520 -> inf).
fusion.mesh @m = [0]
func.func @f16(%a: tensor<4xf16, #fusion.shard<@m, [[]]>>, %b: tensor<4xf16, #fusion.shard<@m, [[]]>>, %c: tensor<4xf32, #fusion.shard<@m, [[]]>>) -> (tensor<4xf16, #fusion.shard<@m, [[]]>>, tensor<4xf16, #fusion.shard<@m, [[]]>>) {
  %p = fusion.mul %a, %b : (tensor<4xf16, #fusion.shard<@m, [[]]>>, tensor<4xf16, #fusion.shard<@m, [[]]>>) -> tensor<4xf16, #fusion.shard<@m, [[]]>>
  %h = fusion.cast %c : (tensor<4xf32, #fusion.shard<@m, [[]]>>) -> tensor<4xf16, #fusion.shard<@m, [[]]>>
  return %p, %h : tensor<4xf16, #fusion.shard<@m, [[]]>>, tensor<4xf16, #fusion.shard<@m, [[]]>>
}
