// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// fusion.slice, fusion.concat, fusion.embedding and fusion.dropout: verifier and parser errors.

func.func @f(%x: tensor<8x48xf32>) {
  // expected-error @+1 {{'fusion.slice' op axis 1: the window (offset 40, size 16, stride 1) does not fit extent 48}}
  %0 = fusion.slice %x offsets = [0, 40] sizes = [8, 16] : (tensor<8x48xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @f(%x: tensor<8x48xf32>) {
  // expected-error @+1 {{'fusion.slice' op axis 1: the window (offset 2, size 24, stride 2) does not fit extent 48}}
  %0 = fusion.slice %x offsets = [0, 2] sizes = [8, 24] strides = [1, 2] : (tensor<8x48xf32>) -> tensor<8x24xf32>
  return
}

// -----

func.func @f(%x: tensor<8x48xf32>) {
  // expected-error @+1 {{'fusion.slice' op 'sizes' has 1 entries, but the operand has rank 2}}
  %0 = fusion.slice %x offsets = [0, 0] sizes = [8] : (tensor<8x48xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @f(%x: tensor<8x48xf32>) {
  // expected-error @+1 {{'fusion.slice' op axis 0: stride 0 must be positive}}
  %0 = fusion.slice %x offsets = [0, 0] sizes = [8, 8] strides = [0, 1] : (tensor<8x48xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @f(%x: tensor<8x48xf32>) {
  // expected-error @+1 {{'fusion.slice' op axis 0: offset -1 and size 8 must be non-negative}}
  %0 = fusion.slice %x offsets = [-1, 0] sizes = [8, 8] : (tensor<8x48xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @f(%x: tensor<8x48xf32>) {
  // expected-error @+1 {{'fusion.slice' op result shape [8, 8] does not match inferred [8, 16]}}
  %0 = fusion.slice %x offsets = [0, 0] sizes = [8, 16] : (tensor<8x48xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @f(%x: tensor<8x48xf32>) {
  // expected-error @+1 {{'fusion.slice' op requires attribute 'sizes'}}
  %0 = "fusion.slice"(%x) <{offsets = array<i64: 0, 0>}> : (tensor<8x48xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @f(%x: tensor<8x48xf32>) {
  // expected-error @+1 {{'fusion.slice' op attribute 'strides' failed to satisfy constraint: i64 dense array attribute}}
  %0 = "fusion.slice"(%x) <{offsets = array<i64: 0, 0>, sizes = array<i64: 8, 8>, strides = [1, 1]}> : (tensor<8x48xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @f(%x: tensor<8x48xf32>) {
  // expected-error @+1 {{expected 'sizes'}}
  %0 = fusion.slice %x offsets = [0, 0] : (tensor<8x48xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<5x8xf32>) {
  // expected-error @+1 {{'fusion.concat' op operand #1 has shape [5, 8], which differs from [4, 8] outside dim 1 (axis 0)}}
  %0 = fusion.concat %a, %b dim = 1 : (tensor<4x8xf32>, tensor<5x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xbf16>) {
  // expected-error @+1 {{'fusion.concat' op operand #1 has element type 'bf16', but operand #0 has 'f32'}}
  %0 = fusion.concat %a, %b dim = 1 : (tensor<4x8xf32>, tensor<4x8xbf16>) -> tensor<4x16xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.concat' op dim 2 is out of range for rank 2}}
  %0 = fusion.concat %a, %a dim = 2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.concat' op result shape [4, 8] does not match inferred [4, 16]}}
  %0 = fusion.concat %a, %a dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'fusion.concat' op expects at least one operand}}
  %0 = "fusion.concat"() <{dim = 0 : i64}> : () -> tensor<4x8xf32>
  return
}

// -----

func.func @f(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'fusion.concat' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = "fusion.concat"(%a) <{dim = 0 : i32}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

fusion.mesh @tp = [0, 1]
func.func @f(%a: tensor<5x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) {
  // expected-error @+1 {{'fusion.concat' op operand #0: axis 0 of extent 5 is not divisible by 2, the product of its splits}}
  %0 = "fusion.concat"(%a) <{dim = 1 : i64}> : (tensor<5x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<5x8xf32>
  return
}
