// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @consts() -> (i32, i32, i8, i1, i64, i16)
// CHECK-NEXT:  %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:  %c255_i32 = arith.constant 255 : i32
// CHECK-NEXT:  %c44_i8 = arith.constant 44 : i8
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  %c-1_i64 = arith.constant -1 : i64
// CHECK-NEXT:  %c1_i16 = arith.constant 1 : i16
// CHECK-NEXT:  return %c-1_i32, %c255_i32, %c44_i8, %false, %c-1_i64, %c1_i16 : i32, i32, i8, i1, i64, i16
func.func @consts() -> (i32, i32, i8, i1, i64, i16) {
  %m1 = arith.constant -1 : i8
  %big = arith.constant 300 : i32
  %t = arith.constant true
  %0 = arith.extsi %m1 : i8 to i32
  %1 = arith.extui %m1 : i8 to i32
  %2 = arith.trunci %big : i32 to i8
  %3 = arith.trunci %big : i32 to i1
  %4 = arith.extsi %t : i1 to i64
  %5 = arith.extui %t : i1 to i16
  return %0, %1, %2, %3, %4, %5 : i32, i32, i8, i1, i64, i16
}
func.func @chains(%x: i8, %y: i32) -> (i64, i64, i64, i8, i16, i32, i16, i8) {
  %0 = arith.extsi %x : i8 to i16
  %1 = arith.extsi %0 : i16 to i64
  %2 = arith.extui %x : i8 to i32
  %3 = arith.extui %2 : i32 to i64
  %4 = arith.extsi %2 : i32 to i64
  %5 = arith.trunci %2 : i32 to i8
  %6 = arith.trunci %2 : i32 to i16
  %e = arith.extsi %y : i32 to i64
  %7 = arith.trunci %e : i64 to i32
  %8 = arith.trunci %e : i64 to i16
  %9 = arith.trunci %8 : i16 to i8
  return %1, %3, %4, %5, %6, %7, %8, %9 : i64, i64, i64, i8, i16, i32, i16, i8
}
func.func @vec() -> vector<4xi32> {
  %c = arith.constant dense<-1> : vector<4xi8>
  %0 = arith.extsi %c : vector<4xi8> to vector<4xi32>
  return %0 : vector<4xi32>
}
