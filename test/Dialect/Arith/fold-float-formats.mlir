// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s
// NO-ROUNDTRIP: mlir-opt-19 prints f80/f128 results in decimal with their full precision but
// reads decimal literals through `double`, so its own output does not read back the same (the
// largest f80 becomes infinity, f128's 1/3 loses digits); fuser prints exactly what it prints.

// Float folding in every float type mlir-opt-19 parses, through APFloat semantics: f80, f128,
// tf32 and the 8-bit formats round in their own precision; NaN, infinity and signed zero follow
// each format's rules (FN: all-ones NaN, no infinity; FNUZ: 0x80 is the NaN, no negative zero).

// One third and friends in the wide formats.
// CHECK-LABEL: func.func @wide_arith() -> (f80, f128, f80, f128, f128, f80, f128) {
// CHECK-NEXT:  %cst = arith.constant 0.333333333333333333342 : f80
// CHECK-NEXT:  %cst_0 = arith.constant 0.333333333333333333333333333333333317 : f128
// CHECK-NEXT:  %cst_1 = arith.constant 1.000000e+00 : f80
// CHECK-NEXT:  %cst_2 = arith.constant -0.666666666666666666666666666666666731 : f128
// CHECK-NEXT:  %cst_3 = arith.constant 0.0999999999999998390176614293523016385 : f128
// CHECK-NEXT:  %cst_4 = arith.constant 0x7FFF8000000000000000 : f80
// CHECK-NEXT:  %cst_5 = arith.constant 0.000000e+00 : f128
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5 : f80, f128, f80, f128, f128, f80, f128
// CHECK-NEXT: }
func.func @wide_arith() -> (f80, f128, f80, f128, f128, f80, f128) {
  %one80 = arith.constant 1.0 : f80
  %three80 = arith.constant 3.0 : f80
  %one128 = arith.constant 1.0 : f128
  %three128 = arith.constant 3.0 : f128
  %a = arith.divf %one80, %three80 : f80
  %b = arith.divf %one128, %three128 : f128
  %c = arith.mulf %a, %three80 : f80
  %d = arith.subf %b, %one128 : f128
  %tenth = arith.constant 0.1 : f128
  %e = arith.remf %three128, %tenth : f128
  %big = arith.constant 0x7FFEFFFFFFFFFFFFFFFF : f80
  %f = arith.addf %big, %big : f80
  %tiny = arith.constant 0x00000000000000000000000000000001 : f128
  %g = arith.divf %tiny, %three128 : f128
  return %a, %b, %c, %d, %e, %f, %g : f80, f128, f80, f128, f128, f80, f128
}

// NaN operands and invalid operations in the wide formats.
// CHECK-LABEL: func.func @wide_nan() -> (f80, f128, f128, f80, f128, f128) {
// CHECK-NEXT:  %cst = arith.constant 0x7FFF0000000000000000000000000005 : f128
// CHECK-NEXT:  %cst_0 = arith.constant 0xFFFFC000000000000123 : f80
// CHECK-NEXT:  %cst_1 = arith.constant 0x7FFF8000000000000000000000000000 : f128
// CHECK-NEXT:  %cst_2 = arith.constant 0x7FFFC000000000000000 : f80
// CHECK-NEXT:  %cst_3 = arith.constant 1.000000e+00 : f128
// CHECK-NEXT:  return %cst_0, %cst, %cst_1, %cst_2, %cst_3, %cst : f80, f128, f128, f80, f128, f128
// CHECK-NEXT: }
func.func @wide_nan() -> (f80, f128, f128, f80, f128, f128) {
  %qnan80 = arith.constant 0xFFFFC000000000000123 : f80
  %snan128 = arith.constant 0x7FFF0000000000000000000000000005 : f128
  %one80 = arith.constant 1.0 : f80
  %one128 = arith.constant 1.0 : f128
  %zero128 = arith.constant 0.0 : f128
  %inf80 = arith.constant 0x7FFF8000000000000000 : f80
  %a = arith.addf %one80, %qnan80 : f80
  %b = arith.mulf %snan128, %one128 : f128
  %c = arith.divf %zero128, %zero128 : f128
  %d = arith.subf %inf80, %inf80 : f80
  %e = arith.minnumf %snan128, %one128 : f128
  %f = arith.maximumf %one128, %snan128 : f128
  return %a, %b, %c, %d, %e, %f : f80, f128, f128, f80, f128, f128
}

