// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @addf_neg_zero(%arg0: f32, %arg1: vector<4xf32>) -> (f32, f32, f32, vector<4xf32>)
// CHECK-NEXT:  %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %0 = arith.addf %arg0, %cst : f32
// CHECK-NEXT:  return %arg0, %arg0, %0, %arg1 : f32, f32, f32, vector<4xf32>
func.func @addf_neg_zero(%x: f32, %v: vector<4xf32>) -> (f32, f32, f32, vector<4xf32>) {
  %nz = arith.constant -0.0 : f32
  %pz = arith.constant 0.0 : f32
  %vnz = arith.constant dense<-0.0> : vector<4xf32>
  %a = arith.addf %x, %nz : f32
  %b = arith.addf %nz, %x : f32
  %c = arith.addf %x, %pz : f32
  %d = arith.addf %v, %vnz : vector<4xf32>
  return %a, %b, %c, %d : f32, f32, f32, vector<4xf32>
}

// CHECK-LABEL: func.func @subf_zero(%arg0: f64) -> (f64, f64)
// CHECK-NEXT:  %cst = arith.constant -0.000000e+00 : f64
// CHECK-NEXT:  %0 = arith.subf %arg0, %cst : f64
// CHECK-NEXT:  return %arg0, %0 : f64, f64
func.func @subf_zero(%x: f64) -> (f64, f64) {
  %pz = arith.constant 0.0 : f64
  %nz = arith.constant -0.0 : f64
  %a = arith.subf %x, %pz : f64
  %b = arith.subf %x, %nz : f64
  return %a, %b : f64, f64
}

// CHECK-LABEL: func.func @mulf_divf_one(%arg0: f32) -> (f32, f32, f32, f32)
// CHECK-NEXT:  %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:  %0 = arith.divf %cst, %arg0 : f32
// CHECK-NEXT:  return %arg0, %arg0, %arg0, %0 : f32, f32, f32, f32
func.func @mulf_divf_one(%x: f32) -> (f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %a = arith.mulf %x, %one : f32
  %b = arith.mulf %one, %x fastmath<fast> : f32
  %c = arith.divf %x, %one : f32
  %d = arith.divf %one, %x : f32
  return %a, %b, %c, %d : f32, f32, f32, f32
}

// CHECK-LABEL: func.func @constants_f32() -> (f32, f32, f32, f32, f32, f32)
// CHECK-NEXT:  %cst = arith.constant 3.000000e-01 : f32
// CHECK-NEXT:  %cst_0 = arith.constant -1.000000e-01 : f32
// CHECK-NEXT:  %cst_1 = arith.constant 0.0333333351 : f32
// CHECK-NEXT:  %cst_2 = arith.constant -1.500000e+00 : f32
// CHECK-NEXT:  %cst_3 = arith.constant 7.500000e+00 : f32
// CHECK-NEXT:  return %cst, %cst_0, %cst, %cst_1, %cst_2, %cst_3 : f32, f32, f32, f32, f32, f32
func.func @constants_f32() -> (f32, f32, f32, f32, f32, f32) {
  %a = arith.constant 0.1 : f32
  %b = arith.constant 0.2 : f32
  %c = arith.constant 3.0 : f32
  %m = arith.constant -7.5 : f32
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %a, %b : f32
  %2 = arith.mulf %a, %c : f32
  %3 = arith.divf %a, %c : f32
  %4 = arith.remf %m, %c : f32
  %5 = arith.negf %m : f32
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, f32, f32
}

// CHECK-LABEL: func.func @constants_f64() -> (f64, f64, f64, f64)
// CHECK-NEXT:  %cst = arith.constant 0x7FF0000000000000 : f64
// CHECK-NEXT:  %cst_0 = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT:  %cst_1 = arith.constant -0.000000e+00 : f64
// CHECK-NEXT:  return %cst, %cst, %cst_0, %cst_1 : f64, f64, f64, f64
func.func @constants_f64() -> (f64, f64, f64, f64) {
  %a = arith.constant 1.0e308 : f64
  %b = arith.constant 0.0 : f64
  %c = arith.constant 1.0 : f64
  %0 = arith.addf %a, %a : f64
  %1 = arith.divf %c, %b : f64
  %2 = arith.divf %b, %b : f64
  %3 = arith.negf %b : f64
  return %0, %1, %2, %3 : f64, f64, f64, f64
}

