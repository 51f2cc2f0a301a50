// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// fusion.mesh

// expected-error @+1 {{'fusion.mesh' op mesh must hold at least one device}}
fusion.mesh @e = []

// -----

// expected-error @+1 {{'fusion.mesh' op device id 1 appears more than once}}
fusion.mesh @d = [0, 1, 1]

// -----

// expected-error @+1 {{'fusion.mesh' op device ids must be non-negative, got -1}}
fusion.mesh @n = [-1, 0]

// -----

// expected-error @+1 {{'fusion.mesh' op mesh shape [2, 2] holds 4 devices, but 3 ids are given}}
"fusion.mesh"() <{devices = array<i64: 0, 1, 2>, shape = array<i64: 2, 2>, sym_name = "s"}> : () -> ()

// -----

// expected-error @+1 {{'fusion.mesh' op mesh extents must be positive, got -2}}
"fusion.mesh"() <{devices = array<i64: 0, 1>, shape = array<i64: -2, -1>, sym_name = "s"}> : () -> ()

// -----

// expected-error @+1 {{custom op 'fusion.mesh' mesh rows must all have the same shape}}
fusion.mesh @r = [[0, 1], [2]]

// -----

// expected-error @+1 {{custom op 'fusion.mesh' expected a list of device ids such as [0, 1]}}
fusion.mesh @x = 3

// -----

func.func @f() {
  // expected-error @+1 {{'fusion.mesh' op symbol's parent must have the SymbolTable trait}}
  fusion.mesh @inner = [0]
  return
}

// -----

// #fusion.shard

