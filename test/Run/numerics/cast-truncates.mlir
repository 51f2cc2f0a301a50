// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 1 --input-values 0=2.5,-2.5,2.9,-2.9,1e10,-1e10,nan,-0.5 --check --print-outputs | FileCheck %s
// CHECK: output #0 (i32 [8]): 2 -2 2 -2 2147483647 -2147483648 0 0
// CHECK: output #1 (i8 [8]): 2 -2 2 -2 127 -128 0 0
// CHECK: check: PASS
//
// fusion.cast float -> integer truncates toward zero and saturates, NaN gives 0 (issue 22,
// 3a: the run and the reference rounded half away from zero, 2.5 -> 3, so --check agreed).
fusion.mesh @m = [0]
func.func @cast(%x: tensor<8xf32, #fusion.shard<@m, [[]]>>) -> (tensor<8xi32, #fusion.shard<@m, [[]]>>, tensor<8xi8, #fusion.shard<@m, [[]]>>) {
  %a = fusion.cast %x : (tensor<8xf32, #fusion.shard<@m, [[]]>>) -> tensor<8xi32, #fusion.shard<@m, [[]]>>
  %b = fusion.cast %x : (tensor<8xf32, #fusion.shard<@m, [[]]>>) -> tensor<8xi8, #fusion.shard<@m, [[]]>>
  return %a, %b : tensor<8xi32, #fusion.shard<@m, [[]]>>, tensor<8xi8, #fusion.shard<@m, [[]]>>
}
