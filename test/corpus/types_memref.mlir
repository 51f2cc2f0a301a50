// Memrefs: static, dynamic, layouts, memory spaces.
"fz.m0"() : () -> memref<f32>
"fz.m1"() : () -> (memref<4xf32>, memref<?xf32>, memref<4x?x8xi32>, memref<0xi8>)
"fz.m2"() : () -> memref<4x8xf32, strided<[8, 1]>>
"fz.m3"() : () -> memref<4x8xf32, strided<[8, 1], offset: 16>>
"fz.m4"() : () -> memref<?x?xf32, strided<[?, 1], offset: ?>>
"fz.m5"() : () -> memref<4xf32, strided<[?]>>
"fz.m6"() : () -> memref<4xf32, strided<[1], offset: 0>>
"fz.m7"() : () -> memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>
"fz.m8"() : () -> memref<16x16xf32, affine_map<(d0, d1)[s0] -> (d0 * 16 + d1 + s0)>>
"fz.m9"() : () -> memref<4xf32, 1>
"fz.m10"() : () -> memref<4xf32, 3 : i64>
"fz.m11"() : () -> memref<4xf32, "shared">
"fz.m13"() : () -> memref<4x4xf32, strided<[4, 1]>, 2>
"fz.m14"() : () -> memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>
"fz.m15"() : () -> memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>, 5>
"fz.m16"() : () -> memref<2xmemref<4xf32>>
"fz.m17"() : () -> memref<4xcomplex<f32>>
"fz.m19"() : () -> memref<4xf32, {kind = "l2"}>
