// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.max' op needs at least one dimension to reduce}}
  %0 = fusion.max %a dims = [] : (tensor<5x7xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.min' op dimension 2 is out of range for rank 2}}
  %0 = fusion.min %a dims = [2] : (tensor<5x7xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x0xf32>) {
  // expected-error @+1 {{'fusion.max' op reduces dimension 1 of extent 0, which has no max (no identity)}}
  %0 = fusion.max %a dims = [1] : (tensor<5x0xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xi32>) {
  // expected-error @+1 {{'fusion.mean' op needs a float operand, got 'i32'}}
  %0 = fusion.mean %a dims = [1] : (tensor<5x7xi32>) -> tensor<5xi32>
  return
}

// -----

func.func @f(%a: tensor<5x7xi32>) {
  // expected-error @+1 {{'fusion.var' op needs a float operand, got 'i32'}}
  %0 = fusion.var %a dims = [1] : (tensor<5x7xi32>) -> tensor<5xi32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.var' op attribute 'correction' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = fusion.var %a dims = [1] {correction = 1.0 : f32} : (tensor<5x7xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.mean' op result shape [5] does not match inferred [5, 1]}}
  %0 = fusion.mean %a dims = [1] keep_dims : (tensor<5x7xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.max' op result element type 'f16' does not match inferred 'f32'}}
  %0 = fusion.max %a dims = [1] : (tensor<5x7xf32>) -> tensor<5xf16>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.min' op requires attribute 'dims'}}
  %0 = "fusion.min"(%a) : (tensor<5x7xf32>) -> tensor<5xf32>
  return
}

// -----

// softmax, log_softmax

func.func @f(%a: tensor<5x7xi32>) {
  // expected-error @+1 {{'fusion.softmax' op needs a float operand, got 'i32'}}
  %0 = fusion.softmax %a dims = [1] : (tensor<5x7xi32>) -> tensor<5x7xi32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.log_softmax' op needs at least one dimension}}
  %0 = fusion.log_softmax %a dims = [] : (tensor<5x7xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.softmax' op dimension 1 is listed twice}}
  %0 = fusion.softmax %a dims = [1, 1] : (tensor<5x7xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.softmax' op result shape [5] does not match inferred [5, 7]}}
  %0 = fusion.softmax %a dims = [1] : (tensor<5x7xf32>) -> tensor<5xf32>
  return
}

// -----

// cross_entropy

func.func @f(%a: tensor<5x7xf32>, %l: tensor<5xi32>) {
  // expected-error @+1 {{'fusion.cross_entropy' op labels must be i64, got 'i32'}}
  %0 = fusion.cross_entropy %a, %l : (tensor<5x7xf32>, tensor<5xi32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'fusion.cross_entropy' op labels must have shape [5] (one per row of the logits), got [4]}}
  %0 = fusion.cross_entropy %a, %l : (tensor<5x7xf32>, tensor<4xi64>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x5x7xf32>, %l: tensor<5xi64>) {
  // expected-error @+1 {{'fusion.cross_entropy' op logits must have rank 2 ([N, V]), got shape [2, 5, 7]}}
  %0 = fusion.cross_entropy %a, %l : (tensor<2x5x7xf32>, tensor<5xi64>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xi64>, %l: tensor<5xi64>) {
  // expected-error @+1 {{'fusion.cross_entropy' op logits must be floats, got 'i64'}}
  %0 = fusion.cross_entropy %a, %l : (tensor<5x7xi64>, tensor<5xi64>) -> tensor<5xi64>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %l: tensor<5xi64>) {
  // expected-error @+1 {{'fusion.cross_entropy' op result shape [5, 7] does not match inferred [5]}}
  %0 = fusion.cross_entropy %a, %l : (tensor<5x7xf32>, tensor<5xi64>) -> tensor<5x7xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %l: tensor<5xi64>) {
  // expected-error @+1 {{'fusion.cross_entropy' op attribute 'ignore_index' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = fusion.cross_entropy %a, %l {ignore_index = "x"} : (tensor<5x7xf32>, tensor<5xi64>) -> tensor<5xf32>
  return
}

// -----

// the vocab-parallel phases

func.func @f(%a: tensor<5x7xf32>, %l: tensor<5xi64>, %m: tensor<5xf16>) {
  // expected-error @+1 {{'fusion.cross_entropy_parts' op max must have the element type 'f32', got 'f16'}}
  %0 = fusion.cross_entropy_parts %a, %l, %m : (tensor<5x7xf32>, tensor<5xi64>, tensor<5xf16>) -> tensor<5x2xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %l: tensor<5xi64>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'fusion.cross_entropy_parts' op max must have shape [5] (one per row), got [4]}}
  %0 = fusion.cross_entropy_parts %a, %l, %m : (tensor<5x7xf32>, tensor<5xi64>, tensor<4xf32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %l: tensor<5xi64>, %m: tensor<5xf32>) {
  // expected-error @+1 {{'fusion.cross_entropy_parts' op result shape [5, 7] does not match inferred [5, 2]}}
  %0 = fusion.cross_entropy_parts %a, %l, %m : (tensor<5x7xf32>, tensor<5xi64>, tensor<5xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @f(%p: tensor<5x2xf32>, %l: tensor<5xi64>, %m: tensor<5xf32>) {
  // expected-error @+1 {{'fusion.cross_entropy_finish' op requires attribute 'vocab'}}
  %0 = fusion.cross_entropy_finish %p, %l, %m : (tensor<5x2xf32>, tensor<5xi64>, tensor<5xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%p: tensor<5x3xf32>, %l: tensor<5xi64>, %m: tensor<5xf32>) {
  // expected-error @+1 {{'fusion.cross_entropy_finish' op parts must be floats of shape [N, 2], got [5, 3]}}
  %0 = fusion.cross_entropy_finish %p, %l, %m {vocab = 8 : i64} : (tensor<5x3xf32>, tensor<5xi64>, tensor<5xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%p: tensor<5x2xf32>, %l: tensor<5xi64>, %m: tensor<5xf32>) {
  // expected-error @+1 {{'fusion.cross_entropy_finish' op vocab must be >= 0}}
  %0 = fusion.cross_entropy_finish %p, %l, %m {vocab = -1 : i64} : (tensor<5x2xf32>, tensor<5xi64>, tensor<5xf32>) -> tensor<5xf32>
  return
}
