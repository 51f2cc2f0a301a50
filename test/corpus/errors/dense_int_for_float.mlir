// Integer literals are not accepted for float dense elements.
"fz.a"() {v = dense<[1, 2]> : tensor<2xf32>} : () -> ()
