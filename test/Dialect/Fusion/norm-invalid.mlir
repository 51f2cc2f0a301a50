// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// fusion.layer_norm and fusion.rms_norm: dims, weight and bias shapes, epsilon, results.

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.layer_norm' op dims [0] must be the trailing axes of the rank-2 input in order (torch's normalized_shape), such as [1]}}
  %0 = fusion.layer_norm %x dims = [0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'fusion.rms_norm' op dims [2, 1] must be the trailing axes of the rank-3 input in order}}
  %0 = fusion.rms_norm %x dims = [2, 1] : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.rms_norm' op dims [] must be the trailing axes of the rank-2 input in order}}
  %0 = fusion.rms_norm %x dims = [] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.layer_norm' op dims [0, 1, 2] must be the trailing axes of the rank-2 input in order}}
  %0 = fusion.layer_norm %x dims = [0, 1, 2] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'fusion.layer_norm' op weight must have the shape of the normalized axes [8], got [4]}}
  %0 = fusion.layer_norm %x weight %w dims = [1] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<2x4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'fusion.layer_norm' op bias must have the shape of the normalized axes [4, 8], got [8]}}
  %0 = fusion.layer_norm %x bias %b dims = [1, 2] : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>, %w: tensor<8xbf16>) {
  // expected-error @+1 {{'fusion.rms_norm' op weight element type 'bf16' differs from the input's 'f32'}}
  %0 = fusion.rms_norm %x weight %w dims = [1] : (tensor<4x8xf32>, tensor<8xbf16>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'fusion.rms_norm' op input element type must be bf16, f16, f32 or f64, got 'i32'}}
  %0 = fusion.rms_norm %x dims = [1] : (tensor<4x8xi32>) -> tensor<4x8xi32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.layer_norm' op epsilon must be finite and not negative, got -0.001}}
  %0 = fusion.layer_norm %x dims = [1] {epsilon = -1.0e-3 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.rms_norm' op epsilon must be finite and not negative, got NaN}}
  %0 = fusion.rms_norm %x dims = [1] {epsilon = 0x7FF8000000000000 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.rms_norm' op attribute 'epsilon' failed to satisfy constraint: 64-bit float attribute}}
  %0 = fusion.rms_norm %x dims = [1] {epsilon = 1.0e-5 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.layer_norm' op expects 1 result or 3 (y, mean, rstd), got 2}}
  %0:2 = fusion.layer_norm %x dims = [1] : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)
  return
}

// -----

func.func @f(%x: tensor<4x8xbf16>) {
  // expected-error @+1 {{'fusion.rms_norm' op result #1 element type 'bf16' does not match inferred 'f32'}}
  %0:2 = fusion.rms_norm %x dims = [1] : (tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4xbf16>)
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.layer_norm' op result #2 shape [4, 1] does not match inferred [4]}}
  %0:3 = fusion.layer_norm %x dims = [1] : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4x1xf32>)
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.rms_norm' op result #0 shape [8, 4] does not match inferred [4, 8]}}
  %0 = fusion.rms_norm %x dims = [1] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>, %w: tensor<8xf32>) {
  // expected-error @+1 {{'fusion.layer_norm' op operand count (2) does not match with the total size (1) specified in attribute 'operandSegmentSizes'}}
  %0 = "fusion.layer_norm"(%x, %w) <{dims = array<i64: 1>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.rms_norm' op requires attribute 'dims'}}
  %0 = "fusion.rms_norm"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

fusion.mesh @tp = [0, 1]
func.func @f(%x: tensor<4x7xf32, #fusion.shard<@tp, [[], [DIDx]]>>) {
  // expected-error @+1 {{'fusion.rms_norm' op operand #0: axis 1 of extent 7 is not divisible by 2, the product of its splits}}
  %0 = fusion.rms_norm %x dims = [1] : (tensor<4x7xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x7xf32>
  return
}
