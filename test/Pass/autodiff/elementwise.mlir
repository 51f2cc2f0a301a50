// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// The rules of add, sub, mul, div, neg and cast: one gradient per floating-point argument after
// the results, contributions to an operand used twice added with fusion.add; the integer operand
// of a cast gets none.

// CHECK-LABEL: func.func @add_sub_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.add %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.sub %[[V0]], %arg1
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.neg %arg2
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.add %[[V2]], %arg2
// CHECK-NEXT:    return %[[V1]], %arg2, %[[V3]]

// CHECK-LABEL: func.func @mul_div_neg_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.mul %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.div %[[V0]], %arg1
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.neg %[[V1]]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.neg %arg2
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.div %[[V3]], %arg1
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.mul %[[V4]], %[[V1]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.neg %[[V5]]
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.mul %[[V4]], %arg1
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.mul %[[V4]], %arg0
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.add %[[V6]], %[[V8]]
// CHECK-NEXT:    return %[[V2]], %[[V7]], %[[V9]]

// CHECK-LABEL: func.func @cast_vjp(%arg0: tensor<4xbf16>, %arg1: tensor<4xi32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.cast %arg0
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.cast %arg1
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.cast %arg2
// CHECK-NEXT:    return %[[V0]], %[[V1]], %[[V2]]

func.func @add_sub(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %s = fusion.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %d = fusion.sub %s, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}
func.func @mul_div_neg(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %p = fusion.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %q = fusion.div %p, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %n = fusion.neg %q : (tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}
func.func @cast(%a: tensor<4xbf16>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = fusion.cast %a : (tensor<4xbf16>) -> tensor<4xf32>
  %d = fusion.cast %i : (tensor<4xi32>) -> tensor<4xf32>
  return %c, %d : tensor<4xf32>, tensor<4xf32>
}
