// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 1 --input-values 0=7,-7,7,-7,5,-2147483648,1,0 --input-values 1=2,2,-2,-2,0,-1,3,0 --check --print-outputs | FileCheck %s
// CHECK: output #0 (i32 [8]): 3 -3 -3 3 -1 -2147483648 0 -1
// CHECK: check: PASS
//
// Integer division truncates toward zero (arith.divsi; issue 22, 3b: 7 / 2 was 4 in the run and
// 3.5 in the reference, so --check failed a correct program); x / 0 = -1, MIN / -1 = MIN.
fusion.mesh @m = [0]
func.func @div(%x: tensor<8xi32, #fusion.shard<@m, [[]]>>, %y: tensor<8xi32, #fusion.shard<@m, [[]]>>) -> tensor<8xi32, #fusion.shard<@m, [[]]>> {
  %q = fusion.div %x, %y : (tensor<8xi32, #fusion.shard<@m, [[]]>>, tensor<8xi32, #fusion.shard<@m, [[]]>>) -> tensor<8xi32, #fusion.shard<@m, [[]]>>
  return %q : tensor<8xi32, #fusion.shard<@m, [[]]>>
}
