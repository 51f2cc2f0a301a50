// REQUIRES: fuser-run
// The elementwise math ops (fusion/math.rs) on inputs split over 4, 2 and 1 devices match the
// unsharded reference: the unary float functions, maximum/minimum/pow, compare (an i1 output)
// feeding where, abs on integers, and a full sharded like its consumer.
// RUN: fuser-run %s --ranks 4 --check | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1]/' %s | fuser-run - --ranks 2 --check | FileCheck %s
// RUN: sed 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0]/' %s | fuser-run - --ranks 1 --check | FileCheck %s
// RUN: sed 's/f32/bf16/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed -e 's/f32/f16/g' -e 's/fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [0, 1]/' %s | fuser-run - --ranks 2 --check | FileCheck %s

// CHECK: check: PASS

fusion.mesh @tp = [0, 1, 2, 3]
func.func @math(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %y: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, %k: tensor<8xi32, #fusion.shard<@tp, [[DIDx]]>>)
    -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xi1>, tensor<8xi32>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) {
  %ax = fusion.abs %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %e = fusion.exp %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %l = fusion.log %ax : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %t = fusion.tanh %y : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %r = fusion.erf %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %s = fusion.sqrt %ax : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %q = fusion.rsqrt %e : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %g = fusion.sigmoid %y : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %c = fusion.reciprocal %e : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %u = fusion.silu %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %ge = fusion.gelu %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %gt = fusion.gelu %y {approximate = "tanh"} : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %p = fusion.pow %e, %y : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %mx = fusion.maximum %l, %t : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %mn = fusion.minimum %r, %s : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %a1 = fusion.add %mx, %mn : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %a2 = fusion.add %q, %g : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %a3 = fusion.add %c, %u : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %a4 = fusion.add %ge, %gt : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %a5 = fusion.add %a3, %a4 : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32>
  %cmp = fusion.compare lt %x, %y : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xi1, #fusion.shard<@tp, [[DIDx], []]>>
  %w = fusion.where %cmp, %p, %a1 : (tensor<8x4xi1, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32>
  %cg = fusion.set %cmp : (tensor<8x4xi1, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xi1>
  %ak = fusion.abs %k : (tensor<8xi32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<8xi32>
  %f = fusion.full {value = 2.5 : f32} : () -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %fy = fusion.mul %f, %a2 : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %out = fusion.set %a2 : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32>
  return %w, %a5, %out, %cg, %ak, %fy : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xi1>, tensor<8xi32>, tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}
