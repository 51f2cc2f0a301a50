// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// fusion.embedding and fusion.dropout: verifier and parser errors.

func.func @f(%t: tensor<64x16xf32>, %ids: tensor<4xi16>) {
  // expected-error @+1 {{'fusion.embedding' op operand #1 must be ranked tensor of 32- or 64-bit integer values, but got 'tensor<4xi16>'}}
  %0 = fusion.embedding %t, %ids : (tensor<64x16xf32>, tensor<4xi16>) -> tensor<4x16xf32>
  return
}

// -----

func.func @f(%t: tensor<64x16xf32>, %ids: tensor<4xui32>) {
  // expected-error @+1 {{'fusion.embedding' op operand #1 must be ranked tensor of 32- or 64-bit integer values, but got 'tensor<4xui32>'}}
  %0 = fusion.embedding %t, %ids : (tensor<64x16xf32>, tensor<4xui32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @f(%t: tensor<2x64x16xf32>, %ids: tensor<4xi64>) {
  // expected-error @+1 {{'fusion.embedding' op the table must have rank 2 ([V, E]), got rank 3}}
  %0 = fusion.embedding %t, %ids : (tensor<2x64x16xf32>, tensor<4xi64>) -> tensor<4x16xf32>
  return
}

// -----

func.func @f(%t: tensor<64x16xf32>, %ids: tensor<4xi64>) {
  // expected-error @+1 {{'fusion.embedding' op result shape [4, 8] does not match inferred [4, 16]}}
  %0 = fusion.embedding %t, %ids : (tensor<64x16xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%t: tensor<64x16xf32>, %ids: tensor<4xi64>) {
  // expected-error @+1 {{'fusion.embedding' op result element type 'bf16' does not match inferred 'f32'}}
  %0 = fusion.embedding %t, %ids : (tensor<64x16xf32>, tensor<4xi64>) -> tensor<4x16xbf16>
  return
}

// -----

func.func @f(%x: tensor<8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'fusion.dropout' op p must be in [0, 1), got 1}}
  %0 = fusion.dropout %x, %s, %s p = 1.0 : (tensor<8xf32>, tensor<i64>, tensor<i64>) -> tensor<8xf32>
  return
}

// -----

func.func @f(%x: tensor<8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'fusion.dropout' op p must be in [0, 1), got -0.5}}
  %0 = fusion.dropout %x, %s, %s p = -0.5 : (tensor<8xf32>, tensor<i64>, tensor<i64>) -> tensor<8xf32>
  return
}

// -----

func.func @f(%x: tensor<8xf32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'fusion.dropout' op seed must be a rank-0 i64 tensor, got 'tensor<1xi64>'}}
  %0 = fusion.dropout %x, %s, %s p = 0.5 : (tensor<8xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<8xf32>
  return
}

// -----

func.func @f(%x: tensor<8xf32>, %s: tensor<i64>, %o: tensor<i32>) {
  // expected-error @+1 {{'fusion.dropout' op offset must be a rank-0 i64 tensor, got 'tensor<i32>'}}
  %0 = fusion.dropout %x, %s, %o p = 0.5 : (tensor<8xf32>, tensor<i64>, tensor<i32>) -> tensor<8xf32>
  return
}

// -----

func.func @f(%x: tensor<8xi32>, %s: tensor<i64>) {
  // expected-error @+1 {{'fusion.dropout' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<8xi32>'}}
  %0 = fusion.dropout %x, %s, %s p = 0.5 : (tensor<8xi32>, tensor<i64>, tensor<i64>) -> tensor<8xi32>
  return
}

// -----

fusion.mesh @tp = [0, 1]
func.func @f(%x: tensor<8xf32>, %s: tensor<i64, #fusion.shard<@tp, [], partial = [DIDx]>>, %o: tensor<i64>) {
  // expected-error @+1 {{'fusion.dropout' op seed must be replicated, not partial}}
  %0 = fusion.dropout %x, %s, %o p = 0.5 : (tensor<8xf32>, tensor<i64, #fusion.shard<@tp, [], partial = [DIDx]>>, tensor<i64>) -> tensor<8xf32>
  return
}

// -----

func.func @f(%x: tensor<8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'fusion.dropout' op requires attribute 'p'}}
  %0 = "fusion.dropout"(%x, %s, %s) : (tensor<8xf32>, tensor<i64>, tensor<i64>) -> tensor<8xf32>
  return
}

// -----

func.func @f(%x: tensor<8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'fusion.dropout' op attribute 'p' failed to satisfy constraint: 64-bit float attribute}}
  %0 = "fusion.dropout"(%x, %s, %s) <{p = 5.0e-01 : f32}> : (tensor<8xf32>, tensor<i64>, tensor<i64>) -> tensor<8xf32>
  return
}

// -----

func.func @f(%x: tensor<8xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{expected 'p'}}
  %0 = fusion.dropout %x, %s, %s : (tensor<8xf32>, tensor<i64>, tensor<i64>) -> tensor<8xf32>
  return
}
