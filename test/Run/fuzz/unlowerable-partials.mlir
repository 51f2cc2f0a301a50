// Programs the lowering used to get wrong, now refused with a diagnostic (fuser-lowerfuzz).
// RUN: not fuser-opt %s --split-input-file --pass-pipeline='builtin.module(tp-default)' 2>&1 | FileCheck %s

// A linear with a bias annotated `partial`: every rank added the bias to its shard (seed
// 700151).
// CHECK: error: a linear with a bias cannot produce a partial result (every rank would add the bias)
fusion.mesh @m = [0, 1]
func.func @linear_bias_partial(%a0: tensor<2x2xf32, #fusion.shard<@m, [[], [DIDx]]>>, %a1: tensor<2x2xf32, #fusion.shard<@m, [[], [DIDx]]>>, %a2: tensor<2xf32, #fusion.shard<@m, [[]]>>) -> (tensor<2x2xf32, #fusion.shard<@m, [[], []], partial = [DIDx]>>) {
  %v0 = fusion.linear %a0, %a1, %a2 : (tensor<2x2xf32, #fusion.shard<@m, [[], [DIDx]]>>, tensor<2x2xf32, #fusion.shard<@m, [[], [DIDx]]>>, tensor<2xf32, #fusion.shard<@m, [[]]>>) -> tensor<2x2xf32, #fusion.shard<@m, [[], []], partial = [DIDx]>>
  return %v0 : tensor<2x2xf32, #fusion.shard<@m, [[], []], partial = [DIDx]>>
}

// -----

// A partial value's reduction changed by a set (min to sum): lowered as a plain copy, so the
// sum of the min-shards came out (seed 722174).
// CHECK: error: changing the reduction of a partial value (min to sum) is not lowerable; reduce it first
fusion.mesh @m = [0, 1]
func.func @min_to_sum(%a0: tensor<1x1xf32, #fusion.shard<@m, [[], []], partial = [DIDx], reduce = min>>) -> (tensor<1x1xf32, #fusion.shard<@m, [[], []], partial = [DIDx]>>) {
  %v0 = fusion.set %a0 : (tensor<1x1xf32, #fusion.shard<@m, [[], []], partial = [DIDx], reduce = min>>) -> tensor<1x1xf32, #fusion.shard<@m, [[], []], partial = [DIDx]>>
  return %v0 : tensor<1x1xf32, #fusion.shard<@m, [[], []], partial = [DIDx]>>
}

// -----

// A contraction annotated as a partial *min*: its shards are partial sums, read as min-shards
// they gave another value (seed 2000066).
// CHECK: error: the op's partial result combines by sum, but it is annotated `reduce = min`; not lowerable
fusion.mesh @m = [0, 1]
func.func @sum_read_as_min(%a0: tensor<1x2xf32, #fusion.shard<@m, [[], [DIDx]]>>, %a1: tensor<2x2xf32, #fusion.shard<@m, [[DIDx], []]>>) -> (tensor<1x2xf32, #fusion.shard<@m, [[], []], partial = [DIDx], reduce = min>>) {
  %v0 = fusion.matmul %a0, %a1 : (tensor<1x2xf32, #fusion.shard<@m, [[], [DIDx]]>>, tensor<2x2xf32, #fusion.shard<@m, [[DIDx], []]>>) -> tensor<1x2xf32, #fusion.shard<@m, [[], []], partial = [DIDx], reduce = min>>
  return %v0 : tensor<1x2xf32, #fusion.shard<@m, [[], []], partial = [DIDx], reduce = min>>
}
