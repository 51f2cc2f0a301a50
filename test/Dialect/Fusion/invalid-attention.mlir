// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// fusion.sdpa verifier errors.

func.func @f(%q: tensor<4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op query must have rank 4 ([B, H, S, D]), got shape [4, 8, 16]}}
  %0 = fusion.sdpa %q, %k, %v : (tensor<4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xi32>, %k: tensor<1x4x8x16xi32>, %v: tensor<1x4x8x16xi32>) {
  // expected-error @+1 {{'fusion.sdpa' op element type must be bf16, f16, f32 or f64, got 'i32'}}
  %0 = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xi32>, tensor<1x4x8x16xi32>, tensor<1x4x8x16xi32>) -> tensor<1x4x8x16xi32>
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf16>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op key element type 'f16' differs from the query's 'f32'}}
  %0 = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf16>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x6x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op query heads H = 6 must be a multiple of the key/value heads Hkv = 4 (grouped-query attention)}}
  %0 = fusion.sdpa %q, %k, %v : (tensor<1x6x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x6x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op kv heads Hkv differs: key [1, 2, 8, 16] has 2, value [1, 4, 8, 16] has 4}}
  %0 = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x9x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op key sequence Skv differs: key [1, 4, 8, 16] has 8, value [1, 4, 9, 16] has 9}}
  %0 = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x9x16xf32>) -> tensor<1x4x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x32xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op head dimension D differs: query [1, 4, 8, 16] has 16, key [1, 4, 8, 32] has 32}}
  %0 = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32>, tensor<1x4x8x32xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<2x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op batch B differs: query [2, 4, 8, 16] has 2, key [1, 4, 8, 16] has 1}}
  %0 = fusion.sdpa %q, %k, %v : (tensor<2x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x32xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op result #0 (out) shape [1, 4, 8, 16] does not match inferred [1, 4, 8, 32]}}
  %0 = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x32xf32>) -> tensor<1x4x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xbf16>, %k: tensor<1x4x8x16xbf16>, %v: tensor<1x4x8x16xbf16>) {
  // expected-error @+1 {{'fusion.sdpa' op result #1 (lse) element type 'bf16' does not match inferred 'f32'}}
  %0:2 = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xbf16>, tensor<1x4x8x16xbf16>, tensor<1x4x8x16xbf16>) -> (tensor<1x4x8x16xbf16>, tensor<1x4x8xbf16>)
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op result #1 (lse) shape [1, 4, 8, 16] does not match inferred [1, 4, 8]}}
  %0:2 = fusion.sdpa %q, %k, %v : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>)
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op scale must be finite, got inf}}
  %0 = "fusion.sdpa"(%q, %k, %v) <{scale = 0x7FF0000000000000 : f64}> : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op attribute 'scale' failed to satisfy constraint: 64-bit float attribute}}
  %0 = "fusion.sdpa"(%q, %k, %v) <{scale = 1.0 : f32}> : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa' op result group starting at #1 requires 0 or 1 element, but found 2}}
  %0:3 = "fusion.sdpa"(%q, %k, %v) : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) {
  // expected-error @+1 {{custom op 'fusion.sdpa' expected a float for 'scale'}}
  %0 = fusion.sdpa %q, %k, %v scale = "x" : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  return
}