// CHECK-LABEL: func.func @min_max(%arg0: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-NEXT:  %cst = arith.constant 0xFF800000 : f32
// CHECK-NEXT:  %cst_0 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:  %0 = arith.maxnumf %arg0, %cst_0 : f32
// CHECK-NEXT:  %1 = arith.minnumf %arg0, %cst_0 : f32
// CHECK-NEXT:  %2 = arith.minimumf %arg0, %cst : f32
// CHECK-NEXT:  return %arg0, %arg0, %0, %1, %arg0, %2, %arg0, %arg0 : f32, f32, f32, f32, f32, f32, f32, f32
func.func @min_max(%x: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %ninf = arith.constant 0xFF800000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.maximumf %x, %ninf : f32
  %1 = arith.minimumf %x, %inf : f32
  %2 = arith.maxnumf %x, %nan : f32
  %3 = arith.minnumf %nan, %x : f32
  %4 = arith.maximumf %x, %x : f32
  %5 = arith.minimumf %x, %ninf : f32
  %6 = arith.maxnumf %x, %x : f32
  %7 = arith.minnumf %x, %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f32, f32, f32, f32, f32
}

// CHECK-LABEL: func.func @min_max_constants() -> (f32, f32, f32, f32, f32, f32)
// CHECK-NEXT:  %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %cst_0 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:  %cst_1 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_1, %cst_1, %cst : f32, f32, f32, f32, f32, f32
func.func @min_max_constants() -> (f32, f32, f32, f32, f32, f32) {
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %two = arith.constant 2.0 : f32
  %0 = arith.maximumf %nz, %pz : f32
  %1 = arith.minimumf %pz, %nz : f32
  %2 = arith.maximumf %nan, %two : f32
  %3 = arith.minimumf %two, %nan : f32
  %4 = arith.maxnumf %nan, %two : f32
  %5 = arith.minnumf %two, %pz : f32
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, f32, f32
}

// CHECK-LABEL: func.func @negf_negf(%arg0: f32) -> f32
// CHECK-NEXT:  return %arg0 : f32
func.func @negf_negf(%x: f32) -> f32 {
  %0 = arith.negf %x : f32
  %1 = arith.negf %0 fastmath<nnan> : f32
  return %1 : f32
}

// CHECK-LABEL: func.func @mulf_divf_of_negf(%arg0: f32, %arg1: f32) -> (f32, f32)
// CHECK-NEXT:  %0 = arith.mulf %arg0, %arg1 fastmath<nnan> : f32
// CHECK-NEXT:  %1 = arith.divf %arg0, %arg1 : f32
// CHECK-NEXT:  return %0, %1 : f32, f32
func.func @mulf_divf_of_negf(%x: f32, %y: f32) -> (f32, f32) {
  %nx = arith.negf %x : f32
  %ny = arith.negf %y : f32
  %0 = arith.mulf %nx, %ny fastmath<nnan> : f32
  %1 = arith.divf %nx, %ny : f32
  return %0, %1 : f32, f32
}

// CHECK-LABEL: func.func @commute(%arg0: f32) -> (f32, f32)
// CHECK-NEXT:  %cst = arith.constant 2.500000e+00 : f32
// CHECK-NEXT:  %0 = arith.addf %arg0, %cst : f32
// CHECK-NEXT:  %1 = arith.subf %cst, %arg0 : f32
// CHECK-NEXT:  return %0, %1 : f32, f32
func.func @commute(%x: f32) -> (f32, f32) {
  %c = arith.constant 2.5 : f32
  %0 = arith.addf %c, %x : f32
  %1 = arith.subf %c, %x : f32
  return %0, %1 : f32, f32
}

