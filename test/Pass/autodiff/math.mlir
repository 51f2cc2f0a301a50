// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | FileCheck %s
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff)' | fuser-opt > /dev/null

// The math rules (torch's formulas): exp/log/tanh/sqrt/rsqrt/reciprocal from their result or
// operand, sigmoid/silu/erf, abs with sign(0) = 0, gelu in both forms, maximum/minimum splitting
// ties g/2, pow with torch's masking, where routing g to the chosen branch.

// CHECK-LABEL: func.func @unary_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<4xf32>, %arg5: tensor<4xf32>, %arg6: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.exp %arg0
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.log %arg0
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.tanh %arg0
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.sqrt %arg0
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.rsqrt %arg0
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.reciprocal %arg0
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.mul %[[V5]], %[[V5]]
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.mul %arg6, %[[V6]]
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.neg %[[V7]]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.mul %[[V4]], %[[V4]]
// CHECK-NEXT:    %[[V10:[0-9]+]] = fusion.mul %[[V9]], %[[V4]]
// CHECK-NEXT:    %[[V11:[0-9]+]] = fusion.full {value = -5.000000e-01 : f32}
// CHECK-NEXT:    %[[V12:[0-9]+]] = fusion.mul %[[V10]], %[[V11]]
// CHECK-NEXT:    %[[V13:[0-9]+]] = fusion.mul %arg5, %[[V12]]
// CHECK-NEXT:    %[[V14:[0-9]+]] = fusion.add %[[V8]], %[[V13]]
// CHECK-NEXT:    %[[V15:[0-9]+]] = fusion.full {value = 5.000000e-01 : f32}
// CHECK-NEXT:    %[[V16:[0-9]+]] = fusion.mul %arg4, %[[V15]]
// CHECK-NEXT:    %[[V17:[0-9]+]] = fusion.div %[[V16]], %[[V3]]
// CHECK-NEXT:    %[[V18:[0-9]+]] = fusion.add %[[V14]], %[[V17]]
// CHECK-NEXT:    %[[V19:[0-9]+]] = fusion.mul %[[V2]], %[[V2]]
// CHECK-NEXT:    %[[V20:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V21:[0-9]+]] = fusion.sub %[[V20]], %[[V19]]
// CHECK-NEXT:    %[[V22:[0-9]+]] = fusion.mul %arg3, %[[V21]]
// CHECK-NEXT:    %[[V23:[0-9]+]] = fusion.add %[[V18]], %[[V22]]
// CHECK-NEXT:    %[[V24:[0-9]+]] = fusion.div %arg2, %arg0
// CHECK-NEXT:    %[[V25:[0-9]+]] = fusion.add %[[V23]], %[[V24]]
// CHECK-NEXT:    %[[V26:[0-9]+]] = fusion.mul %arg1, %[[V0]]
// CHECK-NEXT:    %[[V27:[0-9]+]] = fusion.add %[[V25]], %[[V26]]
// CHECK-NEXT:    return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]], %[[V5]], %[[V27]]