// tf32 keeps 10 fraction bits.
// CHECK-LABEL: func.func @tf32_rounding() -> (tf32, tf32, i1) {
// CHECK-NEXT:  %cst = arith.constant 5.902950e+20 : tf32
// CHECK-NEXT:  %cst_0 = arith.constant 0x3FC00 : tf32
// CHECK-NEXT:  %false = arith.constant false
// CHECK-NEXT:  return %cst, %cst_0, %false : tf32, tf32, i1
// CHECK-NEXT: }
func.func @tf32_rounding() -> (tf32, tf32, i1) {
  %a = arith.constant 1.0 : tf32
  %b = arith.constant 0x31000 : tf32
  %c = arith.addf %a, %b : tf32
  %d = arith.constant 3.0e38 : tf32
  %e = arith.mulf %d, %d : tf32
  %f = arith.cmpf olt, %b, %a : tf32
  return %c, %e, %f : tf32, tf32, i1
}

// f8E4M3FN: 448 is the largest; overflow and 1/0 give NaN (no infinity); 0/0 is 0x7F.
// CHECK-LABEL: func.func @f8e4m3fn() -> (f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN) {
// CHECK-NEXT:  %cst = arith.constant 0x7F : f8E4M3FN
// CHECK-NEXT:  %cst_0 = arith.constant 0xFF : f8E4M3FN
// CHECK-NEXT:  %cst_1 = arith.constant -0.000000e+00 : f8E4M3FN
// CHECK-NEXT:  %cst_2 = arith.constant 4.160000e+02 : f8E4M3FN
// CHECK-NEXT:  return %cst, %cst_0, %cst, %cst_1, %cst_2, %cst_1 : f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN
// CHECK-NEXT: }
func.func @f8e4m3fn() -> (f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN) {
  %max = arith.constant 448.0 : f8E4M3FN
  %c32 = arith.constant 32.0 : f8E4M3FN
  %zero = arith.constant 0.0 : f8E4M3FN
  %nzero = arith.constant -0.0 : f8E4M3FN
  %one = arith.constant 1.0 : f8E4M3FN
  %a = arith.addf %max, %c32 : f8E4M3FN
  %b = arith.divf %one, %nzero : f8E4M3FN
  %c = arith.divf %zero, %zero : f8E4M3FN
  %d = arith.negf %zero : f8E4M3FN
  %e = arith.subf %max, %c32 : f8E4M3FN
  %f = arith.minimumf %zero, %nzero : f8E4M3FN
  return %a, %b, %c, %d, %e, %f : f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN, f8E4M3FN
}

