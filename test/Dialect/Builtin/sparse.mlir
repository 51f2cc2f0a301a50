// RUN: fuser-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: fuser-opt %s --allow-unregistered-dialect --mlir-print-op-generic | fuser-opt --allow-unregistered-dialect | FileCheck %s

// sparse<indices, values>: splat index and value lists print as one element; no indices
// (`sparse<>`, or a rank-0 type) print `sparse<>`; attributes are sorted by name.

// CHECK: "foo.op"() {a = sparse<{{\[\[}}0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>, b = sparse<0, -2.000000e+00> : vector<1x1xf16>, c = sparse<1, 10> : tensor<2xi16>, d = sparse<> : tensor<0xf32>, f = sparse<1, 7> : tensor<2x2xi8>} : () -> ()
// CHECK: "foo.op"() {w = sparse<{{\[\[}}0, 1]], 5> : tensor<2x2xi16>, x = sparse<{{\[\[}}0, 0, 0], [1, 1, 1]], [true, false]> : tensor<2x2x2xi1>, y = sparse<{{\[\[}}0], [1]], [1.500000e+00, 2.500000e+00]> : tensor<4xf64>, z = sparse<> : tensor<i32>} : () -> ()
"foo.op"() {a = sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>, b = sparse<[[0, 0]], [-2.0]> : vector<1x1xf16>, c = sparse<1, 10> : tensor<2xi16>, d = sparse<[], []> : tensor<0xf32>, f = sparse<[[1, 1]], 7> : tensor<2x2xi8>} : () -> ()
"foo.op"() {x = sparse<[[0, 0, 0], [1, 1, 1]], [true, false]> : tensor<2x2x2xi1>, y = sparse<[[0], [1]], [1.5, 2.5]> : tensor<4xf64>, z = sparse<0, 3> : tensor<i32>, w = sparse<[[0, 1]], "0x0500"> : tensor<2x2xi16>} : () -> ()
