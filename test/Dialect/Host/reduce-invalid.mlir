// RUN: fuser-opt %s -split-input-file -verify-diagnostics

func.func @f(%a: !host.buf<4x8xf32>, %b: !host.buf<4xf32>) {
  // expected-error @+1 {{unknown reduction kind 'avg' (expected max, min, mean or var)}}
  host.reduce avg %a into %b dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %b: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.reduce' op mean needs the property 'count'}}
  "host.reduce"(%a, %b) <{dims = array<i64: 1>, kind = "mean"}> : (!host.buf<4x8xf32>, !host.buf<4xf32>) -> ()
  return
}

// -----

func.func @f(%a: !host.buf<4x8xi32>, %b: !host.buf<4xi32>) {
  // expected-error @+1 {{'host.reduce' op var needs float buffers, got 'i32'}}
  host.reduce var %a into %b dims = [1] correction = 1 : !host.buf<4x8xi32>, !host.buf<4xi32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %b: !host.buf<8xf32>) {
  // expected-error @+1 {{'host.reduce' op output shape [8] does not match the expected [4]}}
  host.reduce max %a into %b dims = [1] : !host.buf<4x8xf32>, !host.buf<8xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %b: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.reduce' op dims [1, 0] must be strictly increasing}}
  host.reduce min %a into %b dims = [1, 0] : !host.buf<4x8xf32>, !host.buf<4xf32>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %b: !host.buf<4xf16>) {
  // expected-error @+1 {{'host.reduce' op input and output element types differ: 'f32' vs 'f16'}}
  host.reduce max %a into %b dims = [1] : !host.buf<4x8xf32>, !host.buf<4xf16>
  return
}

// -----

func.func @f(%a: !host.buf<4x8xf32>, %b: !host.buf<4xf32>) {
  // expected-error @+1 {{'host.reduce' op mean needs a count >= 0, got -1}}
  host.reduce mean %a into %b dims = [1] count = -1 : !host.buf<4x8xf32>, !host.buf<4xf32>
  return
}