// FNUZ formats: one NaN (0x80), no negative zero.
// CHECK-LABEL: func.func @fnuz() -> (f8E5M2FNUZ, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E4M3B11FNUZ, f8E5M2FNUZ) {
// CHECK-NEXT:  %cst = arith.constant 0.000000e+00 : f8E5M2FNUZ
// CHECK-NEXT:  %cst_0 = arith.constant 0x80 : f8E5M2FNUZ
// CHECK-NEXT:  %cst_1 = arith.constant 0.000000e+00 : f8E4M3FNUZ
// CHECK-NEXT:  %cst_2 = arith.constant 0x80 : f8E4M3FNUZ
// CHECK-NEXT:  %cst_3 = arith.constant 1.562500e-02 : f8E4M3B11FNUZ
// CHECK-NEXT:  %cst_4 = arith.constant 0x80 : f8E4M3B11FNUZ
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst : f8E5M2FNUZ, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E4M3B11FNUZ, f8E5M2FNUZ
// CHECK-NEXT: }
func.func @fnuz() -> (f8E5M2FNUZ, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E4M3B11FNUZ, f8E5M2FNUZ) {
  %one = arith.constant 1.0 : f8E5M2FNUZ
  %zero = arith.constant 0.0 : f8E5M2FNUZ
  %a = arith.subf %one, %one : f8E5M2FNUZ
  %b = arith.divf %one, %zero : f8E5M2FNUZ
  %z4 = arith.constant 0.0 : f8E4M3FNUZ
  %c = arith.negf %z4 : f8E4M3FNUZ
  %m = arith.constant 240.0 : f8E4M3FNUZ
  %d = arith.mulf %m, %m : f8E4M3FNUZ
  %t = arith.constant 0.125 : f8E4M3B11FNUZ
  %e = arith.mulf %t, %t : f8E4M3B11FNUZ
  %nan = arith.constant 0x80 : f8E4M3B11FNUZ
  %f = arith.negf %nan : f8E4M3B11FNUZ
  %g = arith.mulf %zero, %one : f8E5M2FNUZ
  return %a, %b, %c, %d, %e, %f, %g : f8E5M2FNUZ, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E4M3B11FNUZ, f8E5M2FNUZ
}

// IEEE-like 8-bit formats keep infinities, NaNs and subnormals.
// CHECK-LABEL: func.func @f8_ieee() -> (f8E5M2, f8E5M2, f8E4M3, f8E4M3, i1, i1) {
// CHECK-NEXT:  %cst = arith.constant 0x7C : f8E5M2
// CHECK-NEXT:  %cst_0 = arith.constant 0.000000e+00 : f8E5M2
// CHECK-NEXT:  %cst_1 = arith.constant 5.468750e-02 : f8E4M3
// CHECK-NEXT:  %cst_2 = arith.constant 0x7D : f8E4M3
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2, %true, %true : f8E5M2, f8E5M2, f8E4M3, f8E4M3, i1, i1
// CHECK-NEXT: }
func.func @f8_ieee() -> (f8E5M2, f8E5M2, f8E4M3, f8E4M3, i1, i1) {
  %max = arith.constant 57344.0 : f8E5M2
  %a = arith.addf %max, %max : f8E5M2
  %sub = arith.constant 0x01 : f8E5M2
  %two = arith.constant 2.0 : f8E5M2
  %b = arith.divf %sub, %two : f8E5M2
  %x = arith.constant 0.1 : f8E4M3
  %y = arith.constant 3.0 : f8E4M3
  %c = arith.remf %y, %x : f8E4M3
  %snan = arith.constant 0x79 : f8E4M3
  %d = arith.subf %y, %snan : f8E4M3
  %e = arith.cmpf uno, %snan, %y : f8E4M3
  %f = arith.cmpf ogt, %max, %two : f8E5M2
  return %a, %b, %c, %d, %e, %f : f8E5M2, f8E5M2, f8E4M3, f8E4M3, i1, i1
}