// CHECK-LABEL: func.func @cmpf_constants() -> (i1, i1, i1, i1, i1, i1, i1)
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  return %true, %false, %true, %false, %true, %true, %false : i1, i1, i1, i1, i1, i1, i1
func.func @cmpf_constants() -> (i1, i1, i1, i1, i1, i1, i1) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.cmpf olt, %one, %two : f32
  %1 = arith.cmpf oge, %one, %two : f32
  %2 = arith.cmpf ueq, %one, %one : f32
  %3 = arith.cmpf one, %one, %nan : f32
  %4 = arith.cmpf une, %nan, %two : f32
  %5 = arith.cmpf ord, %one, %two : f32
  %6 = arith.cmpf uno, %one, %two : f32
  return %0, %1, %2, %3, %4, %5, %6 : i1, i1, i1, i1, i1, i1, i1
}

// CHECK-LABEL: func.func @cmpf_nan_decides(%arg0: f32) -> (i1, i1, i1, i1)
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %0 = arith.cmpf oeq, %arg0, %arg0 : f32
// CHECK-NEXT:  %1 = arith.cmpf true, %arg0, %arg0 : f32
// CHECK-NEXT:  return %false, %true, %0, %1 : i1, i1, i1, i1
func.func @cmpf_nan_decides(%x: f32) -> (i1, i1, i1, i1) {
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.cmpf olt, %x, %nan : f32
  %1 = arith.cmpf ult, %nan, %x : f32
  %2 = arith.cmpf oeq, %x, %x : f32
  %3 = arith.cmpf true, %x, %x : f32
  return %0, %1, %2, %3 : i1, i1, i1, i1
}

// CHECK-LABEL: func.func @narrow() -> (f16, f16, bf16, bf16, f16, f16, i1, f16)
// CHECK-NEXT:  %cst = arith.constant 2.998050e-01 : f16
// CHECK-NEXT:  %cst_0 = arith.constant 0x7C00 : f16
// CHECK-NEXT:  %cst_1 = arith.constant 3.339840e-01 : bf16
// CHECK-NEXT:  %cst_2 = arith.constant -2.187500e+00 : bf16
// CHECK-NEXT:  %cst_3 = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:  %cst_4 = arith.constant -9.997550e-02 : f16
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %cst_5 = arith.constant 5.200200e-02 : f16
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %true, %cst_5 : f16, f16, bf16, bf16, f16, f16, i1, f16
func.func @narrow() -> (f16, f16, bf16, bf16, f16, f16, i1, f16) {
  %a = arith.constant 0.1 : f16
  %b = arith.constant 0.2 : f16
  %big = arith.constant 60000.0 : f16
  %x = arith.constant 1.1 : bf16
  %y = arith.constant 3.3 : bf16
  %tiny = arith.constant 6.0e-8 : f16
  %0 = arith.addf %a, %b : f16
  %1 = arith.mulf %big, %big : f16
  %2 = arith.divf %x, %y : bf16
  %3 = arith.subf %x, %y : bf16
  %4 = arith.mulf %tiny, %a : f16
  %5 = arith.negf %a : f16
  %6 = arith.cmpf olt, %a, %b : f16
  %7 = arith.remf %big, %b : f16
  return %0, %1, %2, %3, %4, %5, %6, %7 : f16, f16, bf16, bf16, f16, f16, i1, f16
}

