// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// Non-splat dense constants fold elementwise; equal results become a splat.
// CHECK-LABEL: func.func @int_elementwise() -> (vector<4xi32>, vector<4xi32>, vector<4xi1>, tensor<2xi8>, vector<4xi32>) {
// CHECK-NEXT:  %cst = arith.constant dense<5> : vector<4xi32>
// CHECK-NEXT:  %cst_0 = arith.constant dense<[2, 4, 6, 8]> : vector<4xi32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[true, true, false, false]> : vector<4xi1>
// CHECK-NEXT:  %cst_2 = arith.constant dense<[-56, 0]> : tensor<2xi8>
// CHECK-NEXT:  %cst_3 = arith.constant dense<[4, 3, 3, 4]> : vector<4xi32>
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2, %cst_3 : vector<4xi32>, vector<4xi32>, vector<4xi1>, tensor<2xi8>, vector<4xi32>
// CHECK-NEXT: }
func.func @int_elementwise() -> (vector<4xi32>, vector<4xi32>, vector<4xi1>, tensor<2xi8>, vector<4xi32>) {
  %a = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %b = arith.constant dense<[4, 3, 2, 1]> : vector<4xi32>
  %two = arith.constant dense<2> : vector<4xi32>
  %add = arith.addi %a, %b : vector<4xi32>
  %mul = arith.muli %a, %two : vector<4xi32>
  %cmp = arith.cmpi slt, %a, %b : vector<4xi32>
  %t1 = arith.constant dense<[100, -100]> : tensor<2xi8>
  %t2 = arith.constant dense<[100, 100]> : tensor<2xi8>
  %wrap = arith.addi %t1, %t2 : tensor<2xi8>
  %max = arith.maxsi %a, %b : vector<4xi32>
  return %add, %mul, %cmp, %wrap, %max : vector<4xi32>, vector<4xi32>, vector<4xi1>, tensor<2xi8>, vector<4xi32>
}

// Identities on splat vector constants.
// CHECK-LABEL: func.func @vector_identities(%arg0: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>) {
// CHECK-NEXT:  %cst = arith.constant dense<0> : vector<4xi32>
// CHECK-NEXT:  return %arg0, %arg0, %cst : vector<4xi32>, vector<4xi32>, vector<4xi32>
// CHECK-NEXT: }
func.func @vector_identities(%x: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>) {
  %zero = arith.constant dense<0> : vector<4xi32>
  %one = arith.constant dense<1> : vector<4xi32>
  %a = arith.addi %x, %zero : vector<4xi32>
  %b = arith.muli %x, %one : vector<4xi32>
  %c = arith.muli %x, %zero : vector<4xi32>
  return %a, %b, %c : vector<4xi32>, vector<4xi32>, vector<4xi32>
}

// A division by a zero element anywhere refuses the fold.
// CHECK-LABEL: func.func @division_by_zero_element() -> vector<2xi32> {
// CHECK-NEXT:  %cst = arith.constant dense<[6, 8]> : vector<2xi32>
// CHECK-NEXT:  %cst_0 = arith.constant dense<[3, 0]> : vector<2xi32>
// CHECK-NEXT:  %0 = arith.divsi %cst, %cst_0 : vector<2xi32>
// CHECK-NEXT:  return %0 : vector<2xi32>
// CHECK-NEXT: }
func.func @division_by_zero_element() -> vector<2xi32> {
  %a = arith.constant dense<[6, 8]> : vector<2xi32>
  %b = arith.constant dense<[3, 0]> : vector<2xi32>
  %q = arith.divsi %a, %b : vector<2xi32>
  return %q : vector<2xi32>
}

