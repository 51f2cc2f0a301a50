// Opaque (unregistered dialect) attributes.
"fz.a"() {a = #fz.simple, b = #fz.params<1, 2>, c = #fz<"body">} : () -> ()
"fz.b"() {n = #fz.nested<[1, {k = "v"}], <x>, (y)>, s = #fz.str<"a>b", "q\"q">} : () -> ()
"fz.c"() {t = #fz.typed<1> : i32, u = #fz.typed2 : !fz.ty} : () -> ()
"fz.d"() {w = #fz.spaces<  a  ,  b>, x = #fz.kw<stride = 4, mode = "row">} : () -> ()
"fz.e"() {list = [#fz.a, #fz.b<1>], dict = {k = #fz.c}} : () -> ()
"fz.f"() {deep = #fz.deep<#fz.inner<!fz.ty<#fz.x>>>} : () -> ()
"fz.g"() {a = #fz<abc>, b = #fz<"x y">, c = #fz<"a<1>">, d = #fz.x<"\n">, e = #fz<q<2>>} : () -> ()
