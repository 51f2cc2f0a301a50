// none, complex, tuple, index and type nesting.
"fz.none"() : () -> none
"fz.complex"() : () -> (complex<f32>, complex<f64>, complex<i32>, complex<bf16>, complex<si8>)
"fz.tuple"() : () -> (tuple<>, tuple<i32>, tuple<i32, f32>, tuple<tuple<index, none>, complex<f16>>)
"fz.tuple_fn"() : () -> tuple<(i32) -> i64, tensor<2xf32>>
%0 = "fz.take"() : () -> none
%1 = "fz.pair"(%0) : (none) -> tuple<none, none>
"fz.use"(%1) : (tuple<none, none>) -> ()