// CHECK-LABEL: func.func @sigmoid_silu_erf_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.sigmoid %arg0
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.silu %arg0
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.erf %arg0
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.mul %arg0, %arg0
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.neg %[[V3]]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.exp %[[V4]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.full {value = 1.12837923 : f32}
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.mul %[[V5]], %[[V6]]
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.mul %arg3, %[[V7]]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.sigmoid %arg0
// CHECK-NEXT:    %[[V10:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V11:[0-9]+]] = fusion.sub %[[V10]], %[[V9]]
// CHECK-NEXT:    %[[V12:[0-9]+]] = fusion.mul %arg0, %[[V11]]
// CHECK-NEXT:    %[[V13:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V14:[0-9]+]] = fusion.add %[[V13]], %[[V12]]
// CHECK-NEXT:    %[[V15:[0-9]+]] = fusion.mul %[[V9]], %[[V14]]
// CHECK-NEXT:    %[[V16:[0-9]+]] = fusion.mul %arg2, %[[V15]]
// CHECK-NEXT:    %[[V17:[0-9]+]] = fusion.add %[[V8]], %[[V16]]
// CHECK-NEXT:    %[[V18:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V19:[0-9]+]] = fusion.sub %[[V18]], %[[V0]]
// CHECK-NEXT:    %[[V20:[0-9]+]] = fusion.mul %arg1, %[[V0]]
// CHECK-NEXT:    %[[V21:[0-9]+]] = fusion.mul %[[V20]], %[[V19]]
// CHECK-NEXT:    %[[V22:[0-9]+]] = fusion.add %[[V17]], %[[V21]]
// CHECK-NEXT:    return %[[V0]], %[[V1]], %[[V2]], %[[V22]]

// CHECK-LABEL: func.func @abs_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.abs %arg0
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.compare gt %arg0, %[[V1]]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.compare lt %arg0, %[[V1]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.full {value = -1.000000e+00 : f32}
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.where %[[V3]], %[[V5]], %[[V1]]
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.where %[[V2]], %[[V4]], %[[V6]]
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.mul %arg1, %[[V7]]
// CHECK-NEXT:    return %[[V0]], %[[V8]]

// CHECK-LABEL: func.func @gelu_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.gelu %arg0
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.full {value = 0.707106769 : f32}
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.mul %arg0, %[[V1]]
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.erf %[[V2]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.add %[[V4]], %[[V3]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.full {value = 5.000000e-01 : f32}
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.mul %[[V5]], %[[V6]]
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.mul %arg0, %arg0
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.full {value = -5.000000e-01 : f32}
// CHECK-NEXT:    %[[V10:[0-9]+]] = fusion.mul %[[V8]], %[[V9]]
// CHECK-NEXT:    %[[V11:[0-9]+]] = fusion.exp %[[V10]]
// CHECK-NEXT:    %[[V12:[0-9]+]] = fusion.full {value = 0.398942292 : f32}
// CHECK-NEXT:    %[[V13:[0-9]+]] = fusion.mul %[[V11]], %[[V12]]
// CHECK-NEXT:    %[[V14:[0-9]+]] = fusion.mul %arg0, %[[V13]]
// CHECK-NEXT:    %[[V15:[0-9]+]] = fusion.add %[[V7]], %[[V14]]
// CHECK-NEXT:    %[[V16:[0-9]+]] = fusion.mul %arg1, %[[V15]]
// CHECK-NEXT:    return %[[V0]], %[[V16]]

// CHECK-LABEL: func.func @gelu_tanh_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.gelu %arg0 {approximate = "tanh"}
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.mul %arg0, %arg0
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.mul %[[V1]], %arg0
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.full {value = 4.471500e-02 : f32}
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.mul %[[V2]], %[[V3]]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.add %arg0, %[[V4]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.full {value = 0.797884583 : f32}
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.mul %[[V5]], %[[V6]]
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.tanh %[[V7]]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.full {value = 5.000000e-01 : f32}
// CHECK-NEXT:    %[[V10:[0-9]+]] = fusion.mul %arg0, %[[V9]]
// CHECK-NEXT:    %[[V11:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V12:[0-9]+]] = fusion.add %[[V11]], %[[V8]]
// CHECK-NEXT:    %[[V13:[0-9]+]] = fusion.full {value = 5.000000e-01 : f32}
// CHECK-NEXT:    %[[V14:[0-9]+]] = fusion.mul %[[V12]], %[[V13]]
// CHECK-NEXT:    %[[V15:[0-9]+]] = fusion.mul %[[V8]], %[[V8]]
// CHECK-NEXT:    %[[V16:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V17:[0-9]+]] = fusion.sub %[[V16]], %[[V15]]
// CHECK-NEXT:    %[[V18:[0-9]+]] = fusion.mul %[[V10]], %[[V17]]
// CHECK-NEXT:    %[[V19:[0-9]+]] = fusion.full {value = 1.341450e-01 : f32}
// CHECK-NEXT:    %[[V20:[0-9]+]] = fusion.mul %[[V1]], %[[V19]]
// CHECK-NEXT:    %[[V21:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V22:[0-9]+]] = fusion.add %[[V21]], %[[V20]]
// CHECK-NEXT:    %[[V23:[0-9]+]] = fusion.full {value = 0.797884583 : f32}
// CHECK-NEXT:    %[[V24:[0-9]+]] = fusion.mul %[[V22]], %[[V23]]
// CHECK-NEXT:    %[[V25:[0-9]+]] = fusion.mul %[[V18]], %[[V24]]
// CHECK-NEXT:    %[[V26:[0-9]+]] = fusion.add %[[V14]], %[[V25]]
// CHECK-NEXT:    %[[V27:[0-9]+]] = fusion.mul %arg1, %[[V26]]
// CHECK-NEXT:    return %[[V0]], %[[V27]]

// CHECK-LABEL: func.func @maximum_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.maximum %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.full {value = 5.000000e-01 : f32}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.mul %arg2, %[[V2]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.compare eq %arg0, %arg1
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.where %[[V4]], %[[V3]], %[[V1]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.compare gt %arg0, %arg1
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.compare gt %arg1, %arg0
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.where %[[V6]], %arg2, %[[V5]]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.where %[[V7]], %arg2, %[[V5]]
// CHECK-NEXT:    return %[[V0]], %[[V8]], %[[V9]]

// CHECK-LABEL: func.func @minimum_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.minimum %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.full {value = 5.000000e-01 : f32}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.mul %arg2, %[[V2]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.compare eq %arg0, %arg1
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.where %[[V4]], %[[V3]], %[[V1]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.compare lt %arg0, %arg1
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.compare lt %arg1, %arg0
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.where %[[V6]], %arg2, %[[V5]]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.where %[[V7]], %arg2, %[[V5]]
// CHECK-NEXT:    return %[[V0]], %[[V8]], %[[V9]]

// CHECK-LABEL: func.func @pow_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.pow %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.full {value = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.sub %arg1, %[[V2]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.pow %arg0, %[[V3]]
// CHECK-NEXT:    %[[V5:[0-9]+]] = fusion.mul %arg1, %[[V4]]
// CHECK-NEXT:    %[[V6:[0-9]+]] = fusion.mul %arg2, %[[V5]]
// CHECK-NEXT:    %[[V7:[0-9]+]] = fusion.compare eq %arg1, %[[V1]]
// CHECK-NEXT:    %[[V8:[0-9]+]] = fusion.where %[[V7]], %[[V1]], %[[V6]]
// CHECK-NEXT:    %[[V9:[0-9]+]] = fusion.log %arg0
// CHECK-NEXT:    %[[V10:[0-9]+]] = fusion.mul %[[V0]], %[[V9]]
// CHECK-NEXT:    %[[V11:[0-9]+]] = fusion.compare eq %arg0, %[[V1]]
// CHECK-NEXT:    %[[V12:[0-9]+]] = fusion.compare ge %arg1, %[[V1]]
// CHECK-NEXT:    %[[V13:[0-9]+]] = fusion.where %[[V12]], %[[V1]], %[[V10]]
// CHECK-NEXT:    %[[V14:[0-9]+]] = fusion.where %[[V11]], %[[V13]], %[[V10]]
// CHECK-NEXT:    %[[V15:[0-9]+]] = fusion.mul %arg2, %[[V14]]
// CHECK-NEXT:    return %[[V0]], %[[V8]], %[[V15]]

// CHECK-LABEL: func.func @where_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[V0:[0-9]+]] = fusion.compare gt %arg0, %arg1
// CHECK-NEXT:    %[[V1:[0-9]+]] = fusion.where %[[V0]], %arg0, %arg1
// CHECK-NEXT:    %[[V2:[0-9]+]] = fusion.full {value = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[V3:[0-9]+]] = fusion.where %[[V0]], %arg2, %[[V2]]
// CHECK-NEXT:    %[[V4:[0-9]+]] = fusion.where %[[V0]], %[[V2]], %arg2
// CHECK-NEXT:    return %[[V1]], %[[V3]], %[[V4]]

func.func @unary(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = fusion.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %l = fusion.log %x : (tensor<4xf32>) -> tensor<4xf32>
  %t = fusion.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  %s = fusion.sqrt %x : (tensor<4xf32>) -> tensor<4xf32>
  %r = fusion.rsqrt %x : (tensor<4xf32>) -> tensor<4xf32>
  %c = fusion.reciprocal %x : (tensor<4xf32>) -> tensor<4xf32>
  return %e, %l, %t, %s, %r, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
func.func @sigmoid_silu_erf(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s = fusion.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
  %u = fusion.silu %x : (tensor<4xf32>) -> tensor<4xf32>
  %e = fusion.erf %x : (tensor<4xf32>) -> tensor<4xf32>
  return %s, %u, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = fusion.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %g = fusion.gelu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}
func.func @gelu_tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %g = fusion.gelu %x {approximate = "tanh"} : (tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}
func.func @maximum(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %m = fusion.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}
func.func @minimum(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %m = fusion.minimum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}
func.func @pow(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %p = fusion.pow %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}
func.func @where(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = fusion.compare gt %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %w = fusion.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %w : tensor<4xf32>
}
