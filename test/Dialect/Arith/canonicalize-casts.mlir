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

// CHECK-LABEL: func.func @bitcast_constants() -> (f32, i32, i16, vector<4xf32>, bf16, i64)
// CHECK-NEXT:  %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:  %c-1071644672_i32 = arith.constant -1071644672 : i32
// CHECK-NEXT:  %c15360_i16 = arith.constant 15360 : i16
// CHECK-NEXT:  %cst_0 = arith.constant dense<2.000000e+00> : vector<4xf32>
// CHECK-NEXT:  %cst_1 = arith.constant 0x7FC1 : bf16
// CHECK-NEXT:  %c4591870180066957722_i64 = arith.constant 4591870180066957722 : i64
// CHECK-NEXT:  return %cst, %c-1071644672_i32, %c15360_i16, %cst_0, %cst_1, %c4591870180066957722_i64 : f32, i32, i16, vector<4xf32>, bf16, i64
func.func @bitcast_constants() -> (f32, i32, i16, vector<4xf32>, bf16, i64) {
  %c = arith.constant 1065353216 : i32
  %f = arith.constant -2.5 : f32
  %h = arith.constant 1.0 : f16
  %v = arith.constant dense<1073741824> : vector<4xi32>
  %nan = arith.constant 0x7FC1 : bf16
  %d = arith.constant 0.1 : f64
  %0 = arith.bitcast %c : i32 to f32
  %1 = arith.bitcast %f : f32 to i32
  %2 = arith.bitcast %h : f16 to i16
  %3 = arith.bitcast %v : vector<4xi32> to vector<4xf32>
  %4 = arith.bitcast %nan : bf16 to bf16
  %5 = arith.bitcast %d : f64 to i64
  return %0, %1, %2, %3, %4, %5 : f32, i32, i16, vector<4xf32>, bf16, i64
}

// CHECK-LABEL: func.func @bitcast_chain(%arg0: i32, %arg1: f32) -> (i32, f32)
// CHECK-NEXT:  %0 = arith.bitcast %arg0 : i32 to f32
// CHECK-NEXT:  %1 = arith.addf %arg1, %0 : f32
// CHECK-NEXT:  return %arg0, %1 : i32, f32
func.func @bitcast_chain(%x: i32, %y: f32) -> (i32, f32) {
  %0 = arith.bitcast %x : i32 to f32
  %1 = arith.bitcast %0 : f32 to i32
  %2 = arith.bitcast %y : f32 to i32
  %3 = arith.bitcast %2 : i32 to f32
  %4 = arith.addf %3, %0 : f32
  return %1, %4 : i32, f32
}

// CHECK-LABEL: func.func @index_castui(%arg0: i32, %arg1: index) -> (index, i8, index, i32, index)
// CHECK-NEXT:  %c4294967295 = arith.constant 4294967295 : index
// CHECK-NEXT:  %c44_i8 = arith.constant 44 : i8
// CHECK-NEXT:  %0 = arith.index_castui %arg0 : i32 to index
// CHECK-NEXT:  %1 = arith.index_cast %arg0 : i32 to index
// CHECK-NEXT:  return %c4294967295, %c44_i8, %0, %arg0, %1 : index, i8, index, i32, index
func.func @index_castui(%x: i32, %i: index) -> (index, i8, index, i32, index) {
  %m = arith.constant -1 : i32
  %big = arith.constant 300 : index
  %0 = arith.index_castui %m : i32 to index
  %1 = arith.index_castui %big : index to i8
  %2 = arith.index_castui %x : i32 to index
  %3 = arith.index_castui %2 : index to i32
  %4 = arith.index_cast %3 : i32 to index
  return %0, %1, %2, %3, %4 : index, i8, index, i32, index
}

