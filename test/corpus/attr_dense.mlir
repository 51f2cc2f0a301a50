// Dense elements attributes: integers and booleans.
"fz.splat"() {a = dense<0> : tensor<4xi32>, b = dense<1> : tensor<2x3xi64>, c = dense<-1> : vector<4xi8>, d = dense<7> : tensor<i32>, e = dense<5> : tensor<0xi32>} : () -> ()
"fz.list"() {a = dense<[1, 2, 3]> : tensor<3xi32>, b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi16>, c = dense<[[[1], [2]]]> : tensor<1x2x1xi8>, d = dense<[5, 5, 5]> : tensor<3xi32>} : () -> ()
"fz.bool"() {a = dense<true> : tensor<4xi1>, b = dense<[true, false, true]> : tensor<3xi1>, c = dense<false> : vector<2x2xi1>, d = dense<[[true, false], [false, true]]> : tensor<2x2xi1>} : () -> ()
"fz.idx"() {a = dense<[0, 1, -1]> : tensor<3xindex>, b = dense<9223372036854775807> : tensor<2xi64>, c = dense<[255, 128]> : tensor<2xui8>, d = dense<[-128, 127]> : tensor<2xsi8>, e = dense<[255, 128]> : tensor<2xi8>} : () -> ()
"fz.wide"() {a = dense<[1, -1]> : tensor<2xi128>, b = dense<170141183460469231731687303715884105727> : tensor<1xi128>, c = dense<[1, 0, 1]> : tensor<3xi3>} : () -> ()
"fz.zero_d"() {a = dense<42> : tensor<i64>, b = dense<true> : tensor<i1>, c = dense<3> : vector<i32>} : () -> ()
"fz.empty"() {a = dense<> : tensor<0xi32>, b = dense<[]> : tensor<0xi32>, c = dense<> : tensor<2x0xi8>} : () -> ()
"fz.hexin"() {a = dense<"0x01000000020000000300000004000000"> : tensor<4xi32>, b = dense<"0x0500000005000000"> : tensor<2xi32>, c = dense<"0x0A000000"> : tensor<4xi32>} : () -> ()