// CHECK-LABEL: func.func @cmpf_of_converted_int(%arg0: i8, %arg1: i32, %arg2: i64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1)
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %c7_i8 = arith.constant 7 : i8
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  %c-4_i8 = arith.constant -4 : i8
// CHECK-NEXT:  %c4_i8 = arith.constant 4 : i8
// CHECK-NEXT:  %cst = arith.constant 1.000000e+10 : f32
// CHECK-NEXT:  %0 = arith.uitofp %arg2 : i64 to f32
// CHECK-NEXT:  %1 = arith.cmpi sle, %arg0, %c4_i8 : i8
// CHECK-NEXT:  %2 = arith.cmpi slt, %arg0, %c-4_i8 : i8
// CHECK-NEXT:  %3 = arith.cmpi ne, %arg0, %c7_i8 : i8
// CHECK-NEXT:  %4 = arith.cmpf oge, %0, %cst : f32
// CHECK-NEXT:  return %1, %2, %false, %false, %false, %3, %true, %true, %true, %4 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
func.func @cmpf_of_converted_int(%x: i8, %y: i32, %z: i64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %frac = arith.constant 4.4 : f32
  %neg = arith.constant -4.4 : f32
  %big = arith.constant 300.0 : f32
  %whole = arith.constant 7.0 : f16
  %inf = arith.constant 0x7F800000 : f32
  %huge = arith.constant 1.0e10 : f32
  %sx = arith.sitofp %x : i8 to f32
  %ux = arith.uitofp %x : i8 to f32
  %hx = arith.sitofp %x : i8 to f16
  %sy = arith.sitofp %y : i32 to f32
  %uz = arith.uitofp %z : i64 to f32
  %0 = arith.cmpf olt, %sx, %frac : f32
  %1 = arith.cmpf ole, %sx, %neg : f32
  %2 = arith.cmpf ult, %ux, %neg : f32
  %3 = arith.cmpf oeq, %sx, %frac : f32
  %4 = arith.cmpf ogt, %sx, %big : f32
  %5 = arith.cmpf une, %hx, %whole : f16
  %6 = arith.cmpf ord, %ux, %frac : f32
  %7 = arith.cmpf olt, %sy, %inf : f32
  %8 = arith.cmpf olt, %sy, %huge : f32
  %9 = arith.cmpf oge, %uz, %huge : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// CHECK-LABEL: func.func @splat() -> (vector<4xf32>, vector<4xf32>, tensor<2xf16>, vector<4xi1>, vector<4xi32>, vector<4xi32>)
// CHECK-NEXT:  %cst = arith.constant dense<56> : vector<4xi32>
// CHECK-NEXT:  %cst_0 = arith.constant dense<3> : vector<4xi32>
// CHECK-NEXT:  %cst_1 = arith.constant dense<1.500000e+00> : vector<4xf32>
// CHECK-NEXT:  %cst_2 = arith.constant dense<2.250000e+00> : vector<4xf32>
// CHECK-NEXT:  %cst_3 = arith.constant dense<3.750000e+00> : vector<4xf32>
// CHECK-NEXT:  %cst_4 = arith.constant dense<-1.500000e+00> : vector<4xf32>
// CHECK-NEXT:  %cst_5 = arith.constant dense<9.000000e+00> : tensor<2xf16>
// CHECK-NEXT:  %0 = arith.cmpf olt, %cst_1, %cst_2 : vector<4xf32>
// CHECK-NEXT:  return %cst_3, %cst_4, %cst_5, %0, %cst_0, %cst : vector<4xf32>, vector<4xf32>, tensor<2xf16>, vector<4xi1>, vector<4xi32>, vector<4xi32>
func.func @splat() -> (vector<4xf32>, vector<4xf32>, tensor<2xf16>, vector<4xi1>, vector<4xi32>, vector<4xi32>) {
  %a = arith.constant dense<1.5> : vector<4xf32>
  %b = arith.constant dense<2.25> : vector<4xf32>
  %h = arith.constant dense<3.0> : tensor<2xf16>
  %i = arith.constant dense<7> : vector<4xi32>
  %j = arith.constant dense<3> : vector<4xi32>
  %0 = arith.addf %a, %b : vector<4xf32>
  %1 = arith.negf %a : vector<4xf32>
  %2 = arith.mulf %h, %h : tensor<2xf16>
  %3 = arith.cmpf olt, %a, %b : vector<4xf32>
  %4 = arith.andi %i, %j : vector<4xi32>
  %5 = arith.shli %i, %j : vector<4xi32>
  return %0, %1, %2, %3, %4, %5 : vector<4xf32>, vector<4xf32>, tensor<2xf16>, vector<4xi1>, vector<4xi32>, vector<4xi32>
}
