// A matmul whose contracted axis is split `[Stream(3), DIDx]` in one operand (rows
// interleaved over the ranks) and `[DIDx]` in the other (blocks): each rank's partial sum
// paired different indices of the two operands (rel err 0.22, fuser-lowerfuzz seed 900255).
// The contracting operands must split their contracted axes alike; otherwise the lowering
// refuses the program.
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(tp-default)' 2>&1 | FileCheck %s
// CHECK: error: 'fusion.matmul' is not local: its contracted axes are split [Stream(3), DIDx] in operand #0 but [DIDx] in operand #1; a fusion.set must reshard one of them

fusion.mesh @m = [0, 1]
func.func @fuzz(%a0: tensor<6xf32, #fusion.shard<@m, [[Stream(3), DIDx]]>>, %a1: tensor<6x1xf32, #fusion.shard<@m, [[DIDx], []]>>) -> (tensor<6x1xf32, #fusion.shard<@m, [[], []]>>) {
  %v0 = fusion.broadcast %a0 dims = [1] : (tensor<6xf32, #fusion.shard<@m, [[Stream(3), DIDx]]>>) -> tensor<6x6xf32>
  %v1 = fusion.permute %v0 dims = [1, 0] : (tensor<6x6xf32>) -> tensor<6x6xf32>
  %v2 = fusion.matmul %v1, %a1 : (tensor<6x6xf32>, tensor<6x1xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<6x1xf32, #fusion.shard<@m, [[], []]>>
  return %v2 : tensor<6x1xf32, #fusion.shard<@m, [[], []]>>
}
