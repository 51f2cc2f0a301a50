// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @casts(%arg0: i32, %arg1: i1, %arg2: vector<4xi8>, %arg3: tensor<?x4xi16>)
// CHECK-NEXT:  %0 = arith.extsi %arg0 : i32 to i64
// CHECK-NEXT:  %1 = arith.extui %arg1 {test.tag} : i1 to i32
// CHECK-NEXT:  %2 = arith.trunci %arg0 : i32 to i8
// CHECK-NEXT:  %3 = arith.extsi %arg2 : vector<4xi8> to vector<4xi32>
// CHECK-NEXT:  %4 = arith.trunci %arg3 : tensor<?x4xi16> to tensor<?x4xi1>
// CHECK-NEXT:  %5 = arith.extui %arg0 : i32 to i128
// CHECK-NEXT:  return
// GENERIC:     %17 = "arith.extsi"(%arg12) : (i32) -> i64
// GENERIC:     %18 = "arith.extui"(%arg13) {test.tag} : (i1) -> i32
// GENERIC:     %19 = "arith.trunci"(%arg12) : (i32) -> i8
// GENERIC:     %20 = "arith.extsi"(%arg14) : (vector<4xi8>) -> vector<4xi32>
// GENERIC:     %21 = "arith.trunci"(%arg15) : (tensor<?x4xi16>) -> tensor<?x4xi1>
// GENERIC:     %22 = "arith.extui"(%arg12) : (i32) -> i128
func.func @casts(%i: i32, %b: i1, %v: vector<4xi8>, %t: tensor<?x4xi16>) {
  %0 = arith.extsi %i : i32 to i64
  %1 = arith.extui %b {test.tag} : i1 to i32
  %2 = arith.trunci %i : i32 to i8
  %3 = arith.extsi %v : vector<4xi8> to vector<4xi32>
  %4 = arith.trunci %t : tensor<?x4xi16> to tensor<?x4xi1>
  %5 = "arith.extui"(%i) : (i32) -> i128
  return
}

// CHECK-LABEL: func.func @bitcast_castui(%arg0: i32, %arg1: f16, %arg2: vector<2xf32>, %arg3: index, %arg4: tensor<?xi64>)
// CHECK-NEXT:  %0 = arith.bitcast %arg0 : i32 to f32
// CHECK-NEXT:  %1 = arith.bitcast %arg1 {test.tag} : f16 to i16
// CHECK-NEXT:  %2 = arith.bitcast %arg2 : vector<2xf32> to vector<2xi32>
// CHECK-NEXT:  %3 = arith.bitcast %arg1 : f16 to bf16
// CHECK-NEXT:  %4 = arith.index_castui %arg3 : index to i32
// CHECK-NEXT:  %5 = arith.index_castui %arg4 {test.tag} : tensor<?xi64> to tensor<?xindex>
// CHECK-NEXT:  %6 = arith.bitcast %arg0 : i32 to i32
// CHECK-NEXT:  return
// GENERIC:     %10 = "arith.bitcast"(%arg7) : (i32) -> f32
// GENERIC:     %11 = "arith.bitcast"(%arg8) {test.tag} : (f16) -> i16
// GENERIC:     %12 = "arith.bitcast"(%arg9) : (vector<2xf32>) -> vector<2xi32>
// GENERIC:     %13 = "arith.bitcast"(%arg8) : (f16) -> bf16
// GENERIC:     %14 = "arith.index_castui"(%arg10) : (index) -> i32
// GENERIC:     %15 = "arith.index_castui"(%arg11) {test.tag} : (tensor<?xi64>) -> tensor<?xindex>
// GENERIC:     %16 = "arith.bitcast"(%arg7) : (i32) -> i32
func.func @bitcast_castui(%i: i32, %f: f16, %v: vector<2xf32>, %x: index, %t: tensor<?xi64>) {
  %0 = arith.bitcast %i : i32 to f32
  %1 = arith.bitcast %f {test.tag} : f16 to i16
  %2 = arith.bitcast %v : vector<2xf32> to vector<2xi32>
  %3 = arith.bitcast %f : f16 to bf16
  %4 = arith.index_castui %x : index to i32
  %5 = arith.index_castui %t {test.tag} : tensor<?xi64> to tensor<?xindex>
  %6 = "arith.bitcast"(%i) : (i32) -> i32
  return
}

// CHECK-LABEL: func.func @f(%arg0: f16, %arg1: f32)
// CHECK-NEXT:  %0 = arith.extf %arg0 fastmath<none> : f16 to f32
// CHECK-NEXT:  %1 = arith.truncf %arg1 fastmath<none> : f32 to f16
// CHECK-NEXT:  %2 = arith.truncf %arg1 upward : f32 to f16
// CHECK-NEXT:  %3 = arith.truncf %arg1 to_nearest_away {x} : f32 to bf16
// CHECK-NEXT:  return
// GENERIC:     %6 = "arith.extf"(%arg5) <{fastmath = #arith.fastmath<none>}> : (f16) -> f32
// GENERIC:     %7 = "arith.truncf"(%arg6) <{fastmath = #arith.fastmath<none>}> : (f32) -> f16
// GENERIC:     %8 = "arith.truncf"(%arg6) <{roundingmode = 2 : i32}> : (f32) -> f16
// GENERIC:     %9 = "arith.truncf"(%arg6) <{roundingmode = 4 : i32}> {x} : (f32) -> bf16
func.func @f(%h: f16, %f: f32) {
  %0 = arith.extf %h fastmath<none> : f16 to f32
  %1 = arith.truncf %f fastmath<none> : f32 to f16
  %2 = arith.truncf %f upward : f32 to f16
  %3 = "arith.truncf"(%f) <{roundingmode = 4 : i32}> {x} : (f32) -> bf16
  return
}

// CHECK-LABEL: func.func @conversions(%arg0: i32, %arg1: i1, %arg2: f32, %arg3: f16, %arg4: vector<2xi64>)
// CHECK-NEXT:  %0 = arith.sitofp %arg0 : i32 to f32
// CHECK-NEXT:  %1 = arith.uitofp %arg1 {test.tag} : i1 to f64
// CHECK-NEXT:  %2 = arith.fptosi %arg2 : f32 to i64
// CHECK-NEXT:  %3 = arith.fptoui %arg3 : f16 to i8
// CHECK-NEXT:  %4 = arith.sitofp %arg4 : vector<2xi64> to vector<2xbf16>
// CHECK-NEXT:  %5 = arith.fptoui %arg2 : f32 to i1
// CHECK-NEXT:  return
// GENERIC:     %0 = "arith.sitofp"(%arg0) : (i32) -> f32
// GENERIC:     %1 = "arith.uitofp"(%arg1) {test.tag} : (i1) -> f64
// GENERIC:     %2 = "arith.fptosi"(%arg2) : (f32) -> i64
// GENERIC:     %3 = "arith.fptoui"(%arg3) : (f16) -> i8
// GENERIC:     %4 = "arith.sitofp"(%arg4) : (vector<2xi64>) -> vector<2xbf16>
// GENERIC:     %5 = "arith.fptoui"(%arg2) : (f32) -> i1
func.func @conversions(%i: i32, %b: i1, %f: f32, %h: f16, %v: vector<2xi64>) {
  %0 = arith.sitofp %i : i32 to f32
  %1 = arith.uitofp %b {test.tag} : i1 to f64
  %2 = arith.fptosi %f : f32 to i64
  %3 = arith.fptoui %h : f16 to i8
  %4 = arith.sitofp %v : vector<2xi64> to vector<2xbf16>
  %5 = "arith.fptoui"(%f) : (f32) -> i1
  return
}
