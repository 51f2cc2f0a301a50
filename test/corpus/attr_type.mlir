// Type attributes.
"fz.t"() {a = i32, b = f32, c = index, d = none, e = tensor<4x?xf32>, f = memref<2xi8, 1>, g = vector<[4]xf32>} : () -> ()
"fz.u"() {fn = (i32) -> (), cplx = complex<f64>, tup = tuple<i1, i2>, opaque = !fz.thing<3>, unranked = tensor<*xi8>} : () -> ()
"fz.v"() {list = [i8, i16], typed_int_vs_type = [1 : i32, i32]} : () -> ()
