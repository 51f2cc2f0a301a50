// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// Verifier errors of the elementwise math ops (fusion/math.rs).

func.func @exp_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'fusion.exp' op operand element type must be a float, got 'i32'}}
  %0 = fusion.exp %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @exp_shape(%a: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'fusion.exp' op result shape [5] does not match inferred [4]}}
  %0 = fusion.exp %a : (tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @gelu_mode(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.gelu' op 'approximate' must be "none" or "tanh", got "fast"}}
  %0 = fusion.gelu %a {approximate = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pow_int(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'fusion.pow' op operand element type must be a float, got 'i8'}}
  %0 = fusion.pow %a, %a : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @maximum_types(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.maximum' op operand element types differ: 'f32' vs 'f16'}}
  %0 = fusion.maximum %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_predicate(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'fusion.compare' op unknown predicate 'olt' (expected eq, ne, lt, le, gt or ge)}}
  %0 = fusion.compare olt %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.compare' op result element type 'f32' does not match inferred 'i1'}}
  %0 = fusion.compare lt %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_generic(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'fusion.compare' op requires attribute 'predicate'}}
  %0 = "fusion.compare"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @where_cond(%c: tensor<4xi8>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.where' op condition element type must be 'i1', got 'i8'}}
  %0 = fusion.where %c, %a, %a : (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @where_shape(%c: tensor<2xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.where' op condition shape [2] differs from the operand shape [4]}}
  %0 = fusion.where %c, %a, %a : (tensor<2xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @full_type() -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.full' op 'value' has type 'f64', but the element type is 'f32'}}
  %0 = fusion.full {value = 1.0 : f64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @full_int_for_float() -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.full' op 'value' has type 'i32', but the element type is 'f32'}}
  %0 = fusion.full {value = 1 : i32} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @full_missing() -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.full' op requires attribute 'value'}}
  %0 = fusion.full : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

fusion.mesh @tp = [0, 1]
func.func @full_partial() -> tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>> {
  // expected-error @+1 {{'fusion.full' op result may not be partial (each rank fills its piece of the full value)}}
  %0 = fusion.full {value = 0.0 : f32} : () -> tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>>
  return %0 : tensor<4xf32, #fusion.shard<@tp, [[]], partial = [DIDx]>>
}

// -----

func.func @full_operand(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fusion.full' op requires zero operands}}
  %0 = "fusion.full"(%a) <{value = 0.0 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
