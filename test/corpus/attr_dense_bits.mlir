// Dense elements of 1-bit types and string elements: true/false for every
// 1-bit integer type, bit-packed hex for i1, lone strings as splats.
"fz.bools"() {a = dense<[true]> : vector<1xsi1>, b = dense<[1, 1, true]> : tensor<3xui1>, c = dense<[false, true]> : tensor<2xsi1>, d = dense<true> : tensor<2xui1>} : () -> ()
"fz.i1_hex"() {a = dense<"0x01"> : tensor<2xi1>, b = dense<"0xFF"> : tensor<16xi1>, c = dense<"0x00"> : tensor<5xi1>, d = dense<"0x0301"> : tensor<9xi1>, e = dense<"0x02"> : tensor<8xi1>, f = dense<"0x03"> : tensor<2xsi1>, g = dense<"0x0100"> : tensor<3xcomplex<i1>>} : () -> ()
"fz.strs"() {a = dense<"%("> : tensor<!fz.str>, b = dense<"xy"> : tensor<3x!fz.str>, c = dense<["p", "q"]> : tensor<2x!fz.str>} : () -> ()
"fz.f80_hex"() {a = dense<"0x0000000000000000FF3FA545421441822A18E9B8"> : tensor<2xf80>, b = 0xB8E9182A8241144245A5 : f80} : () -> ()
