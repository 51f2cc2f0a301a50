// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Round trip of the elementwise math ops (fusion/math.rs): custom and generic forms.

fusion.mesh @tp = [0, 1, 2, 3]

// CHECK-LABEL: func.func @unary
// CHECK-NEXT: %[[E:.*]] = fusion.exp %arg0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: fusion.log %[[E]] : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: fusion.tanh
// CHECK-NEXT: fusion.erf
// CHECK-NEXT: fusion.sqrt
// CHECK-NEXT: fusion.rsqrt
// CHECK-NEXT: fusion.sigmoid
// CHECK-NEXT: fusion.abs
// CHECK-NEXT: fusion.reciprocal
// CHECK-NEXT: fusion.silu
// CHECK-NEXT: fusion.gelu %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: fusion.gelu %{{.*}} {approximate = "tanh"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: fusion.abs %arg1 : (tensor<4x8xi8, #fusion.shard<@tp, {{\[\[}}], [DIDx]]>>) -> tensor<4x8xi8, #fusion.shard<@tp, {{\[\[}}], [DIDx]]>>
// GENERIC-LABEL: sym_name = "unary"
// GENERIC: "fusion.exp"(%{{arg[0-9]+}}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// GENERIC: "fusion.gelu"(%{{.*}}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// GENERIC: "fusion.gelu"(%{{.*}}) <{approximate = "tanh"}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @unary(%a: tensor<4x8xf32>, %i: tensor<4x8xi8, #fusion.shard<@tp, [[], [DIDx]]>>) -> (tensor<4x8xf32>, tensor<4x8xi8, #fusion.shard<@tp, [[], [DIDx]]>>) {
  %0 = fusion.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = fusion.log %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = fusion.tanh %1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = fusion.erf %2 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = fusion.sqrt %3 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = fusion.rsqrt %4 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = fusion.sigmoid %5 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = fusion.abs %6 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %8 = fusion.reciprocal %7 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %9 = fusion.silu %8 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %10 = fusion.gelu %9 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %11 = fusion.gelu %10 {approximate = "tanh"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %12 = fusion.abs %i : (tensor<4x8xi8, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xi8, #fusion.shard<@tp, [[], [DIDx]]>>
  return %11, %12 : tensor<4x8xf32>, tensor<4x8xi8, #fusion.shard<@tp, [[], [DIDx]]>>
}

// CHECK-LABEL: func.func @binary
// CHECK-NEXT: %[[M:.*]] = fusion.maximum %arg0, %arg1 : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT: %[[N:.*]] = fusion.minimum %[[M]], %arg1 : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT: %[[P:.*]] = fusion.pow %[[N]], %arg0 : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT: %[[C:.*]] = fusion.compare le %[[P]], %arg0 : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
// CHECK-NEXT: %[[W:.*]] = fusion.where %[[C]], %[[P]], %arg1 : (tensor<4xi1>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT: fusion.compare ne %arg2, %arg2 {note = 1 : i32} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// GENERIC-LABEL: sym_name = "binary"
// GENERIC: "fusion.compare"(%{{.*}}, %{{arg[0-9]+}}) <{predicate = "le"}> : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
// GENERIC: "fusion.where"(%{{.*}}, %{{.*}}, %{{arg[0-9]+}}) : (tensor<4xi1>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
// GENERIC: "fusion.compare"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) <{predicate = "ne"}> {note = 1 : i32} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
func.func @binary(%a: tensor<4xbf16>, %b: tensor<4xbf16>, %i: tensor<4xi32>) -> (tensor<4xbf16>, tensor<4xi1>) {
  %0 = fusion.maximum %a, %b : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  %1 = fusion.minimum %0, %b : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  %2 = fusion.pow %1, %a : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  %3 = fusion.compare le %2, %a : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
  %4 = fusion.where %3, %2, %b : (tensor<4xi1>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  %5 = fusion.compare ne %i, %i {note = 1 : i32} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %4, %5 : tensor<4xbf16>, tensor<4xi1>
}

// CHECK-LABEL: func.func @full
// CHECK-NEXT: fusion.full {value = 1.500000e+00 : f32} : () -> tensor<4x8xf32>
// CHECK-NEXT: fusion.full {value = -3 : i32} : () -> tensor<8xi32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>
// CHECK-NEXT: fusion.full {value = true} : () -> tensor<2xi1>
// GENERIC-LABEL: sym_name = "full"
// GENERIC: "fusion.full"() <{value = 1.500000e+00 : f32}> : () -> tensor<4x8xf32>
// GENERIC: "fusion.full"() <{value = -3 : i32}> : () -> tensor<8xi32, #fusion.shard<@tp, {{\[\[}}DIDx]]>>
func.func @full() -> (tensor<4x8xf32>, tensor<8xi32, #fusion.shard<@tp, [[DIDx]]>>, tensor<2xi1>) {
  %0 = fusion.full {value = 1.5 : f32} : () -> tensor<4x8xf32>
  %1 = fusion.full {value = -3 : i32} : () -> tensor<8xi32, #fusion.shard<@tp, [[DIDx]]>>
  %2 = fusion.full {value = true} : () -> tensor<2xi1>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<8xi32, #fusion.shard<@tp, [[DIDx]]>>, tensor<2xi1>
}
