// Array attributes: empty, nested, heterogeneous.
"fz.a0"() {e = [], one = [1], two = [1, 2]} : () -> ()
"fz.a1"() {nested = [[1, 2], [3], [], [[]], [[[4]]]]} : () -> ()
"fz.a2"() {mixed = [1, "s", 2.0, true, unit, i32, @sym, [0 : i8], {k = 1}]} : () -> ()
"fz.a3"() {typed = [1 : i8, 2 : i16, 3 : i32, 4 : i64, 5 : index, 6 : si32, 7 : ui32]} : () -> ()
"fz.a4"() {floats = [1.0 : f16, 2.0 : bf16, 3.0 : f32, 4.0 : f64, 0.1 : f32]} : () -> ()
"fz.a5"() {types = [i1, f32, tensor<2xf32>, memref<?xi8>, () -> (), !fz.t]} : () -> ()
"fz.a6"() {spaced = [ 1 ,2,   3 ], trailing_nest = [[1,2],[3,4]]} : () -> ()
