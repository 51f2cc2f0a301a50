// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @constants()
func.func @constants() -> (i32, i1, i1, i64, index, i8, i0, vector<4xi32>) {
  // CHECK-NEXT: %c42_i32 = arith.constant 42 : i32
  // GENERIC: "arith.constant"() <{value = 42 : i32}> : () -> i32
  %0 = arith.constant 42 : i32
  // CHECK-NEXT: %true = arith.constant true
  // GENERIC: "arith.constant"() <{value = true}> : () -> i1
  %1 = arith.constant true
  // CHECK-NEXT: %false = arith.constant false
  %2 = arith.constant 0 : i1
  // CHECK-NEXT: %c-1_i64 = arith.constant -1 : i64
  %3 = arith.constant -1 : i64
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // GENERIC: "arith.constant"() <{value = 0 : index}> : () -> index
  %4 = arith.constant 0 : index
  // CHECK-NEXT: %c-1_i8 = arith.constant {test.tag} -1 : i8
  // GENERIC: "arith.constant"() <{value = -1 : i8}> {test.tag} : () -> i8
  %5 = arith.constant {test.tag} 255 : i8
  // CHECK-NEXT: %c0_i0 = arith.constant 0 : i0
  %6 = arith.constant 0 : i0
  // CHECK-NEXT: %cst = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %7 = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : i32, i1, i1, i64, index, i8, i0, vector<4xi32>
}

// CHECK-LABEL: func.func @binary(%arg0: i32, %arg1: i32, %arg2: index)
func.func @binary(%a: i32, %b: i32, %i: index) {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg1 : i32
  // GENERIC: "arith.addi"(%{{.*}}, %{{.*}}) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %0 = arith.addi %a, %b : i32
  // CHECK-NEXT: %1 = arith.addi %arg0, %arg1 overflow<nsw, nuw> : i32
  // GENERIC: "arith.addi"(%{{.*}}, %{{.*}}) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32
  %1 = arith.addi %a, %b overflow<nuw, nsw> : i32
  // CHECK-NEXT: %2 = arith.subi %arg0, %arg1 overflow<nsw> : i32
  %2 = arith.subi %a, %b overflow<nsw> : i32
  // CHECK-NEXT: %3 = arith.muli %arg2, %arg2 overflow<nuw> {test.tag} : index
  // GENERIC: "arith.muli"(%{{.*}}, %{{.*}}) <{overflowFlags = #arith.overflow<nuw>}> {test.tag} : (index, index) -> index
  %3 = arith.muli %i, %i overflow<nuw> {test.tag} : index
  // CHECK-NEXT: %4 = arith.muli %arg0, %arg1 : i32
  %4 = arith.muli %a, %b overflow<none> : i32
  // CHECK-NEXT: %5 = arith.divsi %arg0, %arg1 : i32
  // GENERIC: "arith.divsi"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
  %5 = arith.divsi %a, %b : i32
  // CHECK-NEXT: %6 = arith.divui %arg2, %arg2 : index
  %6 = arith.divui %i, %i : index
  // CHECK-NEXT: %7 = arith.remsi %arg0, %arg1 : i32
  %7 = arith.remsi %a, %b : i32
  // CHECK-NEXT: %8 = arith.remui %arg0, %arg1 : i32
  %8 = arith.remui %a, %b : i32
  return
}

// CHECK-LABEL: func.func @compare_select_cast(%arg0: i32, %arg1: i32, %arg2: vector<4xi32>, %arg3: vector<4xi1>)
func.func @compare_select_cast(%a: i32, %b: i32, %v: vector<4xi32>, %m: vector<4xi1>) {
  // CHECK-NEXT: %0 = arith.cmpi slt, %arg0, %arg1 : i32
  // GENERIC: "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 2 : i64}> : (i32, i32) -> i1
  %0 = arith.cmpi slt, %a, %b : i32
  // CHECK-NEXT: %1 = arith.cmpi ne, %arg0, %arg1 {test.tag} : i32
  // GENERIC: "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 1 : i64}> {test.tag} : (i32, i32) -> i1
  %1 = arith.cmpi "ne", %a, %b {test.tag} : i32
  // CHECK-NEXT: %2 = arith.cmpi uge, %arg2, %arg2 : vector<4xi32>
  // GENERIC: "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 9 : i64}> : (vector<4xi32>, vector<4xi32>) -> vector<4xi1>
  %2 = arith.cmpi uge, %v, %v : vector<4xi32>
  // CHECK-NEXT: %3 = arith.select %0, %arg0, %arg1 : i32
  // GENERIC: "arith.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (i1, i32, i32) -> i32
  %3 = arith.select %0, %a, %b : i32
  // CHECK-NEXT: %4 = arith.select %arg3, %arg2, %arg2 : vector<4xi1>, vector<4xi32>
  %4 = arith.select %m, %v, %v : vector<4xi1>, vector<4xi32>
  // CHECK-NEXT: %5 = arith.select %0, %arg2, %arg2 : vector<4xi32>
  %5 = arith.select %0, %v, %v : vector<4xi32>
  // CHECK-NEXT: %6 = arith.index_cast %arg0 : i32 to index
  // GENERIC: "arith.index_cast"(%{{.*}}) : (i32) -> index
  %6 = arith.index_cast %a : i32 to index
  // CHECK-NEXT: %7 = arith.index_cast %6 {test.tag} : index to i64
  %7 = arith.index_cast %6 {test.tag} : index to i64
  // CHECK-NEXT: %8 = arith.index_cast %arg2 : vector<4xi32> to vector<4xindex>
  %8 = arith.index_cast %v : vector<4xi32> to vector<4xindex>
  return
}

// A predicate in the attribute dictionary wins over the keyword, as in mlir-opt-19.
// CHECK-LABEL: func.func @cmpi_predicate_in_dict(%arg0: i32)
func.func @cmpi_predicate_in_dict(%a: i32) -> i1 {
  // CHECK-NEXT: %0 = arith.cmpi sle, %arg0, %arg0 : i32
  %0 = arith.cmpi slt, %a, %a {predicate = 3 : i64} : i32
  return %0 : i1
}
