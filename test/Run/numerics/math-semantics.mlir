// REQUIRES: fuser-run
// (Also run on the cuda backend by benches/gpu/numerics.sh.)
// RUN: fuser-run %s --ranks 1 --input-values 0=nan,1,-0,2,-3,inf,-inf,0.5 --input-values 1=1,nan,0,2,4,inf,0,-0.5 --check --print-outputs | FileCheck %s
// CHECK: output #0 (i1 [8]): 0 0 1 1 0 1 0 0
// CHECK: output #1 (i1 [8]): 1 1 0 0 1 0 1 1
// CHECK: output #2 (i1 [8]): 0 0 0 0 1 0 1 0
// CHECK: output #3 (f32 [8]): NaN NaN 0 2 4 inf 0 0.5
// CHECK: output #4 (f32 [8]): NaN 1 -0 2 4 inf 0 0.5
// CHECK: output #5 (f32 [8]): 1 NaN -0 2 4 inf 0 -0.5
// CHECK: output #6 (i1 [8]): 1 1 0 1 1 1 1 1
// CHECK: output #7 (f32 [8]): 0 0 1 1 0 1 0 0
// CHECK: check: PASS
//
// Comparisons are ordered as torch's (a NaN operand: false, but ne true; -0 == 0); where
// copies the selected value (NaN included); maximum/minimum propagate NaN; cast to i1 is
// x != 0 (NaN gives 1) and from i1 gives 0/1.
fusion.mesh @m = [0]
func.func @semantics(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi1>, tensor<8xf32>) {
  %eq = fusion.compare eq %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %ne = fusion.compare ne %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %lt = fusion.compare lt %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %mx = fusion.maximum %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %w = fusion.where %lt, %b, %a : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %w2 = fusion.where %ne, %b, %a : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %bool = fusion.cast %a : (tensor<8xf32>) -> tensor<8xi1>
  %back = fusion.cast %eq : (tensor<8xi1>) -> tensor<8xf32>
  return %eq, %ne, %lt, %mx, %w, %w2, %bool, %back : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi1>, tensor<8xf32>
}
