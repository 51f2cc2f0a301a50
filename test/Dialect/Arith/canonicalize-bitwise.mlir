// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @and_or_xor(%arg0: i8, %arg1: i8, %arg2: vector<4xi8>) -> (i8, i8, i8, i8, i8, i8, i8, i8, vector<4xi8>, i8)
// CHECK-NEXT:  %c0_i8 = arith.constant 0 : i8
// CHECK-NEXT:  %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:  %0 = arith.andi %arg0, %arg1 : i8
// CHECK-NEXT:  return %c0_i8, %arg0, %c-1_i8, %c0_i8, %c0_i8, %0, %arg0, %arg0, %arg2, %arg1 : i8, i8, i8, i8, i8, i8, i8, i8, vector<4xi8>, i8
func.func @and_or_xor(%x: i8, %y: i8, %v: vector<4xi8>) -> (i8, i8, i8, i8, i8, i8, i8, i8, vector<4xi8>, i8) {
  %zero = arith.constant 0 : i8
  %ones = arith.constant -1 : i8
  %vones = arith.constant dense<-1> : vector<4xi8>
  %0 = arith.andi %x, %zero : i8
  %1 = arith.andi %ones, %x : i8
  %2 = arith.ori %x, %ones : i8
  %3 = arith.xori %x, %x : i8
  %n = arith.xori %x, %ones : i8
  %4 = arith.andi %n, %x : i8
  %xy = arith.andi %x, %y : i8
  %5 = arith.andi %y, %xy : i8
  %e = arith.xori %x, %y : i8
  %6 = arith.xori %e, %y : i8
  %7 = arith.ori %x, %x : i8
  %8 = arith.andi %v, %vones : vector<4xi8>
  %9 = arith.ori %zero, %y : i8
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i8, i8, i8, i8, i8, i8, i8, i8, vector<4xi8>, i8
}

// CHECK-LABEL: func.func @bitwise_constants() -> (i8, i8, i8, i1, i1)
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %c8_i8 = arith.constant 8 : i8
// CHECK-NEXT:  %c14_i8 = arith.constant 14 : i8
// CHECK-NEXT:  %c6_i8 = arith.constant 6 : i8
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  return %c8_i8, %c14_i8, %c6_i8, %false, %true : i8, i8, i8, i1, i1
func.func @bitwise_constants() -> (i8, i8, i8, i1, i1) {
  %a = arith.constant 12 : i8
  %b = arith.constant 10 : i8
  %t = arith.constant true
  %f = arith.constant false
  %0 = arith.andi %a, %b : i8
  %1 = arith.ori %a, %b : i8
  %2 = arith.xori %a, %b : i8
  %3 = arith.xori %t, %t : i1
  %4 = arith.ori %t, %f : i1
  return %0, %1, %2, %3, %4 : i8, i8, i8, i1, i1
}

