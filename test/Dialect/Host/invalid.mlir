// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the host ops and types: structure (declared operands, results,
// properties, regions), then what each op verifies about shapes, strides and element types;
// the type errors of !host.buf / !host.view / !host.stream come last.
func.func @f(%n: index) {
  // expected-error @+1 {{'host.alloc' op expected 1 dynamic size operand(s), one per '?' extent of the buffer type, but got 2}}
  %b = host.alloc(%n, %n) : !host.buf<?x4xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'host.alloc' op result #0 must be buffer (!host.buf), but got '!host.view<4xf32, strides = [1]>'}}
  %b = "host.alloc"() : () -> !host.view<4xf32, strides = [1]>
  return
}

// -----

func.func @f(%v: !host.view<4xf32, strides = [1]>) {
  // expected-error @+1 {{'host.dealloc' op operand #0 must be buffer (!host.buf), but got '!host.view<4xf32, strides = [1]>'}}
  host.dealloc %v : !host.view<4xf32, strides = [1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op axis 2 is out of range for a source of rank 2}}
  %v = host.shard_by_stream %b[%i] axis = 2 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op chunks must be positive, got 0}}
  %v = host.shard_by_stream %b[%i] axis = 1 chunks = 0 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op extent 5 of axis 0 is not divisible into 3 chunks}}
  %v = host.shard_by_stream %b[%i] axis = 0 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op result element type must be the source's}}
  %v = host.shard_by_stream %b[%i] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf16, strides = [6, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op result memory kind must be the source's}}
  %v = host.shard_by_stream %b[%i] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [6, 1], ipc>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op result shape [5, 3] does not match the expected [5, 2]}}
  %v = host.shard_by_stream %b[%i] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x3xf32, strides = [6, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op result strides [2, 1] do not match the expected [6, 1]}}
  %v = host.shard_by_stream %b[%i] axis = 1 chunks = 3 : !host.buf<5x6xf32> -> !host.view<5x2xf32, strides = [2, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op requires attribute 'axis'}}
  %v = "host.shard_by_stream"(%b, %i) <{chunks = 3 : i64}> : (!host.buf<5x6xf32>, index) -> !host.view<5x2xf32, strides = [6, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  %v = "host.shard_by_stream"(%b, %i) <{axis = 1 : i32, chunks = 3 : i64}> : (!host.buf<5x6xf32>, index) -> !host.view<5x2xf32, strides = [6, 1]>
  return
}

// -----

