// Ranked and unranked tensors, dynamic dims, 0-d, encodings.
"fz.t0"() : () -> tensor<f32>
"fz.t1"() : () -> (tensor<4xf32>, tensor<4x8xi32>, tensor<1x2x3x4x5xbf16>)
"fz.t2"() : () -> (tensor<?xf32>, tensor<?x?xf64>, tensor<4x?x8xindex>, tensor<0xi8>, tensor<0x?x0xi1>)
"fz.t3"() : () -> (tensor<*xf32>, tensor<*xi1>, tensor<*xcomplex<f32>>)
"fz.t4"() : () -> tensor<4x4xf32, "row_major">
"fz.t5"() : () -> tensor<4x4xf32, #fz.enc<tile = [2, 2]>>
"fz.t6"() : () -> tensor<?x16xbf16, {sharded = true, axis = 0 : i64}>
"fz.t7"() : () -> tensor<8xf32, 42 : i32>
"fz.t8"() : () -> tensor<2x3xvector<4xf32>>
"fz.t10"() : () -> tensor<2x!fz.elem>
"fz.t12"() : () -> tensor<9223372036854775807xi8>
