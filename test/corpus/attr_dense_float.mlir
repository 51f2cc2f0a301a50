// Dense elements attributes: floats and complex.
"fz.f"() {a = dense<1.0> : tensor<4xf32>, b = dense<[0.1, 0.2, 0.3]> : tensor<3xf32>, c = dense<[[1.5, -2.5]]> : tensor<1x2xf64>, d = dense<0.0> : tensor<f16>, e = dense<[1.0, 2.0]> : vector<2xbf16>} : () -> ()
"fz.g"() {a = dense<[1234567.0, 0.30000000000000004]> : tensor<2xf64>, b = dense<0x7FC00000> : tensor<2xf32>, c = dense<[0x7F800000, 1.0]> : tensor<2xf32>, d = dense<-0.0> : tensor<3xf32>} : () -> ()
"fz.c"() {a = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>, b = dense<[(1.0, 0.0), (0.5, -0.5)]> : tensor<2xcomplex<f64>>, c = dense<(1, 2)> : tensor<2xcomplex<i32>>, d = dense<[(1, -1), (0, 3)]> : tensor<2xcomplex<i8>>} : () -> ()
"fz.hex"() {a = dense<"0x0000803F00000040"> : tensor<2xf32>, b = dense<"0x0000803F"> : tensor<4xf32>} : () -> ()
"fz.big"() {a = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0]> : tensor<20xf32>} : () -> ()
"fz.str"() {a = dense<"hello"> : tensor<2x!fz.str>, b = dense<["a", "bc"]> : tensor<2x!fz.str>} : () -> ()
