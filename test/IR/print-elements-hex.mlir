// RUN: fuser-opt --allow-unregistered-dialect %s --mlir-print-elementsattrs-with-hex-if-larger=1 | FileCheck %s --check-prefix=ONE
// RUN: fuser-opt --allow-unregistered-dialect %s --mlir-print-elementsattrs-with-hex-if-larger=2 | FileCheck %s --check-prefix=TWO
// RUN: fuser-opt --allow-unregistered-dialect %s --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s --check-prefix=NEVER

// Non-splat dense elements with more elements than the limit print as a hex string (-1: never;
// default 100); splats never do. Checked against mlir-opt-19.

// ONE: {a = dense<"0x0100000002000000"> : tensor<2xi32>, b = dense<7> : tensor<4xi8>, c = dense<"0x0000803F0000204000004040"> : tensor<3xf32>}
// TWO: {a = dense<[1, 2]> : tensor<2xi32>, b = dense<7> : tensor<4xi8>, c = dense<"0x0000803F0000204000004040"> : tensor<3xf32>}
// NEVER: {a = dense<[1, 2]> : tensor<2xi32>, b = dense<7> : tensor<4xi8>, c = dense<[1.000000e+00, 2.500000e+00, 3.000000e+00]> : tensor<3xf32>}
"t.op"() {a = dense<[1, 2]> : tensor<2xi32>, b = dense<7> : tensor<4xi8>, c = dense<[1.0, 2.5, 3.0]> : tensor<3xf32>} : () -> ()