// CHECK-LABEL: func.func @g(%arg0: f32, %arg1: f16) -> (f32, f16, f32, f16)
// CHECK-NEXT:  %0 = arith.extf %arg1 : f16 to f64
// CHECK-NEXT:  %1 = arith.truncf %0 : f64 to f16
// CHECK-NEXT:  %2 = arith.extf %arg1 : f16 to f64
// CHECK-NEXT:  %3 = arith.truncf %2 : f64 to f32
// CHECK-NEXT:  %4 = arith.extf %arg1 : f16 to f32
// CHECK-NEXT:  %5 = arith.truncf %4 fastmath<nnan> : f32 to f16
// CHECK-NEXT:  return %arg0, %1, %3, %5 : f32, f16, f32, f16
func.func @g(%x: f32, %h: f16) -> (f32, f16, f32, f16) {
  %t = arith.truncf %x fastmath<contract> : f32 to f16
  %e = arith.extf %t fastmath<contract> : f16 to f32
  %e2 = arith.extf %h : f16 to f64
  %t2 = arith.truncf %e2 : f64 to f16
  %e3 = arith.extf %h : f16 to f64
  %t3 = arith.truncf %e3 : f64 to f32
  %e4 = arith.extf %h : f16 to f32
  %t4 = arith.truncf %e4 fastmath<nnan> : f32 to f16
  return %e, %t2, %t3, %t4 : f32, f16, f32, f16
}

// CHECK-LABEL: func.func @float_cast_constants() -> (f64, f32, f16, bf16, f32, vector<2xf64>, f16, f32)
// CHECK-NEXT:  %cst = arith.constant dense<2.500000e+00> : vector<2xf64>
// CHECK-NEXT:  %cst_0 = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:  %cst_1 = arith.constant 2.500000e-01 : bf16
// CHECK-NEXT:  %cst_2 = arith.constant 1.000000e-01 : f32
// CHECK-NEXT:  %cst_3 = arith.constant 1.000000e+10 : f32
// CHECK-NEXT:  %cst_4 = arith.constant 1.500000e+00 : f64
// CHECK-NEXT:  %cst_5 = arith.constant 2.500000e-01 : f32
// CHECK-NEXT:  %0 = arith.truncf %cst_2 : f32 to f16
// CHECK-NEXT:  %1 = arith.truncf %cst_3 : f32 to f16
// CHECK-NEXT:  return %cst_4, %cst_5, %0, %cst_1, %cst_0, %cst, %1, %cst_5 : f64, f32, f16, bf16, f32, vector<2xf64>, f16, f32
func.func @float_cast_constants() -> (f64, f32, f16, bf16, f32, vector<2xf64>, f16, f32) {
  %h = arith.constant 1.5 : f16
  %d = arith.constant 0.25 : f64
  %f = arith.constant 0.1 : f32
  %big = arith.constant 1.0e10 : f32
  %b = arith.constant 3.0 : bf16
  %v = arith.constant dense<2.5> : vector<2xf32>
  %inf = arith.constant 0x7F800000 : f32
  %0 = arith.extf %h : f16 to f64
  %1 = arith.truncf %d : f64 to f32
  %2 = arith.truncf %f : f32 to f16
  %3 = arith.truncf %d : f64 to bf16
  %4 = arith.extf %b : bf16 to f32
  %5 = arith.extf %v : vector<2xf32> to vector<2xf64>
  %6 = arith.truncf %big : f32 to f16
  %7 = arith.truncf %d upward : f64 to f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f64, f32, f16, bf16, f32, vector<2xf64>, f16, f32
}

// CHECK-LABEL: func.func @inf_nan() -> (f16, f64)
// CHECK-NEXT:  %cst = arith.constant 0x7C00 : f16
// CHECK-NEXT:  %cst_0 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT:  return %cst, %cst_0 : f16, f64
func.func @inf_nan() -> (f16, f64) {
  %inf = arith.constant 0x7F800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.truncf %inf : f32 to f16
  %1 = arith.extf %nan : f32 to f64
  return %0, %1 : f16, f64
}

