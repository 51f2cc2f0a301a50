// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=k})' 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=f wrt=1,0,5})' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=f wrt=1})' | FileCheck %s --check-prefix=WRT
// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=g wrt=1})' 2>&1 | FileCheck %s --check-prefix=INT

// NOFUNC: error: fusion-autodiff: no function @k with a body (functions: f, g, h)
// RANGE: error: fusion-autodiff: wrt names argument 5, but @f has 2 arguments

// Only the gradient of %b: one result after the primal one; %a's contribution is never built.
// WRT-LABEL: func.func @f_vjp(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// WRT-NEXT:    %0 = fusion.mul %arg0, %arg1
// WRT-NEXT:    %1 = fusion.mul %arg2, %arg0
// WRT-NEXT:    return %0, %1
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %p = fusion.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}

// INT: error: fusion-autodiff: argument 1 of @g (of type 'tensor<4xi64>') is not floating-point: it has no gradient (remove it from wrt)
func.func @g(%x: tensor<4xf32>, %l: tensor<4xi64>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// Argument and result attributes of @h stay on the joint's primal arguments and results; the
// cotangents and gradients get none.
// RUN: fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=h})' | FileCheck %s --check-prefix=ATTRS
// ATTRS: func.func @h_vjp(%arg0: tensor<4xf32> {my.tag = 1 : i64}, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32> {my.out = "a"}, tensor<4xf32>, tensor<4xf32>)
func.func @h(%x: tensor<4xf32> {my.tag = 1 : i64}, %y: tensor<4xf32>) -> (tensor<4xf32> {my.out = "a"}) {
  %p = fusion.mul %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %p : tensor<4xf32>
}
