// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// Round trip of fusion.layer_norm and fusion.rms_norm: optional weight and bias (each on its
// own, through operandSegmentSizes), the statistics results, epsilon, shardings.

fusion.mesh @tp = [0, 1]

// CHECK-LABEL: func.func @layer_norm
// GENERIC-LABEL: sym_name = "layer_norm"
func.func @layer_norm(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>, %h: tensor<2x4x8xbf16>,
                      %hw: tensor<4x8xbf16>, %d: tensor<3x8xf64>) {
  // CHECK-NEXT: %0 = fusion.layer_norm %arg0 weight %arg1 bias %arg2 dims = [1] : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.layer_norm"(%{{arg[0-9]+}}, %{{arg[0-9]+}}, %{{arg[0-9]+}}) <{dims = array<i64: 1>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %0 = fusion.layer_norm %x weight %w bias %b dims = [1] : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %1 = fusion.layer_norm %arg0 dims = [1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.layer_norm"(%{{arg[0-9]+}}) <{dims = array<i64: 1>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = fusion.layer_norm %x dims = [1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %2 = fusion.layer_norm %arg0 bias %arg2 dims = [1] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.layer_norm"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) <{dims = array<i64: 1>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %2 = fusion.layer_norm %x bias %b dims = [1] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %3 = fusion.layer_norm %arg0 weight %arg1 dims = [1] {epsilon = 9.9999999999999995E-7 : f64} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // GENERIC:    %{{[0-9]+}} = "fusion.layer_norm"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) <{dims = array<i64: 1>, epsilon = 9.9999999999999995E-7 : f64, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %3 = fusion.layer_norm %x weight %w dims = [1] {epsilon = 1.0e-6 : f64} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: %4:3 = fusion.layer_norm %arg3 weight %arg4 dims = [1, 2] : (tensor<2x4x8xbf16>, tensor<4x8xbf16>) -> (tensor<2x4x8xbf16>, tensor<2xf32>, tensor<2xf32>)
  // GENERIC:    %{{[0-9]+}}:3 = "fusion.layer_norm"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) <{dims = array<i64: 1, 2>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<2x4x8xbf16>, tensor<4x8xbf16>) -> (tensor<2x4x8xbf16>, tensor<2xf32>, tensor<2xf32>)
  %4:3 = fusion.layer_norm %h weight %hw dims = [1, 2] : (tensor<2x4x8xbf16>, tensor<4x8xbf16>) -> (tensor<2x4x8xbf16>, tensor<2xf32>, tensor<2xf32>)
  // The statistics of an f64 input are f64.
  // CHECK-NEXT: %5:3 = fusion.layer_norm %arg5 dims = [1] {tag} : (tensor<3x8xf64>) -> (tensor<3x8xf64>, tensor<3xf64>, tensor<3xf64>)
  %5:3 = fusion.layer_norm %d dims = [1] {tag} : (tensor<3x8xf64>) -> (tensor<3x8xf64>, tensor<3xf64>, tensor<3xf64>)
  // All axes normalized: rank-0 statistics.
  // CHECK-NEXT: %6:3 = fusion.layer_norm %arg0 dims = [0, 1] : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<f32>, tensor<f32>)
  %6:3 = fusion.layer_norm %x dims = [0, 1] : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<f32>, tensor<f32>)
  return
}

// CHECK-LABEL: func.func @rms_norm
// GENERIC-LABEL: sym_name = "rms_norm"
func.func @rms_norm(%x: tensor<4x8xbf16>, %w: tensor<8xbf16>) {
  // CHECK-NEXT: %0 = fusion.rms_norm %arg0 weight %arg1 dims = [1] {epsilon = 1.000000e-05 : f64} : (tensor<4x8xbf16>, tensor<8xbf16>) -> tensor<4x8xbf16>
  // GENERIC:    %{{[0-9]+}} = "fusion.rms_norm"(%{{arg[0-9]+}}, %{{arg[0-9]+}}) <{dims = array<i64: 1>, epsilon = 1.000000e-05 : f64}> : (tensor<4x8xbf16>, tensor<8xbf16>) -> tensor<4x8xbf16>
  %0 = fusion.rms_norm %x weight %w dims = [1] {epsilon = 1.0e-5 : f64} : (tensor<4x8xbf16>, tensor<8xbf16>) -> tensor<4x8xbf16>
  // CHECK-NEXT: %1:2 = fusion.rms_norm %arg0 dims = [1] : (tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4xf32>)
  // GENERIC:    %{{[0-9]+}}:2 = "fusion.rms_norm"(%{{arg[0-9]+}}) <{dims = array<i64: 1>}> : (tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4xf32>)
  %1:2 = fusion.rms_norm %x dims = [1] : (tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4xf32>)
  return
}

// A sequence-parallel norm: the input split on the sequence axis.
// CHECK-LABEL: func.func @sharded
// CHECK-NEXT: fusion.rms_norm %arg0 weight %arg1 dims = [2] : (tensor<2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx], []]>>, tensor<16xf32, #fusion.shard<@tp, {{\[\[}}]]>>) -> (tensor<2x8x16xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx], []]>>, tensor<2x8xf32, #fusion.shard<@tp, {{\[\[}}], [DIDx]]>>)
func.func @sharded(%x: tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, %w: tensor<16xf32, #fusion.shard<@tp, [[]]>>) {
  %0:2 = fusion.rms_norm %x weight %w dims = [2] : (tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<16xf32, #fusion.shard<@tp, [[]]>>) -> (tensor<2x8x16xf32, #fusion.shard<@tp, [[], [DIDx], []]>>, tensor<2x8xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
  return
}
