// RUN: fuser-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// NaN operands keep their sign and payload as APFloat keeps them: arithmetic returns the first
// NaN operand quieted, maximumf/minimumf return it exactly, minnumf returns the other operand.
// CHECK-LABEL: func.func @nan_operands() -> (f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT:  %cst = arith.constant 0xFFC00001 : f32
// CHECK-NEXT:  %cst_0 = arith.constant 0x7FC00001 : f32
// CHECK-NEXT:  %cst_1 = arith.constant 0x7F800001 : f32
// CHECK-NEXT:  %cst_2 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:  return %cst, %cst, %cst_0, %cst_1, %cst_2, %cst_0 : f32, f32, f32, f32, f32, f32
// CHECK-NEXT: }
func.func @nan_operands() -> (f32, f32, f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %qneg = arith.constant 0xFFC00001 : f32
  %qpos = arith.constant 0x7FC00002 : f32
  %snan = arith.constant 0x7F800001 : f32
  %a = arith.subf %one, %qneg : f32
  %b = arith.addf %qneg, %qpos : f32
  %c = arith.addf %snan, %one : f32
  %d = arith.maximumf %snan, %one : f32
  %e = arith.minnumf %qneg, %one : f32
  %f = arith.negf %qneg : f32
  return %a, %b, %c, %d, %e, %f : f32, f32, f32, f32, f32, f32
}

// Half and bfloat16 fold in their own precision; NaN payloads survive narrow types.
// CHECK-LABEL: func.func @narrow_types() -> (f16, f16, bf16, bf16, f16, bf16) {
// CHECK-NEXT:  %cst = arith.constant 0xFE01 : f16
// CHECK-NEXT:  %cst_0 = arith.constant 0x7C00 : f16
// CHECK-NEXT:  %cst_1 = arith.constant 1.000000e+00 : bf16
// CHECK-NEXT:  %cst_2 = arith.constant 3.339840e-01 : bf16
// CHECK-NEXT:  %cst_3 = arith.constant 0x7FC0 : bf16
// CHECK-NEXT:  return %cst, %cst_0, %cst_1, %cst_2, %cst, %cst_3 : f16, f16, bf16, bf16, f16, bf16
// CHECK-NEXT: }
func.func @narrow_types() -> (f16, f16, bf16, bf16, f16, bf16) {
  %h1 = arith.constant 0xFE01 : f16
  %h2 = arith.constant 2.0 : f16
  %a = arith.maximumf %h1, %h2 : f16
  %big = arith.constant 65504.0 : f16
  %b = arith.addf %big, %big : f16
  %x = arith.constant 1.0 : bf16
  %tiny = arith.constant 0.001 : bf16
  %c = arith.addf %x, %tiny : bf16
  %third = arith.constant 3.0 : bf16
  %d = arith.divf %x, %third : bf16
  %e = arith.subf %h2, %h1 : f16
  %n = arith.constant 0x7FC00000 : f32
  %f = arith.truncf %n : f32 to bf16
  return %a, %b, %c, %d, %e, %f : f16, f16, bf16, bf16, f16, bf16
}

// Signed zeros: x + -0 and x - +0 are x; -0 + -0 is -0; min/max order -0 below +0.
// CHECK-LABEL: func.func @signed_zeros(%arg0: f64) -> (f64, f64, f64, f64, f64) {
// CHECK-NEXT:  %cst = arith.constant -0.000000e+00 : f64
// CHECK-NEXT:  %cst_0 = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:  return %arg0, %arg0, %cst, %cst, %cst_0 : f64, f64, f64, f64, f64
// CHECK-NEXT: }
func.func @signed_zeros(%x: f64) -> (f64, f64, f64, f64, f64) {
  %nz = arith.constant -0.0 : f64
  %pz = arith.constant 0.0 : f64
  %a = arith.addf %x, %nz : f64
  %b = arith.subf %x, %pz : f64
  %c = arith.addf %nz, %nz : f64
  %d = arith.minimumf %pz, %nz : f64
  %e = arith.maximumf %nz, %pz : f64
  return %a, %b, %c, %d, %e : f64, f64, f64, f64, f64
}
