// REQUIRES: fuser-run
// RUN: fuser-run %s --ranks 2 --check | FileCheck %s
// RUN: sed 's/@tp = \[0, 1\]/@tp = [0]/' %s | fuser-run - --ranks 1 --check --seed 2 | FileCheck %s
// RUN: sed 's/xf32/xbf16/g' %s | fuser-run - --ranks 2 --check --seed 3 | FileCheck %s
// RUN: fuser-run %s --ranks 2 --check --pass-pipeline 'tp-default{streams=2}' --seed 4 | FileCheck %s
// CHECK: check: PASS
//
// A Megatron attention block with grouped-query heads (4 query heads, 2 key/value heads, head
// dimension 16) at d = 2: column-parallel q/k/v projections (heads over DIDx), heads moved in
// front by reshape/permute, causal sdpa on each rank's heads, back to [S, E] split by columns,
// a row-parallel output projection (partial sums, then the allreduce).
fusion.mesh @tp = [0, 1]
func.func @attn(%x: tensor<16x64xf32, #fusion.shard<@tp, [[], []]>>,
                %wq: tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                %wk: tensor<32x64xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                %wv: tensor<32x64xf32, #fusion.shard<@tp, [[DIDx], []]>>,
                %wo: tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<16x64xf32, #fusion.shard<@tp, [[], []]>> {
  %q = fusion.linear %x, %wq : (tensor<16x64xf32, #fusion.shard<@tp, [[], []]>>, tensor<64x64xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %k = fusion.linear %x, %wk : (tensor<16x64xf32, #fusion.shard<@tp, [[], []]>>, tensor<32x64xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %v = fusion.linear %x, %wv : (tensor<16x64xf32, #fusion.shard<@tp, [[], []]>>, tensor<32x64xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %q3 = fusion.reshape %q : (tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<16x4x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
  %k3 = fusion.reshape %k : (tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<16x2x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
  %v3 = fusion.reshape %v : (tensor<16x32xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<16x2x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
  %qp = fusion.permute %q3 dims = [1, 0, 2] : (tensor<16x4x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>) -> tensor<4x16x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>
  %kp = fusion.permute %k3 dims = [1, 0, 2] : (tensor<16x2x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>) -> tensor<2x16x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>
  %vp = fusion.permute %v3 dims = [1, 0, 2] : (tensor<16x2x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>) -> tensor<2x16x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>
  %q4 = fusion.reshape %qp : (tensor<4x16x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>) -> tensor<1x4x16x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>
  %k4 = fusion.reshape %kp : (tensor<2x16x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>) -> tensor<1x2x16x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>
  %v4 = fusion.reshape %vp : (tensor<2x16x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>) -> tensor<1x2x16x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>
  %a = fusion.sdpa %q4, %k4, %v4 causal : (tensor<1x4x16x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x16x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>, tensor<1x2x16x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>) -> tensor<1x4x16x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>
  %a3 = fusion.reshape %a : (tensor<1x4x16x16xf32, #fusion.shard<@tp, [[], [DIDx], [], []]>>) -> tensor<4x16x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>
  %ap = fusion.permute %a3 dims = [1, 0, 2] : (tensor<4x16x16xf32, #fusion.shard<@tp, [[DIDx], [], []]>>) -> tensor<16x4x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>
  %a2 = fusion.reshape %ap : (tensor<16x4x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>) -> tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %y = fusion.linear %a2, %wo : (tensor<16x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<64x64xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<16x64xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<16x64xf32, #fusion.shard<@tp, [[], []]>>
}
