// Dense literal shape does not match the tensor type.
"fz.a"() {v = dense<[1, 2, 3]> : tensor<2xi32>} : () -> ()
