// RUN: fuser-opt --mlir-elide-elementsattrs-if-larger=2 %s | FileCheck %s
// RUN: fuser-opt --mlir-elide-elementsattrs-if-larger=4 %s | FileCheck %s --check-prefix=KEEP

// --mlir-elide-elementsattrs-if-larger=N: a non-splat dense elements attribute with more than
// N elements prints as dense_resource<__elided__>; splats and smaller ones print in full.
// Expected output from mlir-opt-19.

// CHECK: %cst = arith.constant dense_resource<__elided__> : tensor<4xi32>
// CHECK: %cst_0 = arith.constant dense<7> : tensor<8xi32>
// CHECK: %cst_1 = arith.constant dense<[1, 2]> : tensor<2xi32>
// KEEP: %cst = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
func.func @f() -> (tensor<4xi32>, tensor<8xi32>, tensor<2xi32>) {
  %a = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = arith.constant dense<7> : tensor<8xi32>
  %c = arith.constant dense<[1, 2]> : tensor<2xi32>
  return %a, %b, %c : tensor<4xi32>, tensor<8xi32>, tensor<2xi32>
}