// Vectors and tensors, splat and not.
// CHECK-LABEL: func.func @shaped() -> (vector<3xf8E4M3FN>, tensor<2xf128>, vector<2xf80>, tensor<3xf8E5M2FNUZ>) {
// CHECK-NEXT:  %cst = arith.constant dense<[2.000000e+00, 0x7F, -0.000000e+00]> : vector<3xf8E4M3FN>
// CHECK-NEXT:  %cst_0 = arith.constant dense<[3.500000e+00, 0x7FFF0000000000000000000000000000]> : tensor<2xf128>
// CHECK-NEXT:  %cst_1 = arith.constant dense<[-1.000000e+00, 0xFFFFC000000000000000]> : vector<2xf80>
// CHECK-NEXT:  %cst_2 = arith.constant dense<[0.000000e+00, 0.000000e+00, 0x80]> : tensor<3xf8E5M2FNUZ>
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2 : vector<3xf8E4M3FN>, tensor<2xf128>, vector<2xf80>, tensor<3xf8E5M2FNUZ>
// CHECK-NEXT: }
func.func @shaped() -> (vector<3xf8E4M3FN>, tensor<2xf128>, vector<2xf80>, tensor<3xf8E5M2FNUZ>) {
  %a = arith.constant dense<[1.0, 448.0, -0.0]> : vector<3xf8E4M3FN>
  %b = arith.constant dense<2.0> : vector<3xf8E4M3FN>
  %c = arith.mulf %a, %b : vector<3xf8E4M3FN>
  %d = arith.constant dense<7.0> : tensor<2xf128>
  %e = arith.constant dense<[2.0, 0.0]> : tensor<2xf128>
  %f = arith.divf %d, %e : tensor<2xf128>
  %g = arith.constant dense<[1.0, 0x7FFFC000000000000000]> : vector<2xf80>
  %h = arith.negf %g : vector<2xf80>
  %i = arith.constant dense<[1.0, 0.0, 0x80]> : tensor<3xf8E5M2FNUZ>
  %j = arith.maximumf %i, %i : tensor<3xf8E5M2FNUZ>
  %k = arith.minnumf %i, %i : tensor<3xf8E5M2FNUZ>
  %l = arith.subf %j, %k : tensor<3xf8E5M2FNUZ>
  return %c, %f, %h, %l : vector<3xf8E4M3FN>, tensor<2xf128>, vector<2xf80>, tensor<3xf8E5M2FNUZ>
}

// Identity folds recognise -0.0, +0.0, 1.0 and the infinities in every type.
// CHECK-LABEL: func.func @identities(%arg0: f80, %arg1: f128, %arg2: f8E4M3FN, %arg3: f8E5M2FNUZ, %arg4: vector<2xtf32>) -> (f80, f80, f128, f128, f8E4M3FN, f8E5M2FNUZ, f8E5M2FNUZ, vector<2xtf32>) {
// CHECK-NEXT:  %cst = arith.constant 0.000000e+00 : f8E5M2FNUZ
// CHECK-NEXT:  %0 = arith.addf %arg3, %cst : f8E5M2FNUZ
// CHECK-NEXT:  return %arg0, %arg0, %arg1, %arg1, %arg2, %arg3, %0, %arg4 : f80, f80, f128, f128, f8E4M3FN, f8E5M2FNUZ, f8E5M2FNUZ, vector<2xtf32>
// CHECK-NEXT: }
func.func @identities(%x: f80, %y: f128, %z: f8E4M3FN, %w: f8E5M2FNUZ, %v: vector<2xtf32>) -> (f80, f80, f128, f128, f8E4M3FN, f8E5M2FNUZ, f8E5M2FNUZ, vector<2xtf32>) {
  %nz80 = arith.constant -0.0 : f80
  %one80 = arith.constant 1.0 : f80
  %ninf128 = arith.constant 0xFFFF0000000000000000000000000000 : f128
  %pinf128 = arith.constant 0x7FFF0000000000000000000000000000 : f128
  %one8 = arith.constant 1.0 : f8E4M3FN
  %z8 = arith.constant 0.0 : f8E5M2FNUZ
  %one_v = arith.constant dense<1.0> : vector<2xtf32>
  %a = arith.addf %x, %nz80 : f80
  %b = arith.mulf %x, %one80 : f80
  %c = arith.maximumf %y, %ninf128 : f128
  %d = arith.minnumf %y, %pinf128 : f128
  %e = arith.divf %z, %one8 : f8E4M3FN
  %f = arith.subf %w, %z8 : f8E5M2FNUZ
  %g = arith.addf %w, %z8 : f8E5M2FNUZ
  %h = arith.mulf %v, %one_v : vector<2xtf32>
  return %a, %b, %c, %d, %e, %f, %g, %h : f80, f80, f128, f128, f8E4M3FN, f8E5M2FNUZ, f8E5M2FNUZ, vector<2xtf32>
}

