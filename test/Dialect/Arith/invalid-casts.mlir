// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
func.func @f(%i: i32) { %0 = arith.extsi %i : i32 to i16
 return }

// -----

// expected-error @+1 {{'arith.extsi' op operand type 'i32' and result type 'i32' are cast incompatible}}
func.func @f(%i: i32) { %0 = arith.extsi %i : i32 to i32
 return }

// -----

// expected-error @+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
func.func @f(%i: i32) { %0 = arith.trunci %i : i32 to i64
 return }

// -----

// expected-error @+1 {{'arith.extui' op requires the same shape for all operands and results}}
func.func @f(%i: vector<4xi32>) { %0 = arith.extui %i : vector<4xi32> to vector<2xi64>
 return }

// -----

// expected-error @+1 {{'arith.extui' op requires the same shape for all operands and results}}
func.func @f(%i: vector<4xi32>) { %0 = arith.extui %i : vector<4xi32> to i64
 return }

// -----

// expected-error @+1 {{'arith.extui' op operand #0 must be signless-fixed-width-integer-like, but got 'index'}}
func.func @f(%i: index) { %0 = arith.extui %i : index to i64
 return }

// -----

// expected-error @+1 {{'arith.extsi' op operand #0 must be signless-fixed-width-integer-like, but got 'f32'}}
func.func @f(%i: f32) { %0 = arith.extsi %i : f32 to i64
 return }

// -----

// expected-error @+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible}}
func.func @f(%i: i32) { %0 = arith.bitcast %i : i32 to f64
 return }

// -----

// expected-error @+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
func.func @f(%i: f32) { %0 = arith.extf %i : f32 to f16
 return }

// -----

// expected-error @+1 {{'arith.truncf' op operand type 'f32' and result type 'f64' are cast incompatible}}
func.func @f(%i: f32) { %0 = arith.truncf %i : f32 to f64
 return }

// -----

// expected-error @+1 {{'arith.sitofp' op result #0 must be floating-point-like, but got 'i64'}}
func.func @f(%i: i32) { %0 = arith.sitofp %i : i32 to i64
 return }

// -----

// expected-error @+1 {{'arith.fptosi' op operand #0 must be floating-point-like, but got 'i32'}}
func.func @f(%i: i32) { %0 = arith.fptosi %i : i32 to i64
 return }

// -----

// expected-error @+1 {{'arith.index_castui' op operand type 'i32' and result type 'i64' are cast incompatible}}
func.func @f(%i: i32) { %0 = arith.index_castui %i : i32 to i64
 return }

// -----

// expected-error @+1 {{expected ':'}}
func.func @f(%i: f32) { %0 = arith.truncf %i bogus : f32 to f16
 return }

// -----

// expected-error @+1 {{'arith.truncf' op attribute 'roundingmode' failed to satisfy constraint: Floating point rounding mode}}
func.func @f(%i: f32) { %0 = "arith.truncf"(%i) {roundingmode = 7 : i32} : (f32) -> f16
 return }

// -----

// expected-error @+1 {{'arith.bitcast' op failed to verify that input and output have the same tensor dimensions}}
func.func @f(%i: tensor<4xi32>) { %0 = arith.bitcast %i : tensor<4xi32> to tensor<?xf32>
 return }

// -----

// expected-error @+1 {{'arith.bitcast' op operand type 'i32' and result type 'index' are cast incompatible}}
func.func @f(%i: i32) { %0 = arith.bitcast %i : i32 to index
 return }

// -----

// expected-error @+1 {{'arith.extsi' op requires a single operand}}
func.func @f(%i: i32) { %0 = "arith.extsi"(%i, %i) : (i32, i32) -> i64
 return }

// -----

// expected-error @+1 {{'arith.extsi' op failed to verify that input and output have the same tensor dimensions}}
func.func @f(%i: tensor<4xi32>) { %0 = arith.extsi %i : tensor<4xi32> to tensor<?xi64>
 return }

// -----

// expected-error @+1 {{'arith.extf' op operand type 'f32' and result type 'f32' are cast incompatible}}
func.func @f(%i: f32) { %0 = arith.extf %i : f32 to f32
 return }

// -----

// expected-error @+1 {{'arith.extf' op operand type 'bf16' and result type 'f16' are cast incompatible}}
func.func @f(%i: bf16) { %0 = arith.extf %i : bf16 to f16
 return }

// -----

// expected-error @+1 {{'arith.bitcast' op operand type 'index' and result type 'i64' are cast incompatible}}
func.func @f(%i: index) { %0 = arith.bitcast %i : index to i64
 return }

// -----

// expected-error @+1 {{'arith.index_castui' op operand #0 must be signless-integer-like or memref of signless-integer, but got 'f32'}}
func.func @f(%i: f32) { %0 = arith.index_castui %i : f32 to index
 return }

// -----

// expected-error @+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'index'}}
func.func @f(%i: index) { %0 = arith.sitofp %i : index to f32
 return }

// -----

// expected-error @+1 {{'arith.uitofp' op result #0 must be floating-point-like, but got 'index'}}
func.func @f(%i: i32) { %0 = arith.uitofp %i : i32 to index
 return }

// -----

// expected-error @+1 {{'arith.fptoui' op result #0 must be signless-fixed-width-integer-like, but got 'index'}}
func.func @f(%i: f32) { %0 = arith.fptoui %i : f32 to index
 return }

// -----

// expected-error @+1 {{'arith.extf' op operand #0 must be floating-point-like, but got 'i32'}}
func.func @f(%i: i32) { %0 = arith.extf %i : i32 to f64
 return }

// -----

func.func @f(%i: i32) { %0 = arith.bitcast %i : i32 to i32
 return }

// -----

func.func @f(%i: vector<2xi32>) { %0 = arith.bitcast %i : vector<2xi32> to vector<2xf32>
 return }

// -----

// expected-error @+1 {{'arith.extsi' op failed to verify that input and output have the same tensor dimensions}}
func.func @f(%t: tensor<*xi32>) { %0 = arith.extsi %t : tensor<*xi32> to tensor<*xi64>
 return }

// -----

// expected-error @+1 {{'arith.bitcast' op failed to verify that input and output have the same tensor dimensions}}
func.func @f(%t: tensor<*xf32>) { %0 = arith.bitcast %t : tensor<*xf32> to tensor<*xi32>
 return }
