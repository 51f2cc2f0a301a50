// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s | fuser-opt | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// GENERIC: %4 = "arith.maxsi"(%arg3, %arg4) : (i32, i32) -> i32
// GENERIC: %8 = "arith.ceildivsi"(%arg3, %arg4) : (i32, i32) -> i32
// GENERIC: %12 = "arith.floordivsi"(%arg6, %arg6) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// GENERIC: %0:2 = "arith.addui_extended"(%arg0, %arg0) : (i64, i64) -> (i64, i1)
// GENERIC: %1:2 = "arith.mulsi_extended"(%arg0, %arg0) : (i64, i64) -> (i64, i64)
// GENERIC: %2:2 = "arith.mului_extended"(%arg1, %arg1) {tag} : (vector<2xi16>, vector<2xi16>) -> (vector<2xi16>, vector<2xi16>)

// CHECK-LABEL: func.func @int_ops(%arg0: i32, %arg1: i32, %arg2: vector<4xindex>, %arg3: tensor<2x3xi8>) -> (i32, i32, i32, i32, i32, i32, i32, vector<4xindex>, tensor<2x3xi8>) {
// CHECK-NEXT:  %0 = arith.maxsi %arg0, %arg1 : i32
// CHECK-NEXT:  %1 = arith.maxui %arg0, %arg1 {tag} : i32
// CHECK-NEXT:  %2 = arith.minsi %arg0, %arg1 : i32
// CHECK-NEXT:  %3 = arith.minui %arg0, %arg1 : i32
// CHECK-NEXT:  %4 = arith.ceildivsi %arg0, %arg1 : i32
// CHECK-NEXT:  %5 = arith.ceildivui %arg0, %arg1 : i32
// CHECK-NEXT:  %6 = arith.floordivsi %arg0, %arg1 : i32
// CHECK-NEXT:  %7 = arith.maxsi %arg2, %arg2 : vector<4xindex>
// CHECK-NEXT:  %8 = arith.floordivsi %arg3, %arg3 : tensor<2x3xi8>
// CHECK-NEXT:  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i32, vector<4xindex>, tensor<2x3xi8>
// CHECK-NEXT: }
func.func @int_ops(%a: i32, %b: i32, %v: vector<4xindex>, %t: tensor<2x3xi8>) -> (i32, i32, i32, i32, i32, i32, i32, vector<4xindex>, tensor<2x3xi8>) {
  %0 = arith.maxsi %a, %b : i32
  %1 = arith.maxui %a, %b {tag} : i32
  %2 = arith.minsi %a, %b : i32
  %3 = arith.minui %a, %b : i32
  %4 = arith.ceildivsi %a, %b : i32
  %5 = arith.ceildivui %a, %b : i32
  %6 = arith.floordivsi %a, %b : i32
  %7 = arith.maxsi %v, %v : vector<4xindex>
  %8 = arith.floordivsi %t, %t : tensor<2x3xi8>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i32, vector<4xindex>, tensor<2x3xi8>
}

// CHECK-LABEL: func.func @extended_ops(%arg0: i64, %arg1: vector<2xi16>, %arg2: tensor<?xi8>) -> (i64, i1, i64, i64, vector<2xi16>, vector<2xi16>, tensor<?xi8>, tensor<?xi1>) {
// CHECK-NEXT:  %sum, %overflow = arith.addui_extended %arg0, %arg0 : i64, i1
// CHECK-NEXT:  %low, %high = arith.mulsi_extended %arg0, %arg0 : i64
// CHECK-NEXT:  %low_0, %high_1 = arith.mului_extended %arg1, %arg1 {tag} : vector<2xi16>
// CHECK-NEXT:  %sum_2, %overflow_3 = arith.addui_extended %arg2, %arg2 : tensor<?xi8>, tensor<?xi1>
// CHECK-NEXT:  return %sum, %overflow, %low, %high, %low_0, %high_1, %sum_2, %overflow_3 : i64, i1, i64, i64, vector<2xi16>, vector<2xi16>, tensor<?xi8>, tensor<?xi1>
// CHECK-NEXT: }
func.func @extended_ops(%a: i64, %v: vector<2xi16>, %t: tensor<?xi8>) -> (i64, i1, i64, i64, vector<2xi16>, vector<2xi16>, tensor<?xi8>, tensor<?xi1>) {
  %sum, %overflow = arith.addui_extended %a, %a : i64, i1
  %low, %high = arith.mulsi_extended %a, %a : i64
  %vl, %vh = arith.mului_extended %v, %v {tag} : vector<2xi16>
  %r:2 = arith.addui_extended %t, %t : tensor<?xi8>, tensor<?xi1>
  return %sum, %overflow, %low, %high, %vl, %vh, %r#0, %r#1 : i64, i1, i64, i64, vector<2xi16>, vector<2xi16>, tensor<?xi8>, tensor<?xi1>
}
