// RUN: fuser-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

// expected-error @+1 {{expected 1-d tensor for sparse element values}}
"foo.op"() {bar = sparse<[[0, 0, 0]],  [[-2.0]]> : vector<1x1x1xf16>} : () -> ()

// -----

// expected-error @+1 {{expected shape ([2, 2]); inferred shape of indices literal ([1, 3]); inferred shape of values literal ([1])}}
"foo.op"() {bar = sparse<[[0, 0, 0]], [1]> : tensor<2x2xi16>} : () -> ()

// -----

// expected-error @+1 {{sparse index #0 is not contained within the value shape, with index=[1, 1], and type='tensor<1x1xi16>'}}
"foo.op"() {bar = sparse<1, 10> : tensor<1x1xi16>} : () -> ()

// -----

// expected-error @+1 {{sparse index #1 is not contained within the value shape, with index=[0, 2], and type='tensor<2x2xi16>'}}
"foo.op"() {bar = sparse<[[0, 0], [0, 2]], [1, 2]> : tensor<2x2xi16>} : () -> ()
