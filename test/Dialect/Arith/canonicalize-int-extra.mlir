// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// Integer min/max: x op x, absorbing and neutral constants, constants elementwise.
// CHECK-LABEL: func.func @minmax(%arg0: i8, %arg1: vector<2xi8>) -> (i8, i8, i8, i8, i8, i8, i8, vector<2xi8>) {
// CHECK-NEXT:  %c127_i8 = arith.constant 127 : i8
// CHECK-NEXT:  %c-128_i8 = arith.constant -128 : i8
// CHECK-NEXT:  %c0_i8 = arith.constant 0 : i8
// CHECK-NEXT:  %c3_i8 = arith.constant 3 : i8
// CHECK-NEXT:  %c-5_i8 = arith.constant -5 : i8
// CHECK-NEXT:  %cst = arith.constant dense<[1, -2]> : vector<2xi8>
// CHECK-NEXT:  return %arg0, %c127_i8, %c-128_i8, %arg0, %c0_i8, %c3_i8, %c-5_i8, %cst : i8, i8, i8, i8, i8, i8, i8, vector<2xi8>
// CHECK-NEXT: }
func.func @minmax(%x: i8, %v: vector<2xi8>) -> (i8, i8, i8, i8, i8, i8, i8, vector<2xi8>) {
  %max = arith.constant 127 : i8
  %min = arith.constant -128 : i8
  %zero = arith.constant 0 : i8
  %c3 = arith.constant 3 : i8
  %cm5 = arith.constant -5 : i8
  %a = arith.maxsi %x, %x : i8
  %b = arith.maxsi %x, %max : i8
  %c = arith.minsi %min, %x : i8
  %d = arith.maxui %x, %zero : i8
  %e = arith.minui %x, %zero : i8
  %f = arith.maxsi %c3, %cm5 : i8
  %g = arith.maxui %c3, %cm5 : i8
  %lhs = arith.constant dense<[1, -1]> : vector<2xi8>
  %rhs = arith.constant dense<[2, -2]> : vector<2xi8>
  %h = arith.minsi %lhs, %rhs : vector<2xi8>
  return %a, %b, %c, %d, %e, %f, %g, %h : i8, i8, i8, i8, i8, i8, i8, vector<2xi8>
}

// Rounding divisions: by one, constants, and the refused zero divisor and INT_MIN / -1.
// CHECK-LABEL: func.func @rounding_divisions(%arg0: i32) -> (i32, i32, i32, i32, i32, i32, i32, i8, i8) {
// CHECK-NEXT:  %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:  %c-128_i8 = arith.constant -128 : i8
// CHECK-NEXT:  %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  %c-3_i32 = arith.constant -3 : i32
// CHECK-NEXT:  %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:  %c-4_i32 = arith.constant -4 : i32
// CHECK-NEXT:  %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:  %0 = arith.ceildivui %c7_i32, %c0_i32 : i32
// CHECK-NEXT:  %1 = arith.floordivsi %c-128_i8, %c-1_i8 : i8
// CHECK-NEXT:  %2 = arith.ceildivsi %c-128_i8, %c-1_i8 : i8
// CHECK-NEXT:  return %arg0, %c-3_i32, %c4_i32, %c-4_i32, %c3_i32, %0, %arg0, %1, %2 : i32, i32, i32, i32, i32, i32, i32, i8, i8
// CHECK-NEXT: }
func.func @rounding_divisions(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32, i8, i8) {
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %cm7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %c0 = arith.constant 0 : i32
  %a = arith.ceildivsi %x, %c1 : i32
  %b = arith.ceildivsi %cm7, %c2 : i32
  %c = arith.ceildivui %c7, %c2 : i32
  %d = arith.floordivsi %cm7, %c2 : i32
  %e = arith.floordivsi %c7, %c2 : i32
  %f = arith.ceildivui %c7, %c0 : i32
  %g = arith.floordivsi %x, %c1 : i32
  %min = arith.constant -128 : i8
  %m1 = arith.constant -1 : i8
  %h = arith.floordivsi %min, %m1 : i8
  %i = arith.ceildivsi %min, %m1 : i8
  return %a, %b, %c, %d, %e, %f, %g, %h, %i : i32, i32, i32, i32, i32, i32, i32, i8, i8
}

// Extended ops: identities, constants, and unused second results.
// CHECK-LABEL: func.func @extended(%arg0: i32, %arg1: i32) -> (i32, i1, i32, i1, i32, i32, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %c-5_i32 = arith.constant -5 : i32
// CHECK-NEXT:  %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  %0 = arith.cmpi slt, %arg0, %c0_i32 : i32
// CHECK-NEXT:  %1 = arith.extsi %0 : i1 to i32
// CHECK-NEXT:  %2 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:  %3 = arith.muli %arg0, %arg1 : i32
// CHECK-NEXT:  return %arg0, %false, %c4_i32, %true, %c-5_i32, %c-1_i32, %c-5_i32, %c4_i32, %1, %c0_i32, %2, %3 : i32, i1, i32, i1, i32, i32, i32, i32, i32, i32, i32, i32
// CHECK-NEXT: }
func.func @extended(%x: i32, %y: i32) -> (i32, i1, i32, i1, i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %big = arith.constant -1 : i32
  %c5 = arith.constant 5 : i32
  %s0, %o0 = arith.addui_extended %x, %c0 : i32, i1
  %s1, %o1 = arith.addui_extended %big, %c5 : i32, i1
  %l0, %h0 = arith.mulsi_extended %big, %c5 : i32
  %l1, %h1 = arith.mului_extended %big, %c5 : i32
  %l2, %h2 = arith.mulsi_extended %x, %c1 : i32
  %l3, %h3 = arith.mului_extended %x, %c1 : i32
  %s4, %o4 = arith.addui_extended %x, %y : i32, i1
  %l5, %h5 = arith.mulsi_extended %x, %y : i32
  return %s0, %o0, %s1, %o1, %l0, %h0, %l1, %h1, %h2, %h3, %s4, %l5 : i32, i1, i32, i1, i32, i32, i32, i32, i32, i32, i32, i32
}

