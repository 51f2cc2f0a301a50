// Vectors, fixed and scalable, 0-d.
"fz.v0"() : () -> vector<f32>
"fz.v1"() : () -> (vector<4xf32>, vector<2x3xi8>, vector<1x1x1xindex>, vector<4xi1>)
"fz.v2"() : () -> (vector<[4]xf32>, vector<[2]x[4]xi32>, vector<4x[8]xbf16>, vector<[1]xi1>)
"fz.v3"() : () -> tensor<4xvector<[4]xf16>>
"fz.v4"() : () -> memref<8xvector<16xi8>>