// extf/truncf between the formats: exact conversions fold, inexact ones (and infinities into
// formats without them) stay.
// CHECK-LABEL: func.func @float_casts() -> (f16, f128, f64, f64, f8E4M3FNUZ, f16, f32, f32) {
// CHECK-NEXT:  %cst = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:  %cst_0 = arith.constant 0x7E00 : f16
// CHECK-NEXT:  %cst_1 = arith.constant 1.00000000000000000011 : f80
// CHECK-NEXT:  %cst_2 = arith.constant 0x7C00 : f16
// CHECK-NEXT:  %cst_3 = arith.constant 0.333333333333333333333333333333333317 : f128
// CHECK-NEXT:  %cst_4 = arith.constant 0x7F80 : f16
// CHECK-NEXT:  %cst_5 = arith.constant 0.0999755859375 : f128
// CHECK-NEXT:  %cst_6 = arith.constant 5.000000e-01 : f64
// CHECK-NEXT:  %0 = arith.truncf %cst_3 : f128 to f64
// CHECK-NEXT:  %1 = arith.truncf %cst_2 : f16 to f8E4M3FNUZ
// CHECK-NEXT:  %2 = arith.truncf %cst_1 toward_zero : f80 to f32
// CHECK-NEXT:  return %cst_4, %cst_5, %cst_6, %0, %1, %cst_0, %2, %cst : f16, f128, f64, f64, f8E4M3FNUZ, f16, f32, f32
// CHECK-NEXT: }
func.func @float_casts() -> (f16, f128, f64, f64, f8E4M3FNUZ, f16, f32, f32) {
  %nan8 = arith.constant 0x7F : f8E4M3FN
  %a = arith.extf %nan8 : f8E4M3FN to f16
  %h = arith.constant 0.1 : f16
  %b = arith.extf %h : f16 to f128
  %q = arith.constant 0.5 : f128
  %c = arith.truncf %q : f128 to f64
  %third = arith.constant 0x3FFD5555555555555555555555555555 : f128
  %d = arith.truncf %third : f128 to f64
  %inf = arith.constant 0x7C00 : f16
  %e = arith.truncf %inf : f16 to f8E4M3FNUZ
  %fnuz = arith.constant 0x80 : f8E5M2FNUZ
  %f = arith.extf %fnuz : f8E5M2FNUZ to f16
  %s = arith.constant 0x3FFF8000000000000001 : f80
  %g = arith.truncf %s toward_zero : f80 to f32
  %t = arith.constant 0x3FFFC000000000000000 : f80
  %i = arith.truncf %t downward : f80 to f32
  return %a, %b, %c, %d, %e, %f, %g, %i : f16, f128, f64, f64, f8E4M3FNUZ, f16, f32, f32
}

