// Attributes of unregistered dialects with a trailing type keep it outside the
// body; `none` is no type. A registered dialect's attribute is canonicalized.
"fz.a"() {a = [#x<"a"> : i64, #x.b : f32], b = #x.c : i64, c = #x<"q w"> : none, d = {e = #x<"[]"> : tuple<>}, f = #x<"]"> : f16, g = #x<"a" : i64>} : () -> ()
%0 = "fz.c"() : () -> i32
%1 = "arith.addi"(%0, %0) <{overflowFlags = #arith.overflow<nuw, nsw>}> {x = #arith.overflow<nuw,nsw>} : (i32, i32) -> i32
%2 = "arith.muli"(%0, %0) : (i32, i32) -> i32
"fz.m"() : () -> (memref<2xi8, affine_map<(d0)[s0, s1] -> (d0)>>, memref<8xui4, affine_map<(d0)[s0] -> (d0)>, 3>)
