// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(fusion-autodiff{func=f})'

// Ops without a gradient rule on the path to a gradient are diagnosed at the op.

func.func @f(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  // expected-error @+1 {{fusion-autodiff: no gradient rule for 'fusion.sdpa' yet}}
  %o = fusion.sdpa %q, %k, %v : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}

// -----

func.func @f(%t: tensor<16x8xf32>, %ids: tensor<4xi64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{fusion-autodiff: no gradient rule for 'fusion.embedding' yet}}
  %e = fusion.embedding %t, %ids : (tensor<16x8xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

func.func @f(%x: tensor<4x8xf32>, %l: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{fusion-autodiff: no gradient rule for 'fusion.cross_entropy' yet}}
  %c = fusion.cross_entropy %x, %l : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// An op without a rule is fine when no gradient flows through it (its operands are constant).
func.func @f(%x: tensor<4xf32>, %l: tensor<4xi64>) -> tensor<4xf32> {
  %z = fusion.full {value = 0.0 : f32} : () -> tensor<4x8xf32>
  %c = fusion.cross_entropy %z, %l : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
  %s = fusion.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// expected-error @+1 {{fusion-autodiff: @f_vjp exists already}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @f_vjp(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Dynamic extents: the rules need static counts and shapes.
// expected-error @+1 {{fusion-autodiff: dynamic extents are not supported (an argument of type 'tensor<?x4xf32>')}}
func.func @f(%x: tensor<?x4xf32>) -> tensor<4xf32> {
  %s = fusion.mean %x dims = [0] : (tensor<?x4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