fusion.mesh @tp = [0, 1, 2, 3]
// expected-error @+1 {{unknown split 'DIDw' (expected DIDx, DIDy, DIDz or Stream(n))}}
func.func private @f(%a: tensor<8xf32, #fusion.shard<@tp, [[DIDw]]>>)

// -----

fusion.mesh @tp = [0, 1, 2, 3]
// expected-error @+1 {{Stream split of axis 0 must have a positive chunk count, got 0}}
func.func private @f(%a: tensor<8xf32, #fusion.shard<@tp, [[Stream(0)]]>>)

// -----

fusion.mesh @tp = [0, 1, 2, 3]
// expected-error @+1 {{device axis DIDx splits the tensor more than once}}
func.func private @f(%a: tensor<8x8xf32, #fusion.shard<@tp, [[DIDx], [DIDx]]>>)

// -----

fusion.mesh @tp = [0, 1, 2, 3]
// expected-error @+1 {{device axis DIDx is both a split and partial}}
func.func private @f(%a: tensor<8xf32, #fusion.shard<@tp, [[DIDx]], partial = [DIDx]>>)

// -----

fusion.mesh @tp = [0, 1, 2, 3]
// expected-error @+1 {{device axis DIDx is listed twice in partial}}
func.func private @f(%a: tensor<8xf32, #fusion.shard<@tp, [[]], partial = [DIDx, DIDx]>>)

// -----

fusion.mesh @tp = [0, 1, 2, 3]
// expected-error @+1 {{unknown device axis 'DIDq' (expected DIDx, DIDy or DIDz)}}
func.func private @f(%a: tensor<8xf32, #fusion.shard<@tp, [[]], partial = [DIDq]>>)

// -----

fusion.mesh @tp = [0, 1, 2, 3]
// expected-error @+1 {{unknown reduction kind 'avg' (expected sum, prod, min or max)}}
func.func private @f(%a: tensor<8xf32, #fusion.shard<@tp, [[]], partial = [DIDx], reduce = avg>>)

// -----

fusion.mesh @tp = [0, 1, 2, 3]
// expected-error @+1 {{expected 'partial' or 'reduce'}}
func.func private @f(%a: tensor<8xf32, #fusion.shard<@tp, [[]], pending = [DIDx]>>)

// -----

// expected-error @+1 {{expected a mesh symbol such as @tp}}
func.func private @f(%a: tensor<8xf32, #fusion.shard<"tp", [[]]>>)

// -----

// sharding checks of the ops

func.func @f(%a: tensor<8xf32, #fusion.shard<@nope, [[DIDx]]>>) {
  // expected-error @+1 {{'fusion.neg' op mesh @nope not found}}
  %0 = fusion.neg %a : (tensor<8xf32, #fusion.shard<@nope, [[DIDx]]>>) -> tensor<8xf32>
  return
}

// -----

fusion.mesh @tp = [0, 1, 2, 3]
func.func @f(%a: tensor<8x8xf32, #fusion.shard<@tp, [[DIDx]]>>) {
  // expected-error @+1 {{'fusion.neg' op operand #0: sharding has 1 split lists, but the tensor has rank 2}}
  %0 = fusion.neg %a : (tensor<8x8xf32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<8x8xf32>
  return
}

// -----

fusion.mesh @tp = [0, 1, 2, 3]
func.func @f(%a: tensor<8xf32>) {
  // expected-error @+1 {{'fusion.set' op result: device axis DIDy is not in mesh @tp of rank 1}}
  %0 = fusion.set %a : (tensor<8xf32>) -> tensor<8xf32, #fusion.shard<@tp, [[DIDy]]>>
  return
}

// -----

fusion.mesh @tp = [0, 1, 2, 3]
func.func @f(%a: tensor<10xf32, #fusion.shard<@tp, [[DIDx]]>>) {
  // expected-error @+1 {{'fusion.neg' op operand #0: axis 0 of extent 10 is not divisible by 4, the product of its splits}}
  %0 = fusion.neg %a : (tensor<10xf32, #fusion.shard<@tp, [[DIDx]]>>) -> tensor<10xf32>
  return
}

// -----

fusion.mesh @tp = [0, 1, 2, 3]
func.func @f(%a: tensor<2x16xf32>) {
  // expected-error @+1 {{'fusion.set' op result: axis 1 of extent 16 is not divisible by 12, the product of its splits}}
  %0 = fusion.set %a : (tensor<2x16xf32>) -> tensor<2x16xf32, #fusion.shard<@tp, [[], [Stream(3), DIDx]]>>
  return
}

// -----

fusion.mesh @tp = [0, 1, 2, 3]
func.func @f(%a: tensor<8xf32>) {
  // expected-error @+1 {{'fusion.set' op result: partial device axis DIDz is not in mesh @tp of rank 1}}
  %0 = fusion.set %a : (tensor<8xf32>) -> tensor<8xf32, #fusion.shard<@tp, [[]], partial = [DIDz]>>
  return
}

// -----

func.func @f(%a: tensor<8xf32, "enc">) {
  // expected-error @+1 {{'fusion.neg' op operand #0 has encoding "enc", expected a #fusion.shard}}
  %0 = fusion.neg %a : (tensor<8xf32, "enc">) -> tensor<8xf32>
  return
}

// -----

// operand and result types

func.func @f(%a: f32) {
  // expected-error @+1 {{'fusion.neg' op operand #0 must be ranked tensor of integer or float values, but got 'f32'}}
  %0 = "fusion.neg"(%a) : (f32) -> f32
  return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'fusion.add' 2 operands present, but expected 1 (one per operand type)}}
  %0 = fusion.add %a, %a : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// matmul and linear

func.func @f(%a: tensor<5x7xf32>, %b: tensor<7x6xf32>) {
  // expected-error @+1 {{'fusion.matmul' op result shape [5, 7] does not match inferred [5, 6]}}
  %0 = fusion.matmul %a, %b : (tensor<5x7xf32>, tensor<7x6xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %b: tensor<7x6xf32>) {
  // expected-error @+1 {{'fusion.matmul' op result element type 'f16' does not match inferred 'f32'}}
  %0 = fusion.matmul %a, %b : (tensor<5x7xf32>, tensor<7x6xf32>) -> tensor<5x6xf16>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %b: tensor<6x6xf32>) {
  // expected-error @+1 {{'fusion.matmul' op contraction extents differ: lhs [5, 7] has K = 7, rhs [6, 6] has K = 6}}
  %0 = fusion.matmul %a, %b : (tensor<5x7xf32>, tensor<6x6xf32>) -> tensor<5x6xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %b: tensor<7x6xf16>) {
  // expected-error @+1 {{'fusion.matmul' op operand element types differ: 'f32' vs 'f16'}}
  %0 = fusion.matmul %a, %b : (tensor<5x7xf32>, tensor<7x6xf16>) -> tensor<5x6xf32>
  return
}

// -----

func.func @f(%a: tensor<7xf32>, %b: tensor<7x6xf32>) {
  // expected-error @+1 {{'fusion.matmul' op lhs must have rank 2 or more, got shape [7]}}
  %0 = fusion.matmul %a, %b : (tensor<7xf32>, tensor<7x6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %b: tensor<2x7x6xf32>) {
  // expected-error @+1 {{'fusion.matmul' op rhs must have rank 2 or the rank of lhs (2), got shape [2, 7, 6]}}
  %0 = fusion.matmul %a, %b : (tensor<5x7xf32>, tensor<2x7x6xf32>) -> tensor<2x5x6xf32>
  return
}

// -----

func.func @f(%a: tensor<3x5x7xf32>, %b: tensor<4x7x6xf32>) {
  // expected-error @+1 {{'fusion.matmul' op batch axis 0 differs: 3 vs 4}}
  %0 = fusion.matmul %a, %b : (tensor<3x5x7xf32>, tensor<4x7x6xf32>) -> tensor<3x5x6xf32>
  return
}

// -----

func.func @f(%x: tensor<8x16xbf16>, %w: tensor<32x8xbf16>) {
  // expected-error @+1 {{'fusion.linear' op input [8, 16] and weight [32, 8] differ in K}}
  %0 = fusion.linear %x, %w : (tensor<8x16xbf16>, tensor<32x8xbf16>) -> tensor<8x32xbf16>
  return
}

// -----

func.func @f(%x: tensor<8x16xbf16>, %w: tensor<16xbf16>) {
  // expected-error @+1 {{'fusion.linear' op weight must have rank 2 ([N, K]), got shape [16]}}
  %0 = fusion.linear %x, %w : (tensor<8x16xbf16>, tensor<16xbf16>) -> tensor<8xbf16>
  return
}

// -----

func.func @f(%x: tensor<8x16xbf16>, %w: tensor<32x16xbf16>, %b: tensor<16xbf16>) {
  // expected-error @+1 {{'fusion.linear' op bias must have shape [32], got [16]}}
  %0 = fusion.linear %x, %w, %b : (tensor<8x16xbf16>, tensor<32x16xbf16>, tensor<16xbf16>) -> tensor<8x32xbf16>
  return
}

// -----

func.func @f(%x: tensor<8x16xbf16>, %w: tensor<32x16xbf16>) {
  // expected-error @+1 {{'fusion.linear' op result shape [8, 16] does not match inferred [8, 32]}}
  %0 = fusion.linear %x, %w : (tensor<8x16xbf16>, tensor<32x16xbf16>) -> tensor<8x16xbf16>
  return
}

// -----

// elementwise

func.func @f(%a: tensor<5x7xf32>, %b: tensor<7x5xf32>) {
  // expected-error @+1 {{'fusion.add' op operand shapes differ: [5, 7] vs [7, 5]}}
  %0 = fusion.add %a, %b : (tensor<5x7xf32>, tensor<7x5xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>, %b: tensor<5x7xi32>) {
  // expected-error @+1 {{'fusion.mul' op operand element types differ: 'f32' vs 'i32'}}
  %0 = fusion.mul %a, %b : (tensor<5x7xf32>, tensor<5x7xi32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.neg' op result element type 'f16' does not match inferred 'f32'}}
  %0 = fusion.neg %a : (tensor<5x7xf32>) -> tensor<5x7xf16>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.cast' op result shape [7, 5] does not match inferred [5, 7]}}
  %0 = fusion.cast %a : (tensor<5x7xf32>) -> tensor<7x5xf16>
  return
}

// -----

// sum

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.sum' op dimension 2 is out of range for rank 2}}
  %0 = fusion.sum %a dims = [2] : (tensor<5x7xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.sum' op dimension 1 is listed twice}}
  %0 = "fusion.sum"(%a) <{dims = array<i64: 1, 1>}> : (tensor<5x7xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.sum' op result shape [5, 1] does not match inferred [5]}}
  %0 = fusion.sum %a dims = [1] : (tensor<5x7xf32>) -> tensor<5x1xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.sum' op requires attribute 'dims'}}
  %0 = "fusion.sum"(%a) : (tensor<5x7xf32>) -> tensor<5xf32>
  return
}

// -----

// set, broadcast, reshape, permute

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.set' op result shape [7, 5] does not match inferred [5, 7]}}
  %0 = fusion.set %a : (tensor<5x7xf32>) -> tensor<7x5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.set' op result element type 'f16' does not match inferred 'f32'}}
  %0 = fusion.set %a : (tensor<5x7xf32>) -> tensor<5x7xf16>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.broadcast' op result rank 3 is not the operand rank 2 plus 2 new axes}}
  %0 = fusion.broadcast %a dims = [0, 1] : (tensor<5x7xf32>) -> tensor<2x5x7xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.broadcast' op result shape [5, 2, 8] does not match inferred [5, 2, 7]}}
  %0 = fusion.broadcast %a dims = [1] : (tensor<5x7xf32>) -> tensor<5x2x8xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.broadcast' op dimension 3 is out of range for rank 3}}
  %0 = fusion.broadcast %a dims = [3] : (tensor<5x7xf32>) -> tensor<5x7x2xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.reshape' op reshape changes the element count: [5, 7] has 35, [36] has 36}}
  %0 = fusion.reshape %a : (tensor<5x7xf32>) -> tensor<36xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.reshape' op element type changes from 'f32' to 'f16'}}
  %0 = fusion.reshape %a : (tensor<5x7xf32>) -> tensor<35xf16>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.permute' op dims [0, 0] is not a permutation: dimension 0 is listed twice}}
  %0 = fusion.permute %a dims = [0, 0] : (tensor<5x7xf32>) -> tensor<5x5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.permute' op dims [0] is not a permutation of the 2 axes}}
  %0 = fusion.permute %a dims = [0] : (tensor<5x7xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%a: tensor<5x7xf32>) {
  // expected-error @+1 {{'fusion.permute' op result shape [5, 7] does not match inferred [7, 5]}}
  %0 = fusion.permute %a dims = [1, 0] : (tensor<5x7xf32>) -> tensor<5x7xf32>
  return
}

// -----

// A function that only passes its arguments through has no fusion op to check their
// shardings: the mesh checks the signatures of the functions beside it (the values no fusion
// op uses or defines; the others keep their error at the op).
fusion.mesh @tp = [0, 1, 2, 3]

// expected-error @+1 {{'func.func' op argument #0: axis 0 of extent 6 is not divisible by 4, the product of its splits}}
func.func @passthrough(%x: tensor<6x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<6x4xf32, #fusion.shard<@tp, [[DIDx], []]>> {
  return %x : tensor<6x4xf32, #fusion.shard<@tp, [[DIDx], []]>>
}

// -----

fusion.mesh @tp = [0, 1, 2, 3]

// expected-error @+1 {{'func.func' op argument #0: device axis DIDy is not in mesh @tp of rank 1}}
func.func @unused(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDy], []]>>) {
  return
}