// Reassociation of scalar constants through addi/subi/muli, with merged overflow flags.
// CHECK-LABEL: func.func @reassociate(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:  %c15_i32 = arith.constant 15 : i32
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:  %c-2_i32 = arith.constant -2 : i32
// CHECK-NEXT:  %c8_i32 = arith.constant 8 : i32
// CHECK-NEXT:  %0 = arith.addi %arg0, %c8_i32 overflow<nsw> : i32
// CHECK-NEXT:  %1 = arith.subi %c8_i32, %arg0 : i32
// CHECK-NEXT:  %2 = arith.addi %arg0, %c-2_i32 : i32
// CHECK-NEXT:  %3 = arith.addi %arg0, %c2_i32 : i32
// CHECK-NEXT:  %4 = arith.subi %arg0, %arg1 : i32
// CHECK-NEXT:  %5 = arith.subi %c0_i32, %arg1 : i32
// CHECK-NEXT:  %6 = arith.muli %arg0, %c15_i32 : i32
// CHECK-NEXT:  return %0, %1, %2, %3, %4, %5, %6 : i32, i32, i32, i32, i32, i32, i32
// CHECK-NEXT: }
func.func @reassociate(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32, i32) {
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %m1 = arith.constant -1 : i32
  %a0 = arith.addi %x, %c3 overflow<nsw, nuw> : i32
  %r0 = arith.addi %a0, %c5 overflow<nsw> : i32
  %s0 = arith.subi %c3, %x : i32
  %r1 = arith.addi %s0, %c5 : i32
  %r2 = arith.subi %a0, %c5 overflow<nsw> : i32
  %r3 = arith.subi %c5, %s0 : i32
  %neg = arith.muli %y, %m1 : i32
  %r4 = arith.addi %x, %neg : i32
  %d = arith.subi %x, %y : i32
  %r5 = arith.subi %d, %x : i32
  %m0 = arith.muli %x, %c3 : i32
  %r6 = arith.muli %m0, %c5 : i32
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : i32, i32, i32, i32, i32, i32, i32
}

// Casts: extensions under index casts, and trunci of an arithmetic shift by the dropped bits.
// CHECK-LABEL: func.func @cast_patterns(%arg0: i8, %arg1: i32) -> (index, index, i16) {
// CHECK-NEXT:  %c16_i32 = arith.constant 16 : i32
// CHECK-NEXT:  %0 = arith.index_cast %arg0 : i8 to index
// CHECK-NEXT:  %1 = arith.index_castui %arg0 : i8 to index
// CHECK-NEXT:  %2 = arith.shrui %arg1, %c16_i32 : i32
// CHECK-NEXT:  %3 = arith.trunci %2 : i32 to i16
// CHECK-NEXT:  return %0, %1, %3 : index, index, i16
// CHECK-NEXT: }
func.func @cast_patterns(%x: i8, %y: i32) -> (index, index, i16) {
  %e = arith.extsi %x : i8 to i32
  %a = arith.index_cast %e : i32 to index
  %u = arith.extui %x : i8 to i32
  %b = arith.index_castui %u : i32 to index
  %c16 = arith.constant 16 : i32
  %sh = arith.shrsi %y, %c16 : i32
  %c = arith.trunci %sh : i32 to i16
  return %a, %b, %c : index, index, i16
}

// Select: equal alternatives under a comparison, and a nested select on one condition.
// CHECK-LABEL: func.func @select_patterns(%arg0: i1, %arg1: i32, %arg2: i32, %arg3: i32) -> (i32, i32, i32, i32) {
// CHECK-NEXT:  %0 = arith.select %arg0, %arg1, %arg3 : i32
// CHECK-NEXT:  %1 = arith.select %arg0, %arg3, %arg2 : i32
// CHECK-NEXT:  return %arg2, %arg1, %0, %1 : i32, i32, i32, i32
// CHECK-NEXT: }
func.func @select_patterns(%c: i1, %x: i32, %y: i32, %z: i32) -> (i32, i32, i32, i32) {
  %eq = arith.cmpi eq, %x, %y : i32
  %a = arith.select %eq, %x, %y : i32
  %ne = arith.cmpi ne, %x, %y : i32
  %b = arith.select %ne, %x, %y : i32
  %in = arith.select %c, %x, %y : i32
  %d = arith.select %c, %in, %z : i32
  %e = arith.select %c, %z, %in : i32
  return %a, %b, %d, %e : i32, i32, i32, i32
}