// CHECK-LABEL: func.func @n() -> f32
// CHECK-NEXT:  %cst = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:  return %cst : f32
func.func @n() -> f32 {
  %nan = arith.constant 0x7FF8000000000000 : f64
  %0 = arith.truncf %nan : f64 to f32
  return %0 : f32
}

// CHECK-LABEL: func.func @int_to_float() -> (f32, f32, f16, f16, bf16, f64, f32, f16, vector<2xf32>)
// CHECK-NEXT:  %cst = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:  %cst_0 = arith.constant 4.2949673E+9 : f32
// CHECK-NEXT:  %cst_1 = arith.constant 2.052000e+03 : f16
// CHECK-NEXT:  %cst_2 = arith.constant 0x7C00 : f16
// CHECK-NEXT:  %cst_3 = arith.constant 2.560000e+02 : bf16
// CHECK-NEXT:  %cst_4 = arith.constant -9.2233720368547758E+18 : f64
// CHECK-NEXT:  %cst_5 = arith.constant 0x4B800000 : f32
// CHECK-NEXT:  %cst_6 = arith.constant -1.000000e+00 : f16
// CHECK-NEXT:  %cst_7 = arith.constant dense<3.000000e+00> : vector<2xf32>
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5, %cst_6, %cst_7 : f32, f32, f16, f16, bf16, f64, f32, f16, vector<2xf32>
func.func @int_to_float() -> (f32, f32, f16, f16, bf16, f64, f32, f16, vector<2xf32>) {
  %m1 = arith.constant -1 : i32
  %big = arith.constant 16777217 : i32
  %h = arith.constant 2051 : i32
  %ovf = arith.constant 65520 : i32
  %b = arith.constant 257 : i16
  %l = arith.constant -9223372036854775807 : i64
  %t = arith.constant true
  %v = arith.constant dense<3> : vector<2xi8>
  %0 = arith.sitofp %m1 : i32 to f32
  %1 = arith.uitofp %m1 : i32 to f32
  %2 = arith.sitofp %h : i32 to f16
  %3 = arith.uitofp %ovf : i32 to f16
  %4 = arith.sitofp %b : i16 to bf16
  %5 = arith.sitofp %l : i64 to f64
  %6 = arith.sitofp %big : i32 to f32
  %7 = arith.sitofp %t : i1 to f16
  %8 = arith.uitofp %v : vector<2xi8> to vector<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f16, f16, bf16, f64, f32, f16, vector<2xf32>
}

// CHECK-LABEL: func.func @float_to_int() -> (i32, i8, i8, i8, i1, i64, i16, i32, i32, vector<2xi32>)
// CHECK-NEXT:  %cst = arith.constant dense<-7> : vector<2xi32>
// CHECK-NEXT:  %c-1294967296_i32 = arith.constant -1294967296 : i32
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %c0_i8 = arith.constant 0 : i8
// CHECK-NEXT:  %cst_0 = arith.constant -2.750000e+00 : f32
// CHECK-NEXT:  %cst_1 = arith.constant 1.280000e+02 : f64
// CHECK-NEXT:  %cst_2 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:  %cst_3 = arith.constant 3.000000e+09 : f64
// CHECK-NEXT:  %c-2_i32 = arith.constant -2 : i32
// CHECK-NEXT:  %c127_i8 = arith.constant 127 : i8
// CHECK-NEXT:  %0 = arith.fptosi %cst_1 : f64 to i8
// CHECK-NEXT:  %1 = arith.fptosi %cst_2 : f32 to i64
// CHECK-NEXT:  %2 = arith.fptoui %cst_0 : f32 to i16
// CHECK-NEXT:  %3 = arith.fptosi %cst_3 : f64 to i32
// CHECK-NEXT:  return %c-2_i32, %c127_i8, %0, %c0_i8, %true, %1, %2, %c-1294967296_i32, %3, %cst : i32, i8, i8, i8, i1, i64, i16, i32, i32, vector<2xi32>
func.func @float_to_int() -> (i32, i8, i8, i8, i1, i64, i16, i32, i32, vector<2xi32>) {
  %a = arith.constant -2.75 : f32
  %b = arith.constant 127.9 : f64
  %c = arith.constant 128.0 : f64
  %d = arith.constant -0.5 : f16
  %e = arith.constant 1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %g = arith.constant 3.0e9 : f64
  %v = arith.constant dense<-7.5> : vector<2xf32>
  %0 = arith.fptosi %a : f32 to i32
  %1 = arith.fptosi %b : f64 to i8
  %2 = arith.fptosi %c : f64 to i8
  %3 = arith.fptoui %d : f16 to i8
  %4 = arith.fptoui %e : f32 to i1
  %5 = arith.fptosi %nan : f32 to i64
  %6 = arith.fptoui %a : f32 to i16
  %7 = arith.fptoui %g : f64 to i32
  %8 = arith.fptosi %g : f64 to i32
  %9 = arith.fptosi %v : vector<2xf32> to vector<2xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i8, i8, i8, i1, i64, i16, i32, i32, vector<2xi32>
}