// Integer <-> float conversions with wide integers.
// CHECK-LABEL: func.func @int_casts() -> (f128, f80, f32, f8E4M3FN, i200, i256, i1, f16, i1000) {
// CHECK-NEXT:  %cst = arith.constant 5.94865747678615882543E+4931 : f80
// CHECK-NEXT:  %cst_0 = arith.constant 5.78960446186580977117854925043439539E+76 : f128
// CHECK-NEXT:  %cst_1 = arith.constant 1.07150860718626732095E+301 : f80
// CHECK-NEXT:  %cst_2 = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:  %cst_3 = arith.constant 0x7F : f8E4M3FN
// CHECK-NEXT:  %c10000000000000000303786028427003666890752_i200 = arith.constant 10000000000000000303786028427003666890752 : i200
// CHECK-NEXT:  %c10000000000000000303786028427003666890752_i256 = arith.constant 10000000000000000303786028427003666890752 : i256
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %cst_4 = arith.constant -1.000000e+00 : f16
// CHECK-NEXT:  %0 = arith.fptosi %cst : f80 to i1000
// CHECK-NEXT:  return %cst_0, %cst_1, %cst_2, %cst_3, %c10000000000000000303786028427003666890752_i200, %c10000000000000000303786028427003666890752_i256, %true, %cst_4, %0 : f128, f80, f32, f8E4M3FN, i200, i256, i1, f16, i1000
// CHECK-NEXT: }
func.func @int_casts() -> (f128, f80, f32, f8E4M3FN, i200, i256, i1, f16, i1000) {
  %i = arith.constant 57896044618658097711785492504343953926634992332820282019728792003956564819967 : i256
  %a = arith.sitofp %i : i256 to f128
  %u = arith.constant -1 : i1000
  %b = arith.uitofp %u : i1000 to f80
  %c = arith.sitofp %u : i1000 to f32
  %big = arith.constant 1000 : i32
  %d = arith.sitofp %big : i32 to f8E4M3FN
  %f = arith.constant 1.0e40 : f128
  %e = arith.fptosi %f : f128 to i200
  %g = arith.fptoui %f : f128 to i256
  %neg = arith.constant -1.0 : f80
  %h = arith.fptosi %neg : f80 to i1
  %t = arith.constant true
  %j = arith.sitofp %t : i1 to f16
  %m = arith.constant 0x7FFE8000000000000000 : f80
  %k = arith.fptosi %m : f80 to i1000
  return %a, %b, %c, %d, %e, %g, %h, %j, %k : f128, f80, f32, f8E4M3FN, i200, i256, i1, f16, i1000
}

// cmpf of constants, and of a converted wide integer with a constant.
// CHECK-LABEL: func.func @compares(%arg0: i200, %arg1: i8) -> (i1, i1, i1, i1, i1, i1) {
// CHECK-NEXT:  %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:  %cst = arith.constant 3.200000e+02 : f8E5M2
// CHECK-NEXT:  %true = arith.constant true
// CHECK-NEXT:  %c2_i200 = arith.constant 2 : i200
// CHECK-NEXT:  %0 = arith.cmpi sle, %arg0, %c2_i200 : i200
// CHECK-NEXT:  %1 = arith.uitofp %arg1 : i8 to f8E5M2
// CHECK-NEXT:  %2 = arith.cmpf oge, %1, %cst : f8E5M2
// CHECK-NEXT:  %3 = arith.cmpi sge, %arg1, %c-1_i8 : i8
// CHECK-NEXT:  return %true, %true, %0, %2, %3, %true : i1, i1, i1, i1, i1, i1
// CHECK-NEXT: }
func.func @compares(%x: i200, %y: i8) -> (i1, i1, i1, i1, i1, i1) {
  %a80 = arith.constant 1.0 : f80
  %b80 = arith.constant 0xBFFF8000000000000000 : f80
  %a = arith.cmpf ogt, %a80, %b80 : f80
  %nan = arith.constant 0x80 : f8E4M3FNUZ
  %one = arith.constant 1.0 : f8E4M3FNUZ
  %b = arith.cmpf ueq, %nan, %one : f8E4M3FNUZ
  %xf = arith.sitofp %x : i200 to f128
  %c25 = arith.constant 2.5 : f128
  %c = arith.cmpf olt, %xf, %c25 : f128
  %yf = arith.uitofp %y : i8 to f8E5M2
  %c300 = arith.constant 300.0 : f8E5M2
  %d = arith.cmpf oge, %yf, %c300 : f8E5M2
  %yg = arith.sitofp %y : i8 to f80
  %c1 = arith.constant -1.5 : f80
  %e = arith.cmpf ugt, %yg, %c1 : f80
  %z1 = arith.constant 0.0 : f8E4M3FN
  %z2 = arith.constant -0.0 : f8E4M3FN
  %f = arith.cmpf oeq, %z1, %z2 : f8E4M3FN
  return %a, %b, %c, %d, %e, %f : i1, i1, i1, i1, i1, i1
}
