// RUN: fuser-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(fusion-autodiff{func=f})'

// Ops without a gradient rule on the path to a gradient are diagnosed at the op.

func.func @f(%q: tensor<1x2x4x8xf32>, %o: tensor<1x2x4x8xf32>, %lse: tensor<1x2x4xf32>, %g: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  // Second-order gradients are not supported: the gradient ops have no rule.
  // expected-error @+1 {{fusion-autodiff: no gradient rule for 'fusion.sdpa_grad' yet}}
  %d:3 = fusion.sdpa_grad %q, %q, %q, %o, %lse, %g : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4x8xf32>) -> (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>)
  return %d#0 : tensor<1x2x4x8xf32>
}

// -----

func.func @f(%ids: tensor<4xi64>, %g: tensor<4x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{fusion-autodiff: no gradient rule for 'fusion.embedding_grad' yet}}
  %t = fusion.embedding_grad %ids, %g num_rows = 16 : (tensor<4xi64>, tensor<4x8xf32>) -> tensor<16x8xf32>
  return %t : tensor<16x8xf32>
}

// -----

func.func @f(%p: tensor<4x2xf32>, %l: tensor<4xi64>, %m: tensor<4xf32>) -> tensor<4xf32> {
  // The vocab-parallel phases are the lowering's, not the user's: differentiate the
  // fusion.cross_entropy before fusion-decompose-resharding splits it.
  // expected-error @+1 {{fusion-autodiff: no gradient rule for 'fusion.cross_entropy_finish' yet}}
  %c = fusion.cross_entropy_finish %p, %l, %m {vocab = 8 : i64} : (tensor<4x2xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4xf32>
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
