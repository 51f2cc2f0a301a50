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
// GENERIC:     %0 = "arith.extsi"(%arg0) : (i32) -> i64
// GENERIC:     %1 = "arith.extui"(%arg1) {test.tag} : (i1) -> i32
// GENERIC:     %2 = "arith.trunci"(%arg0) : (i32) -> i8
// GENERIC:     %3 = "arith.extsi"(%arg2) : (vector<4xi8>) -> vector<4xi32>
// GENERIC:     %4 = "arith.trunci"(%arg3) : (tensor<?x4xi16>) -> tensor<?x4xi1>
// GENERIC:     %5 = "arith.extui"(%arg0) : (i32) -> i128
func.func @casts(%i: i32, %b: i1, %v: vector<4xi8>, %t: tensor<?x4xi16>) {
  %0 = arith.extsi %i : i32 to i64
  %1 = arith.extui %b {test.tag} : i1 to i32
  %2 = arith.trunci %i : i32 to i8
  %3 = arith.extsi %v : vector<4xi8> to vector<4xi32>
  %4 = arith.trunci %t : tensor<?x4xi16> to tensor<?x4xi1>
  %5 = "arith.extui"(%i) : (i32) -> i128
  return
}
