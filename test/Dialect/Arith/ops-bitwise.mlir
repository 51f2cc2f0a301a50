// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @bitwise(%arg0: i32, %arg1: i32, %arg2: index, %arg3: vector<4xi8>)
// CHECK-NEXT:  %0 = arith.andi %arg0, %arg1 : i32
// CHECK-NEXT:  %1 = arith.ori %arg2, %arg2 {test.tag} : index
// CHECK-NEXT:  %2 = arith.xori %arg3, %arg3 : vector<4xi8>
// CHECK-NEXT:  %3 = arith.shli %arg0, %arg1 : i32
// CHECK-NEXT:  %4 = arith.shli %arg0, %arg1 overflow<nsw, nuw> : i32
// CHECK-NEXT:  %5 = arith.shrsi %arg2, %arg2 : index
// CHECK-NEXT:  %6 = arith.shrui %arg3, %arg3 : vector<4xi8>
// CHECK-NEXT:  %7 = arith.shli %arg0, %arg1 : i32
// CHECK-NEXT:  return
// GENERIC:     %2 = "arith.andi"(%arg1, %arg2) : (i32, i32) -> i32
// GENERIC:     %3 = "arith.ori"(%arg3, %arg3) {test.tag} : (index, index) -> index
// GENERIC:     %4 = "arith.xori"(%arg4, %arg4) : (vector<4xi8>, vector<4xi8>) -> vector<4xi8>
// GENERIC:     %5 = "arith.shli"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC:     %6 = "arith.shli"(%arg1, %arg2) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32
// GENERIC:     %7 = "arith.shrsi"(%arg3, %arg3) : (index, index) -> index
// GENERIC:     %8 = "arith.shrui"(%arg4, %arg4) : (vector<4xi8>, vector<4xi8>) -> vector<4xi8>
// GENERIC:     %9 = "arith.shli"(%arg1, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
func.func @bitwise(%a: i32, %b: i32, %i: index, %v: vector<4xi8>) {
  %0 = arith.andi %a, %b : i32
  %1 = arith.ori %i, %i {test.tag} : index
  %2 = arith.xori %v, %v : vector<4xi8>
  %3 = arith.shli %a, %b : i32
  %4 = arith.shli %a, %b overflow<nuw, nsw> : i32
  %5 = arith.shrsi %i, %i : index
  %6 = arith.shrui %v, %v : vector<4xi8>
  %7 = "arith.shli"(%a, %b) : (i32, i32) -> i32
  return
}

// CHECK-LABEL: func.func @overflow_flags_elsewhere(%arg0: i32)
// CHECK-NEXT:  %0 = arith.xori %arg0, %arg0 {overflowFlags = #arith.overflow<nsw>} : i32
// CHECK-NEXT:  %1 = arith.addi %arg0, %arg0 overflow<nsw> {test.tag} : i32
// CHECK-NEXT:  return
// GENERIC:     %0 = "arith.xori"(%arg0, %arg0) {overflowFlags = #arith.overflow<nsw>} : (i32, i32) -> i32
// GENERIC:     %1 = "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<nsw>}> {test.tag} : (i32, i32) -> i32
func.func @overflow_flags_elsewhere(%a: i32) {
  %0 = "arith.xori"(%a, %a) {overflowFlags = #arith.overflow<nsw>} : (i32, i32) -> i32
  %1 = arith.addi %a, %a overflow<nsw> {test.tag} : i32
  return
}