// Shifts and floordivsi fold unless the last element is out of range (MLIR's shared flag).
// CHECK-LABEL: func.func @last_element_decides() -> (vector<2xi8>, vector<2xi8>, vector<2xi8>, vector<2xi8>) {
// CHECK-NEXT:  %cst = arith.constant dense<[7, -4]> : vector<2xi8>
// CHECK-NEXT:  %cst_0 = arith.constant dense<[2, 0]> : vector<2xi8>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[7, -7]> : vector<2xi8>
// CHECK-NEXT:  %cst_2 = arith.constant dense<1> : vector<2xi8>
// CHECK-NEXT:  %cst_3 = arith.constant dense<[2, 9]> : vector<2xi8>
// CHECK-NEXT:  %cst_4 = arith.constant dense<[0, 4]> : vector<2xi8>
// CHECK-NEXT:  %0 = arith.shli %cst_2, %cst_3 : vector<2xi8>
// CHECK-NEXT:  %1 = arith.floordivsi %cst_1, %cst_0 : vector<2xi8>
// CHECK-NEXT:  return %cst_4, %0, %cst, %1 : vector<2xi8>, vector<2xi8>, vector<2xi8>, vector<2xi8>
// CHECK-NEXT: }
func.func @last_element_decides() -> (vector<2xi8>, vector<2xi8>, vector<2xi8>, vector<2xi8>) {
  %one = arith.constant dense<1> : vector<2xi8>
  %far_first = arith.constant dense<[9, 2]> : vector<2xi8>
  %far_last = arith.constant dense<[2, 9]> : vector<2xi8>
  %a = arith.shli %one, %far_first : vector<2xi8>
  %b = arith.shli %one, %far_last : vector<2xi8>
  %n = arith.constant dense<[7, -7]> : vector<2xi8>
  %zero_first = arith.constant dense<[0, 2]> : vector<2xi8>
  %zero_last = arith.constant dense<[2, 0]> : vector<2xi8>
  %c = arith.floordivsi %n, %zero_first : vector<2xi8>
  %d = arith.floordivsi %n, %zero_last : vector<2xi8>
  return %a, %b, %c, %d : vector<2xi8>, vector<2xi8>, vector<2xi8>, vector<2xi8>
}

// Floats, casts, negf and select on non-splat constants.
// CHECK-LABEL: func.func @float_and_casts() -> (vector<3xf32>, vector<3xf16>, vector<3xi32>, vector<3xf64>, vector<3xindex>, vector<3xi32>) {
// CHECK-NEXT:  %cst = arith.constant dense<[1, -2, 300]> : vector<3xi32>
// CHECK-NEXT:  %cst_0 = arith.constant dense<[2.000000e+00, 0.000000e+00, 1.000000e+00]> : vector<3xf32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[-1.000000e+00, -5.000000e-01, 3.000000e+00]> : vector<3xf16>
// CHECK-NEXT:  %cst_2 = arith.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+02]> : vector<3xf64>
// CHECK-NEXT:  %cst_3 = arith.constant dense<[1, -2, 300]> : vector<3xindex>
// CHECK-NEXT:  %cst_4 = arith.constant dense<[1, 8, 300]> : vector<3xi32>
// CHECK-NEXT:  return %cst_0, %cst_1, %cst, %cst_2, %cst_3, %cst_4 : vector<3xf32>, vector<3xf16>, vector<3xi32>, vector<3xf64>, vector<3xindex>, vector<3xi32>
// CHECK-NEXT: }
func.func @float_and_casts() -> (vector<3xf32>, vector<3xf16>, vector<3xi32>, vector<3xf64>, vector<3xindex>, vector<3xi32>) {
  %a = arith.constant dense<[1.5, -2.0, 0.25]> : vector<3xf32>
  %b = arith.constant dense<[0.5, 2.0, 0.75]> : vector<3xf32>
  %sum = arith.addf %a, %b : vector<3xf32>
  %h = arith.constant dense<[1.0, 0.5, -3.0]> : vector<3xf16>
  %neg = arith.negf %h : vector<3xf16>
  %i = arith.constant dense<[1, -2, 300]> : vector<3xi32>
  %f = arith.sitofp %i : vector<3xi32> to vector<3xf64>
  %ix = arith.index_cast %i : vector<3xi32> to vector<3xindex>
  %c = arith.constant dense<[true, false, true]> : vector<3xi1>
  %sel = arith.select %c, %i, %i : vector<3xi1>, vector<3xi32>
  %j = arith.constant dense<[7, 8, 9]> : vector<3xi32>
  %pick = arith.select %c, %i, %j : vector<3xi1>, vector<3xi32>
  return %sum, %neg, %sel, %f, %ix, %pick : vector<3xf32>, vector<3xf16>, vector<3xi32>, vector<3xf64>, vector<3xindex>, vector<3xi32>
}
