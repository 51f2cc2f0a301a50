// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// The diagnostics of host.linear's epilogues (residual, epilogue = gelu_tanh) and of its
// operand segments.

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op 'accumulate' and 'epilogue = gelu_tanh' exclude each other}}
  host.linear %x, %w into %y accumulate epilogue = gelu_tanh : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>, %r: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op 'residual' and 'accumulate' exclude each other}}
  host.linear %x, %w into %y residual %r accumulate : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>, %r: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op 'residual' and 'epilogue' exclude each other (the activation would apply to the residual too)}}
  host.linear %x, %w into %y residual %r epilogue = gelu_tanh : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op the residual must not be the output (that is 'accumulate')}}
  host.linear %x, %w into %y residual %y : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>, %r: !host.buf<4x8xf32>) {
  // expected-error @+1 {{'host.linear' op residual shape [4, 8] does not match the output shape [4, 16]}}
  host.linear %x, %w into %y residual %r : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>, !host.buf<4x8xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>, %r: !host.buf<4x16xbf16>) {
  // expected-error @+1 {{'host.linear' op residual and output element types differ: 'bf16' vs 'f32'}}
  host.linear %x, %w into %y residual %r : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>, !host.buf<4x16xbf16>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xi32>, %w: !host.buf<16x8xi32>, %y: !host.buf<4x16xi32>) {
  // expected-error @+1 {{'host.linear' op 'epilogue = gelu_tanh' needs a float output, got 'i32'}}
  host.linear %x, %w into %y epilogue = gelu_tanh : !host.buf<4x8xi32>, !host.buf<16x8xi32>, !host.buf<4x16xi32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{custom op 'host.linear' unknown epilogue 'relu' (expected one of gelu_tanh)}}
  host.linear %x, %w into %y epilogue = relu : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op unknown epilogue 'gelu' (expected one of gelu_tanh)}}
  "host.linear"(%x, %w, %y) <{epilogue = "gelu", operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}> : (!host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>) -> ()
  return
}

// -----

func.func @f(%x: !host.buf<4x8xf32>, %w: !host.buf<16x8xf32>, %y: !host.buf<4x16xf32>) {
  // expected-error @+1 {{'host.linear' op operand count (3) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  "host.linear"(%x, %w, %y) : (!host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<4x16xf32>) -> ()
  return
}