// CHECK-LABEL: func.func @cmpi_of_extensions(%arg0: i1, %arg1: vector<2xi1>, %arg2: i16, %arg3: i16, %arg4: i8) -> (i1, vector<2xi1>, i1, i1, i1, i1, i1)
// CHECK-NEXT:  %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:  %0 = arith.extui %arg0 : i1 to i32
// CHECK-NEXT:  %1 = arith.cmpi eq, %0, %c0_i32 : i32
// CHECK-NEXT:  %2 = arith.extsi %arg2 : i16 to i64
// CHECK-NEXT:  %3 = arith.extsi %arg3 : i16 to i64
// CHECK-NEXT:  %4 = arith.extui %arg2 : i16 to i64
// CHECK-NEXT:  %5 = arith.extsi %arg4 : i8 to i64
// CHECK-NEXT:  %6 = arith.cmpi eq, %arg2, %arg3 : i16
// CHECK-NEXT:  %7 = arith.cmpi ne, %4, %3 : i64
// CHECK-NEXT:  %8 = arith.cmpi ne, %2, %5 : i64
// CHECK-NEXT:  %9 = arith.cmpi sgt, %2, %3 : i64
// CHECK-NEXT:  return %arg0, %arg1, %1, %6, %7, %8, %9 : i1, vector<2xi1>, i1, i1, i1, i1, i1
func.func @cmpi_of_extensions(%b: i1, %v: vector<2xi1>, %x: i16, %y: i16, %z: i8) -> (i1, vector<2xi1>, i1, i1, i1, i1, i1) {
  %c0 = arith.constant 0 : i32
  %v0 = arith.constant dense<0> : vector<2xi8>
  %e = arith.extui %b : i1 to i32
  %0 = arith.cmpi ne, %e, %c0 : i32
  %ev = arith.extsi %v : vector<2xi1> to vector<2xi8>
  %1 = arith.cmpi ne, %ev, %v0 : vector<2xi8>
  %2 = arith.cmpi eq, %e, %c0 : i32
  %sx = arith.extsi %x : i16 to i64
  %sy = arith.extsi %y : i16 to i64
  %ux = arith.extui %x : i16 to i64
  %sz = arith.extsi %z : i8 to i64
  %3 = arith.cmpi eq, %sx, %sy : i64
  %4 = arith.cmpi ne, %ux, %sy : i64
  %5 = arith.cmpi ne, %sx, %sz : i64
  %6 = arith.cmpi sgt, %sx, %sy : i64
  return %0, %1, %2, %3, %4, %5, %6 : i1, vector<2xi1>, i1, i1, i1, i1, i1
}
