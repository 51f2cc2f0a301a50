// Attribute aliases are expanded; builtin maps/sets get printer aliases.
#one = 1 : i32
#str = "hello"
#arr = [#one, #str]
#alias_of_alias = #arr
#d = {k = #one}
#m = affine_map<(d0) -> (d0 * 2)>
#m2 = #m
#o = #fz.thing<1>
"fz.a"() {a = #one, b = #str, c = #arr, d = #alias_of_alias, e = #d} : () -> ()
"fz.b"() {m = #m, n = #m2, o = #o} : () -> ()
%0 = "fz.c"() : () -> memref<4xf32, #m>
"fz.d"() {t = tensor<4xf32, #o>} : () -> ()