func.func @f(%b: tensor<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op operand #0 must be buffer-like (!host.buf or !host.view), but got 'tensor<5x6xf32>'}}
  %v = "host.shard_by_stream"(%b, %i) <{axis = 1 : i64, chunks = 3 : i64}> : (tensor<5x6xf32>, index) -> !host.view<5x2xf32, strides = [6, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: i32) {
  // expected-error @+1 {{'host.shard_by_stream' op operand #1 must be index, but got 'i32'}}
  %v = "host.shard_by_stream"(%b, %i) <{axis = 1 : i64, chunks = 3 : i64}> : (!host.buf<5x6xf32>, i32) -> !host.view<5x2xf32, strides = [6, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<5x6xf32>, %i: index) {
  // expected-error @+1 {{'host.shard_by_stream' op result #0 must be view (!host.view), but got '!host.buf<5x2xf32>'}}
  %v = "host.shard_by_stream"(%b, %i) <{axis = 1 : i64, chunks = 3 : i64}> : (!host.buf<5x6xf32>, index) -> !host.buf<5x2xf32>
  return
}

// -----

func.func @f(%b: !host.buf<4x8xf32>, %i: index) {
  // expected-error @+1 {{'host.select' op axis -1 is out of range for a source of rank 2}}
  %v = host.select %b[%i] axis = -1 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
  return
}

// -----

func.func @f(%b: !host.buf<4x8xf32>, %i: index) {
  // expected-error @+1 {{'host.select' op result shape [8] does not match the expected [4]}}
  %v = host.select %b[%i] axis = 1 : !host.buf<4x8xf32> -> !host.view<8xf32, strides = [1]>
  return
}

// -----

func.func @f(%b: !host.buf<4x8xf32>, %i: index) {
  // expected-error @+1 {{'host.slice' op expected 2 offset values, one per source dimension, got 1}}
  %v = host.slice %b[%i] [2, 8] [1, 1] : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<4x8xf32>, %i: index) {
  // expected-error @+1 {{'host.slice' op slice along dimension 0 is out of bounds: offset 3, size 2, stride 1 on extent 4}}
  %v = host.slice %b[3, 0] [2, 8] [1, 1] : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<4x8xf32>, %i: index) {
  // expected-error @+1 {{'host.slice' op static size must be non-negative, got -1}}
  %v = host.slice %b[0, 0] [2, -1] [1, 1] : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<4x8xf32>, %i: index) {
  // expected-error @+1 {{'host.slice' op result strides [8, 1] do not match the expected [8, 2]}}
  %v = host.slice %b[0, 0] [2, 4] [1, 2] : !host.buf<4x8xf32> -> !host.view<2x4xf32, strides = [8, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<4x8xf32>, %i: index) {
  // expected-error @+1 {{'host.slice' op result shape [2, 8] does not match the expected [?, 8]}}
  %v = host.slice %b[0, 0] [%i, 8] [1, 1] : !host.buf<4x8xf32> -> !host.view<2x8xf32, strides = [8, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<4x8xf32>, %i: index) {
  // expected-error @+1 {{'host.slice' op expected 0 dynamic offset operand(s), one per dynamic entry, but got 1}}
  %v = "host.slice"(%b, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 2, 8>, static_strides = array<i64: 1, 1>}> : (!host.buf<4x8xf32>, index) -> !host.view<2x8xf32, strides = [8, 1]>
  return
}

// -----

func.func @f(%b: !host.buf<4x8xf32>, %i: index) {
  // expected-error @+1 {{'host.slice' op operand count (2) does not match with the total size (3) specified in attribute 'operandSegmentSizes'}}
  %v = "host.slice"(%b, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 2, 8>, static_strides = array<i64: 1, 1>}> : (!host.buf<4x8xf32>, index) -> !host.view<2x8xf32, strides = [8, 1]>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>, %b: !host.buf<5xf32>) {
  // expected-error @+1 {{'host.copy' op source shape [4] and target shape [5] differ}}
  host.copy %a, %b : !host.buf<4xf32>, !host.buf<5xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>, %b: !host.buf<4xf16>) {
  // expected-error @+1 {{'host.copy' op source and target element types differ: 'f32' vs 'f16'}}
  host.copy %a, %b : !host.buf<4xf32>, !host.buf<4xf16>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>, %b: !host.buf<4x4xf32>) {
  // expected-error @+1 {{'host.matmul' op operand 'a' must have rank >= 2, got rank 1}}
  host.matmul %a, %b into %b : !host.buf<4xf32>, !host.buf<4x4xf32>, !host.buf<4x4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x4xf32>, %b: !host.buf<4x4xf16>) {
  // expected-error @+1 {{'host.matmul' op 'a' and 'b' element types differ: 'f32' vs 'f16'}}
  host.matmul %a, %b into %a : !host.buf<4x4xf32>, !host.buf<4x4xf16>, !host.buf<4x4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %b: !host.buf<4x8xf32>, %c: !host.buf<4x8xf32>) {
  // expected-error @+1 {{'host.matmul' op contracting extents differ: 8 in 'a', 4 in 'b'}}
  host.matmul %a, %b into %c : !host.buf<4x8xf32>, !host.buf<4x8xf32>, !host.buf<4x8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<2x4x8xf32>, %b: !host.buf<3x8x4xf32>, %c: !host.buf<2x4x4xf32>) {
  // expected-error @+1 {{'host.matmul' op batch dimensions [2] of 'a' and [3] of 'b' differ}}
  host.matmul %a, %b into %c : !host.buf<2x4x8xf32>, !host.buf<3x8x4xf32>, !host.buf<2x4x4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %b: !host.buf<8x16xf32>, %c: !host.buf<4x8xf32>) {
  // expected-error @+1 {{'host.matmul' op output shape [4, 8] does not match the expected [4, 16]}}
  host.matmul %a, %b into %c : !host.buf<4x8xf32>, !host.buf<8x16xf32>, !host.buf<4x8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %b: !host.buf<8x16xf32>) {
  // expected-error @+1 {{custom op 'host.matmul' expected two operands before 'into'}}
  host.matmul %a into %b : !host.buf<4x8xf32>, !host.buf<8x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<f32>, %w: !host.buf<16x8xf32>, %y: !host.buf<16xf32>) {
  // expected-error @+1 {{'host.linear' op operand 'x' must have rank >= 1, got rank 0}}
  host.linear %x, %w into %y : !host.buf<f32>, !host.buf<16x8xf32>, !host.buf<16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<8xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op operand 'w' must have rank 2, got rank 1}}
  host.linear %x, %w into %y : !host.buf<4x8xf32>, !host.buf<8xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xbf16>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op 'x' and 'w' element types differ: 'f32' vs 'bf16'}}
  host.linear %x, %w into %y : !host.buf<4x8xf32>, !host.buf<16x8xbf16>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x4xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op contracting extents differ: 8 in 'x', 4 in 'w'}}
  host.linear %x, %w into %y : !host.buf<4x8xf32>, !host.buf<16x4xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %bias: !host.buf<1x16xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op operand 'bias' must have rank 1, got rank 2}}
  host.linear %x, %w, %bias into %y : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<1x16xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %bias: !host.buf<16xf16>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op 'x' and 'bias' element types differ: 'f32' vs 'f16'}}
  host.linear %x, %w, %bias into %y : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<16xf16>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %bias: !host.buf<8xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op bias extent 8 does not match the 16 output features of 'w'}}
  host.linear %x, %w, %bias into %y : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<8xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<2x4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op output shape [4, 16] does not match the expected [2, 4, 16]}}
  host.linear %x, %w into %y : !host.buf<2x4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>) {
  // expected-error @+1 {{custom op 'host.linear' expected 'x, w' or 'x, w, bias' before 'into'}}
  host.linear %x into %x : !host.buf<4x8xf32>, !host.buf<4x8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>) {
  // expected-error @+1 {{custom op 'host.elementwise' unknown elementwise kind 'softplus' (expected one of add, sub, mul, div, max, min, neg, cast, exp, log, tanh, erf, sqrt, rsqrt, sigmoid, abs, reciprocal, silu, gelu, gelu_tanh, pow, eq, ne, lt, le, gt, ge, where)}}
  host.elementwise softplus %a, %a into %a : !host.buf<4xf32>, !host.buf<4xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.elementwise' op unknown elementwise kind 'softplus' (expected one of add, sub, mul, div, max, min, neg, cast, exp, log, tanh, erf, sqrt, rsqrt, sigmoid, abs, reciprocal, silu, gelu, gelu_tanh, pow, eq, ne, lt, le, gt, ge, where)}}
  "host.elementwise"(%a, %a) <{kind = "softplus"}> : (!host.buf<4xf32>, !host.buf<4xf32>) -> ()
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.elementwise' op 'add' takes 2 input(s), got 1}}
  host.elementwise add %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>, %b: !host.buf<8xf32>) {
  // expected-error @+1 {{'host.elementwise' op input #1 shape [8] does not match the output shape [4]}}
  host.elementwise sub %a, %b into %a : !host.buf<4xf32>, !host.buf<8xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>, %h: !host.buf<4xf16>) {
  // expected-error @+1 {{'host.elementwise' op input #0 and output element types differ: 'f32' vs 'f16'}}
  host.elementwise neg %a into %h : !host.buf<4xf32>, !host.buf<4xf16>
  return
}

