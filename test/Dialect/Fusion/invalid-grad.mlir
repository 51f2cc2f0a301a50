// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// fusion.sdpa_grad, fusion.embedding_grad and fusion.one_hot: verifier and parser errors.

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %o: tensor<1x4x8x16xf32>, %lse: tensor<1x4x8xbf16>) {
  // expected-error @+1 {{'fusion.sdpa_grad' op lse must have element type 'f32', got 'bf16'}}
  %a:3 = fusion.sdpa_grad %q, %k, %v, %o, %lse, %o : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xbf16>, tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>)
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %o: tensor<1x4x8x16xf32>, %lse: tensor<1x4x8xf32>, %do: tensor<1x4x4x16xf32>) {
  // expected-error @+1 {{'fusion.sdpa_grad' op dout must have shape [1, 4, 8, 16], got [1, 4, 4, 16]}}
  %a:3 = fusion.sdpa_grad %q, %k, %v, %o, %lse, %do : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x4x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>)
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %o: tensor<1x4x8x16xf32>, %lse: tensor<1x4x8xf32>) {
  // expected-error @+1 {{'fusion.sdpa_grad' op result #1 (dk) must have shape [1, 2, 8, 16], got [1, 4, 8, 16]}}
  %a:3 = fusion.sdpa_grad %q, %k, %v, %o, %lse, %o : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>)
  return
}

// -----

func.func @f(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %o: tensor<1x4x8x16xf32>, %lse: tensor<1x4x8xf32>) {
  // expected-error @+1 {{'fusion.sdpa_grad' op scale must be finite, got inf}}
  %a:3 = "fusion.sdpa_grad"(%q, %k, %v, %o, %lse, %o) <{scale = 0x7FF0000000000000 : f64}> : (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>)
  return
}

// -----

func.func @f(%ids: tensor<4x8xi64>, %g: tensor<4x16xf32>) {
  // expected-error @+1 {{'fusion.embedding_grad' op grad must have the ids' shape and one more axis ([ids..., E]), got ids [4, 8] and grad [4, 16]}}
  %0 = fusion.embedding_grad %ids, %g num_rows = 8 : (tensor<4x8xi64>, tensor<4x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @f(%ids: tensor<4xi64>, %g: tensor<4x16xf32>) {
  // expected-error @+1 {{'fusion.embedding_grad' op result shape [9, 16] does not match inferred [8, 16]}}
  %0 = fusion.embedding_grad %ids, %g num_rows = 8 : (tensor<4xi64>, tensor<4x16xf32>) -> tensor<9x16xf32>
  return
}

// -----

func.func @f(%ids: tensor<4xi64>, %g: tensor<4x16xf32>) {
  // expected-error @+1 {{'fusion.embedding_grad' op 'num_rows' must be at least 0, got -1}}
  %0 = fusion.embedding_grad %ids, %g num_rows = -1 : (tensor<4xi64>, tensor<4x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @f(%ids: tensor<4xi64>, %g: tensor<4x16xi32>) {
  // expected-error @+1 {{'fusion.embedding_grad' op operand #1 must be ranked tensor of floating-point values, but got 'tensor<4x16xi32>'}}
  %0 = fusion.embedding_grad %ids, %g num_rows = 8 : (tensor<4xi64>, tensor<4x16xi32>) -> tensor<8x16xi32>
  return
}

// -----

func.func @f(%ids: tensor<4xi64>, %g: tensor<4x16xf32>) {
  // expected-error @+1 {{expected 'num_rows'}}
  %0 = fusion.embedding_grad %ids, %g : (tensor<4xi64>, tensor<4x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @f(%l: tensor<4xi64>) {
  // expected-error @+1 {{'fusion.one_hot' op result #0 must be ranked tensor of floating-point values, but got 'tensor<4x8xi32>'}}
  %0 = fusion.one_hot %l num_classes = 8 : (tensor<4xi64>) -> tensor<4x8xi32>
  return
}

// -----

func.func @f(%l: tensor<4xi64>) {
  // expected-error @+1 {{'fusion.one_hot' op result shape [4, 9] does not match inferred [4, 8]}}
  %0 = fusion.one_hot %l num_classes = 8 : (tensor<4xi64>) -> tensor<4x9xf32>
  return
}

// -----

func.func @f(%l: tensor<4xf32>) {
  // expected-error @+1 {{'fusion.one_hot' op operand #0 must be ranked tensor of 32- or 64-bit integer values, but got 'tensor<4xf32>'}}
  %0 = fusion.one_hot %l num_classes = 8 : (tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%l: tensor<4xi64>) {
  // expected-error @+1 {{'fusion.one_hot' op attribute 'num_classes' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = "fusion.one_hot"(%l) <{num_classes = 8 : i32}> : (tensor<4xi64>) -> tensor<4x8xf32>
  return
}
