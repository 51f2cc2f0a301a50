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
// GENERIC:     %7 = "arith.extsi"(%arg5) : (i32) -> i64
// GENERIC:     %8 = "arith.extui"(%arg6) {test.tag} : (i1) -> i32
// GENERIC:     %9 = "arith.trunci"(%arg5) : (i32) -> i8
// GENERIC:     %10 = "arith.extsi"(%arg7) : (vector<4xi8>) -> vector<4xi32>
// GENERIC:     %11 = "arith.trunci"(%arg8) : (tensor<?x4xi16>) -> tensor<?x4xi1>
// GENERIC:     %12 = "arith.extui"(%arg5) : (i32) -> i128
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
// GENERIC:     %0 = "arith.bitcast"(%arg0) : (i32) -> f32
// GENERIC:     %1 = "arith.bitcast"(%arg1) {test.tag} : (f16) -> i16
// GENERIC:     %2 = "arith.bitcast"(%arg2) : (vector<2xf32>) -> vector<2xi32>
// GENERIC:     %3 = "arith.bitcast"(%arg1) : (f16) -> bf16
// GENERIC:     %4 = "arith.index_castui"(%arg3) : (index) -> i32
// GENERIC:     %5 = "arith.index_castui"(%arg4) {test.tag} : (tensor<?xi64>) -> tensor<?xindex>
// GENERIC:     %6 = "arith.bitcast"(%arg0) : (i32) -> i32
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