// -----

func.func @f(%a: !host.buf<4xf32>) {
  // expected-error @+1 {{custom op 'host.elementwise' expected 3 types, got 2}}
  host.elementwise add %a, %a into %a : !host.buf<4xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %r: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.sum' op dims [1, 0] must be strictly increasing}}
  host.sum %a into %r dims = [1, 0] : !host.buf<4x8xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %r: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.sum' op dim 2 is out of range for an input of rank 2}}
  host.sum %a into %r dims = [2] : !host.buf<4x8xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %r: !host.buf<4xf16>) {
  // expected-error @+1 {{'host.sum' op input and output element types differ: 'f32' vs 'f16'}}
  host.sum %a into %r dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf16>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %r: !host.buf<8xf32>) {
  // expected-error @+1 {{'host.sum' op output shape [8] does not match the expected [4]}}
  host.sum %a into %r dims = [1] : !host.buf<4x8xf32>, !host.buf<8xf32>
  return
}

// -----

func.func @f(%n: index) {
  // expected-error @+1 {{'host.for' op expects a body block with exactly one argument, the 'index' induction variable}}
  "host.for"(%n, %n, %n) ({
  ^bb0:
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%n: index) {
  // expected-error @+1 {{'host.for' op expects a body block with exactly one argument, the 'index' induction variable}}
  "host.for"(%n, %n, %n) ({
  ^bb0(%i: i32):
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%n: i32) {
  // expected-error @+1 {{'host.for' op operand #0 must be index, but got 'i32'}}
  "host.for"(%n, %n, %n) ({
  ^bb0(%i: index):
  }) : (i32, i32, i32) -> ()
  return
}

// -----

func.func @f(%n: index) {
  // expected-error @+1 {{'host.for' op expects region #0 to have 0 or 1 blocks}}
  "host.for"(%n, %n, %n) ({
  ^bb0(%i: index):
    "host.synchronize"() : () -> ()
  ^bb1:
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error @+1 {{'host.if' op expects a 'then' block}}
  "host.if"(%c) ({
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error @+1 {{'host.if' op region #0 must have no block arguments}}
  "host.if"(%c) ({
  ^bb0(%x: index):
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i32) {
  // expected-error @+1 {{'host.if' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "host.if"(%c) ({
  ^bb0:
  }, {
  }) : (i32) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error @+1 {{'host.if' op expected 2 regions}}
  "host.if"(%c) ({
  ^bb0:
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%i: index) {
  // expected-error @+1 {{'host.set_stream' op operand #0 must be stream (!host.stream), but got 'index'}}
  "host.set_stream"(%i) : (index) -> ()
  return
}

// -----

func.func @f(%i: index) {
  // expected-error @+1 {{'host.get_stream' op result #0 must be stream (!host.stream), but got 'index'}}
  %s = "host.get_stream"(%i) : (index) -> index
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'host.stream_wait' op requires a single operand}}
  "host.stream_wait"() : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'host.rank' op result #0 must be index, but got 'i64'}}
  %r = "host.rank"() : () -> i64
  return
}

// -----

func.func @f(%i: index) {
  // expected-error @+1 {{'host.launch' op requires attribute 'callee'}}
  "host.launch"(%i) : (index) -> ()
  return
}

// -----

func.func @f(%i: index) {
  // expected-error @+1 {{'host.launch' op attribute 'callee' failed to satisfy constraint: flat symbol reference attribute}}
  "host.launch"(%i) <{callee = "k"}> : (index) -> ()
  return
}

// -----

// expected-error @+1 {{expected 2 strides (one per dimension), got 1}}
func.func @f(%v: !host.view<4x8xf32, strides = [1]>) {
  return
}

// -----

// expected-error @+1 {{unknown memory kind 'global' (expected device, pinned, ipc or symmetric)}}
func.func @f(%v: !host.buf<4x8xf32, global>) {
  return
}

// -----

// expected-error @+1 {{element type must be an integer, index or float type}}
func.func @f(%v: !host.buf<4xtensor<2xf32>>) {
  return
}

// -----

// expected-error @+1 {{strides must be non-negative or '?', got -3}}
func.func @f(%v: !host.view<4xf32, strides = [-3]>) {
  return
}

// -----

// expected-error @+1 {{expected ','}}
func.func @f(%v: !host.view<4xf32>) {
  return
}

// -----

// expected-error @+1 {{unknown host type: tensor}}
func.func @f(%v: !host.tensor<4xf32>) {
  return
}

// -----

func.func @expand_dims(%b: !host.buf<64xf32>) {
  // expected-error @+1 {{'host.expand' op dims must be sorted, distinct and below 2}}
  %v = host.expand %b dims = [2] : !host.buf<64xf32> -> !host.view<48x64xf32, strides = [0, 1]>
  return
}

// -----

func.func @expand_result(%b: !host.buf<64xf32>) {
  // expected-error @+1 {{'host.expand' op result type must be !host.view<48x64xf32, strides = [0, 1]>}}
  %v = host.expand %b dims = [0] : !host.buf<64xf32> -> !host.view<48x64xf32, strides = [64, 1]>
  return
}

// -----

func.func @permute_not_a_permutation(%m: !host.buf<4x8xf32>) {
  // expected-error @+1 {{'host.permute' op dims must be a permutation of 0..2}}
  %t = host.permute %m dims = [1, 1] : !host.buf<4x8xf32> -> !host.view<8x4xf32, strides = [1, 8]>
  return
}

// -----

func.func @reshape_count(%m: !host.buf<4x8xf32>) {
  // expected-error @+1 {{'host.reshape' op the source has 32 elements, the result 30}}
  %f = host.reshape %m : !host.buf<4x8xf32> -> !host.view<30xf32, strides = [1]>
  return
}

// -----

func.func @reshape_strided(%v: !host.view<4x2xf32, strides = [8, 1]>) {
  // expected-error @+1 {{'host.reshape' op the source must be contiguous (copy it into a buffer first)}}
  %f = host.reshape %v : !host.view<4x2xf32, strides = [8, 1]> -> !host.view<8xf32, strides = [1]>
  return
}

// -----

func.func @no_output(%x: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.kernel' op requires at least one output}}
  host.kernel "softmax" (%x) into () : (!host.buf<4xf32>) into ()
  return
}

// -----

func.func @type_count(%x: !host.buf<4xf32>) {
  // expected-error @+1 {{expected 1 types, got 2}}
  host.kernel "softmax" (%x) into (%x) : (!host.buf<4xf32>, !host.buf<4xf32>) into (!host.buf<4xf32>)
  return
}

// -----

func.func @params_not_dict(%x: !host.buf<4xf32>) {
  // expected-error @+1 {{expected a dictionary of kernel parameters}}
  host.kernel "softmax" (%x) into (%x) params [1] : (!host.buf<4xf32>) into (!host.buf<4xf32>)
  return
}

// -----
func.func @fused_wrong_yield(%x: !host.buf<4xf32>, %y: !host.buf<4xbf16>) {
  // expected-error @+1 {{'host.fused' op yielded value #0 has type 'tensor<4xf32>', expected the tensor of output #0 ('tensor<4xbf16>')}}
  host.fused (%x) into (%y) : (!host.buf<4xf32>) into (!host.buf<4xbf16>) {
  ^bb0(%a: tensor<4xf32>):
    host.yield %a : tensor<4xf32>
  }
  return
}

// -----
func.func @fused_wrong_argument(%x: !host.buf<4xf32>, %y: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.fused' op body argument #0 has type 'tensor<8xf32>', expected the tensor of input #0 ('tensor<4xf32>')}}
  host.fused (%x) into (%y) : (!host.buf<4xf32>) into (!host.buf<4xf32>) {
  ^bb0(%a: tensor<8xf32>):
    host.yield %a : tensor<8xf32>
  }
  return
}

// -----
func.func @fused_no_output(%x: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.fused' op requires at least one output}}
  host.fused (%x) into () : (!host.buf<4xf32>) into () {
  ^bb0(%a: tensor<4xf32>):
    host.yield
  }
  return
}

// -----
func.func @fused_non_fusion_op(%x: !host.buf<4xf32>, %y: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.fused' op body op 'arith.addf' is not a fusion op}}
  host.fused (%x) into (%y) : (!host.buf<4xf32>) into (!host.buf<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %0 = arith.addf %a, %a : tensor<4xf32>
    host.yield %0 : tensor<4xf32>
  }
  return
}

// -----
func.func @yield_outside(%c: index) {
  host.for %i = %c to %c step %c {
    // expected-error @+1 {{'host.yield' op expects parent op 'host.fused'}}
    host.yield
  }
  return
}