// CHECK-LABEL: func.func @exts(%arg0: i8, %arg1: i8, %arg2: i16) -> (i32, i32, i32, i32)
// CHECK-NEXT:  %0 = arith.extui %arg0 : i8 to i32
// CHECK-NEXT:  %1 = arith.extui %arg2 : i16 to i32
// CHECK-NEXT:  %2 = arith.andi %arg0, %arg1 : i8
// CHECK-NEXT:  %3 = arith.extui %2 : i8 to i32
// CHECK-NEXT:  %4 = arith.ori %arg0, %arg1 : i8
// CHECK-NEXT:  %5 = arith.extsi %4 : i8 to i32
// CHECK-NEXT:  %6 = arith.xori %arg0, %arg1 : i8
// CHECK-NEXT:  %7 = arith.extsi %6 : i8 to i32
// CHECK-NEXT:  %8 = arith.andi %0, %1 : i32
// CHECK-NEXT:  return %3, %5, %7, %8 : i32, i32, i32, i32
func.func @exts(%x: i8, %y: i8, %z: i16) -> (i32, i32, i32, i32) {
  %a = arith.extui %x : i8 to i32
  %b = arith.extui %y : i8 to i32
  %c = arith.extsi %x : i8 to i32
  %d = arith.extsi %y : i8 to i32
  %e = arith.extui %z : i16 to i32
  %0 = arith.andi %a, %b : i32
  %1 = arith.ori %c, %d : i32
  %2 = arith.xori %c, %d : i32
  %3 = arith.andi %a, %e : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// CHECK-LABEL: func.func @not_cmpi(%arg0: i32, %arg1: i32) -> (i1, i1, i1)
// CHECK-NEXT:  %0 = arith.cmpi uge, %arg0, %arg1 : i32
// CHECK-NEXT:  %1 = arith.cmpi ne, %arg0, %arg1 : i32
// CHECK-NEXT:  %2 = arith.cmpi sle, %arg0, %arg1 : i32
// CHECK-NEXT:  return %0, %1, %2 : i1, i1, i1
func.func @not_cmpi(%p: i32, %q: i32) -> (i1, i1, i1) {
  %t = arith.constant true
  %c = arith.cmpi ult, %p, %q : i32
  %0 = arith.xori %c, %t : i1
  %d = arith.cmpi eq, %p, %q : i32
  %1 = arith.xori %t, %d : i1
  %e = arith.cmpi sle, %p, %q : i32
  %f = arith.constant false
  %2 = arith.xori %e, %f : i1
  return %0, %1, %2 : i1, i1, i1
}

// CHECK-LABEL: func.func @shifts(%arg0: i8, %arg1: index) -> (i8, i8, i8, i8, i8, i8, index, i8)
// CHECK-NEXT:  %c-9223372036854775808 = arith.constant -9223372036854775808 : index
// CHECK-NEXT:  %c0_i8 = arith.constant 0 : i8
// CHECK-NEXT:  %c1_i8 = arith.constant 1 : i8
// CHECK-NEXT:  %c8_i8 = arith.constant 8 : i8
// CHECK-NEXT:  %c-128_i8 = arith.constant -128 : i8
// CHECK-NEXT:  %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:  %0 = arith.shli %c1_i8, %c8_i8 : i8
// CHECK-NEXT:  %1 = arith.shrui %c0_i8, %arg0 : i8
// CHECK-NEXT:  return %arg0, %arg0, %c-128_i8, %c-1_i8, %c1_i8, %0, %c-9223372036854775808, %1 : i8, i8, i8, i8, i8, i8, index, i8
func.func @shifts(%x: i8, %i: index) -> (i8, i8, i8, i8, i8, i8, index, i8) {
  %zero = arith.constant 0 : i8
  %one = arith.constant 1 : i8
  %seven = arith.constant 7 : i8
  %eight = arith.constant 8 : i8
  %min = arith.constant -128 : i8
  %ci = arith.constant 3 : index
  %c63 = arith.constant 63 : index
  %0 = arith.shli %x, %zero : i8
  %1 = arith.shrsi %x, %zero : i8
  %2 = arith.shli %one, %seven : i8
  %3 = arith.shrsi %min, %seven : i8
  %4 = arith.shrui %min, %seven : i8
  %5 = arith.shli %one, %eight : i8
  %6 = arith.shli %ci, %c63 : index
  %7 = arith.shrui %zero, %x : i8
  return %0, %1, %2, %3, %4, %5, %6, %7 : i8, i8, i8, i8, i8, i8, index, i8
}

// CHECK-LABEL: func.func @s(%arg0: i1, %arg1: i1, %arg2: i1, %arg3: i32) -> (i32, i32, i1, i1)
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %0 = arith.extui %arg0 : i1 to i32
// CHECK-NEXT:  %1 = arith.xori %arg0, %true : i1
// CHECK-NEXT:  %2 = arith.extui %1 : i1 to i32
// CHECK-NEXT:  %3 = arith.select %arg0, %arg1, %arg2 : i1
// CHECK-NEXT:  %4 = arith.xori %arg0, %arg1 : i1
// CHECK-NEXT:  %5 = arith.select %arg0, %4, %arg1 : i1
// CHECK-NEXT:  return %0, %2, %3, %5 : i32, i32, i1, i1
func.func @s(%c: i1, %x: i1, %y: i1, %a: i32) -> (i32, i32, i1, i1) {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.select %c, %c1, %c0 : i32
  %1 = arith.select %c, %c0, %c1 : i32
  %2 = arith.select %c, %x, %y : i1
  %n = arith.xori %c, %x : i1
  %3 = arith.select %c, %n, %x : i1
  return %0, %1, %2, %3 : i32, i32, i1, i1
}

// CHECK-LABEL: func.func @s2(%arg0: i1, %arg1: i32, %arg2: i32, %arg3: vector<2xi1>) -> (i1, i32, i1, i1, index)
// CHECK-NEXT:  %c0 = arith.constant 0 : index
// CHECK-NEXT:  %c1 = arith.constant 1 : index
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %0 = arith.xori %arg0, %true : i1
// CHECK-NEXT:  %1 = arith.select %arg0, %arg2, %arg1 : i32
// CHECK-NEXT:  %2 = arith.select %arg0, %false, %arg0 : i1
// CHECK-NEXT:  %3 = arith.select %arg0, %c1, %c0 : index
// CHECK-NEXT:  return %0, %1, %arg0, %2, %3 : i1, i32, i1, i1, index
func.func @s2(%c: i1, %a: i32, %b: i32, %v: vector<2xi1>) -> (i1, i32, i1, i1, index) {
  %t = arith.constant true
  %f = arith.constant false
  %0 = arith.select %c, %f, %t : i1
  %n = arith.xori %c, %t : i1
  %1 = arith.select %n, %a, %b : i32
  %2 = arith.select %c, %t, %f : i1
  %m = arith.xori %t, %c : i1
  %3 = arith.select %m, %c, %f : i1
  %i1 = arith.constant 1 : index
  %i0 = arith.constant 0 : index
  %4 = arith.select %c, %i1, %i0 : index
  return %0, %1, %2, %3, %4 : i1, i32, i1, i1, index
}

// CHECK-LABEL: func.func @isplat(%arg0: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xindex>, vector<4xi32>, vector<4xi32>)
// CHECK-NEXT:  %cst = arith.constant dense<25> : vector<4xindex>
// CHECK-NEXT:  %cst_0 = arith.constant dense<-2> : vector<4xi32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<-6> : vector<4xi32>
// CHECK-NEXT:  %cst_2 = arith.constant dense<7> : vector<4xi32>
// CHECK-NEXT:  %cst_3 = arith.constant dense<0> : vector<4xi32>
// CHECK-NEXT:  %cst_4 = arith.constant dense<4> : vector<4xi32>
// CHECK-NEXT:  %0 = arith.divsi %cst_2, %cst_3 : vector<4xi32>
// CHECK-NEXT:  return %cst_4, %0, %cst_3, %arg0, %cst_3, %cst_1, %cst_0, %cst, %arg0, %arg0 : vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xindex>, vector<4xi32>, vector<4xi32>
func.func @isplat(%v: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xindex>, vector<4xi32>, vector<4xi32>) {
  %a = arith.constant dense<7> : vector<4xi32>
  %b = arith.constant dense<-3> : vector<4xi32>
  %z = arith.constant dense<0> : vector<4xi32>
  %o = arith.constant dense<1> : vector<4xi32>
  %i = arith.constant dense<5> : vector<4xindex>
  %0 = arith.addi %a, %b : vector<4xi32>
  %1 = arith.divsi %a, %z : vector<4xi32>
  %2 = arith.muli %v, %z : vector<4xi32>
  %3 = arith.addi %v, %z : vector<4xi32>
  %4 = arith.remui %v, %o : vector<4xi32>
  %5 = arith.xori %a, %b : vector<4xi32>
  %6 = arith.shrsi %b, %o : vector<4xi32>
  %7 = arith.muli %i, %i : vector<4xindex>
  %8 = arith.ori %v, %z : vector<4xi32>
  %9 = arith.divui %v, %o : vector<4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xindex>, vector<4xi32>, vector<4xi32>
}
