// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Round trip of fusion.slice and fusion.concat: the QKV split of a fused projection, strided
// slices, and the rotary halves joined back.

fusion.mesh @tp = [0, 1]

// CHECK-LABEL: func.func @qkv
// CHECK:      %[[Q:.*]] = fusion.slice %arg0 offsets = [0, 0] sizes = [8, 16] : (tensor<8x48xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK-NEXT: fusion.slice %arg0 offsets = [0, 16] sizes = [8, 16] : (tensor<8x48xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK-NEXT: fusion.slice %arg0 offsets = [0, 32] sizes = [8, 16] {note = "v"} : (tensor<8x48xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// CHECK-NEXT: fusion.slice %arg0 offsets = [1, 1] sizes = [4, 24] strides = [2, 2] : (tensor<8x48xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<4x24xf32>
// GENERIC-LABEL: sym_name = "qkv"
// GENERIC:      "fusion.slice"(%{{arg[0-9]+}}) <{offsets = array<i64: 0, 0>, sizes = array<i64: 8, 16>}> : (tensor<8x48xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, {{\[\[}}DIDx], []]>>
// GENERIC:      "fusion.slice"(%{{arg[0-9]+}}) <{offsets = array<i64: 0, 32>, sizes = array<i64: 8, 16>}> {note = "v"}
// GENERIC:      "fusion.slice"(%{{arg[0-9]+}}) <{offsets = array<i64: 1, 1>, sizes = array<i64: 4, 24>, strides = array<i64: 2, 2>}>
func.func @qkv(%qkv: tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> (tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x24xf32>) {
  %q = fusion.slice %qkv offsets = [0, 0] sizes = [8, 16] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %k = fusion.slice %qkv offsets = [0, 16] sizes = [8, 16] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %v = fusion.slice %qkv offsets = [0, 32] sizes = [8, 16] {note = "v"} : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>
  %e = fusion.slice %qkv offsets = [1, 1] sizes = [4, 24] strides = [2, 2] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x24xf32>
  return %q, %k, %v, %e : tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4x24xf32>
}

// CHECK-LABEL: func.func @rotary_halves
// CHECK:      fusion.concat %{{.*}}, %{{.*}} dim = 1 : (tensor<8x8xbf16>, tensor<8x8xbf16>) -> tensor<8x16xbf16>
// CHECK-NEXT: fusion.concat %arg0 dim = 0 : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
// CHECK-NEXT: fusion.concat %arg0, %arg0, %arg0 dim = 0 : (tensor<8x16xbf16>, tensor<8x16xbf16>, tensor<8x16xbf16>) -> tensor<24x16xbf16>
// GENERIC-LABEL: sym_name = "rotary_halves"
// GENERIC:      "fusion.concat"(%{{.*}}, %{{.*}}) <{dim = 1 : i64}> : (tensor<8x8xbf16>, tensor<8x8xbf16>) -> tensor<8x16xbf16>
func.func @rotary_halves(%x: tensor<8x16xbf16>) -> (tensor<8x16xbf16>, tensor<8x16xbf16>, tensor<24x16xbf16>) {
  %x1 = fusion.slice %x offsets = [0, 0] sizes = [8, 8] : (tensor<8x16xbf16>) -> tensor<8x8xbf16>
  %x2 = fusion.slice %x offsets = [0, 8] sizes = [8, 8] : (tensor<8x16xbf16>) -> tensor<8x8xbf16>
  %r = fusion.concat %x2, %x1 dim = 1 : (tensor<8x8xbf16>, tensor<8x8xbf16>) -> tensor<8x16xbf16>
  %one = fusion.concat %x dim = 0 : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
  %three = fusion.concat %x, %x, %x dim = 0 : (tensor<8x16xbf16>, tensor<8x16xbf16>, tensor<8x16xbf16>) -> tensor<24x16xbf16>
  return %r, %one, %three : tensor<8x16xbf16>, tensor<8x16xbf16>, tensor<24x16xbf16>
}
