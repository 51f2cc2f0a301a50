// Opaque (unregistered dialect) types.
"fz.a"() : () -> !fz.simple
"fz.b"() : () -> !fz.params<1, 2>
"fz.c"() : () -> !fz.nested<tensor<4xf32>, <[1, 2]>, {a = 1}>
"fz.d"() : () -> !fz.str<"hello world", "with \"quote\"">
"fz.e"() : () -> !fz.brackets<(a, [b, {c}]), <<d>>>
"fz.f"() : () -> !fz<"pretty_body">
"fz.g"() : () -> !fz.spaces<  a   ,b  >
"fz.h"() : () -> !fz.sym<@foo, #fz.attr, !fz.inner>
"fz.i"() : () -> !fz.arrow<i32 -> i64>
"fz.j"() : () -> tensor<4x!fz.elt<x>>
"fz.k"() : () -> !other_dialect.type_name
"fz.l"() : () -> !fz.a.b.c
"fz.m"() : () -> !fz.numbers<0x1F, -3, 2.5e3>
%0 = "fz.n"() : () -> !fz.val
"fz.use"(%0) : (!fz.val) -> ()
"fz.o"() {a = !fz<"abc">, b = !fz<abc>, c = !fz<"a.b<1>">, d = !fz<"9x">, e = !fz<"">, f = !fz<x<1>>} : () -> ()
"fz.p"() {a = !fz.a<1,2>, b = !fz.a< 1 >, c = !fz.x<'a'>, d = !fz.nl<"\n">} : () -> ()
